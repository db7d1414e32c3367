package policy

import "testing"

// TestBlindSpotOtherShells: the POSIX-compatible shells of Oils, BusyBox
// (hush), Schily (bosh), mrsh and Guile (gash) run their -c text, a
// script or their input as sh does, so they are read as sh; shells of
// their own language (ysh, ion, murex, oh, scsh) run code the classifier
// cannot read, tier 3 as fish and nu are.
func TestBlindSpotOtherShells(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"osh -c 'rm -rf /'", "hush -c reboot", "bosh -c 'mkfs.ext4 /dev/sda'", "mrsh -c 'kill -9 1'",
		"gash -c poweroff", "echo reboot | osh", "printf 'rm -rf /' | hush -s", "/usr/bin/osh -c 'halt'",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"ysh -c 'echo hi'", "ion -c 'ls'", "murex -c 'ls'", "oh -c 'ls'", "scsh -c '(run (ls))'",
	))
	runExactHosts(t, p, []exactCase{
		{"osh read", "osh -c 'ls /etc'", TierRead},
		{"hush read", "hush -c 'uptime'", TierRead},
	})
}
