package policy

import "testing"

// TestBlindSpotProgramVariables: variables that name a program another
// program runs (pacdiff's DIFFPROG, i3-sensible-terminal's TERMINAL) are
// classified as the shell text they hold, and those that point a program
// at code it loads (composer's COMPOSER_HOME plugins and COMPOSER file,
// vagrant's VAGRANT_CWD, VAGRANT_VAGRANTFILE and VAGRANT_HOME) are tier 3
// like PYTHONPATH; vagrant runs its project's Vagrantfile (Ruby) on every
// command, so vagrant in a temporary directory is tier 3 as git there is.
func TestBlindSpotProgramVariables(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"DIFFPROG=reboot pacdiff", "DIFFPROG='sh -c reboot' pacdiff -o", "export DIFFPROG=reboot; pacdiff",
		"env DIFFPROG=reboot pacdiff", "TERMINAL=reboot i3-sensible-terminal", "sudo DIFFPROG=reboot pacdiff",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"COMPOSER_HOME=/tmp/c composer show", "COMPOSER=/tmp/x.json composer validate", "VAGRANT_CWD=/tmp/x vagrant status",
		"VAGRANT_VAGRANTFILE=/tmp/V vagrant status", "VAGRANT_HOME=/tmp/v vagrant box list", "export VAGRANT_CWD=/tmp/x; vagrant ssh-config",
		"cd /tmp/x && vagrant status", "cd /tmp/x; vagrant ssh-config", "cd /var/tmp/vm && vagrant global-status",
	))
	runExactHosts(t, p, []exactCase{
		{"pacdiff", "pacdiff -o", TierMutate},
		{"vagrant elsewhere", "cd /srv/vm && vagrant up", TierMutate},
		{"vagrant status elsewhere", "cd /srv/vm && vagrant status", TierRead},
		{"DIFFPROG vimdiff", "DIFFPROG=vimdiff pacdiff -o", TierDestructive},
	})
}
