package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// spellings are ways an agent can name p: as is, with "//", "/./" and
// ".." detours, through /proc's links to the root, and through symlinks it
// planted in links (absolute and relative, to p itself and to its parent).
func spellings(t *testing.T, p string, pid int, links string) []string {
	t.Helper()
	dir, base := filepath.Dir(p), filepath.Base(p)
	tag := strconv.Itoa(len(mustReadDir(t, links)))
	abs := filepath.Join(links, "abs"+tag)
	rel := filepath.Join(links, "rel"+tag)
	parent := filepath.Join(links, "parent"+tag)
	for link, target := range map[string]string{abs: p, rel: strings.Repeat("../", len(strings.Split(links, "/"))) + p[1:], parent: dir} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	return []string{
		p,
		strings.Replace(p, "/", "//", 2),
		dir + "/./" + base,
		dir + "/nonexistent/../" + base,
		"/proc/thread-self/root" + p,
		"/proc/" + strconv.Itoa(pid) + "/root" + p,
		"/proc/self/root/proc/self/root" + p,
		abs,
		rel,
		"/proc/self/root" + parent + "/" + base,
	}
}

func mustReadDir(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	e, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestFileToolsOwnFiles drives every file tool at warden's own files in
// many spellings: the audit log's head, lock and rotated files kept
// outside the state dir, the script staging dir, warden's executable, the
// SSH identity, known_hosts and ssh_config files, and the state dir.
// Every call is refused and nothing changes. Then readonly mode refuses
// every file write tool.
func TestFileToolsOwnFiles(t *testing.T) {
	logDir, _ := filepath.EvalSymlinks(t.TempDir())
	sshDir, _ := filepath.EvalSymlinks(t.TempDir())
	auditPath := filepath.Join(logDir, "audit.jsonl")
	rotated := filepath.Join(logDir, "audit-20260101T000000.000Z.jsonl")
	identity := filepath.Join(sshDir, "fleet_ed25519")
	known := filepath.Join(sshDir, "known")
	sshConfig := filepath.Join(sshDir, "ssh_config")
	for p, content := range map[string]string{rotated: "{\"seq\":1}\n", identity: "PRIVATE KEY\n", known: "", sshConfig: ""} {
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	snaps, _ := filepath.EvalSymlinks(t.TempDir())
	live := filepath.Join(snaps, "live")
	for _, p := range []string{"daily-2026-01-01/etc/app.conf", "live/etc/app.conf"} {
		os.MkdirAll(filepath.Dir(filepath.Join(snaps, p)), 0o755)
		os.WriteFile(filepath.Join(snaps, p), []byte("v1\n"), 0o644)
	}
	cfg := writeFile(t, "audit:\n  path: "+auditPath+"\nssh:\n  config: "+sshConfig+"\n  known_hosts: "+known+
		"\nhosts:\n  - name: nas\n    address: 127.0.0.1\n    port: 1\n    user: op\n    identity_files: ["+identity+"]\n"+
		"snapshots:\n  - name: backups\n    kind: dir\n    path: "+snaps+"\n    pattern: \"daily-*\"\n    time_format: \"2006-01-02\"\n    live: "+live+
		"\n    restore:\n      enabled: true\n      allow: ["+live+"]\n")
	fetch := map[string]any{"dataset": "backups", "snapshot": "daily-2026-01-01", "path": "etc/app.conf", "overwrite": true}
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+cfg)
	scripts := state + "-scripts"
	if err := os.MkdirAll(scripts, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(scripts) })
	staged := filepath.Join(scripts, "script-1")
	os.WriteFile(staged, []byte("echo staged\n"), 0o600)
	// The server runs from a copy of the binary, which it must refuse to
	// overwrite: a regression must not break the binary other tests run.
	exe := filepath.Join(t.TempDir(), "warden")
	if b, err := os.ReadFile(wardenBin); err != nil || os.WriteFile(exe, b, 0o755) != nil {
		t.Fatalf("copy the binary: %v", err)
	}
	shared := wardenBin
	wardenBin = exe
	s := startStdio(t, env, state, nil)
	wardenBin = shared
	pid := s.cmd.Process.Pid
	links, _ := filepath.EvalSymlinks(t.TempDir())
	out := filepath.Join(links, "copy-out")

	targets := []string{
		rotated,
		filepath.Join(logDir, "audit-20990101T000000.000Z.jsonl"), // a forged "newer" rotation
		auditPath + ".head",
		auditPath + ".lock",
		staged,
		filepath.Join(scripts, "script-2"),
		exe,
		identity,
		known,
		sshConfig,
		filepath.Join(state, "token"),
	}
	before := map[string][]byte{}
	for _, p := range targets {
		before[p], _ = os.ReadFile(p)
	}
	calls := 0
	refused := func(what string, got map[string]any) {
		t.Helper()
		calls++
		if got["status"] == "ok" {
			t.Errorf("%s was allowed: %v", what, got)
		}
	}
	for _, p := range targets {
		for _, sp := range spellings(t, p, pid, links) {
			for _, tool := range []string{"read_file", "stat_file"} {
				_, got := callTool(t, s.cs, tool, map[string]any{"path": sp})
				refused(tool+" "+sp, got)
			}
			_, got := callTool(t, s.cs, "write_file", map[string]any{"path": sp, "content": "forged\n", "overwrite": true})
			refused("write_file "+sp, got)
			_, got = callTool(t, s.cs, "copy_file", map[string]any{"from": "/etc/hostname", "to": sp, "overwrite": true})
			refused("copy_file to "+sp, got)
			_, got = callTool(t, s.cs, "copy_file", map[string]any{"from": sp, "to": out, "overwrite": true})
			refused("copy_file from "+sp, got)
			fetch["destination"] = sp
			_, got = callTool(t, s.cs, "fetch_file", fetch)
			refused("fetch_file to "+sp, got)
		}
	}
	for _, d := range []string{scripts, state} {
		for _, sp := range spellings(t, d, pid, links) {
			_, got := callTool(t, s.cs, "list_dir", map[string]any{"path": sp})
			refused("list_dir "+sp, got)
		}
	}
	for _, p := range targets {
		// The head file moves with every record warden writes.
		if b, _ := os.ReadFile(p); !bytes.Equal(b, before[p]) && !strings.HasSuffix(p, ".head") || bytes.Contains(b, []byte("forged")) {
			t.Errorf("%s changed", p)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("copy_file copied one of warden's own files out")
	}
	t.Logf("%d calls refused", calls)

	// readonly refuses every tool that writes a file, here or remote.
	env, state = wardenEnv(t, "WARDEN_MODE=readonly", "WARDEN_CONFIG="+cfg)
	ro := startStdio(t, env, state, nil)
	dst := filepath.Join(links, "ro-out")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"write_file", map[string]any{"path": dst, "content": "x"}},
		{"write_file", map[string]any{"path": dst, "content": "x", "overwrite": true, "mode": "0600"}},
		{"write_file", map[string]any{"path": dst, "content": "eA==", "encoding": "base64", "host": "local"}},
		{"copy_file", map[string]any{"from": "/etc/hostname", "to": dst}},
		{"copy_file", map[string]any{"from": "/etc/hostname", "to": "nas:/tmp/x"}},
		{"copy_file", map[string]any{"from": "nas:/etc/hostname", "to": dst}},
		{"write_file", map[string]any{"path": "/tmp/x", "content": "x", "host": "nas"}},
		{"fetch_file", map[string]any{"dataset": "backups", "snapshot": "daily-2026-01-01", "path": "etc/app.conf", "destination": dst}},
		{"fetch_dir", map[string]any{"dataset": "backups", "snapshot": "daily-2026-01-01", "path": "etc", "destination": dst}},
		{"restore_file", map[string]any{"dataset": "backups", "snapshot": "daily-2026-01-01", "path": "etc/app.conf"}},
		{"restore_dir", map[string]any{"dataset": "backups", "snapshot": "daily-2026-01-01", "path": "etc"}},
	} {
		_, got := callTool(t, ro.cs, c.tool, c.args)
		if got["status"] != "denied" || !strings.Contains(fmt.Sprint(got["reason"]), "readonly") {
			t.Errorf("readonly: %s %v was not refused as readonly: %v", c.tool, c.args, got)
		}
	}
	if _, err := os.Lstat(dst); err == nil {
		t.Error("a write tool wrote in readonly mode")
	}
}
