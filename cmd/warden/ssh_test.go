package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/runner/runnertest"
	"github.com/warden-mcp/warden/internal/sshd"
)

// sshUser logs in to every test server: a user of its own whose login
// shell is /bin/sh, so no dotfile of this machine's accounts runs.
const sshUser = "wardentest"

// fleet is a set of real sshd servers on loopback and a warden serving
// them over stdio.
type fleetFixture struct {
	srv   map[string]*sshd.Server
	s     *stdioServer
	state string
	// dir is a directory on "a" the test user owns, the only root of a's
	// file policy.
	dir string
}

// startFleet starts the servers, writes warden.yaml naming them, and
// starts warden in open mode (so tier 2 calls run without approval).
//
//	a, b      plain servers; a allows TCP forwarding and has a file root
//	jump      a jump host; inner (on 127.0.0.2) is reachable only through it
//	down      stopped before the fan-out
//	crash     killed in the middle of a call, then restarted
//	stranger  not in known_hosts; changed: known_hosts has another key
//	ro        a's server under mode readonly
//	dec, hexa 127.0.0.3 spelled 2130706435 and 0x7f000003, denied by policy
func startFleet(t *testing.T) *fleetFixture {
	t.Helper()
	key := sshd.NewKey(t)
	start := func(o sshd.Options) *sshd.Server {
		o.User, o.UserKey = sshUser, key
		return sshd.Start(t, o)
	}
	f := &fleetFixture{srv: map[string]*sshd.Server{}}
	f.srv["a"] = start(sshd.Options{AllowTCPForwarding: true})
	f.srv["b"] = start(sshd.Options{})
	f.srv["jump"] = start(sshd.Options{AllowTCPForwarding: true})
	f.srv["inner"] = start(sshd.Options{ListenAddress: "127.0.0.2"})
	f.srv["down"] = start(sshd.Options{})
	f.srv["crash"] = start(sshd.Options{})
	f.srv["stranger"] = start(sshd.Options{})
	f.srv["changed"] = start(sshd.Options{})
	onlyThroughJump(t, f.srv["inner"])

	home := t.TempDir()
	known := filepath.Join(home, "known_hosts")
	var trusted []*sshd.Server
	for _, n := range []string{"a", "b", "jump", "inner", "down", "crash"} {
		trusted = append(trusted, f.srv[n])
	}
	if err := sshd.WriteKnownHosts(known, trusted...); err != nil {
		t.Fatal(err)
	}
	ch := f.srv["changed"]
	other := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(f.srv["b"].HostKey)))
	appendFile(t, known, fmt.Sprintf("[%s]:%d %s\n", ch.Host, ch.Port, other))

	f.dir = userDir(t)
	var cfg strings.Builder
	cfg.WriteString("ssh:\n  config: none\n  known_hosts: " + known + "\n  connect_timeout: 5s\n")
	cfg.WriteString("policy:\n  deny_hosts: [127.0.0.3]\n")
	cfg.WriteString("hosts:\n")
	host := func(name string, s *sshd.Server, extra string) {
		fmt.Fprintf(&cfg, "  - name: %s\n    address: %s\n    port: %d\n    user: %s\n    identity_files: [%s]\n%s",
			name, s.Host, s.Port, sshUser, key.Path, extra)
	}
	for _, n := range []string{"b", "jump", "down", "crash", "stranger", "changed"} {
		host(n, f.srv[n], "    groups: [lab]\n")
	}
	host("a", f.srv["a"], "    groups: [lab]\n    tags: [primary]\n    files:\n      allow_roots: ["+f.dir+"]\n")
	host("inner", f.srv["inner"], "    proxy_jump: jump\n")
	host("ro", f.srv["a"], "    mode: readonly\n")
	for name, addr := range map[string]string{"dec": "2130706435", "hexa": "0x7f000003"} {
		fmt.Fprintf(&cfg, "  - name: %s\n    address: %s\n    port: 22\n    user: %s\n", name, addr, sshUser)
	}
	cfg.WriteString("groups:\n  - name: pair\n    hosts: [a, b]\n")
	path := filepath.Join(home, "warden.yaml")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+path)
	f.state = state
	f.s = startStdio(t, env, state, nil)
	return f
}

// onlyThroughJump makes a direct connection from this (root) process to
// s refused, so only the jump host's forwarding, running as the test user,
// reaches it.
func onlyThroughJump(t *testing.T, s *sshd.Server) {
	t.Helper()
	rule := []string{"OUTPUT", "-p", "tcp", "-d", s.Host, "--dport", strconv.Itoa(s.Port), "-m", "owner", "--uid-owner", "0", "-j", "REJECT", "--reject-with", "tcp-reset"}
	if out, err := exec.Command("iptables", append([]string{"-I"}, rule...)...).CombinedOutput(); err != nil {
		t.Fatalf("iptables: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("iptables", append([]string{"-D"}, rule...)...).Run() })
	if c, err := net.DialTimeout("tcp", s.Addr, time.Second); err == nil {
		c.Close()
		t.Fatalf("%s is still reachable directly", s.Addr)
	}
}

// userDir is a directory owned by the test user, for its SFTP writes.
func userDir(t *testing.T) string {
	t.Helper()
	u, err := user.Lookup(sshUser)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "warden-sftp-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	return dir
}

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func (f *fleetFixture) call(t *testing.T, tool string, args map[string]any) (string, map[string]any) {
	t.Helper()
	res, got := callTool(t, f.s.cs, tool, args)
	return text(res), got
}

func want(t *testing.T, what string, got map[string]any, status string) {
	t.Helper()
	if got["status"] != status {
		t.Fatalf("%s: status %v (want %s): %v", what, got["status"], status, got)
	}
}

func TestSSHRemote(t *testing.T) {
	f := startFleet(t)

	t.Run("Exec", func(t *testing.T) {
		_, got := f.call(t, "run_command", map[string]any{"host": "a", "command": "echo hi; echo oops >&2; exit 3"})
		want(t, "run_command", got, "ok")
		if got["exit_code"] != 3.0 || got["stdout"] != "hi\n" || got["stderr"] != "oops\n" {
			t.Fatalf("got %v", got)
		}
		_, got = f.call(t, "run_command", map[string]any{"host": "b", "command": "tr a-z A-Z", "stdin": "abc\n"})
		if got["stdout"] != "ABC\n" {
			t.Fatalf("stdin: %v", got)
		}
		_, got = f.call(t, "run_command", map[string]any{"host": "a", "command": "head -c 300000 /dev/zero | tr '\\0' x", "max_bytes": 1000})
		if got["truncated"] != true || len(got["stdout"].(string)) > 1000 || got["total_bytes"] != 300000.0 {
			t.Fatalf("output cap: truncated=%v len=%d total=%v", got["truncated"], len(got["stdout"].(string)), got["total_bytes"])
		}
	})

	// With the default ssh.prestart, a call leaves the session the host's
	// next call runs in: that call's shell was up before it was made.
	t.Run("SessionStartedAhead", func(t *testing.T) {
		echoPid := func() string {
			_, got := f.call(t, "run_command", map[string]any{"host": "b", "command": "echo $$"})
			want(t, "run_command", got, "ok")
			return strings.TrimSpace(got["stdout"].(string))
		}
		// Other hosts' spares match too, and this host's may still be
		// starting: wait for a shell that was not there before the call.
		shells := func() []string {
			out, _ := exec.Command("pgrep", "-u", sshUser, "-f", "__wd_m=").Output()
			return strings.Fields(string(out))
		}
		// A new shell seen may be another host's spare, with this
		// host's not up yet: a few rounds are allowed, one must hold.
		var misses []string
		for range 3 {
			before := shells()
			echoPid()
			var waiting []string
			for end := time.Now().Add(20 * time.Second); len(waiting) == 0; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatal("no session started ahead on the host")
				}
				for _, pid := range shells() {
					if !slices.Contains(before, pid) {
						waiting = append(waiting, pid)
					}
				}
			}
			pid := echoPid()
			if slices.Contains(waiting, pid) {
				return
			}
			misses = append(misses, fmt.Sprintf("shell %s, not one of %v", pid, waiting))
		}
		t.Fatalf("no call ran in a shell started before it: %v", misses)
	})

	t.Run("JumpHost", func(t *testing.T) {
		_, got := f.call(t, "run_command", map[string]any{"host": "inner", "command": "echo through-$((1+1))"})
		want(t, "run_command via jump", got, "ok")
		if got["stdout"] != "through-2\n" {
			t.Fatalf("got %v", got)
		}
	})

	t.Run("TimeoutKillsRemote", func(t *testing.T) {
		m := runnertest.Marker(t)
		_, got := f.call(t, "run_command", map[string]any{"host": "a", "command": "sleep " + m, "timeout_s": 1})
		want(t, "timed out command", got, "timeout")
		if got["timed_out"] != true {
			t.Fatalf("got %v", got)
		}
		runnertest.WaitProcs(t, m, func(n int) bool { return n == 0 }, 5*time.Second)
		if out, _ := exec.Command("pgrep", "-f", "sleep "+m).Output(); len(out) > 0 {
			t.Fatalf("pgrep still finds the remote sleep: %s", out)
		}
	})

	t.Run("HostKeys", func(t *testing.T) {
		txt, got := f.call(t, "run_command", map[string]any{"host": "stranger", "command": "echo no"})
		fp := ssh.FingerprintSHA256(f.srv["stranger"].HostKey)
		if got["status"] == "ok" || !strings.Contains(txt, fp) || !strings.Contains(txt, "known_hosts") {
			t.Fatalf("unknown host key: want a refusal naming %s and known_hosts, got %s", fp, txt)
		}
		txt, got = f.call(t, "run_command", map[string]any{"host": "changed", "command": "echo no"})
		if got["status"] == "ok" || !strings.Contains(strings.ToLower(txt), "changed") || !strings.Contains(txt, ssh.FingerprintSHA256(f.srv["changed"].HostKey)) {
			t.Fatalf("changed host key: want a loud refusal, got %s", txt)
		}
		_, got = f.call(t, "hosts_check", map[string]any{"hosts": []string{"a", "stranger", "changed"}})
		res := got["results"].([]any)
		keys := map[string]string{}
		for _, r := range res {
			m := r.(map[string]any)
			keys[m["host"].(string)] = fmt.Sprint(m["host_key"])
			if m["host"] == "a" && m["auth_ok"] != true {
				t.Errorf("hosts_check a: %v", m)
			}
		}
		if keys["a"] != "known" || keys["stranger"] != "unknown" || keys["changed"] != "changed" {
			t.Fatalf("hosts_check host keys %v", keys)
		}
	})

	t.Run("SSHDKilledMidCall", func(t *testing.T) {
		m := runnertest.Marker(t)
		done := make(chan map[string]any, 1)
		go func() {
			res, err := f.s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"host": "crash", "command": "sleep " + m}})
			if err != nil {
				done <- map[string]any{"err": err.Error()}
				return
			}
			done <- map[string]any{"status": structured(t, res)["status"], "text": text(res)}
		}()
		runnertest.WaitProcs(t, m, func(n int) bool { return n >= 1 }, 10*time.Second)
		f.srv["crash"].Stop()
		var got map[string]any
		select {
		case got = <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("the call did not return after sshd died")
		}
		if got["status"] != "error" || !strings.Contains(fmt.Sprint(got["text"]), "connection lost") {
			t.Fatalf("killed sshd: want a clear connection-lost error, got %v", got)
		}
		f.srv["crash"].Restart(t)
		_, after := f.call(t, "run_command", map[string]any{"host": "crash", "command": "echo back"})
		if after["status"] != "ok" || after["stdout"] != "back\n" {
			t.Fatalf("call after restart: %v", after)
		}
	})

	t.Run("SFTP", func(t *testing.T) {
		p := filepath.Join(f.dir, "note.txt")
		_, got := f.call(t, "write_file", map[string]any{"host": "a", "path": p, "content": "remote hello\n"})
		want(t, "write_file", got, "ok")
		if b, _ := os.ReadFile(p); string(b) != "remote hello\n" {
			t.Fatalf("written %q", b)
		}
		if st, _ := os.Stat(p); st == nil || fmt.Sprint(st.Sys()) == "" {
			t.Fatal("no file")
		}
		_, got = f.call(t, "write_file", map[string]any{"host": "a", "path": p, "content": "again"})
		if got["status"] == "ok" {
			t.Fatal("write_file replaced an existing remote file without overwrite")
		}
		_, got = f.call(t, "read_file", map[string]any{"host": "a", "path": p})
		if got["status"] != "ok" || got["content"] != "remote hello\n" {
			t.Fatalf("read_file: %v", got)
		}
		os.Symlink("/etc/passwd", filepath.Join(f.dir, "out-link"))
		_, got = f.call(t, "list_dir", map[string]any{"host": "a", "path": f.dir})
		if got["status"] != "ok" || len(got["entries"].([]any)) != 2 {
			t.Fatalf("list_dir: %v", got)
		}
		_, got = f.call(t, "stat_file", map[string]any{"host": "a", "path": p})
		if got["status"] != "ok" || got["size"] != 13.0 || got["type"] != "file" {
			t.Fatalf("stat_file: %v", got)
		}
		// a's path policy allows only its root: outside it, and symlinks
		// leading out, are refused; the same path on b (default policy)
		// is readable.
		for _, q := range []string{"/etc/hostname", filepath.Join(f.dir, "out-link"), f.dir + "/../" + filepath.Base(f.dir) + "x/y"} {
			_, got = f.call(t, "read_file", map[string]any{"host": "a", "path": q})
			if got["status"] == "ok" {
				t.Errorf("read_file %s on a was allowed: %v", q, got)
			}
		}
		// /etc/passwd: world-readable everywhere (some machines make
		// /etc/hostname 0600, and b's user is not root).
		_, got = f.call(t, "read_file", map[string]any{"host": "b", "path": "/etc/passwd"})
		want(t, "read_file on b", got, "ok")
		_, got = f.call(t, "read_file", map[string]any{"host": "b", "path": "/etc/shadow"})
		if got["status"] == "ok" {
			t.Fatal("read_file /etc/shadow on b was allowed")
		}

		local := t.TempDir()
		src := filepath.Join(local, "up.bin")
		os.WriteFile(src, []byte(strings.Repeat("warden\n", 50000)), 0o640)
		dst := filepath.Join(f.dir, "up.bin")
		_, got = f.call(t, "copy_file", map[string]any{"from": src, "to": "a:" + dst})
		want(t, "copy_file up", got, "ok")
		if got["bytes"] != 350000.0 {
			t.Fatalf("copy_file: %v", got)
		}
		if b, _ := os.ReadFile(dst); len(b) != 350000 {
			t.Fatalf("copied %d bytes", len(b))
		}
		_, got = f.call(t, "copy_file", map[string]any{"from": src, "to": "a:" + dst})
		if got["status"] == "ok" {
			t.Fatal("copy_file replaced an existing file without overwrite")
		}
		_, got = f.call(t, "copy_file", map[string]any{"from": src, "to": "a:" + dst, "overwrite": true})
		want(t, "copy_file overwrite", got, "ok")
		back := filepath.Join(local, "down.bin")
		_, got = f.call(t, "copy_file", map[string]any{"from": "a:" + dst, "to": back})
		want(t, "copy_file down", got, "ok")
		if b, _ := os.ReadFile(back); string(b) != strings.Repeat("warden\n", 50000) {
			t.Fatalf("copied back %d bytes", len(b))
		}
		_, got = f.call(t, "copy_file", map[string]any{"from": "a:/etc/hostname", "to": filepath.Join(local, "h")})
		if got["status"] == "ok" {
			t.Fatal("copy_file from outside a's root was allowed")
		}
		_, got = f.call(t, "copy_file", map[string]any{"from": src, "to": "a:/tmp/escape.bin"})
		if got["status"] == "ok" {
			t.Fatal("copy_file to outside a's root was allowed")
		}
	})

	t.Run("DenyHostSpellings", func(t *testing.T) {
		for _, h := range []string{"dec", "hexa"} {
			txt, got := f.call(t, "run_command", map[string]any{"host": h, "command": "echo no"})
			if got["status"] != "denied" || !strings.Contains(txt, "127.0.0.3") {
				t.Errorf("%s: want denied by rule 127.0.0.3, got %s", h, txt)
			}
			_, got = f.call(t, "read_file", map[string]any{"host": h, "path": "/etc/hostname"})
			if got["status"] != "denied" {
				t.Errorf("read_file on %s: %v", h, got)
			}
		}
	})

	t.Run("Keyscan", func(t *testing.T) {
		for _, bad := range []string{"-oProxyCommand=x", "a;id", "$(id)", "a b", "--", "x\nlocalhost"} {
			_, got := f.call(t, "ssh_keyscan", map[string]any{"hosts": []string{"127.0.0.1", bad}})
			want(t, "keyscan "+bad, got, "invalid_argument")
		}
		a := f.srv["a"]
		_, got := f.call(t, "ssh_keyscan", map[string]any{"hosts": []string{a.Host}, "port": a.Port})
		want(t, "keyscan", got, "ok")
		r := got["results"].([]any)[0].(map[string]any)
		keys := r["keys"].([]any)
		k := keys[0].(map[string]any)
		if k["fingerprint"] != ssh.FingerprintSHA256(a.HostKey) || !strings.Contains(fmt.Sprint(k["known_hosts_line"]), strconv.Itoa(a.Port)) {
			t.Fatalf("keyscan: %v", r)
		}
		_, got = f.call(t, "ssh_keyscan", map[string]any{"hosts": []string{"dec"}})
		if r := got["results"].([]any)[0].(map[string]any); r["status"] != "denied" {
			t.Fatalf("keyscan of a denied address: %v", got)
		}
	})

	t.Run("LocalForward", func(t *testing.T) {
		ln, _ := echoOn(t, "127.0.0.1")
		_, got := f.call(t, "forward_open", map[string]any{"host": "a", "spec": "L:0.0.0.0:0:127.0.0.1:1"})
		want(t, "non-loopback bind", got, "invalid_argument")
		_, got = f.call(t, "forward_open", map[string]any{"host": "a", "spec": "L:127.0.0.1:0:127.0.0.3:22"})
		want(t, "forward to a denied address", got, "denied")
		_, got = f.call(t, "forward_open", map[string]any{"host": "a", "spec": "L:0:" + ln.Addr().String()})
		want(t, "forward_open", got, "ok")
		listen, id := got["listen"].(string), got["forward_id"].(string)
		c, err := net.DialTimeout("tcp", listen, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(c, "ping\n")
		c.SetDeadline(time.Now().Add(10 * time.Second))
		reply, _ := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if reply != "echo:ping\n" {
			t.Fatalf("through the forward: %q", reply)
		}
		_, got = f.call(t, "forward_list", nil)
		if l := got["forwards"].([]any); len(l) != 1 || l[0].(map[string]any)["forward_id"] != id {
			t.Fatalf("forward_list: %v", got)
		}
		_, got = f.call(t, "forward_close", map[string]any{"forward_id": id})
		want(t, "forward_close", got, "ok")
		if c, err := net.DialTimeout("tcp", listen, time.Second); err == nil {
			c.Close()
			t.Fatal("the forward still accepts after forward_close")
		}
	})

	t.Run("DynamicForward", func(t *testing.T) { dynamicForwardChecks(t, f) })

	t.Run("Inventory", func(t *testing.T) {
		_, got := f.call(t, "hosts_list", nil)
		hosts := map[string]map[string]any{}
		for _, h := range got["hosts"].([]any) {
			m := h.(map[string]any)
			hosts[m["name"].(string)] = m
		}
		if a := hosts["a"]; a == nil || a["port"] != float64(f.srv["a"].Port) || fmt.Sprint(a["groups"]) != "[lab pair]" || fmt.Sprint(a["tags"]) != "[primary]" {
			t.Fatalf("hosts_list a: %v", hosts["a"])
		}
		if fmt.Sprint(hosts["inner"]["jump"]) != "[jump]" || hosts["ro"]["mode"] != "readonly" {
			t.Fatalf("hosts_list inner/ro: %v %v", hosts["inner"], hosts["ro"])
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res, err := f.s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "warden://hosts"})
		if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, `"name": "inner"`) {
			t.Fatalf("resource warden://hosts: %v %v", res, err)
		}
		var found bool
		for _, r := range auditRecords(t, f.state) {
			found = found || r["tool"] == "resource:warden://hosts"
		}
		if !found {
			t.Fatal("the resource read was not audited")
		}
	})

	t.Run("Session", func(t *testing.T) {
		_, got := f.call(t, "session_start", map[string]any{"host": "a"})
		want(t, "session_start", got, "ok")
		id := got["session_id"].(string)
		read := func(wantText string) {
			t.Helper()
			var all strings.Builder
			deadline := time.Now().Add(15 * time.Second)
			for time.Now().Before(deadline) {
				_, got := f.call(t, "session_read", map[string]any{"session_id": id, "wait_s": 2})
				all.WriteString(fmt.Sprint(got["data"]))
				if strings.Contains(all.String(), wantText) {
					return
				}
			}
			t.Fatalf("session output never held %q: %q", wantText, all.String())
		}
		f.call(t, "session_send", map[string]any{"session_id": id, "data": "echo $((6*7))"})
		read("42")
		m := runnertest.Marker(t)
		f.call(t, "session_send", map[string]any{"session_id": id, "data": "sleep " + m})
		runnertest.WaitProcs(t, m, func(n int) bool { return n == 1 }, 10*time.Second)
		_, got = f.call(t, "session_signal", map[string]any{"session_id": id, "signal": "INT"})
		want(t, "session_signal", got, "ok")
		runnertest.WaitProcs(t, m, func(n int) bool { return n == 0 }, 10*time.Second)
		f.call(t, "session_send", map[string]any{"session_id": id, "data": "echo alive-$((1+1))"})
		read("alive-2")
		_, got = f.call(t, "session_send", map[string]any{"session_id": id, "data": "rm -rf /"})
		want(t, "rm -rf / typed into a remote session", got, "denied")
		_, got = f.call(t, "session_close", map[string]any{"session_id": id})
		want(t, "session_close", got, "ok")
		_, got = f.call(t, "session_start", map[string]any{"host": "ro", "command": "touch /tmp/x"})
		want(t, "session_start of a tier 2 command on a readonly host", got, "denied")
	})

	// A program that ignores Ctrl-C still reads the remote terminal after
	// it: the host's /proc shows it, so the send after Ctrl-C is refused
	// rather than taken to reach the shell.
	t.Run("SessionHeldAfterCtrlC", func(t *testing.T) {
		prog := filepath.Join(programDir(t), "deaf")
		if err := os.WriteFile(prog, []byte("#!/bin/sh\ntrap '' INT\nread a\nread b\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		_, got := f.call(t, "session_start", map[string]any{"host": "a"})
		want(t, "session_start", got, "ok")
		id := got["session_id"].(string)
		defer f.call(t, "session_close", map[string]any{"session_id": id})
		_, got = f.call(t, "session_send", map[string]any{"session_id": id, "data": prog})
		want(t, "session_send of the program", got, "ok")
		time.Sleep(500 * time.Millisecond)
		_, got = f.call(t, "session_send", map[string]any{"session_id": id, "data": "\x03", "enter": false})
		want(t, "Ctrl-C", got, "ok")
		_, got = f.call(t, "session_send", map[string]any{"session_id": id, "data": ""})
		want(t, "the send after Ctrl-C while the program holds the terminal", got, "denied")
	})

	// Fan-out last: it stops "down".
	t.Run("Fanout", func(t *testing.T) {
		f.srv["down"].Stop()
		txt, got := f.call(t, "fanout", map[string]any{"command": "uname -s", "hosts": []string{"lab", "inner", "dec"}, "concurrency": 4})
		want(t, "fanout", got, "ok")
		byHost := map[string]map[string]any{}
		for _, r := range got["results"].([]any) {
			m := r.(map[string]any)
			byHost[m["host"].(string)] = m
		}
		for _, h := range []string{"a", "b", "jump", "inner", "crash"} {
			if r := byHost[h]; r == nil || r["status"] != "ok" || r["stdout"] != "Linux\n" || r["exit_code"] != 0.0 {
				t.Errorf("fanout %s: %v", h, r)
			}
		}
		if r := byHost["down"]; r == nil || r["status"] != "error" || !strings.Contains(fmt.Sprint(r["reason"]), "connect") {
			t.Errorf("fanout down: want its connection error, got %v", r)
		}
		for _, h := range []string{"stranger", "changed"} {
			if r := byHost[h]; r == nil || r["status"] != "error" || !strings.Contains(strings.ToLower(fmt.Sprint(r["reason"])), "host key") {
				t.Errorf("fanout %s: %v", h, r)
			}
		}
		if r := byHost["dec"]; r == nil || r["status"] != "denied" || r["ran"] != false {
			t.Errorf("fanout dec: want denied, got %v", r)
		}
		if len(byHost) != 9 {
			t.Errorf("fanout covered %d hosts, want 9: %s", len(byHost), txt)
		}
		// One audit record per host, each with that host's own outcome.
		recs := map[string]map[string]any{}
		var call string
		for _, r := range auditRecords(t, f.state) {
			if r["tool"] != "fanout" {
				continue
			}
			extra, _ := r["extra"].(map[string]any)
			if call == "" {
				call = fmt.Sprint(extra["fanout"])
			}
			if fmt.Sprint(extra["fanout"]) != call {
				continue
			}
			h := r["host"].(string)
			if recs[h] != nil {
				t.Errorf("two audit records for host %s", h)
			}
			recs[h] = r
		}
		if len(recs) != 9 || recs["down"]["status"] != "error" || recs["dec"]["decision"] != "denied" || recs["a"]["status"] != "ok" {
			t.Errorf("fanout audit records: %v", recs)
		}

		// Each host is admitted under its own mode: a tier 2 command runs
		// on a (open) and is refused on ro (readonly), where nothing runs.
		marker := filepath.Join(f.dir, "touched")
		_, got = f.call(t, "fanout", map[string]any{"command": "touch " + marker, "hosts": []string{"ro", "a"}})
		want(t, "mixed-mode fanout", got, "ok")
		res := got["results"].([]any)
		if r := res[0].(map[string]any); r["host"] != "ro" || r["status"] != "denied" || r["ran"] != false {
			t.Errorf("ro: %v", r)
		}
		if r := res[1].(map[string]any); r["status"] != "ok" {
			t.Errorf("a: %v", r)
		}
		_, got = f.call(t, "fanout", map[string]any{"command": "touch " + marker, "hosts": []string{"ro"}})
		want(t, "fanout with every host refused", got, "denied")
		_, got = f.call(t, "fanout", map[string]any{"command": "rm -rf /", "hosts": []string{"pair"}})
		if got["status"] != "denied" || got["ok"] != 0.0 {
			t.Errorf("rm -rf / fanned out: %v", got)
		}
		_, got = f.call(t, "fanout", map[string]any{"command": "true", "hosts": []string{"a"}, "concurrency": 33})
		want(t, "concurrency 33", got, "invalid_argument")
	})
}
