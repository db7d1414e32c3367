package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
)

// TestHungAuditLog: with the audit log on a FUSE mount (bindfs) whose
// daemon is stopped, as on an NFS share whose server is gone, a file
// tool's call is answered after exec.default_timeout rather than hang on
// its record (no program starts meanwhile: the confinement looks at
// warden's own files before each start);
// server_info answers that the log is not healthy and why; with
// audit.on_failure: refuse a call of tier 2 is refused, and does not run.
// Once the daemon answers the records written meanwhile land, in order,
// and the log is healthy again.
func TestHungAuditLog(t *testing.T) {
	// Mostly waits on a mount that does not answer, in a warden of its own.
	t.Parallel()
	src := t.TempDir()
	_, mnt := hostfstest.MountPoint(t)
	fuse := hostfstest.MountFUSE(t, src, mnt)
	cfg := filepath.Join(t.TempDir(), "warden.yaml")
	if err := os.WriteFile(cfg, []byte("exec:\n  default_timeout: 2s\naudit:\n  path: "+filepath.Join(mnt, "audit.jsonl")+
		"\n  on_failure: refuse\nsessions:\n  idle_timeout: 6s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, state := wardenEnv(t, "WARDEN_MODE=guarded", "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	run := func(command string) map[string]any {
		t.Helper()
		_, got := callTool(t, s.cs, "run_command", map[string]any{"command": command, "timeout_s": 5})
		return got
	}
	if got := run("echo before"); got["status"] != "ok" {
		t.Fatalf("a command with the audit log answering: %v", got)
	}

	during := filepath.Join(t.TempDir(), "during")
	if err := os.WriteFile(during, []byte("read during\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := startSession(t, s.cs, nil)
	b := startSession(t, s.cs, nil)
	resume := fuse.Stop(t)
	// The sessions warden ends itself are audited within the same bound:
	// the sweep that ended a goes on to end b once b is idle.
	listed := func(id string) bool {
		_, got := callTool(t, s.cs, "session_list", nil)
		return strings.Contains(fmt.Sprint(got["sessions"]), id)
	}
	waitGone := func(id string, meanwhile func()) {
		t.Helper()
		for deadline := time.Now().Add(45 * time.Second); listed(id); meanwhile() {
			if time.Now().After(deadline) {
				t.Fatalf("session %s was not ended by the idle sweep", id)
			}
		}
	}
	waitGone(a.id, func() { callTool(t, s.cs, "session_read", map[string]any{"session_id": b.id}) })
	waitGone(b.id, func() { time.Sleep(500 * time.Millisecond) })
	if _, got := callTool(t, s.cs, "read_file", map[string]any{"path": during}); got["status"] != "ok" || got["content"] != "read during\n" {
		t.Errorf("a read with the audit log not answering: %v; want it answered", got)
	}
	_, info := callTool(t, s.cs, "server_info", map[string]any{})
	if info["audit_healthy"] != false || !strings.Contains(fmt.Sprint(info["audit_reason"]), "waited on the audit log for more than 2s") {
		t.Errorf("server_info with the audit log not answering: healthy %v, reason %v", info["audit_healthy"], info["audit_reason"])
	}
	// The confinement's rules enumerated the log's directory, which is
	// checked before each start: a read's rules, built before, serve
	// while the check does not answer (they grant nothing newer), and a
	// read runs. A benign call's rules are yet to be built, which lists
	// the directory: the call is refused in its own time, saying why, and
	// the next one waits on it, as bounded, while reads still run.
	began := time.Now()
	temp := t.TempDir()
	for i, command := range []string{"echo during", "touch " + filepath.Join(temp, "one"), "echo again", "touch " + filepath.Join(temp, "two")} {
		got := run(command)
		if i%2 == 0 {
			if want := strings.TrimPrefix(command, "echo ") + "\n"; got["status"] != "ok" || got["stdout"] != want {
				t.Errorf("%s with the audit log's directory not answering: %v; want it run", command, got)
			}
		} else if got["status"] == "ok" || !strings.Contains(fmt.Sprint(got), "is not answering") {
			t.Errorf("%s with the audit log's directory not answering: %v; want it refused saying why", command, got)
		}
	}
	if took := time.Since(began); took > 50*time.Second {
		t.Errorf("four commands took %s; want the refused ones their own timeout (5s) each", took)
	}
	for _, name := range []string{"one", "two"} {
		if _, err := os.Stat(filepath.Join(temp, name)); err == nil {
			t.Errorf("a refused call made %s", name)
		}
	}
	marker := filepath.Join(t.TempDir(), "ran")
	got := run("chmod 0600 " + marker + "; touch /srv/warden-hungaudit; touch " + marker)
	if got["status"] != "denied" || !strings.Contains(fmt.Sprint(got["reason"]), "the audit log cannot be written") {
		t.Errorf("a tier-2 call with the audit log not answering: %v; want it refused", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the refused call ran")
	}

	resume()
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, info := callTool(t, s.cs, "server_info", map[string]any{})
		if info["audit_healthy"] == true {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the audit log once the daemon answers: %v", info["audit_reason"])
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got := run("echo after"); got["status"] != "ok" {
		t.Errorf("a command once the audit log answers again: %v", got)
	}
	log, err := os.ReadFile(filepath.Join(src, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	first, later := strings.Index(string(log), "echo before"), strings.Index(string(log), during)
	if first < 0 || later < first || !strings.Contains(string(log), "the audit log cannot be written") {
		t.Errorf("the records written while the log did not answer are missing or out of order:\n%s", log)
	}
	if n := strings.Count(string(log), `"tool":"session_end"`); n != 2 {
		t.Errorf("%d records of the sessions the sweep ended; want 2:\n%s", n, log)
	}
}
