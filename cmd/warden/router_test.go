package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/sshd"
)

// TestRouter drives warden as an agent would against a router: dropbear
// with a BusyBox userland and no SFTP server. run_command works there as
// anywhere; the file tools, copy_file and a snapshot source find that the
// server has no SFTP and reach the files over the exec channel, with the
// same path policy, bounds and refusals. A second host, OpenSSH with SFTP,
// is forced onto the exec channel by files_transport.
func TestRouter(t *testing.T) {
	key := sshd.NewKey(t)
	router := sshd.StartDropbear(t, sshd.DropbearOptions{User: sshUser, UserKey: key})
	gnu := sshd.Start(t, sshd.Options{User: sshUser, UserKey: key})

	home := t.TempDir()
	known := filepath.Join(home, "known_hosts")
	if err := sshd.WriteKnownHosts(known, router, gnu); err != nil {
		t.Fatal(err)
	}
	dir := userDir(t)
	snaps := filepath.Join(dir, "snaps")
	for i, motd := range []string{"v1\n", "v2\n"} {
		p := filepath.Join(snaps, fmt.Sprintf("daily.%d", i), "etc", "motd")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(motd), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := time.Date(2026, 3, 1+i, 0, 0, 0, 0, time.UTC)
		os.Chtimes(filepath.Dir(filepath.Dir(p)), mt, mt)
	}
	var cfg strings.Builder
	cfg.WriteString("ssh:\n  config: none\n  known_hosts: " + known + "\n  connect_timeout: 5s\n")
	cfg.WriteString("hosts:\n")
	for name, s := range map[string]*sshd.Server{"router": router, "gnu": gnu} {
		fmt.Fprintf(&cfg, "  - name: %s\n    address: %s\n    port: %d\n    user: %s\n    identity_files: [%s]\n    files:\n      allow_roots: [%s]\n",
			name, s.Host, s.Port, sshUser, key.Path, dir)
		if name == "gnu" {
			cfg.WriteString("    files_transport: exec\n")
		}
	}
	fmt.Fprintf(&cfg, "snapshots:\n  - name: rbackup\n    host: router\n    kind: dir\n    path: %s\n    pattern: \"daily.*\"\n", snaps)
	path := filepath.Join(home, "warden.yaml")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+path)
	s := startStdio(t, env, state, nil)
	call := func(t *testing.T, tool string, args map[string]any) map[string]any {
		t.Helper()
		_, got := callTool(t, s.cs, tool, args)
		return got
	}
	ok := func(t *testing.T, what string, got map[string]any) {
		t.Helper()
		if got["status"] != "ok" {
			t.Fatalf("%s: %v", what, got)
		}
	}
	refused := func(t *testing.T, what string, got map[string]any) {
		t.Helper()
		if got["status"] == "ok" {
			t.Fatalf("%s was allowed: %v", what, got)
		}
	}
	hostFiles := func() map[string]any {
		t.Helper()
		out := map[string]any{}
		for _, h := range call(t, "hosts_list", map[string]any{})["hosts"].([]any) {
			h := h.(map[string]any)
			out[h["name"].(string)] = h["files"]
		}
		return out
	}

	if f := hostFiles(); f["router"] != nil || f["gnu"] != "exec" {
		t.Errorf("hosts_list before any file call: files %v; want router not yet known, gnu exec (forced)", f)
	}

	t.Run("RunCommand", func(t *testing.T) {
		got := call(t, "run_command", map[string]any{"host": "router", "command": "cat --help 2>&1 | head -n 1; echo oops >&2; exit 3"})
		ok(t, "run_command", got)
		if got["exit_code"] != 3.0 || !strings.Contains(got["stdout"].(string), "BusyBox") || got["stderr"] != "oops\n" {
			t.Fatalf("run_command on the router: %v", got)
		}
	})

	// The path policy refuses control characters in a path the agent
	// names, so spaces and shell metacharacters here; a newline in a
	// name is listed below.
	odd := filepath.Join(dir, "a b 'q' $x `y`;.txt")
	t.Run("Write", func(t *testing.T) {
		got := call(t, "write_file", map[string]any{"host": "router", "path": odd, "content": "0123456789"})
		ok(t, "write_file", got)
		if got["created"] != true || got["mode"] != "0644" || got["transport"] != "exec" {
			t.Fatalf("write_file new: %v", got)
		}
		if b, _ := os.ReadFile(odd); string(b) != "0123456789" {
			t.Fatalf("written %q", b)
		}
		refused(t, "write_file over an existing file", call(t, "write_file", map[string]any{"host": "router", "path": odd, "content": "again"}))
		if b, _ := os.ReadFile(odd); string(b) != "0123456789" {
			t.Fatalf("a refused write changed the file: %q", b)
		}
		got = call(t, "write_file", map[string]any{"host": "router", "path": odd, "content": "9876543210", "overwrite": true, "mode": "0600"})
		ok(t, "write_file overwrite", got)
		if st, _ := os.Stat(odd); st.Mode().Perm() != 0o600 || got["created"] != false {
			t.Fatalf("overwrite: %v, mode %v", got, st.Mode())
		}
	})

	bin := make([]byte, 3000)
	for i := range bin {
		bin[i] = byte(i % 256)
	}
	t.Run("Read", func(t *testing.T) {
		got := call(t, "read_file", map[string]any{"host": "router", "path": odd, "offset": 3, "max_bytes": 4})
		ok(t, "read_file", got)
		if got["content"] != "6543" || got["truncated"] != true || got["next_offset"] != 7.0 || got["size"] != 10.0 || got["transport"] != "exec" {
			t.Fatalf("read_file offset 3 max 4: %v", got)
		}
		b64 := base64.StdEncoding.EncodeToString(bin)
		ok(t, "write binary", call(t, "write_file", map[string]any{"host": "router", "path": filepath.Join(dir, "bin.dat"), "content": b64, "encoding": "base64"}))
		got = call(t, "read_file", map[string]any{"host": "router", "path": filepath.Join(dir, "bin.dat")})
		if got["encoding"] != "base64" || got["content"] != b64 || got["truncated"] != false {
			t.Fatalf("binary read back: encoding %v, %d chars", got["encoding"], len(fmt.Sprint(got["content"])))
		}
	})

	if err := os.WriteFile(filepath.Join(dir, "new\nline"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "out-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("bin.dat", filepath.Join(dir, "in-link")); err != nil {
		t.Fatal(err)
	}
	t.Run("ListAndStat", func(t *testing.T) {
		got := call(t, "list_dir", map[string]any{"host": "router", "path": dir})
		ok(t, "list_dir", got)
		var names []string
		links := map[string]any{}
		for _, e := range got["entries"].([]any) {
			e := e.(map[string]any)
			names = append(names, e["name"].(string))
			if e["type"] == "symlink" {
				links[e["name"].(string)] = e["link_target"]
			}
		}
		want := []string{"a b 'q' $x `y`;.txt", "bin.dat", "in-link", "new\nline", "out-link", "snaps"}
		if fmt.Sprint(names) != fmt.Sprint(want) || links["out-link"] != "/etc/passwd" || links["in-link"] != "bin.dat" {
			t.Fatalf("list_dir: names %q, links %v", names, links)
		}
		got = call(t, "stat_file", map[string]any{"host": "router", "path": filepath.Join(dir, "in-link")})
		ok(t, "stat_file", got)
		if got["symlink"] != true || got["link_target"] != "bin.dat" || got["type"] != "file" || got["size"] != 3000.0 {
			t.Fatalf("stat_file of a link: %v", got)
		}
	})

	t.Run("Refusals", func(t *testing.T) {
		// A link leading out of the root, and paths outside it, are refused
		// by the path policy as over SFTP.
		for _, q := range []string{filepath.Join(dir, "out-link"), "/etc/passwd"} {
			refused(t, "read_file "+q, call(t, "read_file", map[string]any{"host": "router", "path": q}))
			refused(t, "write_file "+q, call(t, "write_file", map[string]any{"host": "router", "path": q, "content": "x", "overwrite": true}))
		}
		refused(t, "read_file of a directory", call(t, "read_file", map[string]any{"host": "router", "path": snaps}))
		if b, _ := os.ReadFile("/etc/passwd"); !strings.Contains(string(b), "root:") {
			t.Fatal("/etc/passwd changed")
		}
	})

	t.Run("Copy", func(t *testing.T) {
		local := t.TempDir()
		src := filepath.Join(local, "up.bin")
		data := []byte(strings.Repeat("warden router copy\n", 150000)) // 2.85 MB: several chunks
		if err := os.WriteFile(src, data, 0o640); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		dst := filepath.Join(dir, "up.bin")
		got := call(t, "copy_file", map[string]any{"from": src, "to": "router:" + dst})
		ok(t, "copy_file up", got)
		if got["bytes"] != float64(len(data)) || got["sha256"] != hex.EncodeToString(sum[:]) || got["transport"] != "exec" || got["mode"] != "0640" {
			t.Fatalf("copy_file up: %v", got)
		}
		if b, _ := os.ReadFile(dst); string(b) != string(data) {
			t.Fatalf("copied %d bytes", len(b))
		}
		refused(t, "copy_file over an existing file", call(t, "copy_file", map[string]any{"from": src, "to": "router:" + dst}))
		back := filepath.Join(local, "down.bin")
		ok(t, "copy_file down", call(t, "copy_file", map[string]any{"from": "router:" + dst, "to": back}))
		if b, _ := os.ReadFile(back); string(b) != string(data) {
			t.Fatalf("copied back %d bytes", len(b))
		}
		refused(t, "copy_file to outside the root", call(t, "copy_file", map[string]any{"from": src, "to": "router:/tmp/escape.bin"}))
	})

	t.Run("Snapshots", func(t *testing.T) {
		got := call(t, "snapshot_read_file", map[string]any{"dataset": "rbackup", "snapshot": "daily.1", "path": "etc/motd"})
		ok(t, "snapshot_read_file", got)
		if got["content"] != "v2\n" {
			t.Fatalf("snapshot_read_file: %v", got)
		}
	})

	t.Run("Forced", func(t *testing.T) {
		got := call(t, "read_file", map[string]any{"host": "gnu", "path": filepath.Join(dir, "bin.dat"), "max_bytes": 10})
		ok(t, "read_file on gnu", got)
		if got["transport"] != "exec" {
			t.Fatalf("files_transport: exec was not obeyed: %v", got)
		}
	})

	if f := hostFiles(); f["router"] != "exec" || f["gnu"] != "exec" {
		t.Errorf("hosts_list after file calls: files %v; want exec for both", f)
	}
	if !strings.Contains(s.stderr.String(), "no SFTP server") {
		t.Errorf("warden did not log that the router has no SFTP server:\n%s", s.stderr.String())
	}
}
