package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotPromptRunsGitWhereACdLeaves: a line typed to an interactive
// shell (Input.Prompt: an SSH host's session, a writable one) that moves
// it into a temporary directory, or one known only at run time, runs
// git status there through a prompt that shows the repository's state,
// and so what that repository's .git/config names: tier 3 whatever the
// spelling of the move, and so is starting such a shell there. Moves to
// the operator's directories, lines that do not move the shell, and the
// same text run as a command (no prompt follows it) keep their tiers.
func TestBlindSpotPromptRunsGitWhereACdLeaves(t *testing.T) {
	p := protectedPolicy(t)
	var moves []string
	for _, d := range []string{"/tmp/x", "/var/tmp", "/dev/shm/q", "/tmp", "/TMP/x", "/private/tmp/x", "/run/lock/x", "\"$d\"", "$(mktemp -d)"} {
		for _, f := range []string{"cd %s", "cd -P -- %s", "pushd %s", "builtin cd %s", "\\cd %s", "cd %s && ls", "cd %s; echo moved",
			"cd /srv; cd %s", "(cd /); cd %s", "cd %s || true", "command cd %s", "f() { cd %s; }; f", "OLDPWD=%s; cd -", "eval cd %s"} {
			moves = append(moves, strings.ReplaceAll(f, "%s", d))
		}
	}
	for _, h := range classifierHosts {
		for _, m := range moves {
			if v := p.Evaluate(Input{Command: m, Host: h, Prompt: true}); v.Tier < TierDestructive {
				t.Errorf("Evaluate(%q, host %q, prompt) = %s (%s); want tier 3", m, h, v.Tier, v.Reason)
			}
		}
		for _, in := range []Input{{Prompt: true, Dir: "/tmp/x"}, {Prompt: true, Dir: "/var/tmp"}, {Command: "cd ..", Prompt: true, Dir: "/tmp/x/y"},
			{Command: "cd sub", Prompt: true, Dir: "/tmp/x"}, {Command: "cd /srv", Prompt: true, Dir: "/srv", Dirs: []string{"/tmp/x"}},
			{Command: "cd \"$d\"", Prompt: true, Dir: "."}, {Command: "cd sub", Prompt: true, Dir: "."}, {Command: "popd", Prompt: true, Dir: "."}} {
			in.Host = h
			if v := p.Evaluate(in); v.Tier < TierDestructive {
				t.Errorf("Evaluate(%+v) = %s (%s); want tier 3", in, v.Tier, v.Reason)
			}
		}
		for _, in := range []Input{{Command: "cd /srv/app", Prompt: true}, {Command: "cd /usr && ls", Prompt: true}, {Command: "cd src", Prompt: true},
			{Command: "cd src", Prompt: true, Dir: "/srv/app"}, {Command: "ls", Prompt: true, Dir: "/tmp/x"}, {Command: "ls", Prompt: true, Dir: "."},
			{Command: "cd /tmp/x"}, {Prompt: true, Dir: "/srv/app"}, {Command: "echo cd /tmp/x", Prompt: true}} {
			in.Host = h
			if v := p.Evaluate(in); v.Tier != TierRead {
				t.Errorf("Evaluate(%+v) = %s (%s); want tier 0", in, v.Tier, v.Reason)
			}
		}
	}
}
