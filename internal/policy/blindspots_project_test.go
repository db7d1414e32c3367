package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotProjectConfigCode: git, ansible, yarn and pnpm run what
// their project's files name (core.fsmonitor on git status, textconv on
// git log -p, ansible.cfg's inventory scripts, .yarnrc.yml's yarnPath), so
// run in a temporary directory a tier 1 write can fill, or one known only
// at run time, their reads are tier 3, in every way of getting there: cd
// and its spellings, env -C, sudo -D, git -C and --git-dir, the call's
// directory.
func TestBlindSpotProjectConfigCode(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	moves := []string{"cd %s && ", "cd %s; ", "pushd %s; ", "builtin cd %s; ", "\\cd -P -- %s; ", "env -C %s ", "env --chdir=%s ",
		"env -C%s ", "env --ch %s ", "sudo -D %s ", "sudo -D%s ", "sudo --chdir=%s ", "sudo --chd %s ", "(cd %s && ", "OLDPWD=%s; cd -; "}
	reads := []string{"git status", "git log -p", "git diff", "git show HEAD", "git blame f", "git --no-pager log", "git rev-parse HEAD",
		"git -c color.ui=never status", "git config -l", "git ls-files", "git cat-file --textconv HEAD:f", "git grep x",
		"ansible-inventory --list", "ansible-inventory --graph", "ansible-config dump", "ansible-doc -l", "ansible all -m ping",
		"ansible-vault view v.yml", "ansible-galaxy list", "yarn --version", "yarn list", "yarn config list", "yarnpkg --version",
		"pnpm ls", "pnpm --version", "timeout 5 git status", "nice git log", "command git status"}
	for _, d := range []string{"/tmp/x", "/tmp", "/var/tmp/r", "/dev/shm/q", "/tmp/x/a/b", "/tmp/./x", "/srv/../tmp/x", "$d", "\"$(mktemp -d)\""} {
		for _, m := range moves {
			for _, r := range reads {
				c := strings.ReplaceAll(m, "%s", d) + r
				if strings.HasPrefix(m, "(") {
					c += ")"
				}
				if strings.HasPrefix(m, "sudo") && strings.HasPrefix(r, "command ") {
					continue
				}
				cmds = append(cmds, c)
			}
		}
	}
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "/dev/shm/q", "/tmp", "$d", "\"$r\"", "../../tmp/x"} {
		for _, f := range []string{"git -C %s status", "git -C %s log -p", "git --git-dir=%s/.git log", "git --git-dir %s/.git diff",
			"git -C /srv -C %s status", "sudo git -C %s status", "git -C %s --no-pager show"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	for _, d := range []string{"/tmp/x", "/var/tmp", "/dev/shm/q", "/tmp/x/sub", "x"} {
		for _, c := range []string{"git status", "git log -p", "ansible-inventory --list", "yarn --version", "pnpm ls", "cd sub && git diff"} {
			if v := p.Evaluate(Input{Command: c, Dir: d}); v.Tier < TierDestructive {
				t.Errorf("Evaluate(%q in %s) = %s (%s); want tier 3", c, d, v.Tier, v.Reason)
			}
		}
	}
	runExact(t, p, []exactCase{
		{"no directory named", "git status", TierRead},
		{"operator's repository", "cd /srv/app && git log -p", TierRead},
		{"home repository", "cd ~/proj && git diff", TierRead},
		{"below an unnamed start", "cd src && git log", TierRead},
		{"git -C a known repository", "git -C /srv/app status", TierRead},
		{"git -C below", "git -C sub log", TierRead},
		{"git version in /tmp", "cd /tmp/x && git version", TierRead},
		{"git --version in /tmp", "cd /tmp/x && git --version", TierRead},
		{"ansible-config --version in /tmp", "cd /tmp/x && ansible-config --version", TierRead},
		{"ansible-inventory elsewhere", "cd /srv/ops && ansible-inventory --list", TierRead},
		{"yarn elsewhere", "cd /srv/web && yarn list", TierRead},
		{"env -C elsewhere", "env -C /srv/app git status", TierRead},
		{"sudo -D elsewhere", "sudo -D /srv/app git log", TierRead},
		{"ls in /tmp", "cd /tmp/x && ls -la", TierRead},
		{"cat in /tmp", "cd /tmp/x && cat f", TierRead},
	})
}

// TestBlindSpotChdirWrappers: env -C and sudo -D run their command in the
// directory they name, as cd does, so python -m (which imports from the
// working directory) and npm (which reads its .npmrc there) run what a
// tier 1 write left in a temporary one; npm --prefix names the directory
// whose .npmrc npm reads.
func TestBlindSpotChdirWrappers(t *testing.T) {
	p := protectedPolicy(t)
	var py, npm []string
	for _, d := range []string{"/tmp/x", "/var/tmp", "/dev/shm/m", "$d"} {
		for _, w := range []string{"env -C %s", "env -C%s", "env --chdir=%s", "env --chdir %s", "env --chd=%s", "env -i -C %s",
			"env -iC %s", "sudo -D %s", "sudo -D%s", "sudo --chdir=%s", "sudo --chdir %s", "sudo -u root -D %s", "sudo -nD %s",
			"timeout 5 env -C %s", "sudo env -C %s"} {
			w = strings.ReplaceAll(w, "%s", d)
			py = append(py, w+" python3 -m json.tool f", w+" python3 -m pip list")
			npm = append(npm, w+" npm ls", w+" npm outdated")
		}
		for _, f := range []string{"npm --prefix %s ls", "npm --prefix=%s ls", "npm ls --prefix=%s", "npm --prefix %s outdated"} {
			npm = append(npm, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, py...))
	runBlind(t, p, sameCases(TierMutate, false, npm...))
	runExact(t, p, []exactCase{
		{"env -C elsewhere", "env -C /srv/app python3 -m json.tool f", TierRead},
		{"sudo -D elsewhere", "sudo -D /srv/app npm ls", TierRead},
		{"npm --prefix elsewhere", "npm --prefix /srv/app ls", TierRead},
		{"env -u", "env -u C python3 -m json.tool f", TierRead},
	})
}

// TestBlindSpotFindExecdirProjects: find -execdir and -okdir run their
// command in the directory of each file found, anywhere below the start
// points, so git, python3 -m and the other readers of their working
// directory's code run in what a tier 1 write left under /tmp.
func TestBlindSpotFindExecdirProjects(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, start := range []string{"/tmp", "/tmp/x", "/var/tmp", "/dev/shm", "/srv /tmp", "$d", "/tmp/*", "../../tmp", "~/../../tmp"} {
		for _, f := range []string{"find %s -name .git -execdir git status \\;", "find %s -type d -execdir git log -p \\;",
			"find %s -maxdepth 2 -execdir python3 -m json.tool {} \\;", "find %s -name ansible.cfg -execdir ansible-inventory --list \\;",
			"find %s -name package.json -execdir yarn --version \\;", "find %s -name .git -okdir git diff \\;",
			"find -L %s -name .git -execdir git status +", "sudo find %s -execdir git status \\;"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", start))
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	runExact(t, p, []exactCase{
		{"operator's tree", "find /srv -name .git -execdir git status \\;", TierRead},
		{"below the working directory", "find . -name .git -execdir git log -1 \\;", TierRead},
		{"below a subdirectory", "find src -type d -execdir git status \\;", TierRead},
		{"exec in /tmp", "find /tmp -name '*.log' -exec ls -l {} \\;", TierRead},
		{"execdir a plain read", "find /tmp -name '*.log' -execdir ls -l {} \\;", TierRead},
	})
}

// TestBlindSpotProjectDirOptions: pnpm -C/--dir and yarn --cwd name the
// project they read, as git -C does.
func TestBlindSpotProjectDirOptions(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/p", "/dev/shm/p", "$d", "/tmp/*"} {
		for _, f := range []string{"pnpm -C %s ls", "pnpm -C%s ls", "pnpm --dir=%s ls", "pnpm --dir %s list", "pnpm ls --dir %s",
			"pnpm -C %s --version", "yarn --cwd %s list", "yarn --cwd=%s --version", "yarn list --cwd %s", "yarnpkg --cwd %s list",
			"sudo pnpm -C %s ls", "cd /srv && pnpm -C %s ls"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	runExact(t, p, []exactCase{
		{"pnpm -C elsewhere", "pnpm -C /srv/web ls", TierRead},
		{"pnpm -C below", "pnpm -C web ls", TierRead},
		{"pnpm -C elsewhere from /tmp", "cd /tmp/x && pnpm -C /srv/web ls", TierRead},
	})
}

// TestBlindSpotSandboxChdir: bwrap --chdir, firejail --private-cwd= and
// GNU parallel's --wd/--workdir run their command in the directory they
// name, as env -C does.
func TestBlindSpotSandboxChdir(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp", "/dev/shm/m", "$d"} {
		for _, w := range []string{"bwrap --ro-bind / / --chdir %s", "bwrap --dev-bind / / --chdir %s --", "firejail --private-cwd=%s",
			"firejail --quiet --private-cwd=%s", "parallel --wd %s", "parallel --wd=%s", "parallel --workdir %s", "parallel --workd %s",
			"parallel -j2 --wd %s"} {
			w = strings.ReplaceAll(w, "%s", d)
			tail := ""
			if strings.HasPrefix(w, "parallel") {
				tail = " ::: 1"
			}
			cmds = append(cmds, w+" git status"+tail, w+" python3 -m json.tool f"+tail, w+" yarn list"+tail)
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	runExact(t, p, []exactCase{
		{"bwrap elsewhere", "bwrap --ro-bind / / --chdir /srv/app git status", TierRead},
		{"firejail elsewhere", "firejail --private-cwd=/srv/app git status", TierRead},
		{"parallel elsewhere", "parallel --wd /srv/app git status ::: 1", TierRead},
	})
}

// TestBlindSpotProcDirs: a directory reached through /proc is the one it
// stands for (/proc/self/root/tmp/x is /tmp/x), or may be any (another
// process's cwd or root, a directory held open as a descriptor).
func TestBlindSpotProcDirs(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/proc/self/root/tmp/x", "/proc/thread-self/root/var/tmp", "/proc/self/root//tmp/./x", "/proc/1/cwd",
		"/proc/self/cwd", "/proc/$$/cwd", "/proc/1234/root/srv", "/proc/self/task/1/cwd", "/proc/self/fd/3", "/dev/fd/3",
		"/proc/self/root/dev/shm", "/proc/1/cwd/sub"} {
		for _, f := range []string{"cd %s && git status", "cd %s; python3 -m json.tool f", "git -C %s log", "env -C %s yarn list",
			"pnpm -C %s ls"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	runExact(t, p, []exactCase{
		{"own root elsewhere", "cd /proc/self/root/srv/app && git status", TierRead},
		{"proc itself", "cd /proc && cat cpuinfo", TierRead},
	})
}

// TestBlindSpotGitFrontEnds: git's own programs (/usr/lib/git-core/
// git-status) and the front ends that run git in the working directory
// (tig, lazygit, gh) run what its .git/config names there too.
func TestBlindSpotGitFrontEnds(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "$d"} {
		for _, r := range []string{"/usr/lib/git-core/git-status", "git-log -p", "/usr/libexec/git-core/git-diff", "git-show",
			"tig", "tig log", "lazygit", "gitui", "gh pr list", "gh pr status", "glab mr list", "hub browse"} {
			cmds = append(cmds, "cd "+d+" && "+r, "env -C "+d+" "+r)
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	runExact(t, p, []exactCase{
		{"git-status elsewhere", "cd /srv/app && /usr/lib/git-core/git-status", TierMutate},
		{"tig elsewhere", "cd /srv/app && tig", TierMutate},
	})
}

// TestBlindSpotBuildsInAgentDirs: a build tool or test runner run in a
// directory a tier 1 write can fill runs what the agent wrote there (a
// Makefile's recipe, build.rs, conftest.py, package.json's scripts), rm
// -rf included, which open mode would run without approval as the tier 2
// of a build: tier 3 there, as the operator's own builds stay tier 2.
func TestBlindSpotBuildsInAgentDirs(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/b", "/dev/shm/b", "$d"} {
		for _, b := range []string{"make", "make -n", "make -C sub all", "gmake install", "cargo build", "cargo test", "cargo tree",
			"go test ./...", "go run .", "mvn package", "gradle tasks", "bundle exec rake", "rake -T", "just", "task build",
			"cmake --build .", "ninja", "meson setup b", "tox", "pytest", "composer install", "mix test", "npm test", "npm run build",
			"npm install", "npm ci", "npm exec foo", "npm --loglevel silent test", "timeout 60 make", "sudo make install"} {
			cmds = append(cmds, "cd "+d+" && "+b, "env -C "+d+" "+b)
		}
	}
	runBlind(t, p, sameCases(TierDestructive, false, cmds...))
	runExact(t, p, []exactCase{
		{"operator's make", "cd /srv/app && make", TierMutate},
		{"operator's tests", "cd /srv/app && go test ./...", TierMutate},
		{"operator's npm test", "cd /srv/app && npm test", TierMutate},
		// go, cargo and npm there may be a version manager's shim
		// picking its binary from the directory (shims.go).
		{"go build in /tmp", "cd /tmp/x && go build ./...", TierDestructive},
		{"cargo version in /tmp", "cd /tmp/x && cargo --version", TierDestructive},
		{"npm ls in /tmp", "cd /tmp/x && npm ls", TierDestructive},
		{"go build in an operator's dir", "cd /srv/app && go build ./...", TierMutate},
		{"cargo version in an operator's dir", "cd /srv/app && cargo --version", TierRead},
	})
}
