package policy

import "testing"

// TestBlindSpotProxmoxRestoreForce: Proxmox's pct and qm read their
// options with Perl's Getopt::Long, one dash or two and any unambiguous
// prefix, so restore's --force (which overwrites the existing guest)
// counts as -force, --forc, -fo 1; qm restore --force does what pct's
// does.
func TestBlindSpotProxmoxRestoreForce(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, o := range []string{"--force", "-force", "--forc", "-forc", "--for", "-fo", "--fo=1", "-force 1", "--forc=1"} {
		for _, cmd := range []string{"pct restore 100 /var/lib/vz/dump/x.tar " + o, "qm restore /var/lib/vz/dump/x.vma 100 " + o,
			"pct restore " + o + " 100 /var/lib/vz/dump/x.tar"} {
			cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
		}
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"pct restore", "pct restore 101 /var/lib/vz/dump/x.tar --storage local", TierMutate},
		{"pct restore --st", "pct restore 101 /var/lib/vz/dump/x.tar --st local", TierMutate},
		{"qm restore", "qm restore /var/lib/vz/dump/x.vma 101 --unique 1", TierMutate},
		{"pct list", "pct list", TierRead},
	})
}
