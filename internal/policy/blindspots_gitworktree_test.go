package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotGitWorkTreeSubmodules: git --work-tree DIR reads the
// submodules of the repository's index from DIR, whose SUB/.git are
// repositories of their own, and git status and diff run git in each:
// git 2.39, run in an operator's repository with a submodule, ran the
// core.fsmonitor of /tmp/wt/sub/.git/config on git --work-tree=/tmp/wt
// status and diff. A work tree a tier 1 write may have filled, or one
// known only at run time, makes the call tier 3, as GIT_WORK_TREE and
// core.worktree do; an operator's work tree stays a read.
func TestBlindSpotGitWorkTreeSubmodules(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/wt", "/var/tmp/w", "/dev/shm/w", "/run/lock/w", "/tmp/wt/../../srv", "$w"} {
		for _, f := range []string{"git --work-tree=%s status", "git --work-tree %s diff", "git --work-tree=%s diff --stat",
			"git -C /srv/app --work-tree=%s status", "git --git-dir=/srv/app/.git --work-tree=%s status -s",
			"git --work-tree=%s -C /srv/app status", "sudo git --work-tree=%s status", "timeout 5 git --work-tree %s ls-files -m",
			"command git --no-pager --work-tree=%s diff"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	cmds = append(cmds, "cd / && git --work-tree=tmp/wt status", "git -C / --work-tree tmp/wt status",
		"git -C /tmp --work-tree=wt --git-dir=/srv/app/.git status")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"operator's work tree", "git --work-tree=/srv/www status", TierRead},
		{"operator's work tree and git dir", "git --work-tree=/srv/www --git-dir=/srv/www.git log", TierRead},
		{"relative below", "git --work-tree=www status", TierRead},
		{"version", "git --work-tree=/tmp/wt version", TierRead},
	})
}
