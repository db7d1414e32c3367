package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
	"github.com/warden-mcp/warden/internal/sshd"
)

// TestHungMountRemoteFiles: on an SSH host, a file call on a mount whose
// server does not answer (a FUSE mount whose daemon is stopped) fails
// after exec.default_timeout (a write saying it may still land), and does
// not hold up the calls after it on other paths: OpenSSH's sftp-server
// answers one request at a time, so warden leaves that server to the
// stuck request and starts another, after a file call or a snapshot call
// it gave up on. disk_usage there names the mount and measures the rest.
func TestHungMountRemoteFiles(t *testing.T) {
	// Mostly waits on a mount that does not answer, in a warden of its own.
	t.Parallel()
	key := sshd.NewKey(t)
	srv := sshd.Start(t, sshd.Options{User: sshUser, UserKey: key})
	// Directories the SSH user can reach.
	src, hold := userDir(t), userDir(t)
	if err := os.WriteFile(filepath.Join(src, "f"), []byte("mounted\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(src, "daily-2026-12-01"), 0o755); err != nil {
		t.Fatal(err)
	}
	mnt := filepath.Join(hold, "nas")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	fuse := hostfstest.MountFUSE(t, src, mnt)

	s := nasWarden(t, srv, key, "3s", "snapshots:\n  - name: nasdir\n    kind: dir\n    host: nas\n    path: "+mnt+
		"\n    pattern: daily-*\n    time_format: \"2006-01-02\"\n")
	call := func(tool, p string) map[string]any {
		t.Helper()
		_, got := callTool(t, s.cs, tool, map[string]any{"path": p, "host": "nas"})
		return got
	}
	file := filepath.Join(mnt, "f")
	if got := call("read_file", file); got["status"] != "ok" || got["content"] != "mounted\n" {
		t.Fatalf("read_file on the answering mount: %v", got)
	}

	resume := fuse.Stop(t)
	// A snapshot call that waits there and is given up on leaves the
	// host's SFTP session to its request too.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "snapshot_list_dir", Arguments: map[string]any{"dataset": "nasdir", "snapshot": "daily-2026-12-01", "path": "."}})
	cancel()
	if err == nil {
		t.Fatalf("snapshot_list_dir answered while the mount does not: %v", res.StructuredContent)
	}
	// warden learns of the cancel after the client gives up: the call
	// has ended once it is audited.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(s.state, "audit.jsonl")); err == nil && bytes.Contains(b, []byte(`"tool":"snapshot_list_dir"`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancelled snapshot call was not audited within 30s")
		}
	}
	if got := call("stat_file", hold); got["status"] != "ok" || got["type"] != "dir" {
		t.Errorf("stat_file of another path after a snapshot call was given up on: %v", got)
	}
	if got := call("stat_file", file); got["status"] != "error" || !strings.Contains(fmt.Sprint(got["reason"]), "did not answer within 3s") {
		t.Errorf("stat_file on the stopped mount: %v; want it failed as not answered", got)
	}
	_, got := callTool(t, s.cs, "write_file", map[string]any{"path": filepath.Join(mnt, "g"), "host": "nas", "content": "x"})
	if why := fmt.Sprint(got["reason"]); got["status"] != "error" || !strings.Contains(why, "did not answer within 3s") || !strings.Contains(why, "the write may still complete") {
		t.Errorf("write_file on the stopped mount: %v; want it failed as not answered, saying the write may still land", got)
	}
	// Other paths on the host answer meanwhile.
	if got := call("stat_file", hold); got["status"] != "ok" || got["type"] != "dir" {
		t.Errorf("stat_file of another path while a request waits on the mount: %v", got)
	}
	if got := call("read_file", filepath.Join(src, "f")); got["status"] != "ok" || got["content"] != "mounted\n" {
		t.Errorf("read_file of another path while a request waits on the mount: %v", got)
	}

	// disk_usage on the host measures its other mounts and names this one.
	_, got = callTool(t, s.cs, "disk_usage", map[string]any{"host": "nas"})
	if got["status"] != "ok" || !strings.Contains(fmt.Sprint(got["filesystems"]), "mount:/ ") || !strings.Contains(fmt.Sprint(got["not_answering"]), "mount:"+mnt+" ") {
		t.Errorf("disk_usage on the host with the mount's daemon stopped: %v; want the other file systems, and %s not answering", got, mnt)
	}

	resume()
	if got := call("read_file", file); got["status"] != "ok" || got["content"] != "mounted\n" {
		t.Errorf("read_file once the mount answers again: %v", got)
	}
}

// nasWarden starts warden in open mode with exec.default_timeout wait and
// one inventory host, nas: srv, logged into as sshUser with key, its files
// over SFTP; extra is more of warden.yaml.
func nasWarden(t *testing.T, srv *sshd.Server, key *sshd.Key, wait, extra string) *stdioServer {
	t.Helper()
	home := t.TempDir()
	known := filepath.Join(home, "known_hosts")
	if err := sshd.WriteKnownHosts(known, srv); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("exec:\n  default_timeout: %s\nssh:\n  config: none\n  known_hosts: %s\nhosts:\n"+
		"  - name: nas\n    address: %s\n    port: %d\n    user: %s\n    identity_files: [%s]\n    files_transport: sftp\n",
		wait, known, srv.Host, srv.Port, sshUser, key.Path)
	cfg += extra
	cfgPath := filepath.Join(home, "warden.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+cfgPath)
	return startStdio(t, env, state, nil)
}
