package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotSignalsWarden: kill $PPID signals the shell's parent
// (warden, or the runner that started the shell), and pkill's and
// killall -r's operand is a regular expression matched anywhere in a
// name (or command line, with -f), so pkill ward and pkill -f serve
// reach warden as pkill warden does: each is tier 3.
func TestBlindSpotSignalsWarden(t *testing.T) {
	p := testPolicy(t)
	var cmds []string
	for _, f := range []string{"kill %s", "kill -9 %s", "kill -STOP %s", "kill -s KILL %s", "kill -- %s", "kill -SIGTERM %s",
		"sudo kill %s", "timeout 5 kill %s", "sh -c 'kill %s'", "env kill %s", "nohup kill %s"} {
		for _, w := range []string{"$PPID", `"$PPID"`, "${PPID}", "$(ps -o ppid= -p $$)", "`ps -o ppid= $$`"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", w))
		}
	}
	for _, f := range []string{"pkill %s", "pkill -9 %s", "pkill -STOP %s", "pkill --signal KILL %s", "pkill -x %s", "pkill -e %s",
		"sudo pkill %s", "killall -r %s", "killall --regexp %s", "killall -9 -r %s", "sh -c 'pkill %s'"} {
		for _, pat := range []string{"ward", "arden", "w.rden", "'^w'", "'wa[r]den'", "'(x|ward)'", "'[w]'", "den$", "'warden|nginx'", "sshd", "ssh", "dropb", "dbus-d", "journal"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", pat))
		}
	}
	cmds = append(cmds, "pkill -i WARDEN", "pkill --ignore-case WaRd", "killall -I -r WARD", "pkill -f serve", "pkill -f 'warden s'",
		"pkill -f 'sshd: root'", "pkill -f sbin/sshd", "pkill -f -- '-D'", "pkill '['")
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	runExact(t, p, []exactCase{
		{"pkill nginx", "pkill nginx", TierMutate},
		{"pkill hup", "pkill -HUP rsyslogd", TierMutate},
		{"pkill -f script", "pkill -f myscript.py", TierMutate},
		{"pkill user", "pkill -u www-data php-fpm", TierMutate},
		{"killall -r", "killall -r 'php-fpm.*'", TierMutate},
		{"kill pid", "kill 4242", TierMutate},
		{"kill job", "sleep 9 & kill $!", TierRead},
	})
}
