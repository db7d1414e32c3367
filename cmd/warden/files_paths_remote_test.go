package main

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/sshd"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
)

// TestFileToolsRemotePaths drives the file tools at an OpenSSH host over
// SFTP and, as the same server, over the exec channel: traversal,
// look-alike roots, symlinks out of the root (absolute and relative, final
// component and parent, dangling ones a write would create through) are
// refused on both; names full of shell syntax are written, read, listed
// and copied as themselves, and none of them runs anything.
func TestFileToolsRemotePaths(t *testing.T) {
	key := sshd.NewKey(t)
	srv := sshd.Start(t, sshd.Options{User: sshUser, UserKey: key})
	// self logs in as the user warden runs as, as when the inventory names
	// this machine (localhost, its LAN address) with warden's own account.
	self := sshd.Start(t, sshd.Options{UserKey: key})
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	known := filepath.Join(home, "known_hosts")
	if err := sshd.WriteKnownHosts(known, srv, self); err != nil {
		t.Fatal(err)
	}
	base := userDir(t)
	root := filepath.Join(base, "root")
	evil := root + "_evil"
	for _, d := range []string{root, evil, filepath.Join(root, "sub")} {
		if err := os.Mkdir(d, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(d, 0o777)
	}
	os.WriteFile(filepath.Join(root, "file.txt"), []byte("inside\n"), 0o666)
	os.WriteFile(filepath.Join(evil, "secret"), []byte("outside\n"), 0o666)
	for link, target := range map[string]string{
		"abs-out":    evil + "/secret",
		"rel-out":    "../root_evil/secret",
		"dir-out":    evil,
		"reldir-out": "../root_evil",
		"sub/up":     "../../root_evil",
		"etc":        "/etc",
		"dangling":   evil + "/created",
		"rel-dang":   "../root_evil/created2",
		"loop":       "loop",
		"proc":       "/proc/self/root" + evil,
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	var cfg strings.Builder
	cfg.WriteString("ssh:\n  config: none\n  known_hosts: " + known + "\n  connect_timeout: 5s\nhosts:\n")
	for _, tr := range []string{"sftp", "exec"} {
		fmt.Fprintf(&cfg, "  - name: %s\n    address: %s\n    port: %d\n    user: %s\n    identity_files: [%s]\n    files_transport: %s\n    files:\n      allow_roots: [%s]\n",
			tr, srv.Host, srv.Port, sshUser, key.Path, tr, root)
	}
	// This machine again, under the top-level files rules (all of /). The
	// path policy is the same code on either transport; SFTP keeps it fast.
	fmt.Fprintf(&cfg, "  - name: self\n    address: %s\n    port: %d\n    user: %s\n    identity_files: [%s]\n    files_transport: sftp\n",
		self.Host, self.Port, me.Username, key.Path)
	cfgPath := filepath.Join(home, "warden.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+cfgPath)
	s := startStdio(t, env, state, nil)
	local, _ := filepath.EvalSymlinks(t.TempDir())
	// Links planted on "the remote host" that lead to warden's files here.
	for link, target := range map[string]string{"st": state, "key": key.Path, "cfg": cfgPath} {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(local, "src")
	os.WriteFile(src, []byte("from local\n"), 0o644)

	refusedPaths := []string{
		root + "/../root_evil/secret", evil + "/secret", root + "_evil", root + "/sub/../../root_evil/secret",
		root + "/abs-out", root + "/rel-out", root + "/dir-out/secret", root + "/reldir-out/secret",
		root + "/sub/up/secret", root + "/etc/passwd", root + "/etc", root + "/proc/secret",
		root + "/dangling", root + "/rel-dang", root + "/dir-out/new", root + "/reldir-out/new", root + "/sub/up/new",
		root + "/loop", "/proc/self/root" + root + "/file.txt", "/etc/passwd", "/", "root/file.txt", "./file.txt",
		root + "/file.txt\n", root + "/file.txt\x00", root + "\r/file.txt", "",
	}
	names := []string{
		"a b;$(touch ran)", "`touch ran`", "$(id)", "x;touch${IFS}ran", "x\"; touch ran; \"", "-rf", "--help", "-", "--",
		"'", `"`, `\`, `a'b"c\d`, "*", "?", "[a]", "~", "!x", "#x", "a;b", "a|b", "a&b", ">x", "<x",
		"$HOME", "${IFS}x", "%s%n", "a\tb", "é ü", ".hidden", "..x", strings.Repeat("n", 200),
	}
	calls := 0
	for _, host := range []string{"sftp", "exec"} {
		t.Run(host, func(t *testing.T) {
			call := func(tool string, args map[string]any) map[string]any {
				t.Helper()
				calls++
				_, got := callTool(t, s.cs, tool, args)
				return got
			}
			refusedPaths := refusedPaths
			if host == "exec" {
				// Each exec call runs several remote commands (one per
				// component resolved): one path of each shape there; the
				// FS conformance suite covers the rest per transport.
				refusedPaths = []string{root + "/abs-out", root + "/rel-out", root + "/dir-out/secret", root + "/sub/up/new", root + "/rel-dang"}
			}
			for _, p := range refusedPaths {
				if got := call("read_file", map[string]any{"host": host, "path": p}); got["status"] == "ok" {
					t.Errorf("read_file %q was allowed: %v", p, got)
				}
				if got := call("write_file", map[string]any{"host": host, "path": p, "content": "x", "overwrite": true}); got["status"] == "ok" {
					t.Errorf("write_file %q was allowed: %v", p, got)
				}
				if host == "exec" {
					continue
				}
				if got := call("list_dir", map[string]any{"host": host, "path": p}); got["status"] == "ok" {
					t.Errorf("list_dir %q was allowed: %v", p, got)
				}
				if got := call("stat_file", map[string]any{"host": host, "path": p}); got["status"] == "ok" && got["exists"] == true {
					t.Errorf("stat_file %q described a path outside the root: %v", p, got)
				}
				if got := call("copy_file", map[string]any{"from": src, "to": host + ":" + p, "overwrite": true}); got["status"] == "ok" {
					t.Errorf("copy_file to %q was allowed: %v", p, got)
				}
				if got := call("copy_file", map[string]any{"from": host + ":" + p, "to": filepath.Join(local, "out"), "overwrite": true}); got["status"] == "ok" {
					t.Errorf("copy_file from %q was allowed: %v", p, got)
				}
			}
			for _, ok := range []string{root + "//file.txt", root + "/sub/../file.txt"} {
				if got := call("read_file", map[string]any{"host": host, "path": ok}); got["status"] != "ok" || got["content"] != "inside\n" {
					t.Errorf("read_file %q: %v", ok, got)
				}
			}
			dir := filepath.Join(root, host)
			os.Mkdir(dir, 0o777)
			os.Chmod(dir, 0o777)
			names := names
			if host == "exec" {
				// Each exec call is several remote commands: a few
				// names of each kind there.
				names = []string{"a b;$(touch ran)", "`touch ran`", `a'b"c\d`, "-rf"}
			}
			for i, n := range names {
				p := filepath.Join(dir, n)
				// The rest of the tools for a few names: each is a
				// name's quoting in another command.
				slow := host == "exec" && i > 0 || i > 6
				if got := call("write_file", map[string]any{"host": host, "path": p, "content": n}); got["status"] != "ok" {
					t.Errorf("write_file %q: %v", n, got)
					continue
				}
				if b, err := os.ReadFile(p); err != nil || string(b) != n {
					t.Errorf("write_file %q wrote %q, %v", n, b, err)
				}
				if got := call("read_file", map[string]any{"host": host, "path": p}); got["content"] != n {
					t.Errorf("read_file %q: %v", n, got)
				}
				if slow {
					continue
				}
				if got := call("stat_file", map[string]any{"host": host, "path": p}); got["exists"] != true || got["size"] != float64(len(n)) {
					t.Errorf("stat_file %q: %v", n, got)
				}
				cp := filepath.Join(dir, fmt.Sprintf("copy%d %s", i, n))
				if got := call("copy_file", map[string]any{"from": src, "to": host + ":" + cp}); got["status"] != "ok" {
					t.Errorf("copy_file to %q: %v", cp, got)
				}
				back := filepath.Join(local, fmt.Sprintf("%s-back%d", host, i))
				if got := call("copy_file", map[string]any{"from": host + ":" + p, "to": back}); got["status"] != "ok" {
					t.Errorf("copy_file from %q: %v", p, got)
				} else if b, _ := os.ReadFile(back); string(b) != n {
					t.Errorf("copy_file from %q brought %q", p, b)
				}
			}
			// A directory on the way named with shell syntax, which a
			// write's checks name too.
			hostile := filepath.Join(dir, "d $(touch ran);'\"`touch ran`", "-n ~")
			os.MkdirAll(hostile, 0o777)
			os.Chmod(hostile, 0o777)
			os.Chmod(filepath.Dir(hostile), 0o777)
			if got := call("write_file", map[string]any{"host": host, "path": hostile + "/f", "content": "deep"}); got["status"] != "ok" {
				t.Errorf("write_file below %q: %v", hostile, got)
			} else if b, _ := os.ReadFile(hostile + "/f"); string(b) != "deep" {
				t.Errorf("write_file below %q wrote %q", hostile, b)
			}
			os.RemoveAll(filepath.Dir(hostile))
			// Names the agent cannot spell are still listed as themselves.
			for _, n := range []string{"new\nline", "car\rriage", "-n"} {
				os.WriteFile(filepath.Join(dir, n), nil, 0o644)
			}
			got := call("list_dir", map[string]any{"host": host, "path": dir})
			var listed []string
			for _, e := range got["entries"].([]any) {
				listed = append(listed, e.(map[string]any)["name"].(string))
			}
			for _, n := range append(names, "new\nline", "car\rriage", "-n") {
				if !slices.Contains(listed, n) {
					t.Errorf("list_dir does not list %q: %q", n, listed)
				}
			}
			copies := min(len(names), 7)
			if host == "exec" {
				copies = 1
			}
			if want := len(names) + copies + 3; len(listed) != want {
				t.Errorf("list_dir listed %d names, want %d: %q", len(listed), want, listed)
			}
		})
	}
	// An inventory host that is this machine is refused warden's own files
	// in every spelling, on both transports.
	for _, host := range []string{"self"} {
		for _, p := range []string{key.Path, base + "/key", base + "/st/token", base + "/st/audit.jsonl", base + "/st", base + "/cfg",
			"/proc/self/root" + key.Path, filepath.Dir(key.Path) + "/./" + filepath.Base(key.Path)} {
			calls++
			if _, got := callTool(t, s.cs, "read_file", map[string]any{"host": host, "path": p}); got["status"] == "ok" {
				t.Errorf("read_file on %s %q was allowed: %v", host, p, got)
			}
			calls += 2
			if _, got := callTool(t, s.cs, "list_dir", map[string]any{"host": host, "path": p}); got["status"] == "ok" {
				t.Errorf("list_dir on %s %q was allowed: %v", host, p, got)
			}
			if _, got := callTool(t, s.cs, "copy_file", map[string]any{"from": host + ":" + p, "to": filepath.Join(local, "stolen"), "overwrite": true}); got["status"] == "ok" {
				t.Errorf("copy_file from %s %q was allowed: %v", host, p, got)
			}
		}
		calls++
		if _, got := callTool(t, s.cs, "write_file", map[string]any{"host": host, "path": base + "/st/planted", "content": "x"}); got["status"] == "ok" {
			t.Errorf("write_file on %s into the state dir through a link was allowed: %v", host, got)
		}
	}
	calls += fileToolsNeverOpenSpecial(t, s, root, local, src)
	for _, d := range []string{root, filepath.Join(root, "sftp"), filepath.Join(root, "exec"), base, "/home/" + sshUser} {
		if _, err := os.Lstat(filepath.Join(d, "ran")); err == nil {
			t.Errorf("a file name ran a command on the remote host: %s/ran exists", d)
		}
	}
	for _, p := range []string{evil + "/created", evil + "/created2", evil + "/new"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s was created outside the root", p)
		}
	}
	if b, _ := os.ReadFile(evil + "/secret"); string(b) != "outside\n" {
		t.Errorf("a file outside the root changed: %q", b)
	}
	t.Logf("%d calls", calls)
}

// fileToolsNeverOpenSpecial: opening can act before a byte is read
// (/dev/watchdog's open arms the host's watchdog, a tape rewinds), so no
// file tool may open anything but a regular file, on this machine or
// either transport, however the path is spelled. A FIFO with a writer
// blocked in its open stands in for a device: any open of it for reading
// releases the writer. It returns the number of calls made.
func fileToolsNeverOpenSpecial(t *testing.T, s *stdioServer, root, local, src string) int {
	dir := filepath.Join(root, "fifos")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777)
	// Each case names the FIFO f (with link, a relative symlink to it, in
	// the same directory) as the tool is asked to.
	cases := []struct {
		name string
		ok   bool // the call may succeed (it describes, never opens)
		call func(host, f, link string) (string, map[string]any)
	}{
		{"read", false, func(h, f, _ string) (string, map[string]any) {
			return "read_file", map[string]any{"host": h, "path": f}
		}},
		{"read_offset", false, func(h, f, _ string) (string, map[string]any) {
			return "read_file", map[string]any{"host": h, "path": f, "offset": 3}
		}},
		{"read_one_byte", false, func(h, f, _ string) (string, map[string]any) {
			return "read_file", map[string]any{"host": h, "path": f, "max_bytes": 1}
		}},
		{"read_link", false, func(h, _, l string) (string, map[string]any) {
			return "read_file", map[string]any{"host": h, "path": l}
		}},
		{"read_dotdot", false, func(h, f, _ string) (string, map[string]any) {
			return "read_file", map[string]any{"host": h, "path": filepath.Dir(f) + "/../fifos/./" + filepath.Base(f)}
		}},
		{"read_slashes", false, func(h, f, _ string) (string, map[string]any) {
			return "read_file", map[string]any{"host": h, "path": filepath.Dir(f) + "//" + filepath.Base(f)}
		}},
		{"copy_from", false, func(h, f, _ string) (string, map[string]any) {
			return "copy_file", map[string]any{"from": hostPath(h, f), "to": filepath.Join(local, "fifo-out-"+filepath.Base(f)), "overwrite": true}
		}},
		{"copy_from_link", false, func(h, _, l string) (string, map[string]any) {
			return "copy_file", map[string]any{"from": hostPath(h, l), "to": filepath.Join(local, "fifo-out-"+filepath.Base(l)), "overwrite": true}
		}},
		{"write_over", false, func(h, f, _ string) (string, map[string]any) {
			return "write_file", map[string]any{"host": h, "path": f, "content": "x", "overwrite": true}
		}},
		{"write_over_link", false, func(h, _, l string) (string, map[string]any) {
			return "write_file", map[string]any{"host": h, "path": l, "content": "x", "overwrite": true}
		}},
		{"copy_over", false, func(h, f, _ string) (string, map[string]any) {
			return "copy_file", map[string]any{"from": src, "to": hostPath(h, f), "overwrite": true}
		}},
		{"list", false, func(h, f, _ string) (string, map[string]any) {
			return "list_dir", map[string]any{"host": h, "path": f}
		}},
		{"stat", true, func(h, f, _ string) (string, map[string]any) {
			return "stat_file", map[string]any{"host": h, "path": f}
		}},
	}
	released := map[string]func() bool{}
	for _, host := range []string{"", "sftp", "exec"} {
		for _, c := range cases {
			f := filepath.Join(dir, host+"-"+c.name)
			released[host+"/"+c.name] = hostfstest.BlockedFIFO(t, f)
			os.Symlink(filepath.Base(f), f+"-link")
		}
	}
	// Let every writer reach its blocking open.
	time.Sleep(100 * time.Millisecond)
	calls := 0
	for _, host := range []string{"", "sftp", "exec"} {
		for _, c := range cases {
			f := filepath.Join(dir, host+"-"+c.name)
			tool, args := c.call(host, f, f+"-link")
			if host == "" {
				delete(args, "host")
			}
			calls++
			if _, got := callTool(t, s.cs, tool, args); got["status"] == "ok" && !c.ok {
				t.Errorf("%s on %q of a FIFO succeeded: %v", tool, host, got)
			}
		}
	}
	time.Sleep(200 * time.Millisecond)
	for name, rel := range released {
		if rel() {
			t.Errorf("%s opened the FIFO before refusing it", name)
		}
	}
	return calls
}

// hostPath is copy_file's spelling of p on host ("" is this machine).
func hostPath(host, p string) string {
	if host == "" {
		return p
	}
	return host + ":" + p
}
