package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotGitFrontEndsToldWhichRepository: lazygit, gitui, tig and
// git-cola run git in the repository they are told to open (-p/--path,
// -g/--git-dir, -w/--work-tree; -d/--directory, --workdir; tig -C;
// -r/--repo) as in their working directory, so one under a temporary
// directory, or a climb to one, runs what its .git/config names: tier 3 as
// git -C there is. The operator's repository keeps their tier.
func TestBlindSpotGitFrontEndsToldWhichRepository(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "/dev/shm/q", "/tmp/x/../y", "$d", "/TMP/x"} {
		for _, f := range []string{"lazygit -p %s", "lazygit --path %s", "lazygit --path=%s", "lazygit -g %s/.git",
			"lazygit --git-dir %s/.git", "lazygit -w %s", "lazygit --work-tree=%s", "gitui -d %s/.git", "gitui --directory %s",
			"gitui --workdir=%s", "tig -C %s", "tig -C%s log", "tig -C %s blame f", "git-cola -r %s", "git-cola --repo=%s",
			"sudo lazygit -p %s", "timeout 9 tig -C %s"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"lazygit operator's", "lazygit -p /srv/app", TierMutate},
		{"tig operator's", "tig -C /srv/app", TierMutate},
		{"gitui operator's", "gitui --workdir /srv/app", TierMutate},
	})
}
