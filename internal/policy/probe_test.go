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
		{"pfctl -nf /etc/pf.conf", TierRead},
		{"pfctl -n -f /etc/pf.conf", TierRead},
		{"pfctl -vnf /etc/pf.conf", TierRead},
		{"pfctl -n -F all", TierDestructive},
		{"pfctl -n -d", TierDestructive},
		{"pfctl -ne -f /etc/pf.conf", TierMutate},
		{"pfctl -nf", TierMutate},
		{"pfctl -t bruteforce -T flush", TierMutate},
		{"nft -c -f /etc/nftables.conf", TierRead},
		{"nft -f /etc/nftables.conf", TierDestructive},
		{"nft -c flush ruleset", TierRead},
		{"iptables-restore --test /etc/iptables/rules.v4", TierRead},
		{"iptables-restore -t /etc/iptables/rules.v4", TierRead},
		{"ip6tables-restore --test /etc/iptables/rules.v6", TierRead},
		{"iptables-restore /etc/iptables/rules.v4", TierDestructive},
		{"ipset list -t", TierRead},
		{"ipset -L agent_blocklist_v4", TierRead},
		{"ipset test agent_blocklist_v4 203.0.113.7", TierRead},
		{"ipset -exist create agent_blocklist_v4 hash:net family inet", TierMutate},
		{"ipset add agent_blocklist_v4 203.0.113.7", TierMutate},
		{"ipset del agent_blocklist_v4 203.0.113.7", TierMutate},
		{"ipset flush agent_blocklist_v4", TierDestructive},
		{"ipset destroy", TierDestructive},
		{"ipset restore", TierDestructive},
		{"sockstat -4 -6 -l", TierRead},
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
