package policy

import (
	"fmt"
	"strings"
	"testing"
)

// TestBlindSpotLinkedTrees: a build compiles more than the module or crate
// it runs in, and none of the rest was read. go run with a go.mod's
// replace => ../lib, or in a workspace whose go.work uses ../lib, ran the
// new ../lib's init at tier 2; cargo build ran a path dependency's, a
// workspace member's or the enclosing workspace's new build.rs, and
// compiled with a new procedural macro. Each linked tree now meets the
// deny list as the tree's own files do; replace with a module path, a
// path dependency's library on a build that runs none of it, old files
// and another host are not denied, and past maxLinkedTrees trees a call
// takes approval.
func TestBlindSpotLinkedTrees(t *testing.T) {
	dir, _ := lastingDir(t, "linked-")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	const goInit = "package lib\nimport \"os/exec\"\nfunc init() { exec.Command(\"reboot\").Run() }\n"
	const rsRun = "fn main() { std::process::Command::new(\"reboot\").status().unwrap(); }\n"
	const app = "package main\nfunc main() {}\n"
	for name, text := range map[string]string{
		"g/app/go.mod": "module app\n\nrequire lib v0.0.0\n\nreplace lib => ../lib\n", "g/app/main.go": app,
		"g/blk/go.mod": "module blk\n\nreplace (\n\tother v1.0.0 => other.example/x v1.2.0\n\tlib v0.0.0 => ../lib // local\n)\n", "g/blk/main.go": app,
		"g/mod/go.mod": "module mod\n\nreplace lib => example.com/lib v1.0.0\n", "g/mod/main.go": app,
		"g/lib/go.mod": "module lib\n", "g/lib/lib.go": goInit,
		"w/go.work": "go 1.22\n\nuse (\n\t./app\n\t../wlib\n)\n", "w/app/go.mod": "module wapp\n", "w/app/main.go": app,
		"w1/go.work": "go 1.22\nuse ./app\nuse ../wlib\n", "w1/app/go.mod": "module w1app\n", "w1/app/main.go": app,
		"wlib/go.mod": "module wlib\n", "wlib/x.go": goInit,
		"c/app/Cargo.toml": "[package]\nname = \"app\"\n\n[dependencies]\nlib = { version = \"0.1\", path = \"../lib\" }\n",
		"c/tbl/Cargo.toml": "[package]\nname = \"tbl\"\n\n[dependencies.lib]\npath = \"../lib\"\n",
		"c/lib/Cargo.toml": "[package]\nname = \"lib\"\n", "c/lib/build.rs": rsRun,
		"c/dep/Cargo.toml":   "[package]\nname = \"dep\"\n[dependencies]\nquiet = { path = \"../quiet\" }\n",
		"c/quiet/Cargo.toml": "[package]\nname = \"quiet\"\n", "c/quiet/src/lib.rs": rsRun, // a library: runs on cargo run, not build
		"c/pm/Cargo.toml":  "[package]\nname = \"pm\"\n[dependencies]\nmac = { path = \"../mac\" }\n",
		"c/mac/Cargo.toml": "[package]\nname = \"mac\"\n\n[lib]\nproc-macro = true\n", "c/mac/src/lib.rs": rsRun,
		"ws/Cargo.toml": "[workspace]\nmembers = [\n  \"a\",\n  \"crates/*\",\n]\n", "ws/a/Cargo.toml": "[package]\nname = \"a\"\n",
		"ws/crates/b/Cargo.toml": "[package]\nname = \"b\"\n", "ws/crates/b/build.rs": rsRun,
	} {
		writeUnder(t, dir, name, text)
	}
	wantProjectDenied(t, p, dir, []projectCase{
		{"cd g/app && go run .", "g/lib/lib.go"}, {"cd g/app && go test ./...", "g/lib/lib.go"}, {"go -C g/app run .", "g/lib/lib.go"},
		{"cd g/blk && go run .", "g/lib/lib.go"}, {"cd w/app && go run .", "wlib/x.go"}, {"cd w && go run ./app", "wlib/x.go"},
		{"cd w1/app && go test", "wlib/x.go"},
		{"cd c/app && cargo build", "c/lib/build.rs"}, {"cd c/app/src && cargo check", "c/lib/build.rs"}, {"cd c/tbl && cargo b", "c/lib/build.rs"},
		{"cd c/dep && cargo run", "c/quiet/src/lib.rs"}, {"cd c/pm && cargo build", "c/mac/src/lib.rs"}, {"cd c/pm && cargo clippy", "c/mac/src/lib.rs"},
		{"cd ws && cargo build", "ws/crates/b/build.rs"}, {"cd ws/a && cargo build", "ws/crates/b/build.rs"},
		{"cargo build --manifest-path ws/a/Cargo.toml", "ws/crates/b/build.rs"},
	})
	wantNotDeniedIn(t, p, dir, false, []string{"cd g/app && go build", "cd g/mod && go run .", "cd c/dep && cargo build"})
	wantNotDeniedIn(t, p, dir, true, []string{"cd g/app && go run .", "cd w/app && go run .", "cd c/app && cargo build", "cd ws/a && cargo build"})
	// maxLinkedTrees path dependencies are read; one more takes approval.
	for _, n := range []int{maxLinkedTrees, maxLinkedTrees + 1} {
		var deps strings.Builder
		for i := range n {
			fmt.Fprintf(&deps, "d%d = { path = \"../d%d\" }\n", i, i)
			writeUnder(t, dir, fmt.Sprintf("many/d%d/Cargo.toml", i), "[package]\n")
		}
		writeUnder(t, dir, fmt.Sprintf("many/m%d/Cargo.toml", n), "[package]\n[dependencies]\n"+deps.String())
		v := p.Evaluate(Input{Command: fmt.Sprintf("cd %s/many/m%d && cargo build", dir, n)})
		if n > maxLinkedTrees {
			wantPastLimit(t, fmt.Sprintf("%d path dependencies", n), v, maxLinkedTrees)
		} else {
			wantWithin(t, fmt.Sprintf("%d path dependencies", n), v)
		}
	}
	writeUnder(t, dir, "many/d15/build.rs", rsRun) // the last one read
	if v := p.Evaluate(Input{Command: fmt.Sprintf("cd %s/many/m%d && cargo build", dir, maxLinkedTrees)}); !v.Denied {
		t.Errorf("the last path dependency within the limit was not read: %s", formatVerdict(v))
	}
}
