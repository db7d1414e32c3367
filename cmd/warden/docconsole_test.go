package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// consoleExamples are the outputs docs/console.md shows, made by the
// binary: a waiting call's progress message, an operator's session with
// warden approvals, and what a denied and an expired call return.
type consoleExamples struct {
	waiting, session, denied string
}

// consoleExample runs console-mode servers, three tier 3 calls (one
// approved from the CLI, one denied, one left to expire) and records what
// each side sees, with ids, times, paths and the local identity replaced
// by the docs' example values.
func consoleExample(t *testing.T) consoleExamples {
	t.Helper()
	var mu sync.Mutex
	var progress []string
	cfg := writeFile(t, "console:\n  enabled: true\napproval:\n  wait: 10m\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, r.Params.Message)
			mu.Unlock()
		},
	})
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	var repl []string // old, new pairs
	victim := filepath.Join(dir, "cache", "old")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	repl = append(repl, victim, "/srv/cache/old")
	var session strings.Builder
	op := func(args ...string) {
		out, errOut, code := operator(t, env, args...)
		if code != 0 {
			t.Fatalf("warden %v: exit %d\n%s", args, code, errOut)
		}
		session.WriteString("$ warden " + strings.Join(quoteArgs(args), " ") + "\n" + out)
	}

	done := callAsync(ctx, s.cs, "run_command", map[string]any{"command": "rm -rf " + victim})
	a := waitPending(t, env, 1)[0]
	idA := (strings.Repeat("9c1e5d0b7a4f4e1d8a9b0c1d2e3f4a5b", 4))[:len(a.ID)]
	repl = append(repl, a.ID, idA, a.Digest, "5b0e…")
	op("approvals")
	op("approvals", "show", a.ID)
	op("approvals", "approve", a.ID, "--reason", "planned cleanup")
	if r := <-done; r.err != nil || structured(t, r.res)["status"] != "ok" {
		t.Fatalf("the approved call: %v %v", r.err, r.res)
	}
	if _, err := os.Stat(victim); !os.IsNotExist(err) {
		t.Fatalf("the approved rm did not run: %v", err)
	}

	done = callAsync(ctx, s.cs, "run_command", map[string]any{"command": "rm -rf " + victim})
	b := waitPending(t, env, 1)[0]
	repl = append(repl, b.ID, "0d4c…")
	out, errOut, code := operator(t, env, "approvals", "deny", b.ID, "--reason", "not on the build box")
	if code != 0 {
		t.Fatalf("deny: exit %d\n%s%s", code, out, errOut)
	}
	session.WriteString(`$ warden approvals deny 0d4c… --reason "not on the build box"` + "\n")
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	denied := resultLine(t, r.res)

	// The expiry, from a second server whose calls wait 2 s.
	cfg = writeFile(t, "console:\n  enabled: true\napproval:\n  wait: 2s\n")
	env2, state2 := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	s2 := startStdio(t, env2, state2, nil)
	done = callAsync(ctx, s2.cs, "run_command", map[string]any{"command": "rm -rf " + victim})
	if r = <-done; r.err != nil {
		t.Fatal(r.err)
	}
	expired := resultLine(t, r.res)

	mu.Lock()
	waiting := ""
	if len(progress) > 0 {
		waiting = progress[0]
	}
	mu.Unlock()
	if waiting == "" {
		t.Fatal("no progress message while waiting")
	}
	norm := func(s string) string {
		s = strings.NewReplacer(repl...).Replace(s)
		s = regexp.MustCompile(`local:\S+ \(uid \d+\)`).ReplaceAllString(s, "local:alice (uid 1000)")
		s = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d, expires \d{4}-\d\d-\d\d \d\d:\d\d:\d\d`).ReplaceAllString(s, "2026-11-24 04:10:02, expires 2026-11-24 04:20:02")
		s = regexp.MustCompile(`; \d+m?\d*s left`).ReplaceAllString(s, "; 9m50s left")
		s = strings.ReplaceAll(s, "within 2s", "within 10m0s")
		s = regexp.MustCompile(`approval [0-9a-f]{16,} expired`).ReplaceAllString(s, "approval 9c1e… expired")
		s = strings.ReplaceAll(s, "e2e/1", "claude-code/2.1.0")
		s = regexp.MustCompile(`local:[a-z_][a-z0-9_.-]*`).ReplaceAllString(s, "local:alice")
		// The list: the docs' 12s waiting, realigned as warden aligns it.
		return regexp.MustCompile(`(?m)^ID  .*\n`+idA+`  .*\n`).ReplaceAllStringFunc(s, func(table string) string {
			var b strings.Builder
			tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
			for i, row := range strings.Split(strings.TrimSuffix(table, "\n"), "\n") {
				cells := regexp.MustCompile(`\s{2,}`).Split(row, -1)
				if i > 0 && len(cells) > 1 {
					cells[1] = "12s"
				}
				fmt.Fprintln(tw, strings.Join(cells, "\t"))
			}
			tw.Flush()
			return b.String()
		})
	}
	return consoleExamples{
		waiting: norm(waiting) + "\n",
		session: norm(session.String()),
		denied:  norm(denied + "\n" + expired + "\n"),
	}
}

// resultLine is a call's structured result as one JSON line.
func resultLine(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	b, err := json.Marshal(structured(t, res))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// quoteArgs quotes the arguments a reader would quote in a shell.
func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if strings.ContainsAny(a, " '") {
			out[i] = `"` + a + `"`
		}
	}
	return out
}
