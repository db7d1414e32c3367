package policy

import "testing"

// TestBlindSpotSupervisorctlShell: supervisorctl's shell runs with no
// command, and in supervisor 3 also after one given with -i; it reads its
// commands from standard input and, leaving, writes its readline history
// over the -r/--history-file file (any prefix of the long name, the value
// attached or in a cluster). Its one-shot commands stay reads.
func TestBlindSpotSupervisorctlShell(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"echo status | supervisorctl -r /etc/x",
		"echo status | supervisorctl --history-file=/etc/cron.d/x",
		"echo status | supervisorctl --history-file /etc/x",
		"echo status | supervisorctl --hist=/etc/x",
		"echo status | supervisorctl -ir/etc/x",
		"echo status | supervisorctl -c /etc/supervisor/supervisord.conf -r /etc/x",
		"supervisorctl -r /etc/x < /dev/null",
		"supervisorctl -r /var/lib/x/db",
		"/usr/bin/supervisorctl -r /etc/x <<< status",
		"sudo supervisorctl -r /etc/x <<< status",
		"supervisorctl -i status",
		"supervisorctl --interactive status",
		"supervisorctl --inter avail",
		"echo 'stop all' | supervisorctl -i avail",
		"echo 'restart all' | supervisorctl -ic /etc/supervisor/supervisord.conf status",
		"echo 'stop all' | env supervisorctl -i -s http://127.0.0.1:9001 pid",
		"supervisorctl -i status < /tmp/cmds",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"echo status | supervisorctl --history-file=/root/.ssh/authorized_keys",
		"echo shutdown | supervisorctl -i status",
		"printf 'status\\nshutdown\\n' | supervisorctl --interactive tail x",
	))
	runExactHosts(t, p, []exactCase{
		{"status", "supervisorctl status", TierRead},
		{"config status", "supervisorctl -c /etc/supervisor/supervisord.conf status", TierRead},
		{"server status", "supervisorctl -s http://127.0.0.1:9001 status", TierRead},
		{"tail", "supervisorctl -u x -p y tail -f app", TierRead},
		{"history file with a command", "supervisorctl -r /tmp/h status", TierRead},
		{"shell reading status", "echo status | supervisorctl", TierRead},
		{"pid", "supervisorctl pid all", TierRead},
	})
}
