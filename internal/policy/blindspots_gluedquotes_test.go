package policy

import "testing"

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
	wantProjectDenied(t, p, dir, []projectCase{
		{"cd rs && cargo build", "rs/build.rs"}, {"cd rh && cargo build", "rh/build.rs"}, {"cd gr && gradle x", "gr/build.gradle"},
	})
	wantNotDenied(t, testPolicy(t), []string{
		`python3 -c "print('don'.upper())"`, `python3 -c "print(r'\d+')"`, `python3 -c "print(f'{x}'.strip())"`,
		`echo "it's a reboot-free day" | python3 -c "import sys; print(sys.stdin.read().upper())"`,
	})
}

// TestBlindSpotLiteralSpellings: more spellings of a command in another
// language's string that the scan read past: a character named in braces
// (rust's and javascript's "\u{72}eboot", perl's "\x{72}eboot", python's
// "\N{LATIN SMALL LETTER R}eboot"), a string continued on the next line
// after a backslash, java's "re".concat("boot"), and the kernel's reboot
// called as go's syscall.Reboot or with its magic constants.
func TestBlindSpotLiteralSpellings(t *testing.T) {
	p := testPolicy(t)
	wantDenied(t, p, "reboot", []string{
		`node -e 'require("child_process").execSync("\u{72}eboot")'`, `perl -e 'system("\x{72}eboot")'`,
		`python3 -c 'import os; os.system("\N{LATIN SMALL LETTER R}eboot")'`,
		`ruby -e 'system("\u{72}\u{65}boot")'`, "python3 -c 'import os; os.system(\"re\\\nboot\")'",
		"node -e 'require(\"child_process\").execSync(\"/sbin/re\\\nboot\")'", `jshell <<< 'Runtime.getRuntime().exec("re".concat("boot"));'`,
		`python3 -c 'import os; os.system("\N{LATIN SMALL LETTER R}\N{LATIN SMALL LETTER E}boot")'`,
	})
	dir, _ := lastingDir(t, "literals-")
	q, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"go/go.mod": "module x\n", "go/main.go": "package main\nimport \"syscall\"\nfunc main() { syscall.Reboot(syscall.LINUX_REBOOT_CMD_POWER_OFF) }\n",
		"ux/go.mod": "module y\n", "ux/main.go": "package main\nimport \"golang.org/x/sys/unix\"\nfunc main() { unix.Reboot(0x4321fedc) }\n",
		"uc/Cargo.toml": "[package]\nname = \"u\"\n", "uc/build.rs": "fn main() { std::process::Command::new(\"\\u{72}eboot\").status(); }\n",
	} {
		writeUnder(t, dir, name, text)
	}
	for _, c := range []string{"cd go && go run .", "cd ux && go test", "cd uc && cargo build"} {
		if v := q.Evaluate(Input{Command: "cd " + dir + " && " + c}); !v.Denied {
			t.Errorf("Evaluate(%q) = %s, want denied", c, formatVerdict(v))
		}
	}
	wantNotDenied(t, p, []string{
		`python3 -c 'print("\u{72}")'`, `python3 -c 'print("\N{SNOWMAN}")'`, "python3 -c 'print(\"a\\\nb\")'",
		`node -e 'console.log("x".concat("y"))'`,
	})
}
