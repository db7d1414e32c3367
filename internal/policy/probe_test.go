package policy

import "testing"

// TestProbeTiers: the read-only probes of host inspection are tier 0 and
// their mutating forms are not.
func TestProbeTiers(t *testing.T) {
	p, err := New(Rules{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cmd  string
		want Tier
	}{
		{"pfctl -s info", TierRead},
		{"pfctl -sr", TierRead},
		{"pfctl -v -s rules", TierRead},
		{"pfctl -t bruteforce -T show", TierRead},
		{"pfctl -f /etc/pf.conf", TierMutate},
		{"pfctl -t bruteforce -T add 192.0.2.1", TierMutate},
		{"pfctl -F all", TierDestructive},
		{"pfctl -d", TierDestructive},
		{"rc-status", TierRead},
		{"rc-service sshd status", TierRead},
		{"rc-service sshd restart", TierMutate},
		{"iptables-save", TierRead},
		{"iptables-save -f /etc/iptables.rules", TierMutate},
		{"checkupdates", TierRead},
		{"pkg version -vRl '<'", TierRead},
		{"pkg info", TierRead},
		{"pkg delete -y nginx", TierDestructive},
		{"pkg install nginx", TierMutate},
	}
	for _, tc := range tests {
		if got := p.Evaluate(Input{Command: tc.cmd}); got.Tier != tc.want || got.Denied {
			t.Errorf("%q: got %+v, want %s", tc.cmd, got, tc.want)
		}
	}
}
