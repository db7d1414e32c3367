package policy

import "testing"

// Bash takes the word after coproc for the coprocess's name only before a
// compound command; before a redirection it is the command, which runs:
// "coproc reboot </dev/null" reboots.
func TestCoprocWordBeforeARedirectionRuns(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"reboot stdin", "coproc reboot </dev/null", TierDestructive, true},
		{"reboot stdout", "coproc reboot >/dev/null", TierDestructive, true},
		{"reboot dup", "coproc reboot 2>&1", TierDestructive, true},
		{"poweroff closed", "coproc poweroff <&-", TierDestructive, true},
		{"halt here-string", "coproc halt <<< x", TierDestructive, true},
		{"redirection then operand", "coproc wipefs >/dev/null -a /dev/sda", TierDestructive, true},
		{"quoted name", `coproc "reb"oot </dev/null`, TierDestructive, true},
		{"path", "coproc /sbin/reboot </dev/null", TierDestructive, true},
		{"in a list", "ls; coproc reboot </dev/null; ls", TierDestructive, true},
		{"in a function", "f() { coproc reboot >&2; }; f", TierDestructive, true},
		{"in sh -c", "sh -c 'coproc reboot </dev/null'", TierDestructive, true},
		{"in bash -c", "bash -c 'coproc reboot </dev/null'", TierDestructive, true},
		{"in eval", "eval 'coproc reboot </dev/null'", TierDestructive, true},
		{"shell reading a file", "coproc sh </tmp/x", TierDestructive, false},
		{"interpreter", "coproc python3 </dev/null", TierDestructive, false},
		{"computed", "coproc $c </dev/null", TierDestructive, false},
		{"writes its redirect", "coproc date >/etc/motd", TierMutate, false},
		{"state read", "coproc cat </root/.local/state/warden/token", TierDestructive, true},
	})
	runExactHosts(t, p, []exactCase{
		{"named block", "coproc x { ls; }", TierRead},
		{"plain read", "coproc ls >/dev/null", TierRead},
		{"plain read, stdin", "coproc date </dev/null", TierRead},
		{"shell reading nothing", "coproc sh </dev/null", TierRead},
	})
}
