package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotProjectDirChains: git changes directory at each -C as it
// reads it, so a relative -C is relative to the one before (git -C /
// -C tmp/x status works in /tmp/x), and it opens the last --git-dir
// relative to where every -C led, wherever it stands among them (git
// --git-dir=tmp/x/.git -C / log opens /tmp/x/.git). A repository there is
// one a benign call may have made, whose .git/config runs programs on
// reads (core.fsmonitor, a pager, a diff driver): tier 3, as git -C
// /tmp/x status is. The same holds for the front ends and the other
// version control told their project directory the same way.
func TestBlindSpotProjectDirChains(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, dirs := range []string{
		"-C / -C tmp/x", "-C / -C tmp -C x", "-C /srv -C ../tmp/x", "-C /var -C tmp/r", "-C /dev -C shm/r",
		"-C / -C var/tmp", "-C /usr -C ../tmp/x", "-C / -C ./tmp/x", "-C // -C tmp/x", "-C /srv/app -C ../../tmp/x",
		"--git-dir=tmp/x/.git -C /", "--git-dir tmp/x/.git -C /", "-C / --git-dir=tmp/x/.git", "-C / --git-dir tmp/x",
		"--git-dir=x/.git -C / -C tmp", "--git-dir=/srv/app/.git --git-dir=tmp/x/.git -C /",
	} {
		for _, verb := range []string{"status", "log -1", "diff", "show HEAD", "branch -a"} {
			cmds = append(cmds, "git "+dirs+" "+verb)
		}
		if strings.HasPrefix(dirs, "-C") && !strings.Contains(dirs, "git-dir") {
			cmds = append(cmds, "tig "+dirs, "sudo git "+dirs+" status", "env git "+dirs+" log", "nice git "+dirs+" status")
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"relative below an operator's directory", "git -C /srv -C app status", TierRead},
		{"absolute", "git -C /srv/app log -1", TierRead},
		{"root", "git -C / status", TierRead},
		{"git-dir relative to an operator's directory", "git --git-dir=.git -C /srv/app log", TierRead},
		{"work tree only", "git -C /srv/app --work-tree=/srv/app status", TierRead},
	})
}
