package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotComputedProcessFiles: a process's environ, mem or
// descriptor named with its number computed at run time — a command
// substitution in any form ($(pgrep warden), backquotes, $((…))), or a
// variable inside quotes — may be warden's own, as /proc/$PPID/environ is:
// the word is read as the pattern of the names it may take, not as the
// pieces between its blanks and quotes.
func TestBlindSpotComputedProcessFiles(t *testing.T) {
	p := testPolicy(t)
	files := []string{
		"/proc/$(pgrep warden)/environ", "/proc/`pgrep warden`/environ", "/proc/$(pgrep -o -x warden)/mem",
		`/proc/"$p"/environ`, `"/proc/$p/environ"`, `/proc/"$(pidof warden)"/environ`, "/proc/$((1+0))/environ",
		"/proc/$(pgrep warden)/fd/3", "/proc/$(cat /run/warden.pid)/task/$(pgrep warden)/environ",
		"/proc/$(echo $PPID)/environ", `/proc/$(ps -o ppid= -p "$$" | tr -d ' ')/environ`,
	}
	forms := []string{"cat %s", "head -c 64 %s", "tr '\\0' '\\n' < %s", "dd if=%s of=/dev/null count=1",
		"exec 3<%s", "strings %s", "sh -c 'cat %s'", "ssh h cat %s"}
	var cmds []string
	for _, f := range files {
		for _, form := range forms {
			if strings.Contains(form, "'") && strings.ContainsAny(f, "'") {
				continue
			}
			cmds = append(cmds, strings.ReplaceAll(form, "%s", f))
		}
	}
	runBlindHosts(t, p, sameCases(TierMutate, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"own, computed", "cat /proc/$(echo self)/status", TierRead},
		{"status computed", "cat /proc/$(pgrep nginx)/status", TierRead},
		{"list computed", "ls /proc/$(pgrep nginx)/fd", TierRead},
		{"dated log", `ls "/var/log/$(date +%F)"`, TierRead},
	})
}
