package policy

import "testing"

func TestHistoryReplays(t *testing.T) {
	p, err := New(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd  string
		want Tier
	}{
		{"history", TierRead},
		{"history 20", TierRead},
		{"fc -l", TierRead},
		{"fc -ln -5", TierRead},
		{"fc -rl 1 5", TierRead},
		{"history -s 'rm -rf /srv'; fc -s", TierDestructive},
		{"fc -s", TierDestructive},
		{"fc -s ls=rm", TierDestructive},
		{"fc -e - 12", TierDestructive},
		{"fc", TierDestructive},
		{"history -r /tmp/h", TierMutate},
		{"history -n", TierMutate},
		{"builtin fc -s", TierDestructive},
		{"bash -c 'fc -s x=y'", TierDestructive},
	} {
		if got := p.Evaluate(Input{Command: c.cmd}); got.Tier != c.want {
			t.Errorf("Evaluate(%q) = %v (%s), want %v", c.cmd, got.Tier, got.Reason, c.want)
		}
	}
}
