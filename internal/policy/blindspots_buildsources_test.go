package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBlindSpotBuildSources: go run, go test and go generate compile and
// run the module's Go code, cargo run and test the crate's Rust code,
// which was not read: a main.go, an imported package's init, a test, a
// //go:generate line or a crate's module written this session ran reboot
// at tier 2. The tree's new source files now meet the deny list (found
// from its go.mod or Cargo.toml, in the directories its tool builds
// from), //go:generate lines read as commands; go build, go vet and cargo
// check, which run none of it, another host, old files and a tree past
// the limit are not denied.
func TestBlindSpotBuildSources(t *testing.T) {
	dir, _ := lastingDir(t, "gocode-")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"a", "b", "c", "d", "ok"} {
		writeUnder(t, dir, m+"/go.mod", "module "+m+"\n")
	}
	const run = "package main\nimport \"os/exec\"\nfunc main() { exec.Command(\"reboot\").Run() }\n"
	writeUnder(t, dir, "a/main.go", run)
	writeUnder(t, dir, "b/main.go", "package main\nimport _ \"b/internal/x\"\nfunc main() {}\n")
	writeUnder(t, dir, "b/internal/x/x.go", "package x\nimport \"os/exec\"\nfunc init() { exec.Command(\"systemctl\", \"poweroff\").Run() }\n")
	writeUnder(t, dir, "c/x_test.go", "package c\nimport (\"os/exec\"; \"testing\")\nfunc TestX(t *testing.T) { exec.Command(\"halt\").Run() }\n")
	writeUnder(t, dir, "d/gen.go", "package d\n\n//go:generate sh -c \"reboot\"\n")
	writeUnder(t, dir, "ok/main.go", "package main\nimport \"fmt\"\nfunc main() { fmt.Println(\"hi\") }\n")
	writeUnder(t, dir, "ok/testdata/x.go", run) // go builds nothing from testdata
	writeUnder(t, dir, "plain/main.go", run)    // no module: the directory alone
	writeUnder(t, dir, "rs/Cargo.toml", "[package]\nname = \"rs\"\n")
	writeUnder(t, dir, "rs/src/main.rs", "mod x;\nfn main() { x::go(); }\n")
	writeUnder(t, dir, "rs/src/x.rs", "pub fn go() { std::process::Command::new(\"reboot\").status().unwrap(); }\n")
	writeUnder(t, dir, "rs/target/debug/build/x.rs", run) // cargo's output: not read
	writeUnder(t, dir, "rt/Cargo.toml", "[package]\nname = \"rt\"\n")
	writeUnder(t, dir, "rt/tests/it.rs", "#[test]\nfn t() { std::process::Command::new(\"halt\").status().unwrap(); }\n")
	for _, tc := range []struct{ cmd, file string }{
		{"cd a && go run .", "a/main.go"}, {"go run a/main.go", "a/main.go"}, {"go -C a run .", "a/main.go"},
		{"cd a && go test ./...", "a/main.go"}, {"cd b && go run .", "b/internal/x/x.go"}, {"cd b/internal && go test ./...", "b/internal/x/x.go"},
		{"go test ./c", "c/x_test.go"}, {"cd c && go test -run X", "c/x_test.go"}, {"cd d && go generate ./...", "d/gen.go"},
		{"go run " + dir + "/plain/main.go", "plain/main.go"},
		{"cd rs && cargo run", "rs/src/x.rs"}, {"cd rs/src && cargo r --release", "rs/src/x.rs"}, {"cd rt && cargo test", "rt/tests/it.rs"},
		{"cargo t --manifest-path rt/Cargo.toml", "rt/tests/it.rs"},
	} {
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
	for _, c := range []string{"cd a && go build", "cd a && go vet ./...", "cd ok && go run .", "cd ok && go test ./...", "go version",
		"cd rs && cargo check", "cd rs && cargo fmt"} {
		if v := p.Evaluate(Input{Command: "cd " + dir + " && " + c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: it runs none of the module's new code that runs reboot", c, formatVerdict(v))
		}
	}
	if v := old.Evaluate(Input{Command: "cd " + dir + "/a && go run ."}); v.Denied {
		t.Errorf("go run . of an old main.go: %s, want not denied", formatVerdict(v))
	}
	// Past maxTreeFiles new files the rest are not read: approval.
	for i := range maxTreeFiles + 1 {
		writeUnder(t, dir, fmt.Sprintf("many/p%03d/x.go", i), "package p\n")
	}
	writeUnder(t, dir, "many/go.mod", "module many\n")
	wantPastLimit(t, fmt.Sprintf("%d new Go files", maxTreeFiles+1), p.Evaluate(Input{Command: "cd " + dir + "/many && go test ./..."}), maxTreeFiles)
	// Past maxTreeEntries entries of the module the rest are not looked at:
	// the root, its go.mod and files up to the limit are.
	big := filepath.Join(dir, "big")
	writeUnder(t, big, "go.mod", "module big\n")
	for i := range maxTreeEntries - 2 {
		if err := os.WriteFile(filepath.Join(big, fmt.Sprintf("f%05d.txt", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goTest := "cd " + big + " && go test ./..."
	wantWithin(t, fmt.Sprintf("a module of %d entries", maxTreeEntries), p.Evaluate(Input{Command: goTest}))
	writeUnder(t, big, "zz.txt", "")
	wantPastLimit(t, fmt.Sprintf("a module of %d entries", maxTreeEntries+1), p.Evaluate(Input{Command: goTest}), maxTreeFiles)
}
