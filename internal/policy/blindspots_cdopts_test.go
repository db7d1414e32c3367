//go:build unix

package policy

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBlindSpotCdOptions: cdable_vars, cdspell and autocd make cd go where
// its words do not say (cd r goes to $r; a misspelt name is corrected; a
// directory typed as a command is entered), so the directory the
// classifier follows for later relative words, protected paths and the
// deny list's "rm -rf * after cd /" is not the shell's. Turning one on is
// tier 3 in every spelling; the installed bash confirms cdable_vars.
func TestBlindSpotCdOptions(t *testing.T) {
	p := testPolicy(t)
	var cmds []string
	for _, o := range []string{"cdable_vars", "cdspell", "autocd"} {
		for _, f := range []string{
			"shopt -s %s",
			"shopt -s -q %s",
			"shopt -qs %s",
			"shopt -s nullglob %s",
			"builtin shopt -s %s",
			"command shopt -s %s",
			"\\shopt -s %s",
			"eval 'shopt -s %s'",
			"f() { shopt -s %s; }; f",
			"bash -O %s -c 'cd r'",
			"bash -e -O %s -c ls",
			"sudo bash -O %s -c ls",
			"env bash -O %s -c ls",
		} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", o))
		}
	}
	cmds = append(cmds, "shopt -s cdable_vars; r=/; cd /tmp; cd r && rm -rf *",
		"shopt -s cdable_vars; w=/etc; cd w; cat shadow")
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))

	runExact(t, p, []exactCase{
		{"unset", "shopt -u cdable_vars", TierBenign},
		{"query", "shopt -q cdspell", TierRead},
		{"print", "shopt autocd", TierRead},
		{"glob options", "shopt -s nullglob dotglob", TierRead},
	})

	bash, err := exec.LookPath("bash")
	if err != nil {
		return
	}
	for _, script := range []string{
		"shopt -s cdable_vars; w=/; cd /tmp; cd w >/dev/null; pwd",
		"bash -O cdable_vars -c 'w=/; cd /tmp; cd w >/dev/null; pwd'",
	} {
		out, _ := exec.Command(bash, "--norc", "--noprofile", "-c", script).Output()
		if strings.TrimSpace(string(out)) != "/" {
			t.Errorf("bash -c %q ended in %q, not the directory the variable names", script, out)
		}
	}
}
