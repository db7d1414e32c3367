package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/audit"
)

// writeAuditLog appends n records to the state dir's log as a server
// would, rotating every few KiB.
func writeAuditLog(t *testing.T, state string, n int, keep audit.Keep) []audit.Record {
	t.Helper()
	l, err := audit.Open(audit.Options{Path: filepath.Join(state, "audit.jsonl"), RotateBytes: 4096, Keep: keep, Node: "nas1"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var out []audit.Record
	for i := 0; i < n; i++ {
		r, err := l.Append(context.Background(), audit.Record{Tool: "run_command", Decision: "allow", Status: "ok",
			Args: []byte(fmt.Sprintf(`{"command":"echo %d"}`, i))})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// cutLines keeps the first n lines of path.
func cutLines(t *testing.T, path string, n int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	os.WriteFile(path, bytes.Join(lines[:n], nil), 0o600)
}

func verifyCLI(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	out, err := execCommand(append([]string{"audit", "verify"}, args...), env).CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

func TestAuditVerifyTail(t *testing.T) {
	t.Run("intact", func(t *testing.T) {
		env, state := wardenEnv(t)
		writeAuditLog(t, state, 30, audit.Keep{})
		if out, code := verifyCLI(t, env); code != 0 || !strings.HasPrefix(out, "ok: 30 records in ") || strings.Contains(out, "note:") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("truncated", func(t *testing.T) {
		env, state := wardenEnv(t)
		writeAuditLog(t, state, 30, audit.Keep{})
		path := filepath.Join(state, "audit.jsonl")
		b, _ := os.ReadFile(path)
		n := bytes.Count(b, []byte("\n"))
		cutLines(t, path, n-3)
		out, code := verifyCLI(t, env)
		if code != 1 || !strings.Contains(out, "missing: 3 records missing after seq 27") {
			t.Fatalf("exit %d, want 1 and 3 records missing after seq 27:\n%s", code, out)
		}
	})
	t.Run("truncated and head rewritten", func(t *testing.T) {
		env, state := wardenEnv(t)
		recs := writeAuditLog(t, state, 30, audit.Keep{})
		path := filepath.Join(state, "audit.jsonl")
		b, _ := os.ReadFile(path)
		cutLines(t, path, bytes.Count(b, []byte("\n"))-3)
		// Rewrite the head to match, as an editor of the state dir can.
		os.WriteFile(audit.HeadPath(path), []byte(fmt.Sprintf(`{"seq":27,"hash":%q}`, recs[26].Hash)), 0o600)
		// The host alone cannot tell...
		if out, code := verifyCLI(t, env); code != 0 {
			t.Fatalf("exit %d:\n%s", code, out)
		}
		// ...an anchor kept elsewhere can.
		out, code := verifyCLI(t, env, "--anchor", fmt.Sprintf("%d:%s", recs[29].Seq, recs[29].Hash))
		if code != 1 || !strings.Contains(out, "FAIL anchor 30: missing: 3 records missing after seq 27") {
			t.Fatalf("exit %d, want the anchor to find 3 missing records:\n%s", code, out)
		}
		if out, code := verifyCLI(t, env, "--anchor", fmt.Sprintf("%d:%s", recs[9].Seq, recs[9].Hash)); code != 0 {
			t.Fatalf("an anchor the log still holds: exit %d:\n%s", code, out)
		}
	})
	t.Run("middle file deleted", func(t *testing.T) {
		env, state := wardenEnv(t)
		writeAuditLog(t, state, 60, audit.Keep{})
		files, _ := audit.Files(filepath.Join(state, "audit.jsonl"))
		if len(files) < 3 {
			t.Fatalf("files: %v", files)
		}
		os.Remove(files[1])
		out, code := verifyCLI(t, env)
		if code != 1 || !strings.Contains(out, filepath.Base(files[2])+":1: deleted:") {
			t.Fatalf("exit %d, want deleted at the start of %s:\n%s", code, files[2], out)
		}
	})
	t.Run("pruned", func(t *testing.T) {
		env, state := wardenEnv(t)
		writeAuditLog(t, state, 60, audit.Keep{Files: 1})
		out, code := verifyCLI(t, env)
		if code != 0 || !strings.Contains(out, "(earlier files pruned by retention)") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("no head", func(t *testing.T) {
		env, state := wardenEnv(t)
		writeAuditLog(t, state, 5, audit.Keep{})
		os.Remove(audit.HeadPath(filepath.Join(state, "audit.jsonl")))
		out, code := verifyCLI(t, env)
		if code != 0 || !strings.Contains(out, "note: no head file") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
	t.Run("bad anchor", func(t *testing.T) {
		env, state := wardenEnv(t)
		writeAuditLog(t, state, 5, audit.Keep{})
		out, code := verifyCLI(t, env, "--anchor", "five:abc")
		if code != 2 || !strings.Contains(out, "anchor") || strings.Contains(out, "goroutine") {
			t.Fatalf("exit %d:\n%s", code, out)
		}
	})
}
