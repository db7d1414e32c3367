package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotPartValuesNameState: a variable given a value known only
// in part ($HOME/…, /proc/$PPID/root/…) has no literal value a later "$x"
// can be tried with, so the value is checked where it is given, as a
// command's word is: x=$HOME/.local/state/warden/token; cat "$x" read
// the token at tier 0.
func TestBlindSpotPartValuesNameState(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, v := range []string{
		"$HOME/.local/state/warden/token", "${HOME}/.local/state/warden/audit.jsonl", "\"$HOME/.local/state/warden\"",
		"/proc/$PPID/root/root/.local/state/warden/token", "\"/proc/$PPID/root/root/.local/state/warden/token\"",
		"/proc/${PPID}/root/etc/warden/config.yaml", "/proc/$pid/root/root/.local/state/warden", "$HOME/.local/state/w?rden/token",
		"$HOME/.local/state/warden/$f",
	} {
		for _, f := range []string{
			"x=%s; cat \"$x\"", "x=%s; cat $x", "x=%s cat /dev/null", "export x=%s; cat \"$x\"", "declare x=%s; cat \"$x\"",
			"typeset -x x=%s", "readonly x=%s", "f() { local x=%s; cat \"$x\"; }; f", "a[1]=%s; cat \"${a[1]}\"",
			"read x <<< %s; cat \"$x\"", "read -r x <<< %s", "IFS= read -r x <<< %s; cat \"$x\"",
			"mapfile -t a <<< %s; cat \"${a[@]}\"", "while read -r x; do cat \"$x\"; done <<< %s",
			"sh -c 'x=%s; cat \"$x\"'", "ssh h 'x=%s; cat \"$x\"'",
		} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", v))
		}
	}
	for _, c := range cmds {
		t.Run(c, func(t *testing.T) {
			if v := p.Evaluate(Input{Command: c}); v.Tier < TierDestructive {
				t.Errorf("Evaluate(%q) = %s denied=%v (%s); want tier 3 or denied", c, v.Tier, v.Denied, v.Reason)
			}
		})
	}
	runExact(t, p, []exactCase{
		{"a cache dir", "x=$HOME/.cache; ls \"$x\"", TierRead},
		{"known here-string text", "cat <<< /root/.local/state/warden/token", TierRead},
		{"a log dir", "d=/var/log/$app; ls \"$d\"", TierRead},
	})
}
