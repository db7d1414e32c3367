package policy

import "testing"

// TestSudoWithNoCommand: where sudoers sets shell_noargs, sudo with no
// command runs its target user's shell as sudo -s does, which reads what
// comes next (a session's later lines, the input) as that user: tier 3 as
// -s is, in every spelling that leaves the command out. The listing and
// timestamp modes stay reads.
func TestSudoWithNoCommand(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"sudo", "/usr/bin/sudo", "sudo -u postgres", "sudo -u#0", "sudo --user=root", "sudo -E",
		"sudo --preserve-env", "sudo -n", "sudo -H", "sudo -g wheel", "sudo -D /srv", "sudo --",
		"sudo -u www-data -H --", "echo id | sudo", "sudo <<< 'touch /etc/x'", "sudo -P", "sudo -b",
		"command sudo", "env sudo",
	))
	runExactHosts(t, p, []exactCase{
		{"list", "sudo -l", TierRead},
		{"list long", "sudo --list", TierRead},
		{"list other", "sudo -l -U bob", TierRead},
		{"validate", "sudo -v", TierRead},
		{"kill", "sudo -k", TierRead},
		{"version", "sudo -V", TierRead},
		{"command", "sudo ls /root", TierRead},
	})
}
