package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotGitPagerOutsideItsCommands: on a terminal git sends
// through the repository's core.pager whatever -p (--paginate) asks it
// to page, git version, git init, git clone, bare git help and git -p
// alone included, and the lists git help prints of commands and of
// settings (-a, -c, in any spelling parse-options takes), without -p.
// git 2.39 ran a core.pager of a repository under /tmp on each of these,
// so in a repository a tier 1 write may have made they are tier 3 as git
// log there is. -P (--no-pager) after -p, the guides and git version
// alone page nothing and stay reads.
func TestBlindSpotGitPagerOutsideItsCommands(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	paged := []string{"git -p version", "git --paginate version", "git -p --version", "git -p -v", "git -p",
		"git --paginate", "git -p help", "git -p help -g", "git -p --help", "git -p -h", "git -P -p version",
		"git -p init /tmp/y", "git -p clone https://h/r /srv/r", "git --paginate init --bare /srv/r.git",
		"git help -a", "git help --all", "git help --al", "git help -c", "git help --config", "git help --conf",
		"git help -av", "git help -va", "git help --verbose --all", "git --help -a", "git -h --config",
		"git -c color.ui=never help -a", "git --no-replace-objects help --all", "command git help -a",
		"timeout 5 git -p version", "env GIT_TERMINAL_PROMPT=0 git help -c"}
	for _, m := range []string{"cd %s && ", "cd %s; ", "env -C %s ", "pushd %s && "} {
		for _, d := range []string{"/tmp/x", "/var/tmp/r", "/dev/shm/q", "$d"} {
			for _, h := range paged {
				cmds = append(cmds, strings.ReplaceAll(m, "%s", d)+h)
			}
		}
	}
	for _, d := range []string{"/tmp/x", "/run/lock/r", "$d"} {
		for _, f := range []string{"git -C %s -p version", "git -p -C %s --version", "git -C %s help -a",
			"git --git-dir=%s/.git help --config", "git -C %s --paginate"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	for _, c := range []string{"git -p version", "git help -a", "git help -c"} {
		if v := p.Evaluate(Input{Command: c, Dir: "/tmp/x"}); v.Tier < TierDestructive {
			t.Errorf("Evaluate(%q in /tmp/x) = %s (%s); want tier 3", c, v.Tier, v.Reason)
		}
	}
	runExactHosts(t, p, []exactCase{
		{"version in /tmp", "cd /tmp/x && git version", TierRead},
		{"-p then -P", "cd /tmp/x && git -p -P version", TierRead},
		{"--no-pager", "cd /tmp/x && git --paginate --no-pager --version", TierRead},
		{"guides in /tmp", "cd /tmp/x && git help -g", TierRead},
		{"bare help in /tmp", "cd /tmp/x && git help", TierRead},
		{"exec path in /tmp", "cd /tmp/x && git -p --exec-path", TierRead},
		{"list elsewhere", "cd /srv/app && git help -a", TierRead},
		{"-p elsewhere", "git -C /srv/app -p version", TierRead},
		{"log -p is a patch", "cd /srv/app && git log -p", TierRead},
	})
}
