package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOwnersApart: over HTTP several identities share one warden. Programs
// of one Landlock domain read one another's environment, descriptors and
// terminals, so while every read of a level shared one, bob's read — a
// repository's hook that git status runs, which no classifier sees —
// read what alice's call running meanwhile was given: its env values, its
// stdin. Below tier 2 each identity's calls have a domain of their own;
// bob's own calls still see one another (the control).
func TestOwnersApart(t *testing.T) {
	dir := programDir(t)
	// The hook waits for the victim's program, then reads it every way.
	repo := readingHookRepo(t, dir, "^sleep 4[.]5[0-9]7$", "VICTIM", ownerReaders)
	env, state := wardenEnv(t, "WARDEN_MODE=guarded", "WARDEN_TOKEN="+testToken,
		"WARDEN_CONFIG="+writeFile(t, "http:\n  trusted_proxy_header: X-User\n"))
	s := startHTTP(t, env, state)
	alice, bob := connectAs(t, s.url, "alice"), connectAs(t, s.url, "bob")
	_, info := callTool(t, bob, "server_info", nil)
	requireConfinement(t, info)
	for i, c := range []struct {
		name   string
		victim *mcp.ClientSession
		read   string // "command" (tier 0) or "benign" (tier 1)
		seen   bool
	}{
		{"read", alice, "git status", false},
		{"benign", alice, "mktemp && git status", false},
		{"own-call", bob, "git status", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			// One victim call and bob's read beside it; the victim sleeps
			// 4.5<d>7 s, which the hook waits for.
			beside := func(d int) string {
				t.Helper()
				secs := fmt.Sprintf("4.5%d7", d)
				done := make(chan string, 1)
				go func() {
					// tier 1 for the benign case: the victim's call is at
					// the reader's level.
					cmd := "sleep " + secs
					if c.read != "git status" {
						cmd = "mktemp >/dev/null && " + cmd
					}
					res, got := callTool(t, c.victim, "run_command", map[string]any{"command": cmd,
						"env": map[string]any{"DB_URL": "canary-4d0c-victim-env"}, "stdin": "canary-4d0c-victim-stdin\n"})
					done <- fmt.Sprintf("%v %s", got["status"], text(res))
				}()
				// The read starts once the victim's program runs: two calls
				// of one identity and level started at the same instant may
				// get two workers, and so two domains, which would fail the
				// control for a reason that is not the one it checks.
				waitForProgram(t, "^sleep "+strings.ReplaceAll(secs, ".", "[.]")+"$")
				res, got := callTool(t, bob, "run_command", map[string]any{"command": c.read, "cwd": repo})
				out := text(res)
				if got["status"] != "ok" || !strings.Contains(out, "HOOK-RAN") || strings.Contains(out, "VICTIM=\n") {
					t.Fatalf("the reader did not run beside the victim: %v\n%s", got, out)
				}
				if v := <-done; !strings.HasPrefix(v, "ok") {
					t.Fatalf("the victim's call did not run: %s", v)
				}
				return out
			}
			out := beside(i)
			// The control may also miss when the rules were built again
			// between the two starts (a directory they enumerated, such
			// as /var/lib or /dev, changed under tests running beside
			// this one): a new domain, stricter still. It is tried again.
			for k := 1; c.seen && !strings.Contains(out, "canary-4d0c-victim-env") && k < 3; k++ {
				t.Logf("control attempt %d missed; again", k)
				out = beside(i + 3*k)
			}
			for j, r := range ownerReaders {
				t.Run(fmt.Sprintf("%02d", j), func(t *testing.T) {
					_, seg, _ := strings.Cut(out, fmt.Sprintf("== %d\n", j))
					seg, _, _ = strings.Cut(seg, "\n== ")
					if c.seen {
						return // bob's own: what the control below needs
					}
					if strings.Contains(seg, "canary-4d0c") {
						t.Errorf("bob's %s read alice's call:\n%s", r, seg)
					}
				})
			}
			if c.seen && !strings.Contains(out, "canary-4d0c-victim-env") {
				t.Errorf("control: bob's read did not see bob's own call, so this shows nothing:\n%s", out)
			}
		})
	}
}

// waitForProgram waits, at most 30 s, until a program whose command line
// matches pattern runs.
func waitForProgram(t *testing.T, pattern string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if exec.Command("pgrep", "-f", pattern).Run() == nil {
			return
		}
	}
	t.Fatalf("no program matching %q started within 30s", pattern)
}

// ownerReaders read another program (pid in $p) and its shell parent.
var ownerReaders = []string{
	`tr '\0' '\n' < /proc/$p/environ`,
	`cat /proc/$(cut -d' ' -f4 /proc/$p/stat)/environ`,
	`for f in /proc/[0-9]*/environ; do cat "$f"; done`,
	`ps eww -p $p`,
	`cat /proc/$p/task/*/environ`,
	`timeout 1 cat /proc/$(cut -d' ' -f4 /proc/$p/stat)/fd/0`,
	`python3 -c 'import sys; print(open("/proc/%s/environ" % sys.argv[1], "rb").read())' $p`,
}

// readingHookRepo makes a repository in dir whose core.fsmonitor hook, run
// by any git status there, waits for a program whose command line matches
// pattern, prints its pid after "NAME=", and runs each of readers on it
// ($p), each after a line "== i"; it returns the repository's path.
func readingHookRepo(t *testing.T, dir, pattern, name string, readers []string) string {
	t.Helper()
	var hook strings.Builder
	fmt.Fprintf(&hook, "echo HOOK-RAN\nfor i in $(seq 100); do p=$(pgrep -f '%s') && break; sleep 0.1; done\necho %s=$p\n", pattern, name)
	for i, r := range readers {
		fmt.Fprintf(&hook, "echo '== %d'\n%s 2>&1\n", i, r)
	}
	hook.WriteString("echo '== end'\n")
	if err := os.WriteFile(filepath.Join(dir, "hook.sh"), []byte(hook.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(dir, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, repo, "init", "-q")
	gitIn(t, dir, repo, "config", "core.fsmonitor", "sh "+filepath.Join(dir, "hook.sh")+" >&2")
	return repo
}
