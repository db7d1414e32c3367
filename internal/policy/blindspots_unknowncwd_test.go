package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotUnknownProgramsInAgentDirs: a program the classifier does
// not know may take code from the directory it runs in (nix's flake.nix,
// hatch's and pipenv's scripts, vitest's and postcss' configuration,
// mkdocs' hooks, jekyll's _plugins, conan's conanfile.py, direnv's
// .envrc, jj's repository configuration), and no list names them all: run
// where the working directory is a temporary one or known only at run
// time, it is tier 3 as git there is. The same programs in an operator's
// directory, and the programs the classifier knows to be reads, keep
// their tiers.
func TestBlindSpotUnknownProgramsInAgentDirs(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	moves := []string{"cd %s && ", "cd %s; ", "pushd %s && ", "env -C %s ", "sudo -D %s ", "(cd %s && "}
	progs := []string{"nix flake show", "nix develop -c ls", "nix --version", "hatch env show", "hatch run test", "pipenv graph",
		"pixi run x", "vitest list", "playwright test --list", "postcss a.css", "tailwindcss -o o.css", "mkdocs build", "jekyll build",
		"conan list", "platformio run", "pio run", "fastlane lanes", "pod install", "jj log", "fossil status", "bzr status",
		"direnv allow", "direnv export bash", "asdf current", "pyenv version", "rbenv version", "corepack yarn -v", "volta list",
		"sdk env", "tsc --noEmit", "nx show projects", "turbo ls", "lerna ls", "ng version", "buck2 targets //...", "pants list ::",
		"mill resolve _", "ctest -N", "autoreconf -i", "west list", "molecule list", "ansible-lint", "cdktf synth", "earthly --version",
		"dagger functions", "skaffold diagnose", "kustomize build .", "xargs mkdocs < f", "timeout 9 mkdocs build"}
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "/dev/shm/q", "/tmp", "$d", "\"$(mktemp -d)\""} {
		for _, m := range moves {
			for _, r := range progs {
				c := strings.ReplaceAll(m, "%s", d) + r
				if strings.HasPrefix(m, "(") {
					c += ")"
				}
				cmds = append(cmds, c)
			}
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	for _, d := range []string{"/tmp/x", "/var/tmp", "/dev/shm/q"} {
		for _, c := range []string{"nix flake show", "hatch env show", "mkdocs build"} {
			if v := p.Evaluate(Input{Command: c, Dir: d, Host: "db1"}); v.Tier < TierDestructive {
				t.Errorf("Evaluate(%q in %s) = %s (%s); want tier 3", c, d, v.Tier, v.Reason)
			}
		}
	}
	// What the script wrote there is what the program may read.
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"cd /tmp/d && printf 'shellHook = \"re%s\"' boot > flake.nix && nix develop",
		"cd /tmp/d && echo 'hooks: [re''boot]' > mkdocs.yml && mkdocs build",
		"cd /tmp/d; printf '%s%s' re boot > .envrc; direnv allow"))
	runExactHosts(t, p, []exactCase{
		{"no directory named", "nix flake show", TierMutate},
		{"operator's project", "cd /srv/app && mkdocs build", TierMutate},
		{"below an unnamed start", "cd docs && mkdocs build", TierMutate},
		{"known reader in /tmp", "cd /tmp/x && sha256sum f", TierRead},
		{"jq in /tmp", "cd /tmp/x && jq . f.json", TierRead},
		{"rg in /tmp", "cd /tmp/x && rg -n foo", TierRead},
		{"file in /tmp", "cd /tmp/x && file f", TierRead},
		{"du in /tmp", "cd /tmp && du -sh .", TierRead},
		{"tar in /tmp", "cd /tmp/x && tar tf a.tar", TierRead},
		{"unzip in /tmp", "cd /tmp/x && unzip a.zip", TierMutate},
		{"wget in /tmp", "cd /tmp/x && wget https://example.com/f", TierMutate},
	})
}

// TestBlindSpotNamedProjectsOfUnknownAndLinters: the project or
// configuration a tool is given by option is its working directory's
// twin: an unknown program's --config, --rcfile, --project-dir, --chdir,
// --root or -C naming a temporary directory, a climb to one, or a value
// known only at run time may run what a tier 1 write left there; and
// linters whose configuration is code find it beside the files they
// check (prettier, eslint, pylint, rubocop, stylelint) or by option
// (mypy, vitest, playwright, mkdocs).
func TestBlindSpotNamedProjectsOfUnknownAndLinters(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/p", "/dev/shm/q", "\"$d\"", "/private/tmp/x", "/tmp/x/../y"} {
		for _, f := range []string{"sometool --config %s/c", "sometool --config=%s/c", "sometool --config-file %s/c.toml",
			"sometool --rcfile=%s/rc", "sometool --project-dir %s", "sometool --project_dir=%s", "sometool --chdir %s",
			"sometool --cwd=%s", "sometool -C %s status", "sometool --root %s", "sometool --workdir=%s run", "sometool --plugin %s/p.so",
			"sometool --settings %s/s.json", "sometool --manifest-path %s/m.toml", "sometool --init %s/i.lua", "sudo sometool --config %s/c",
			"sometool --kubeconfig %s/kc get pods", "sometool --sshconfig=%s/c", "sometool --npmrcfile %s/rc",
			"prettier --check %s/a.js", "prettier -w %s", "eslint %s/a.js", "eslint --fix %s", "pylint %s/a.py", "pylint --rcfile=%s/rc a.py",
			"rubocop %s/a.rb", "rubocop -c %s/r.yml", "stylelint %s/a.css", "mypy --config-file %s/m.ini a.py", "vitest --root %s",
			"vitest run -c %s/v.ts", "playwright test -c %s/p.ts", "mkdocs build -f %s/mkdocs.yml"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	cmds = append(cmds, "sometool --root=../../../tmp/x", "sometool --config $(mktemp)")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"unknown with the operator's config", "sometool --config /etc/sometool.conf", TierMutate},
		{"unknown -C elsewhere", "sometool -C /srv/x status", TierMutate},
		{"unknown output to /tmp", "sometool --output /tmp/x/o", TierMutate},
		{"unknown source in /tmp", "sometool --source /tmp/x/a", TierMutate},
		{"unknown force", "sometool --force /tmp/x", TierMutate},
		{"unknown file operand", "shellcheck /tmp/x.sh", TierMutate},
		{"prettier the operator's files", "prettier --check /srv/app/src", TierMutate},
		{"pylint the operator's files", "pylint /srv/app/a.py", TierMutate},
	})
}
