package policy

import "testing"

// TestBlindSpotSupervisorctlInput: supervisorctl given no action runs its
// shell, which takes its commands from standard input one a line, so
// what it does is what its input says, in every way input is given.
func TestBlindSpotSupervisorctlInput(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"supervisorctl <<< 'stop all'",
		"echo 'stop all' | supervisorctl",
		"printf 'status\\nrestart web\\n' | supervisorctl",
		"supervisorctl -c /etc/supervisord.conf <<< 'stop web'",
		"supervisorctl -s http://127.0.0.1:9001 <<EOF\nstop all\nEOF",
		"sudo supervisorctl <<< 'reload'",
		"/usr/bin/supervisorctl <<< 'update'",
		"sh -c \"echo 'stop all' | supervisorctl\"",
		"supervisorctl",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"supervisorctl < /tmp/cmds",
		"cat /tmp/cmds | supervisorctl",
		"supervisorctl <<< 'shutdown'",
	))
	runExactHosts(t, p, []exactCase{
		{"status", "supervisorctl status", TierRead},
		{"input status", "supervisorctl <<< status", TierRead},
		{"echo status", "echo 'status web' | supervisorctl", TierRead},
		{"tail", "supervisorctl tail web stderr", TierRead},
	})
}
