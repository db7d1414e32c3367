package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/sshd"
)

// TestSnapshotReachRemote asks the real binary's server_info about
// snapshot sources on SSH hosts: a source on a real OpenSSH server is
// probed over that host's connection (its snapshots listed and read there,
// every tool served), one whose directory is missing there has its tools
// unavailable, and sources on a host nothing listens on and on a host that
// accepts and never answers are "unknown: <reason>" — the silent one at
// server_info's 5 s wait, not the 30 s connect timeout — beside a local
// source probed as before.
func TestSnapshotReachRemote(t *testing.T) {
	srv := sshd.Start(t, sshd.Options{User: sshUser})
	home := t.TempDir()
	known := filepath.Join(home, "known_hosts")
	if err := sshd.WriteKnownHosts(known, srv); err != nil {
		t.Fatal(err)
	}
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedPort := closed.Addr().(*net.TCPAddr).Port
	closed.Close()

	backups := userDir(t)
	if err := os.MkdirAll(filepath.Join(backups, "daily-2026-11-01", "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(backups, "daily-2026-11-01", "etc", "motd"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var cfg strings.Builder
	cfg.WriteString("ssh:\n  config: none\n  known_hosts: " + known + "\n  connect_timeout: 30s\nhosts:\n")
	for name, port := range map[string]int{"nas": srv.Port, "down": closedPort, "hung": silent.Addr().(*net.TCPAddr).Port} {
		fmt.Fprintf(&cfg, "  - name: %s\n    address: 127.0.0.1\n    port: %d\n    user: %s\n    identity_files: [%s]\n", name, port, sshUser, srv.UserKey.Path)
	}
	cfg.WriteString("snapshots:\n")
	for _, s := range []struct{ name, host, path string }{
		{"nas-backups", "nas", backups}, {"nas-missing", "nas", filepath.Join(backups, "missing")},
		{"down-backups", "down", backups}, {"hung-backups", "hung", backups}, {"here", "", backups},
	} {
		fmt.Fprintf(&cfg, "  - name: %s\n    kind: dir\n    path: %s\n    pattern: \"daily-*\"\n    time_format: \"2006-01-02\"\n", s.name, s.path)
		if s.host != "" {
			fmt.Fprintf(&cfg, "    host: %s\n", s.host)
		}
	}
	env, state := wardenEnv(t, "WARDEN_MODE=readonly", "WARDEN_CONFIG="+writeFile(t, cfg.String()))
	s := startStdio(t, env, state, nil)
	// The connection to nas is dialled first, so that a busy machine's
	// slow handshake does not count against server_info's 5 s wait: the
	// probe itself is what this test is about.
	mustOK(t, s, "run_command", map[string]any{"host": "nas", "command": "true"})

	got := mustOK(t, s, "server_info", map[string]any{})
	reach := map[string]map[string]any{}
	for _, src := range list(got, "snapshot_sources") {
		reach[fmt.Sprint(obj(src)["dataset"])] = obj(src)
	}
	probedOK := func(r map[string]any) bool {
		ps := list(r, "probes")
		for _, p := range ps {
			if obj(p)["ok"] != true {
				return false
			}
		}
		return len(ps) == 2
	}
	if r := reach["nas-backups"]; r["status"] != "probed" || r["host"] != "nas" || len(list(r, "tools")) != 0 || !probedOK(r) {
		t.Errorf("nas-backups = %v, want probed on nas, listed and read, every tool served", r)
	}
	if r := reach["nas-missing"]; r["status"] != "probed" || r["host"] != "nas" || len(list(r, "tools")) == 0 || !strings.Contains(fmt.Sprint(r["tools"]), "unavailable") {
		t.Errorf("nas-missing = %v, want probed on nas, its tools unavailable", r)
	}
	if r := reach["down-backups"]; !strings.HasPrefix(fmt.Sprint(r["status"]), "unknown: host down could not be reached: ") || len(list(r, "tools")) != 0 {
		t.Errorf("down-backups = %v, want unknown with the reason", r)
	}
	if r := reach["hung-backups"]; r["status"] != "unknown: host hung did not answer within 5s" || r["host"] != "hung" {
		t.Errorf("hung-backups = %v, want unknown: did not answer within 5s", r)
	}
	if r := reach["here"]; r["status"] != "probed" || r["host"] != "local" || !probedOK(r) {
		t.Errorf("here = %v, want probed on this machine", r)
	}
}
