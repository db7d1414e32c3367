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

// TestHungMountLooksBounded: every look at a mount whose server does not
// answer holds one of warden's threads until the mount answers, and the Go
// runtime ends a process past 10,000 threads. With exec.max_waiting_looks
// 3 and a FUSE mount (bindfs) whose daemon is stopped, three file calls
// there leave three looks waiting; the next file call, even of a directory
// that answers — list_dir, read_file, stat_file, copy_file, write_file —
// is refused at once, saying why, and writes nothing, while a command that
// looks at no file still runs. Classifications have a bound of their own: three
// commands naming the mount leave three waiting, and the next command is
// refused as not classified and does not run, while server_info, which
// runs nothing, answers and counts what waits. Once the daemon answers,
// the looks end and both work again.
func TestHungMountLooksBounded(t *testing.T) {
	// Mostly waits on a mount that does not answer, in a warden of its own.
	t.Parallel()
	src := t.TempDir()
	_, mnt := hostfstest.MountPoint(t)
	for _, name := range []string{"a", "b", "c"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fuse := hostfstest.MountFUSE(t, src, mnt)
	answering := t.TempDir()
	if err := os.WriteFile(filepath.Join(answering, "here"), nil, 0o644); err != nil {
		t.Fatal(err)
	}

	cfg := filepath.Join(t.TempDir(), "warden.yaml")
	if err := os.WriteFile(cfg, []byte("policy:\n  classify_timeout: 2s\nexec:\n  default_timeout: 2s\n  max_waiting_looks: 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// open: copy_file and write_file reach their look without approval.
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	one := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		_, got := callTool(t, s.cs, tool, args)
		return got
	}
	listAnswering := func() map[string]any {
		return one("list_dir", map[string]any{"path": answering})
	}
	if got := listAnswering(); got["status"] != "ok" {
		t.Fatalf("list_dir of an answering directory: %v", got)
	}

	resume := fuse.Stop(t)
	// The calls of a group wait on the mount together.
	all := func(tool string, args []map[string]any) []map[string]any {
		t.Helper()
		calls := make([]call, len(args))
		for i, a := range args {
			calls[i] = call{tool, a}
		}
		return callTogether(t, s.cs, calls)
	}
	var stats []map[string]any
	for _, name := range []string{"a", "b", "c"} {
		stats = append(stats, map[string]any{"path": filepath.Join(mnt, name)})
	}
	for i, got := range all("stat_file", stats) {
		if got["status"] != "error" || !strings.Contains(fmt.Sprint(got["reason"]), "did not answer within 2s") {
			t.Fatalf("stat_file %v with the daemon stopped: %v; want it given up on", stats[i], got)
		}
	}
	busy := "3 earlier looks at files are still waiting"
	start := time.Now()
	got := listAnswering()
	if got["status"] != "error" || !strings.Contains(fmt.Sprint(got["reason"]), busy) {
		t.Fatalf("list_dir of an answering directory with 3 looks waiting: %v; want it refused, saying why", got)
	}
	t.Logf("refused after %s", time.Since(start))
	copied, written := filepath.Join(answering, "copied"), filepath.Join(answering, "written")
	for _, c := range []call{
		{"read_file", map[string]any{"path": filepath.Join(answering, "here")}},
		{"stat_file", map[string]any{"path": filepath.Join(answering, "here")}},
		{"copy_file", map[string]any{"from": filepath.Join(answering, "here"), "to": copied}},
		{"write_file", map[string]any{"path": written, "content": "x"}},
	} {
		if got := one(c.tool, c.args); got["status"] != "error" || !strings.Contains(fmt.Sprint(got["reason"]), busy) {
			t.Errorf("%s with 3 looks waiting: %v; want it refused", c.tool, got)
		}
	}
	for _, p := range []string{copied, written} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("a refused call made %s", p)
		}
	}
	if got := one("run_command", map[string]any{"command": "echo still", "timeout_s": 5}); got["status"] != "ok" || got["stdout"] != "still\n" {
		t.Errorf("a command that looks at no file, with the file looks all waiting: %v", got)
	}
	if got := one("run_command", map[string]any{"command": "echo x", "cwd": answering, "timeout_s": 5}); got["status"] == "ok" || !strings.Contains(fmt.Sprint(got["reason"]), busy) {
		t.Errorf("a command whose working directory is to be looked at, with the file looks all waiting: %v; want it refused", got)
	}

	// Classifications: three commands whose classification looks the
	// mount up wait past policy.classify_timeout, and stay waiting.
	marker := filepath.Join(t.TempDir(), "ran")
	var cmds []map[string]any
	for _, name := range []string{"a", "b", "c"} {
		cmds = append(cmds, map[string]any{"command": "git -C " + filepath.Join(mnt, name) + " status", "timeout_s": 2})
	}
	for i, got := range all("run_command", cmds) {
		if got["status"] != "denied" || !strings.Contains(fmt.Sprint(got["reason"]), "did not finish within 2s") {
			t.Fatalf("%v with the daemon stopped: %v; want it refused as not classified", cmds[i], got)
		}
	}
	got = one("run_command", map[string]any{"command": "touch " + marker, "timeout_s": 5})
	if got["status"] != "denied" || !strings.Contains(fmt.Sprint(got["reason"]), "earlier looks at files are still waiting") {
		t.Errorf("a command with 3 classifications waiting: %v; want it refused as not classified", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a command refused as not classified ran")
	}
	// A call that runs nothing needs no look: server_info answers, and
	// says what waits.
	info := one("server_info", map[string]any{})
	if w, _ := info["waiting_looks"].(map[string]any); info["version"] == nil || w == nil ||
		w["files"] != 3.0 || w["classifications"] != 3.0 || w["max"] != 3.0 {
		t.Errorf("server_info with every look waiting: waiting_looks %v (result %v)", info["waiting_looks"], info)
	}

	resume()
	deadline := time.Now().Add(90 * time.Second)
	for {
		got := listAnswering()
		if got["status"] == "ok" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("list_dir once the daemon answers again: %v", got)
		}
		time.Sleep(200 * time.Millisecond)
	}
	for {
		got := one("run_command", map[string]any{"command": "echo back", "timeout_s": 5})
		if got["status"] == "ok" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a command once the daemon answers again: %v", got)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got := one("stat_file", map[string]any{"path": filepath.Join(mnt, "a")}); got["status"] != "ok" {
		t.Errorf("stat_file on the mount once it answers: %v", got)
	}
	for {
		info := one("server_info", map[string]any{})
		if info["waiting_looks"] == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server_info once the daemon answers again: waiting_looks %v", info["waiting_looks"])
		}
		time.Sleep(200 * time.Millisecond)
	}
}
