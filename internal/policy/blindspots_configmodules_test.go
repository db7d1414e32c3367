package policy

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	cases := []struct{ cmd, file string }{
		{"cd pt && pytest", "pt/helper.py"}, {"cd pi && pytest -q", "pi/plug.py"}, {"cd my && mypy .", "my/myplug.py"},
		{"cd pl && pylint x", "pl/lplug.py"}, {"cd js && jest", "js/setup.js"}, {"cd cv && coverage run x.py", "cv/cplug.py"},
		{"cd tx && tox", "tx/helper.py"},
	}
	for _, tc := range cases {
		c := "cd " + dir + " && " + tc.cmd
		if v := p.Evaluate(Input{Command: c}); !v.Denied || !strings.Contains(v.Reason, filepath.Join(dir, tc.file)) {
			t.Errorf("Evaluate(%q) = %s, want denied for what %s runs", tc.cmd, formatVerdict(v), tc.file)
		}
		if v := p.Evaluate(Input{Command: c, Host: "nas"}); v.Denied {
			t.Errorf("another host's %q was denied for this host's files: %s", tc.cmd, formatVerdict(v))
		}
	}
	old := *p
	old.since = time.Now().Add(time.Hour)
	for _, tc := range cases {
		if v := old.Evaluate(Input{Command: "cd " + dir + " && " + tc.cmd}); v.Denied {
			t.Errorf("%q with old files: %s, want not denied", tc.cmd, formatVerdict(v))
		}
	}
}
