package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
)

// call is one tool call of a group callTogether makes.
type call struct {
	tool string
	args map[string]any
}

// callTogether makes calls at once, each bounded by a minute, and
// returns their structured results in order.
func callTogether(t *testing.T, cs *mcp.ClientSession, calls []call) []map[string]any {
	t.Helper()
	got := make([]map[string]any, len(calls))
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil {
				errs[i] = err
				return
			}
			got[i] = map[string]any{}
			b, _ := json.Marshal(res.StructuredContent)
			errs[i] = json.Unmarshal(b, &got[i])
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s %v: %v", calls[i].tool, calls[i].args, err)
		}
	}
	return got
}

// TestHungMountRefusedNotHung: the classifier looks up the files a command
// names, and on a mount whose server does not answer the lookup waits in
// the kernel. With a FUSE mount (bindfs) whose daemon is stopped, a
// command naming a path there is refused within policy.classify_timeout,
// saying why, and audited as a refusal; nothing is run; a command that
// names no such path runs meanwhile, and a command that reads there is
// bounded by its own timeout. The file tools fail after exec.default_timeout
// rather than hang, disk_usage measures the other mounts and names this one, list_dir of
// the directory holding it lists it as not answering, a snapshot call ends when its client cancels it, and a
// program is not started in a directory there. Once the daemon answers
// again, all of it runs.
func TestHungMountRefusedNotHung(t *testing.T) {
	// Mostly waits on a mount that does not answer, in a warden of its own.
	t.Parallel()
	// The mount point has a neighbour, for list_dir of the directory
	// holding both.
	src := t.TempDir()
	hold, mnt := hostfstest.MountPoint(t)
	if err := os.WriteFile(filepath.Join(src, "f"), []byte("mounted\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(src, "daily-2026-12-01"), 0o755); err != nil {
		t.Fatal(err)
	}
	fuse := hostfstest.MountFUSE(t, src, mnt)

	cfg := filepath.Join(t.TempDir(), "warden.yaml")
	if err := os.WriteFile(cfg, []byte("policy:\n  classify_timeout: 2s\nexec:\n  default_timeout: 3s\n"+
		"snapshots:\n  - name: nas\n    kind: dir\n    path: "+mnt+"\n    pattern: daily-*\n    time_format: \"2006-01-02\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, state := wardenEnv(t, "WARDEN_MODE=guarded", "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	run := func(command string) map[string]any {
		t.Helper()
		_, got := callTool(t, s.cs, "run_command", map[string]any{"command": command, "timeout_s": 5})
		return got
	}
	file := filepath.Join(mnt, "f")
	if got := run("cat " + file); got["status"] != "ok" || got["stdout"] != "mounted\n" {
		t.Fatalf("cat on the answering mount: %v", got)
	}

	resume := fuse.Stop(t)
	// The calls below wait on the mount: each group runs at once.
	all := func(calls []call) []map[string]any {
		t.Helper()
		return callTogether(t, s.cs, calls)
	}
	command := func(cmd string) call {
		return call{"run_command", map[string]any{"command": cmd, "timeout_s": 2}}
	}

	marker := filepath.Join(t.TempDir(), "ran")
	var refused []call
	for _, cmd := range []string{
		"cd " + mnt + " && git status",
		"git -C " + mnt + " status",
		"make -C " + mnt,
		"bash " + mnt + "/x.sh",
		mnt + "/prog",
		"npm --prefix " + mnt + " ls",
	} {
		refused = append(refused, command(cmd+"; touch "+marker))
	}
	for i, got := range all(refused) {
		if got["status"] != "denied" || !strings.Contains(fmt.Sprint(got["reason"]), "did not finish within 2s") {
			t.Errorf("%v with the mount's daemon stopped: %v; want it refused as not classified", refused[i].args, got)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("a command refused as not classified ran")
	}
	// What the classifier need not look up runs, and waits on the mount
	// as long as its own timeout_s. A program is not started in a working
	// directory there: the child that would change into it shares
	// warden's memory until it runs the program, and would hold up every
	// later start.
	for i, got := range all([]call{
		command("cat " + file),
		command("ls " + mnt + "/*"),
		{"run_command", map[string]any{"command": "echo hi", "cwd": mnt, "timeout_s": 2}},
		{"session_start", map[string]any{"command": "echo hi", "cwd": mnt}},
	}) {
		why := fmt.Sprint(got["reason"])
		if i < 2 && got["status"] != "timeout" || i >= 2 && (got["status"] != "error" || !strings.Contains(why, "working directory "+mnt+" did not answer")) {
			t.Errorf("call %d with the mount's daemon stopped: %v; want it run and timed out, or its directory not answering", i, got)
		}
	}
	// Programs still start, on the workers that ran those and on new ones
	// (another tool), whose confinement lists the directories above
	// warden's own files — here the config file's, the mount's neighbour.
	if got := run("echo hi"); got["status"] != "ok" || got["stdout"] != "hi\n" {
		t.Errorf("echo hi while the mount does not answer: %v", got)
	}
	_, got := callTool(t, s.cs, "run_script", map[string]any{"interpreter": "sh", "script": "echo hi", "timeout_s": 5})
	if got["status"] != "ok" || got["stdout"] != "hi\n" {
		t.Errorf("run_script echo hi while the mount does not answer: %v", got)
	}
	// A tier-1 command's confinement binds the temporary directories,
	// the stopped mount among what lies beneath them.
	temp := filepath.Join(t.TempDir(), "tier1")
	if got := run("touch " + temp); got["status"] != "ok" {
		t.Errorf("touch in a temporary directory while the mount does not answer: %v", got)
	} else if _, err := os.Stat(temp); err != nil {
		t.Errorf("touch in a temporary directory while the mount does not answer: %v", err)
	}
	audit, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(audit, []byte(`"decision":"denied"`)); n != len(refused) || bytes.Count(audit, []byte("classify_timeout")) != len(refused) {
		t.Errorf("the audit log has %d refusals, want %d, each naming policy.classify_timeout:\n%s", n, len(refused), audit)
	}
	// The file tools wait on the file system as long as exec.default_timeout.
	tools := []call{
		{"read_file", map[string]any{"path": file}},
		{"list_dir", map[string]any{"path": mnt}},
		{"stat_file", map[string]any{"path": file}},
		{"write_file", map[string]any{"path": filepath.Join(mnt, "g"), "content": "x"}},
		// df waits on every mount: past exec.default_timeout each is
		// measured on its own, and this one named as not answering.
		{"disk_usage", map[string]any{}},
		// The directory holding the mount is listed, the mount point
		// named as not answering.
		{"list_dir", map[string]any{"path": hold}},
	}
	for i, got := range all(tools) {
		if tools[i].args["path"] == hold {
			entries := fmt.Sprint(got["entries"])
			if got["status"] != "ok" || !strings.Contains(entries, "name:nas not_answering:true") || !strings.Contains(entries, "name:plain size:") {
				t.Errorf("list_dir of the mount's parent with the mount's daemon stopped: %v; want nas listed as not answering beside plain", got)
			}
			continue
		}
		if tools[i].tool == "disk_usage" {
			if got["status"] != "ok" || !strings.Contains(fmt.Sprint(got["filesystems"]), "mount:/ ") ||
				!strings.Contains(fmt.Sprint(got["not_answering"]), "mount:"+mnt+" ") {
				t.Errorf("disk_usage with the mount's daemon stopped: %v; want the other file systems, and %s not answering", got, mnt)
			}
			continue
		}
		// Either the tool's own look at the path or the classifier's at
		// the equivalent command (write_file's tee) meets the mount first.
		why := fmt.Sprint(got["reason"])
		if !(got["status"] == "error" && strings.Contains(why, "did not answer within 3s")) &&
			!(got["status"] == "denied" && strings.Contains(why, "did not finish within 2s")) {
			t.Errorf("%s %v with the mount's daemon stopped: %v; want it failed as not answered", tools[i].tool, tools[i].args, got)
		}
	}

	// A snapshot call ends when its client gives up on it, and is audited.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "snapshot_list_dir", Arguments: map[string]any{"dataset": "nas", "snapshot": "daily-2026-12-01", "path": "."}})
	cancel()
	if err == nil {
		t.Fatalf("snapshot_list_dir answered while the mount does not: %v", res.StructuredContent)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if b, err := os.ReadFile(filepath.Join(state, "audit.jsonl")); err == nil && bytes.Contains(b, []byte(`"tool":"snapshot_list_dir"`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancelled snapshot call was not audited within 30s: it is still waiting on the mount")
		}
		time.Sleep(100 * time.Millisecond)
	}

	resume()
	if got := run("cat " + file); got["status"] != "ok" || got["stdout"] != "mounted\n" {
		t.Errorf("cat once the mount answers again: %v", got)
	}
	if _, got := callTool(t, s.cs, "read_file", map[string]any{"path": file}); got["status"] != "ok" || got["content"] != "mounted\n" {
		t.Errorf("read_file once the mount answers again: %v", got)
	}
}
