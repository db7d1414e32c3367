package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBlindSpotProjectCode: a project program run on this machine (make,
// npm test, git status, cargo build) is denied when its project's files,
// written since warden started by means the classifier could not follow,
// run what the deny list refuses; mentions that run nothing (comments,
// echoed words, a branch's name) and old projects are not held against it.
func TestBlindSpotProjectCode(t *testing.T) {
	f := newLocalFixture(t)
	bad, ok := filepath.Join(f.dir, "bad"), filepath.Join(f.dir, "ok")
	write := func(dir, name, text string) { writeUnder(t, dir, name, text) }
	write(bad, "Makefile", "# build\nCC ?= cc\nall:\n\t@echo building \\\n\t  all\n\tsudo reboot\n")
	write(bad, "sub/GNUmakefile", "X := $(shell systemctl poweroff)\nall:\n\ttrue\n")
	write(bad, "justfile", "build:\n    cargo build\n    reboot\n")
	write(bad, "package.json", `{"name": "x", "scripts": {"build": "tsc", "test": "jest && shutdown -h now"}}`)
	write(bad, "composer.json", `{"scripts": {"post-install-cmd": ["@php x", "halt -p"]}}`)
	write(bad, "build.rs", "fn main() {\n    std::process::Command::new(\"reboot\").status().unwrap();\n}\n")
	write(bad, "conftest.py", "import os\nos.system('init 0')\n")
	write(bad, ".git/config", "[core]\n\tbare = false\n\tfsmonitor = \"sys\\\"temctl\" reboot # x\n")
	write(bad, "repo2/.git/config", "[diff]\n\texternal = /bin/sh -c 'kill -9 -1'\n")
	write(bad, "repo3/.git/hooks/pre-commit", "#!/bin/sh\nsystemctl poweroff\n")
	write(bad, "repo3/.git/hooks/pre-push.sample", "#!/bin/sh\necho fine\n")
	write(bad, "bare.git/config", "[alias]\n\tst = !reboot\n")
	write(bad, "repo4/.git/config", "[core]\n\thooksPath = .githooks\n")
	write(bad, "repo4/.githooks/pre-commit", "#!/bin/sh\nx=ha; ${x}lt -f\n") // a script: only its shell reading sees halt
	write(bad, "bare2.git/config", "[core]\n\tbare = true\n\thooksPath = h\n")
	write(bad, "bare2.git/h/pre-receive", "#!/bin/sh\npoweroff\n")
	// git finds a repository up from where it runs, through a .git file
	// (a worktree's, a submodule's) and in a bare repository itself.
	write(bad, "up/.git/config", "[core]\n\tfsmonitor = reboot\n")
	write(bad, "up/src/deep/main.c", "int main;\n")
	write(bad, "wt/.git", "gitdir: ../real.git\n")
	write(bad, "real.git/config", "[core]\n\tfsmonitor = poweroff\n")
	write(bad, "wt2/.git", "gitdir: "+bad+"/main/.git/worktrees/wt2\n")
	write(bad, "main/.git/worktrees/wt2/commondir", "../..\n")
	write(bad, "main/.git/config", "[core]\n\tfsmonitor = halt\n")
	write(bad, "bare3.git/HEAD", "ref: refs/heads/main\n")
	write(bad, "bare3.git/objects/info/x", "")
	write(bad, "bare3.git/refs/heads/x", "")
	write(bad, "bare3.git/config", "[core]\n\tpager = systemctl reboot\n")
	// A relative hooksPath is under the top of the work tree the hook
	// runs in: a linked worktree's, though the setting is the common
	// directory's, and the one --work-tree names.
	write(bad, "wt3/.git", "gitdir: "+bad+"/main3/.git/worktrees/wt3\n")
	write(bad, "main3/.git/worktrees/wt3/commondir", "../..\n")
	write(bad, "main3/.git/config", "[core]\n\thooksPath = .hk\n")
	write(bad, "wt3/.hk/pre-commit", "#!/bin/sh\nreboot\n")
	apart := filepath.Join(f.dir, "apart") // under no other repository
	write(apart, "bare4.git/config", "[core]\n\thooksPath = hk\n")
	write(apart, "tree4/hk/pre-commit", "#!/bin/sh\npoweroff\n")
	for _, c := range []string{
		"cd " + bad + " && make", "make -C " + bad, "make --directory=" + bad + " all", "cd " + bad + "; gmake -j4",
		"make -C " + bad + "/sub", "cd " + bad + " && just build", "cd " + bad + " && npm test", "cd " + bad + " && npm run build",
		"cd " + bad + " && composer install", "cd " + bad + " && cargo build --release", "cd " + bad + " && pytest -q",
		"cd " + bad + " && git status", "git -C " + bad + " diff", "git -C " + bad + "/repo2 diff HEAD~1",
		"cd " + bad + "/repo3 && git commit -m wip", "git --git-dir=" + bad + "/bare.git log",
		"git -C " + bad + "/repo4 commit -m wip", "git --git-dir=" + bad + "/bare2.git log",
		"cd " + bad + "/up/src/deep && git status", "git -C " + bad + "/up/src diff", "git -C " + bad + "/wt status",
		"cd " + bad + "/wt2 && git status", "cd " + bad + "/bare3.git && git log",
		"cd " + bad + "/wt3 && git commit -m wip", "git --git-dir=" + apart + "/bare4.git --work-tree=" + apart + "/tree4 commit -m wip",
		// named by the environment
		"GIT_DIR=" + bad + "/bare.git git log", "export GIT_DIR=" + bad + "/real.git; git status",
		"GIT_WORK_TREE=" + bad + "/up git status", "cd " + f.dir + "; GIT_DIR=bad/wt2/../real.git git diff",
		"env GIT_DIR=" + bad + "/bare.git git log", "sudo GIT_DIR=" + bad + "/real.git git status",
		"env GIT_WORK_TREE=" + bad + "/up git status",
	} {
		v := f.p.Evaluate(Input{Command: c})
		if !v.Denied || !strings.Contains(v.Reason, "project's code") {
			t.Errorf("Evaluate(%q) = %s, want denied for what its project's files run", c, formatVerdict(v))
		}
	}
	// run_command's env names the repository too.
	if v := f.p.Evaluate(Input{Command: "git log", Env: map[string]string{"GIT_DIR": bad + "/bare.git"}}); !v.Denied {
		t.Errorf("Evaluate(git log, env GIT_DIR) = %s, want denied for what its repository's config runs", formatVerdict(v))
	}
	// Mentions that run nothing.
	write(ok, "Makefile", "# reboot the board after flashing: make flash && ssh pi sudo true\nall:\n\t@echo remember to reboot\n")
	write(ok, "package.json", `{"name": "reboot", "description": "shutdown helper", "scripts": {"test": "echo reboot"}}`)
	write(ok, ".git/config", "[branch \"reboot\"]\n\tremote = origin\n[core]\n\tpager = less -R\n")
	write(ok, "conftest.py", "# reboot\nimport os\n")
	for _, c := range []string{"cd " + ok + " && make", "cd " + ok + " && npm test", "cd " + ok + " && git status", "cd " + ok + " && pytest"} {
		if v := f.p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: its project's files run nothing the deny list refuses", c, formatVerdict(v))
		}
	}
	// A project older than warden, and another host's, are not read.
	f.unreadOldOrRemote(t, "cd "+bad+" && make")
}

// TestBlindSpotProjectFileOptions: a project file an option names in
// place of the default (make -f, docker compose -f, task -t, gradle -b),
// and docker compose's own project files, meet the deny list as the
// defaults do; a file of that kind that runs nothing refused is not held
// against the call.
func TestBlindSpotProjectFileOptions(t *testing.T) {
	// Outside the temporary directories, whose projects are tier 3 and
	// scanned whole whatever names them.
	dir, p := lastingDir(t, "projopt-")
	f := &localFixture{dir: dir, p: p}
	d := filepath.Join(dir, "opts") // no file of a default name
	write := func(name, text string) { writeUnder(t, d, name, text) }
	compose := "services:\n  x:\n    image: busybox\n    command: reboot\n"
	write("mk/prod.mk", "all:\n\t@echo building\n\tsystemctl poweroff\n")
	write("mk/ok.mk", "# reboot after flashing\nall:\n\t@echo remember to reboot\n")
	write("c/stack.yml", compose)
	write("proj/compose.yaml", compose)
	write("j/release.just", "ship:\n    halt -p\n")
	write("t/ci.yml", "version: '3'\ntasks:\n  x:\n    cmds:\n      - shutdown -h now\n")
	write("r/jobs.rake", "task :x do\n  sh 'reboot'\nend\n")
	write("g/release.gradle", "exec { commandLine 'poweroff' }\n")
	write("p/pom-release.xml", "<exec>init 0</exec>\n")
	write("n/gen.ninja", "rule r\n  command = reboot\nbuild x: r\n")
	write("sub/extra.mk", "all:\n\treboot\n")
	write("j2/justfile", "ship:\n    reboot\n")
	write("gr/release.yaml", "before:\n  hooks:\n    - reboot\n")
	write("pr/Procfile.dev", "web: halt -p\n")
	write("nx/x.nix", "{ pkgs }: pkgs.runCommand \"x\" {} \"reboot\"\n")
	write("tests/conftest.py", "import os\nos.system('poweroff')\n")
	write("src/CMakeLists.txt", "execute_process(COMMAND reboot)\n")
	write("s/sk.yaml", "build:\n  hooks:\n    before:\n      - command: [\"sh\", \"-c\", \"poweroff\"]\n")
	for _, c := range []string{
		"make -f mk/prod.mk", "make --file=mk/prod.mk all", "make --makefile mk/prod.mk", "make -fmk/prod.mk", "gmake -j4 -f " + d + "/mk/prod.mk",
		"make -C sub -f extra.mk", "docker compose -f c/stack.yml up -d", "docker compose --file=c/stack.yml up",
		"docker compose --project-directory proj up", "docker compose up", "docker-compose -f c/stack.yml up",
		"docker-compose --project-directory proj up", "podman compose -f c/stack.yml up", "nerdctl compose -f c/stack.yml up",
		"docker --context x compose -f c/stack.yml up", "just --justfile j/release.just ship", "just -f j/release.just ship",
		"task -t t/ci.yml x", "task --taskfile=t/ci.yml x", "rake -f r/jobs.rake x", "rake --rakefile r/jobs.rake x",
		"gradle -b g/release.gradle build", "mvn -f p/pom-release.xml install", "ninja -f n/gen.ninja",
		// The variables that do as those options do, however set.
		"COMPOSE_FILE=c/stack.yml docker compose up", "export COMPOSE_FILE=x.yml:c/stack.yml; docker compose up",
		"env COMPOSE_FILE=c/stack.yml docker compose up", "sudo COMPOSE_PROJECT_DIRECTORY=proj docker compose up -d",
		"COMPOSE_FILE=c/stack.yml docker-compose up", "JUST_JUSTFILE=j/release.just just ship",
		"env JUST_WORKING_DIRECTORY=j2 just ship", "SKAFFOLD_FILENAME=s/sk.yaml skaffold run",
		// Other tools' options and operands naming their project.
		"skaffold -f s/sk.yaml run", "skaffold run --filename=s/sk.yaml", "goreleaser release --config gr/release.yaml",
		"honcho -f pr/Procfile.dev start", "foreman start -f pr/Procfile.dev", "overmind start -f pr/Procfile.dev",
		"nix-build nx/x.nix", "nix-shell nx/x.nix --run true", "pytest tests", "pytest -q tests/test_x.py::t",
		"cmake -S src -B /tmp/b", "mkdir -p b && cd b && cmake ../src",
	} {
		cmd := c
		if c != "docker compose up" {
			cmd = "cd " + d + " && " + c
		} else {
			cmd = "cd " + d + "/proj && " + c
		}
		if v := f.p.Evaluate(Input{Command: cmd}); !v.Denied || !strings.Contains(v.Reason, d+"/") {
			t.Errorf("Evaluate(%q) = %s, want denied for what the file it names runs", cmd, formatVerdict(v))
		}
	}
	// run_command's env.
	in := Input{Command: "cd " + d + " && docker compose up", Env: map[string]string{"COMPOSE_FILE": "c/stack.yml"}}
	if v := f.p.Evaluate(in); !v.Denied || !strings.Contains(v.Reason, d+"/c/stack.yml") {
		t.Errorf("Evaluate(%q, env COMPOSE_FILE) = %s, want denied for what the file it names runs", in.Command, formatVerdict(v))
	}
	for _, c := range []string{"make -f mk/ok.mk", "docker compose -f c/none.yml up", "docker ps", "make -f mk/missing.mk",
		"COMPOSE_PROJECT_NAME=c docker compose up", "COMPOSE_FILE=c/stack.yml docker ps"} {
		if v := f.p.Evaluate(Input{Command: "cd " + d + " && " + c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: the file it names runs nothing the deny list refuses", c, formatVerdict(v))
		}
	}
	f.unreadOldOrRemote(t, "cd "+d+" && docker compose -f c/stack.yml up")
}

// TestBlindSpotGitGlobalConfig: the user's git configuration (~/.gitconfig,
// ~/.config/git/config), written since warden started, has what its
// settings run meet the deny list on every git command, in a repository
// or not, as a repository's own config does; settings that run nothing
// and an old file are not held against it.
func TestBlindSpotGitGlobalConfig(t *testing.T) {
	dir, _ := lastingDir(t, "gitglobal-")
	home := filepath.Join(dir, "home")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	writeUnder(t, dir, "repo/.git/config", "[core]\n\tbare = false\n")
	extra := writeUnder(t, home, ".config/git/extra", "[alias]\n\tst = !halt\n")
	for _, tc := range []struct{ file, text string }{
		{".gitconfig", "[alias]\n\tst = !systemctl reboot\n"},
		{".gitconfig", "[core]\n\tpager = halt -p\n"},
		{".config/git/config", "[core]\n\tfsmonitor = \"poweroff\"\n"},
		{".gitconfig", "[diff \"x\"]\n\ttextconv = sh -c 'reboot'\n"},
		{".gitconfig", "[user]\n\tname = x\n[include]\n\tpath = ~/.config/git/extra\n"}, // and extra below
		{".gitconfig", "[includeIf \"gitdir:~/\"]\n\tpath = .config/git/extra\n"},
	} {
		f := writeUnder(t, home, tc.file, tc.text)
		want := f
		if strings.Contains(tc.text, "path = ") {
			want = extra
		}
		for _, c := range []string{"git st", "git log -p", "cd " + dir + "/repo && git status", "git -C " + dir + "/repo diff", "tig"} {
			if v := p.Evaluate(Input{Command: c}); !v.Denied || !strings.Contains(v.Reason, want) {
				t.Errorf("%s holding %q: Evaluate(%q) = %s, want denied for what it runs", tc.file, tc.text, c, formatVerdict(v))
			}
		}
		if v := p.Evaluate(Input{Command: "git log", Host: "nas"}); v.Denied {
			t.Errorf("another host's git log was denied for this host's %s: %s", tc.file, formatVerdict(v))
		}
		old := *p
		old.since = time.Now().Add(time.Hour)
		if v := old.Evaluate(Input{Command: "git log"}); v.Denied {
			t.Errorf("%s older than the policy was read: %s", tc.file, formatVerdict(v))
		}
		os.Remove(f)
	}
	// Includes that include each other end; past maxGitIncludes levels
	// git stops reading, and so does warden.
	writeUnder(t, home, ".gitconfig", "[include]\n\tpath = ~/.gitconfig\n[include]\n\tpath = .loop\n")
	writeUnder(t, home, ".loop", "[include]\n\tpath = .gitconfig\n")
	if v := p.Evaluate(Input{Command: "git st"}); v.Denied {
		t.Errorf("configs that include each other: %s", formatVerdict(v))
	}
	chain := "[include]\n\tpath = .c1\n"
	writeUnder(t, home, ".gitconfig", chain)
	for i := 1; i <= maxGitIncludes+1; i++ {
		next := fmt.Sprintf("[include]\n\tpath = .c%d\n", i+1)
		if i == maxGitIncludes+1 {
			next = "[alias]\n\tst = !reboot\n"
		}
		writeUnder(t, home, fmt.Sprintf(".c%d", i), next)
	}
	if v := p.Evaluate(Input{Command: "git st"}); v.Denied {
		t.Errorf("an include %d levels down, past git's limit, was read: %s", maxGitIncludes+1, formatVerdict(v))
	}
	writeUnder(t, home, fmt.Sprintf(".c%d", maxGitIncludes), "[alias]\n\tst = !reboot\n")
	if v := p.Evaluate(Input{Command: "git st"}); !v.Denied {
		t.Errorf("an include %d levels down was not read: %s", maxGitIncludes, formatVerdict(v))
	}
	writeUnder(t, home, ".gitconfig", "[user]\n\tname = reboot\n[alias]\n\tlg = log --oneline\n[core]\n\tpager = less -R\n")
	if v := p.Evaluate(Input{Command: "git lg"}); v.Denied {
		t.Errorf("settings that run nothing refused: %s", formatVerdict(v))
	}
}

// TestGitSettings: a repository's config read as git reads it.
func TestGitSettings(t *testing.T) {
	got := gitSettings("[core]\n\tpager = \"less\" -R ; a comment\n[remote \"origin\"]\n\turl = x\n[alias] st = !git \\\n status\n[Filter.lfs]\n\tclean = a\\\"b\n")
	want := [][2]string{{"core.pager", "less -R"}, {"remote.origin.url", "x"}, {"alias.st", "!git  status"}, {"filter.lfs.clean", `a"b`}}
	if len(got) != len(want) {
		t.Fatalf("gitSettings = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("setting %d = %q, want %q", i, got[i], want[i])
		}
	}
}
