package policy

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBlindSpotGluedQuotes: the scan of code it cannot parse takes the
// quotes out of words, which glued a string literal's prefix or a method
// called on it to the word: python's os.system(r'reboot') read as
// "rreboot", groovy's 'reboot'.execute() as "reboot.execute", so neither
// was denied, in a -c payload or in a project file a build runs. A second
// reading splits the words at such quotes.
func TestBlindSpotGluedQuotes(t *testing.T) {
	p := testPolicy(t)
	wantDenied(t, p, "reboot", []string{
		`python3 -c "import os; os.system(r'reboot')"`, `python3 -c "import os; os.system(f'reboot')"`,
		`python3 -c "import os; os.system(rb'reboot'.decode())"`, `python3 -c "import subprocess; subprocess.run('reboot'.split())"`,
		`python3 -c "import subprocess; subprocess.call(u'reboot')"`, `python3 -c "import os; os.system('REBOOT'.lower())"`,
		`ruby -e "system('reboot'.strip)"`, `node -e "require('child_process').execSync('reboot'.trim())"`,
		`pwsh -c "Start-Process @'reboot'"`, `pwsh -c "Start-Process @\"reboot\""`,
	})
	dir, _ := lastingDir(t, "glued-")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"rs/build.rs":     "fn main() { std::process::Command::new(r\"reboot\").status().unwrap(); }\n",
		"rh/build.rs":     "fn main() { std::process::Command::new(r#\"poweroff\"#).status().unwrap(); }\n",
		"gr/build.gradle": "task x { doLast { 'reboot'.execute() } }\n",
	} {
		writeUnder(t, dir, name, text)
	}
	for _, tc := range []struct{ cmd, file string }{
		{"cd rs && cargo build", "rs/build.rs"}, {"cd rh && cargo build", "rh/build.rs"}, {"cd gr && gradle x", "gr/build.gradle"},
	} {
		if v := p.Evaluate(Input{Command: "cd " + dir + " && " + tc.cmd}); !v.Denied || !strings.Contains(v.Reason, filepath.Join(dir, tc.file)) {
			t.Errorf("Evaluate(%q) = %s, want denied for what %s runs", tc.cmd, formatVerdict(v), tc.file)
		}
	}
	wantNotDenied(t, testPolicy(t), []string{
		`python3 -c "print('don'.upper())"`, `python3 -c "print(r'\d+')"`, `python3 -c "print(f'{x}'.strip())"`,
		`echo "it's a reboot-free day" | python3 -c "import sys; print(sys.stdin.read().upper())"`,
	})
}
