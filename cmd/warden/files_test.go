package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileTools drives the file tools through the binary: reads of
// secrets and of warden's own state are refused whatever the spelling,
// writes need approval in guarded mode and land atomically.
func TestFileTools(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=guarded")
	s := startStdio(t, env, state, nil)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello world\n"), 0o644)
	os.Symlink(filepath.Join(state, "audit.jsonl"), filepath.Join(dir, "audit-link"))
	os.Symlink("/etc/shadow", filepath.Join(dir, "shadow-link"))

	_, got := callTool(t, s.cs, "read_file", map[string]any{"path": filepath.Join(dir, "hello.txt")})
	if got["status"] != "ok" || got["content"] != "hello world\n" || got["encoding"] != "utf-8" {
		t.Fatalf("read_file: %v", got)
	}
	for _, p := range []string{"/etc/shadow", "/etc/../etc/shadow", filepath.Join(dir, "shadow-link"), filepath.Join(state, "audit.jsonl"),
		filepath.Join(dir, "audit-link"), "/proc/self/environ", "/proc/1/environ", "/dev/sda", "relative/path", dir + "/hello.txt\n"} {
		res, got := callTool(t, s.cs, "read_file", map[string]any{"path": p})
		if got["status"] == "ok" {
			t.Errorf("read_file %q was allowed: %s", p, text(res))
		}
	}
	_, got = callTool(t, s.cs, "list_dir", map[string]any{"path": dir})
	if got["status"] != "ok" || len(got["entries"].([]any)) != 3 {
		t.Fatalf("list_dir: %v", got)
	}
	_, got = callTool(t, s.cs, "stat_file", map[string]any{"path": filepath.Join(dir, "nope")})
	if got["status"] != "ok" || got["exists"] != false {
		t.Fatalf("stat_file of a missing file: %v", got)
	}
	target := filepath.Join(dir, "new.bin")
	args := map[string]any{"path": target, "content": base64.StdEncoding.EncodeToString([]byte{0, 1, 2}), "encoding": "base64"}
	_, got = callTool(t, s.cs, "write_file", args)
	if got["status"] != "approval_required" {
		t.Fatalf("write_file in guarded mode: %v", got)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("write_file wrote before approval")
	}
	_, got = callApproved(t, s.cs, "write_file", args)
	if got["status"] != "ok" || got["created"] != true {
		t.Fatalf("approved write_file: %v", got)
	}
	if b, _ := os.ReadFile(target); string(b) != "\x00\x01\x02" {
		t.Fatalf("written content %q", b)
	}
	_, got = callApproved(t, s.cs, "write_file", map[string]any{"path": filepath.Join(state, "audit.jsonl"), "content": "x", "overwrite": true})
	if got["status"] == "ok" {
		t.Fatal("write_file over warden's audit log was allowed")
	}
	audit, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if !strings.Contains(string(audit), `"tool":"write_file"`) || !strings.Contains(string(audit), `"tool":"read_file"`) {
		t.Fatal("file tool calls are not audited")
	}
}
