package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestDeclarativeToolEnvApart: a declarative tool's run.env hands its
// program a value from warden's environment (an API key). Programs of one
// Landlock domain read one another's /proc/PID/environ, fd and mem, so a
// read running meanwhile — a repository's hook that git status starts,
// which no classifier sees — would read the key off the tool's program.
// Each tool's programs run in a domain of their own, at every level: the
// hook, in every spelling, finds nothing, as root and as another user.
func TestDeclarativeToolEnvApart(t *testing.T) {
	asRootAndNobody(t, declareApart)
}

// apartReaders read the environment, descriptors and memory of a program
// found by its command line (pid in $p), in the ways a shell or a tool
// can.
var apartReaders = []string{
	`cat /proc/$p/environ`,
	`tr '\0' '\n' < /proc/$p/environ`,
	`cat /proc/$p/task/*/environ`,
	`strings /proc/$p/environ`,
	`xargs -0 -n1 < /proc/$p/environ`,
	`for f in /proc/[0-9]*/environ; do cat "$f"; done`,
	`grep -a -h -r canary /proc/[0-9]*/environ`,
	`ps eww -p $p`,
	`ps auxeww`,
	`cat /proc/$(cut -d' ' -f4 /proc/$p/stat)/environ`,
	`cat /proc/$p/root/proc/$p/environ`,
	`cat /proc/self/root/proc/$p/environ`,
	`python3 -c 'import sys; print(open("/proc/%s/environ" % sys.argv[1], "rb").read())' $p`,
	`python3 -c 'import os, sys; os.environ.clear(); print(open("/proc/%s/task/%s/environ" % (sys.argv[1], sys.argv[1]), "rb").read())' $p`,
	`gdb -p $p -batch -ex 'info proc'`,
	`timeout 2 strace -f -p $p`,
}

func declareApart(t *testing.T, nobody bool) {
	dir := programDir(t)
	const key = "canary-6f1d-tool-api-key"
	tools := filepath.Join(dir, "tools.yaml")
	var tdef strings.Builder
	tdef.WriteString("mcp:\n  tools:\n")
	for _, tier := range []int{0, 1} {
		fmt.Fprintf(&tdef, `    - name: keyed_%d
      description: runs with an API key from warden's environment
      tier: %d
      params:
        n: {type: string, description: seconds, required: true}
      run:
        command: sleep {{ .n }}
        env: [API_KEY]
`, tier, tier)
	}
	cfg := filepath.Join(dir, "warden.yaml")
	for p, body := range map[string]string{tools: tdef.String(), cfg: "tools: [" + tools + "]\n"} {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The hook finds the tool's program by its command line and runs
	// every reader on it, each behind a line naming it.
	repo := readingHookRepo(t, dir, "^sleep [0-9]*[.][0-9]37$", "TOOL-PID", apartReaders)
	if nobody && unix.Geteuid() == 0 {
		// git runs no hook in a repository another user owns.
		filepath.Walk(repo, func(p string, _ os.FileInfo, _ error) error { return os.Lchown(p, 65534, 65534) })
	}

	// Each mode runs the tool and the reader at one level: read or temp.
	// Approved programs keep the capabilities that let them read any
	// process of their user's, as they can warden's scrubbed environ
	// (docs/security.md): that is for the approval to judge.
	cases := []struct {
		mode, tool, read string
	}{
		{"readonly", "keyed_0", "git status"},
		{"guarded", "keyed_1", "mktemp && git status"},
		{"open", "keyed_0", "git status"},
	}
	for ci, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			env, state := wardenEnv(t, "WARDEN_MODE="+c.mode, "WARDEN_CONFIG="+cfg, "API_KEY="+key, "SHELL=/bin/sh")
			cs := startConfined(t, env, state, nobody)
			secs := fmt.Sprintf("4.%d37", ci)
			done := make(chan string, 1)
			go func() {
				res, got := callTool(t, cs, c.tool, map[string]any{"n": secs})
				done <- fmt.Sprintf("%v %s", got["status"], text(res))
			}()
			res, got := callTool(t, cs, "run_command", map[string]any{"command": c.read, "cwd": repo})
			out := text(res)
			if got["status"] != "ok" || !strings.Contains(out, "HOOK-RAN") || strings.Contains(out, "TOOL-PID=\n") {
				t.Fatalf("the reader did not run beside the tool: %v\n%s", got, out)
			}
			for i, r := range apartReaders {
				t.Run(fmt.Sprintf("%02d", i), func(t *testing.T) {
					_, seg, _ := strings.Cut(out, fmt.Sprintf("== %d\n", i))
					seg, _, _ = strings.Cut(seg, "\n== ")
					if strings.Contains(seg, key) {
						t.Errorf("%s read the tool's key from warden's environment:\n%s", r, seg)
					}
				})
			}
			if tool := <-done; !strings.HasPrefix(tool, "ok") {
				t.Errorf("the tool did not run: %s", tool)
			}
			alive(t, cs, c.read)
		})
	}
}
