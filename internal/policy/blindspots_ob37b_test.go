package policy

import "testing"

// TestBlindSpotOb37Finger: finger only prints users' login records and
// plan files, locally or from a finger server; an option it does not
// take, or a word computed at run time, is not known to be a read.
func TestBlindSpotOb37Finger(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"plain", "finger", TierRead},
		{"user", "finger root", TierRead},
		{"long", "finger -l alice bob", TierRead},
		{"cluster", "finger -lmp alice", TierRead},
		{"short", "finger -s", TierRead},
		{"server", "finger alice@host.example", TierRead},
		{"path", "/usr/bin/finger -l root", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"unknown option", "finger -x alice", TierMutate, false},
		{"unknown long", "finger --frob alice", TierMutate, false},
		{"computed", "finger $x", TierMutate, false},
		{"redirect", "finger root > /etc/motd", TierMutate, false},
		{"protected redirect", "finger root > /etc/warden/config.yaml", TierDestructive, true},
		{"protected operand", "finger -l /etc/warden/audit.key", TierDestructive, true},
	})
}
