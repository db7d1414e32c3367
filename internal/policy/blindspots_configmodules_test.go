package policy

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlindSpotConfigModules: linters and test runners import the
// plugins and setup files their configuration names, which were not read
// (pytest.ini and mypy.ini not at all): pytest's addopts = -p helper,
// mypy's plugins, pylint's load-plugins, coverage's plugins, jest's
// setupFiles and a tox command's python -m ran a new module's reboot at
// tier 2. The configuration's words are now looked for as modules, as an
// interpreter's are; old files and another host are not denied.
func TestBlindSpotConfigModules(t *testing.T) {
	dir, _ := lastingDir(t, "cfgmods-")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	const py = "import os\nos.system('reboot')\n"
	for name, text := range map[string]string{
		"pt/pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-p helper\"\n", "pt/helper.py": py,
		"pi/pytest.ini": "[pytest]\naddopts = -p plug\n", "pi/plug.py": py,
		"my/mypy.ini": "[mypy]\nplugins = myplug\n", "my/myplug.py": py,
		"pl/.pylintrc": "[MASTER]\nload-plugins=lplug\n", "pl/lplug.py": py,
		"js/jest.config.json": `{"setupFiles": ["./setup"]}`, "js/setup.js": "require('child_process').execSync('reboot')\n",
		"cv/.coveragerc": "[run]\nplugins = cplug\n", "cv/cplug.py": py,
		"tx/tox.ini": "[testenv]\ncommands = python -m helper\n", "tx/helper.py": py,
	} {
		writeUnder(t, dir, name, text)
	}
	cases := []projectCase{
		{"cd pt && pytest", "pt/helper.py"}, {"cd pi && pytest -q", "pi/plug.py"}, {"cd my && mypy .", "my/myplug.py"},
		{"cd pl && pylint x", "pl/lplug.py"}, {"cd js && jest", "js/setup.js"}, {"cd cv && coverage run x.py", "cv/cplug.py"},
		{"cd tx && tox", "tx/helper.py"},
	}
	wantProjectDenied(t, p, dir, cases)
	var cmds []string
	for _, tc := range cases {
		cmds = append(cmds, tc.cmd)
	}
	wantNotDeniedIn(t, p, dir, true, cmds)
}

// TestBlindSpotMoreProjectFiles: task runners, deployers and build tools
// whose project file names commands or is code, which were unknown
// programs whose files nothing read: lint-staged, cargo-make, pixi,
// devspace, rebar3, Leiningen, thor, Capistrano, fastlane, mill, redo,
// tup, pants, devcontainer (its initializeCommand runs on this host),
// act, deployer, Robo and kustomize's exec plugins.
func TestBlindSpotMoreProjectFiles(t *testing.T) {
	dir, _ := lastingDir(t, "moreproj-")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct{ file, text, cmd string }{
		{".lintstagedrc", `{"*.js": "reboot"}`, "lint-staged"}, {"Makefile.toml", "[tasks.x]\ncommand = \"reboot\"\n", "cargo make x"},
		{"Makefile.toml", "[tasks.x]\ncommand = \"reboot\"\n", "makers x"}, {"pixi.toml", "[tasks]\nx = \"reboot\"\n", "pixi run x"},
		{"devspace.yaml", "hooks:\n- command: reboot\n", "devspace deploy"}, {"rebar.config", "{pre_hooks, [{compile, \"reboot\"}]}.\n", "rebar3 compile"},
		{"project.clj", "(defproject x \"1\" :injections [(clojure.java.shell/sh \"reboot\")])\n", "lein run"},
		{"Thorfile", "system('reboot')\n", "thor x"}, {"Capfile", "system('reboot')\n", "cap production deploy"},
		{"fastlane/Fastfile", "sh('reboot')\n", "fastlane x"}, {"build.sc", "os.proc(\"reboot\").call()\n", "mill x"},
		{"all.do", "reboot\n", "redo all"}, {"Tupfile", ": |> reboot |>\n", "tup"}, {"BUILD", "shell_command(command='reboot')\n", "pants run ::"},
		{".devcontainer/devcontainer.json", `{"initializeCommand": "reboot"}`, "devcontainer up --workspace-folder ."},
		{".github/workflows/x.yml", "jobs:\n  x:\n    steps:\n    - run: reboot\n", "act"}, {"deploy.php", "<?php run('reboot');\n", "dep deploy"},
		{"RoboFile.php", "<?php exec('reboot');\n", "robo x"},
		{"gen.yaml", "metadata:\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ./plugin.sh\n", "kustomize build --enable-alpha-plugins --enable-exec ."},
	} {
		d := filepath.Join(dir, fmt.Sprint(i))
		writeUnder(t, d, tc.file, tc.text)
		want := filepath.Join(d, tc.file)
		if tc.file == "gen.yaml" {
			writeUnder(t, d, "kustomization.yaml", "generators:\n- gen.yaml\n")
			want = writeUnder(t, d, "plugin.sh", "#!/bin/sh\nreboot\n")
		}
		if v := p.Evaluate(Input{Command: "cd " + d + " && " + tc.cmd}); !v.Denied || !strings.Contains(v.Reason, want) {
			t.Errorf("Evaluate(%q) = %s, want denied for what %s runs", tc.cmd, formatVerdict(v), want)
		}
	}
}
