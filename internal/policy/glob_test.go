package policy

import "testing"

// TestLiteralGlobInCommandPosition: a literal path whose last component is
// a glob runs whatever it expands to, so it must never be classified as an
// ordinary unknown program.
func TestLiteralGlobInCommandPosition(t *testing.T) {
	p, err := New(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cmd    string
		denied bool
	}{
		{"/tmp/x/reb??t", true},
		{"/usr/sbin/re[b]oot", true},
		{"/sbin/pow*", true},
		{"/opt/tool/f?o --version", false},
	}
	if v := p.Evaluate(Input{Command: "[ -f /etc/hostname ]"}); v.Tier != TierRead {
		t.Errorf("the test command [ is not a glob: got %+v", v)
	}
	for _, tc := range tests {
		v := p.Evaluate(Input{Command: tc.cmd})
		if v.Tier != TierDestructive || v.Denied != tc.denied {
			t.Errorf("%q: got %+v, want tier 3, denied=%v", tc.cmd, v, tc.denied)
		}
	}
}
