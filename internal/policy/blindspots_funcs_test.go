package policy

import "testing"

// TestScriptFunctionCalls: a call of a function the script declared at its
// top level before the call is not an unknown program: the body was
// classified where it was declared. The call is still a program (tier 2,
// or the program's own tier) when the shell may not find the function:
// declared later, in a subshell or a branch, with bash's "function"
// keyword (dash reads that as a command), removed by unset or by text
// eval, source or trap run, or run through a wrapper, time included
// (a program to sh), and a function named like a program the classifier
// knows is still that program.
func TestScriptFunctionCalls(t *testing.T) {
	p := testPolicy(t)
	runExact(t, p, []exactCase{
		{"call", "chk() { df -h; }; chk", TierRead},
		{"call with args", "chk() { systemctl is-active \"$1\"; }; chk nginx", TierRead},
		{"local from $1", "chk() { local svc=$1; journalctl -u \"$svc\" -n 20 --no-pager; }\nchk nginx\nchk sshd", TierRead},
		{"in a pipeline", "chk() { df -h; }; chk | grep sda", TierRead},
		{"in a substitution", "chk() { df -h; }; echo \"$(chk)\"", TierRead},
		{"in a loop", "chk() { systemctl is-active \"$1\"; }\nfor u in a b; do chk \"$u\"; done", TierRead},
		{"from a later function", "chk() { df -h; }; run() { chk; }; run", TierRead},
		{"quoted name", "chk() { df -h; }; \"chk\"", TierRead},
	})
	runBlind(t, p, sameCases(TierMutate, false,
		"chk; chk() { df -h; }",
		"(chk() { df -h; }); chk",
		"if true; then chk() { df -h; }; fi; chk",
		"function chk { df -h; }; chk",
		"function chk() { df -h; }; chk",
		"chk() { df -h; }; unset -f chk; chk",
		"chk() { df -h; }; unset chk; chk",
		"chk() { df -h; }; builtin unset -f chk; chk",
		"chk() { df -h; }; eval \"un\"\"set -f chk\"; chk",
		"chk() { df -h; }; trap 'unset -f chk' RETURN; chk",
		"chk() { df -h; }; . /dev/null; chk",
		"chk() { df -h; }; sudo chk",
		"chk() { df -h; }; xargs chk",
		"chk() { df -h; }; env chk",
		"chk() { df -h; }; command chk",
		"chk() { df -h; }; time chk",
		"chk() { df -h; }; bash -c chk",
		"chk() { df -h; }; nohup chk",
		"run() { chk; }; chk() { df -h; }; run",
		"/usr/local/bin/chk() { df -h; }; /usr/local/bin/chk",
		"chk() { df -h; }; chk > /etc/x",
	))
	runBlind(t, p, []blindCase{
		{"body counts", "chk() { rm -rf /srv/data; }; chk", TierDestructive, false},
		{"named like a program", "rm() { echo; }; rm -rf /", TierDestructive, true},
		{"body runs its args", "chk() { \"$@\"; }; chk reboot", TierDestructive, true},
	})
}
