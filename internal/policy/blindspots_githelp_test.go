package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotGitHelpViewerFromRepository: git help shows a page with the
// viewer help.format, man.viewer, man.<tool>.cmd and browser.<tool>.cmd
// name, read from the repository's configuration as well, so any spelling
// of a help page (git help CMD, git CMD --help, git --help CMD, git -h
// CMD, -w/-m/-i) run in a repository a tier 1 write may have made runs
// what that file names: tier 3 as git status there is. git -h CMD is git
// help CMD wherever it runs, not a read. Guides (git help -g) and a
// command's usage (git log -h) show no page; the lists of commands and
// settings (-a, -c) go through the repository's pager
// (blindspots_gitpager_test.go).
func TestBlindSpotGitHelpViewerFromRepository(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	helps := []string{"git help log", "git help -w log", "git help --web status", "git help -m diff", "git help --man log",
		"git help -i log", "git help --info log", "git help --we log", "git help -w", "git help gitattributes", "git help everyday",
		"git log --help", "git init --help", "git clone --help", "git version --help", "git --help log", "git -h log",
		"git -h status", "git -p help log", "git --no-pager help log", "git -c color.ui=never --help log", "git -C . help log",
		"timeout 5 git help log", "command git -h log", "git help help"}
	for _, m := range []string{"cd %s && ", "cd %s; ", "env -C %s ", "sudo -D %s ", "pushd %s && "} {
		for _, d := range []string{"/tmp/x", "/var/tmp/r", "/dev/shm/q", "$d"} {
			for _, h := range helps {
				if strings.HasPrefix(m, "sudo") && strings.HasPrefix(h, "command ") {
					continue
				}
				cmds = append(cmds, strings.ReplaceAll(m, "%s", d)+h)
			}
		}
	}
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "$d"} {
		for _, f := range []string{"git -C %s help log", "git -C %s -h log", "git -C %s --help diff", "git --git-dir=%s/.git help -w log",
			"git -C %s init --help"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	for _, d := range []string{"/tmp/x", "/var/tmp", "/dev/shm/q"} {
		for _, c := range []string{"git help log", "git -h log", "git --help log", "git help -w"} {
			if v := p.Evaluate(Input{Command: c, Dir: d}); v.Tier < TierDestructive {
				t.Errorf("Evaluate(%q in %s) = %s (%s); want tier 3", c, d, v.Tier, v.Reason)
			}
		}
	}
	runBlindHosts(t, p, sameCases(TierMutate, false, "git -h log", "git -h status", "cd /srv/app && git -h diff",
		"git -C /srv/app -h log"))
	runExactHosts(t, p, []exactCase{
		{"help page elsewhere", "cd /srv/app && git help log", TierMutate},
		{"--help elsewhere", "git log --help", TierMutate},
		{"git help", "git help", TierRead},
		{"git -h", "git -h", TierRead},
		{"usage", "git log -h", TierRead},
		{"usage in /tmp", "cd /tmp/x && git version", TierRead},
		{"guides in /tmp", "cd /tmp/x && git help -g", TierRead},
		{"bare help in /tmp", "cd /tmp/x && git help", TierRead},
		{"version in /tmp", "cd /tmp/x && git --version", TierRead},
		{"-v in /tmp", "cd /tmp/x && git -v", TierRead},
	})
}
