package policy

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBlindSpotProjectUp: many project programs find their files up from
// the working directory, as git finds its repository. Their files were
// read in the working directory only, so cargo build in a crate's src/,
// npm run, just, rake or tox in a subdirectory ran a new build.rs,
// package.json, justfile, Rakefile or tox.ini above it at tier 2, and
// the files some read in every directory up (cargo's .cargo/config.toml,
// mise's configurations, pytest's conftest.py) were not read past the
// first; nor were the directories and modules zig --build-root, poe
// --root and -C, direnv exec and invoke -c name. Each now meets the deny
// list; make, which reads only its working
// directory, an old file and another host are not denied.
func TestBlindSpotProjectUp(t *testing.T) {
	dir, _ := lastingDir(t, "projup-")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	const rs = "fn main() { std::process::Command::new(\"reboot\").status().unwrap(); }\n"
	files := map[string]string{
		"crate/Cargo.toml": "[package]\nname = \"c\"\n", "crate/build.rs": rs,
		"just/justfile": "default:\n\treboot\n", "task/Taskfile.yml": "version: '3'\ntasks:\n  default:\n    cmds:\n      - poweroff\n",
		"rake/Rakefile": "task :default do sh 'halt' end\n", "npm/package.json": `{"scripts": {"x": "reboot"}}`,
		"gem/Gemfile": "system('reboot')\n", "zig/build.zig": "pub fn build(b: *B) void { _ = b.addSystemCommand(&.{\"reboot\"}); }\n",
		"vag/Vagrantfile": "system('shutdown -h now')\n", "gradle/settings.gradle": "['reboot'].execute()\n",
		"inv/tasks.py": "import os\nos.system('reboot')\n", "grunt/Gruntfile.js": "require('child_process').execSync('reboot')\n",
		"pipenv/Pipfile": "[scripts]\nx = \"reboot\"\n", "tox/tox.ini": "[testenv]\ncommands = reboot\n",
		"compose/compose.yaml": "services:\n  x:\n    image: x\n    command: reboot\n", "poetry/pyproject.toml": "[tool.poe.tasks]\nx = \"reboot\"\n",
		"cfg/.cargo/config.toml": "[target.x86_64-unknown-linux-gnu]\nrunner = \"reboot\"\n", "cfg/a/Cargo.toml": "[package]\nname = \"a\"\n",
		"mise/mise.toml": "[tasks.x]\nrun = \"reboot\"\n", "mise/a/mise.toml": "[tasks.y]\nrun = \"ls\"\n",
		"pt/conftest.py": "import os\nos.system('reboot')\n", "pt/a/conftest.py": "", "pt/a/b/test_x.py": "def test_x(): pass\n",
		"make/Makefile":      "all:\n\treboot\n",
		"opt/build.zig":      "pub fn build(b: *B) void { _ = b.addSystemCommand(&.{\"reboot\"}); }\n",
		"opt/pyproject.toml": "[tool.poe.tasks]\nx = \"reboot\"\n", "opt/.envrc": "reboot\n", "opt/alt.py": "import os\nos.system('reboot')\n",
	}
	for n, s := range files {
		writeUnder(t, dir, n, s)
	}
	wantProjectDenied(t, p, dir, []projectCase{
		{"cd crate/src/bin && cargo build", "crate/build.rs"}, {"cd crate/src && cargo check", "crate/build.rs"},
		{"cd just/a/b && just", "just/justfile"}, {"cd task/a && task", "task/Taskfile.yml"}, {"cd rake/lib && rake", "rake/Rakefile"},
		{"cd npm/src && npm run x", "npm/package.json"}, {"cd npm/src/a && yarn x", "npm/package.json"}, {"cd gem/lib && bundle exec x", "gem/Gemfile"},
		{"cd zig/src && zig build", "zig/build.zig"}, {"cd vag/x && vagrant up", "vag/Vagrantfile"}, {"cd gradle/app && gradle build", "gradle/settings.gradle"},
		{"cd inv/a && invoke x", "inv/tasks.py"}, {"cd grunt/a && grunt", "grunt/Gruntfile.js"}, {"cd pipenv/a && pipenv run x", "pipenv/Pipfile"},
		{"cd tox/tests && tox", "tox/tox.ini"}, {"cd compose/a && docker compose up -d", "compose/compose.yaml"},
		{"cd poetry/src && poe x", "poetry/pyproject.toml"},
		{"cd cfg/a/src && cargo run", "cfg/.cargo/config.toml"}, {"cd mise/a && mise run y", "mise/mise.toml"},
		{"cd pt/a/b && pytest", "pt/conftest.py"}, {"pytest pt/a/b/test_x.py", "pt/conftest.py"},
		// A directory or module an option names.
		{"zig build --build-root opt", "opt/build.zig"}, {"poe --root opt x", "opt/pyproject.toml"}, {"poe -C opt x", "opt/pyproject.toml"},
		{"direnv exec opt true", "opt/.envrc"}, {"invoke -r opt -c alt x", "opt/alt.py"}, {"inv --search-root opt --collection=alt x", "opt/alt.py"},
	})
	if v := p.Evaluate(Input{Command: "cd " + dir + "/make/src && make"}); v.Denied {
		t.Errorf("make in a subdirectory reads no Makefile above it: %s", formatVerdict(v))
	}
	wantNotDeniedIn(t, p, dir, true, []string{"cd crate/src && cargo build", "cd just/a/b && just", "cd pt/a/b && pytest"})
}

// projectCase is a command run from a test's directory and the file
// under it whose new text makes the call denied.
type projectCase struct{ cmd, file string }

// wantProjectDenied fails t for each case, run from dir, that p does not
// deny for what its file runs, or denies on another host, whose files are
// not this machine's.
func wantProjectDenied(t *testing.T, p *Policy, dir string, cases []projectCase) {
	t.Helper()
	for _, tc := range cases {
		c := "cd " + dir + " && " + tc.cmd
		if v := p.Evaluate(Input{Command: c}); !v.Denied || !strings.Contains(v.Reason, filepath.Join(dir, tc.file)) {
			t.Errorf("Evaluate(%q) = %s, want denied for what %s runs", tc.cmd, formatVerdict(v), tc.file)
		}
		if v := p.Evaluate(Input{Command: c, Host: "nas"}); v.Denied {
			t.Errorf("another host's %q was denied for this host's files: %s", tc.cmd, formatVerdict(v))
		}
	}
}

// wantNotDeniedIn fails t for each of cmds, run from dir, that p denies;
// with old, as a policy started after every file there was written.
func wantNotDeniedIn(t *testing.T, p *Policy, dir string, old bool, cmds []string) {
	t.Helper()
	q := *p
	if old {
		q.since = time.Now().Add(time.Hour)
	}
	for _, c := range cmds {
		if v := q.Evaluate(Input{Command: "cd " + dir + " && " + c}); v.Denied {
			t.Errorf("Evaluate(%q) (files old: %v) = %s, want not denied", c, old, formatVerdict(v))
		}
	}
}
