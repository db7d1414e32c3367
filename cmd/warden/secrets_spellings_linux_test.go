package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"

	"github.com/warden-mcp/warden/internal/confine/confinetest"
)

// TestSecretsSpellingsOutOfReach tries warden's state and process in many
// spellings through run_command, run_script and a session, in every mode,
// as root and as an unprivileged user. Each spelling is tried as written
// (the classifier may refuse it) and hidden from the classifier behind
// eval of base64, so that where a mode runs it, the kernel is what holds.
// After each try warden must still answer.
func TestSecretsSpellingsOutOfReach(t *testing.T) {
	t.Run("root", func(t *testing.T) {
		if unix.Geteuid() != 0 {
			t.Skip("not root")
		}
		secretsSpellings(t, func(t *testing.T, env []string, state string) *mcp.ClientSession {
			return startStdio(t, env, state, nil).cs
		})
	})
	t.Run("nonroot", func(t *testing.T) {
		secretsSpellings(t, startAsNobody)
	})
}

// stateSpellings read warden's state dir S (parent P, name N) in the ways
// a shell, a copy or an interpreter can reach it.
func stateSpellings(s, p, n string) []string {
	return []string{
		"cat " + s + "/audit.jsonl " + s + "/token",
		"cat /proc/self/root" + s + "/audit.jsonl",
		"cat /proc/1/root" + s + "/audit.jsonl",
		"cat /proc/$PPID/root" + s + "/audit.jsonl",
		"cat /proc/$PPID/task/*/root" + s + "/audit.jsonl",
		"cat /proc/$PPID/cwd/audit.jsonl",
		"cd " + p + " && cat " + n + "/audit.jsonl",
		"cd " + p + "; pushd " + n + " >/dev/null; cat audit.jsonl",
		"CDPATH=" + p + " cd " + n + " && cat audit.jsonl",
		"cat " + p + "/" + n[:3] + "?" + n[4:] + "/[a]udit.jsonl",
		"cat {" + s + ",/nonexistent}/audit.jsonl",
		"cat " + p + "//" + n + "/./x/../audit.jsonl",
		"cp -r " + s + " /tmp/wc-$$; grep -r canary /tmp/wc-$$; rm -rf /tmp/wc-$$",
		"tar -C " + p + " -c " + n + " | strings",
		"find " + p + " -name 'audit*' -fprint /dev/stdout -exec cat {} +",
		"python3 -c 'print(open(\"" + s + "/audit.jsonl\").read())'",
		"busybox cat " + s + "/audit.jsonl",
		"sh -c 'cat " + s + "/audit.jsonl'",
		"echo " + s + "/audit.jsonl | xargs cat",
		"ln " + s + "/audit.jsonl /tmp/wh-$$; cat /tmp/wh-$$; rm -f /tmp/wh-$$",
		"ln -s " + s + " /tmp/ws-$$; cat /tmp/ws-$$/audit.jsonl; rm -f /tmp/ws-$$",
		"HOME=" + p + "; cat ~/" + n + "/audit.jsonl",
		"umount " + s + "; cat " + s + "/audit.jsonl",
		"nsenter -t $PPID -m cat " + s + "/audit.jsonl",
		"nsenter -t 1 -m cat " + s + "/audit.jsonl",
	}
}

// processSpellings reach warden's process: its environment, memory and
// descriptors, and signals, limits and priorities aimed at it or at any of
// its threads.
func processSpellings() []string {
	others := `import os, sys; p = int(sys.argv[1]); tids = [int(x) for x in os.listdir("/proc/%d/task" % p) if int(x) != p]`
	return []string{
		"cat /proc/$PPID/environ /proc/$PPID/task/*/environ",
		"python3 -c 'import sys; f = open(\"/proc/%s/mem\" % sys.argv[1], \"rb\"); f.seek(0x400000); print(f.read(4096))' $PPID",
		"ls -l /proc/$PPID/fd /proc/$PPID/map_files; cat /proc/$PPID/fd/* /proc/$PPID/map_files/*",
		"ls -l /proc/self/fd; cat /dev/fd/3 /dev/fd/4 /dev/fd/5",
		"cat /proc/$PPID/auxv /proc/$PPID/stack /proc/$PPID/cmdline | strings",
		"kill -STOP $PPID",
		"kill 0",
		"for t in /proc/$PPID/task/*; do kill -STOP ${t##*/}; done",
		`python3 -c '` + others + fmt.Sprintf(`; import ctypes; l = ctypes.CDLL(None); [l.syscall(%d, t, 19) for t in tids]' $PPID`, unix.SYS_TKILL),
		`python3 -c 'import os, signal, sys; signal.pidfd_send_signal(os.open("/proc/" + sys.argv[1], os.O_RDONLY), signal.SIGSTOP)' $PPID`,
		`python3 -c 'import os, fcntl, socket, sys; a, b = socket.socketpair(); fcntl.fcntl(a, fcntl.F_SETOWN, int(sys.argv[1])); fcntl.fcntl(a, 10, 19); fcntl.fcntl(a, fcntl.F_SETFL, os.O_ASYNC | os.O_NONBLOCK); b.send(b"x")' $PPID`,
		`python3 -c '` + others + `; import resource
for t in tids + [p]:
    try: resource.prlimit(t, resource.RLIMIT_NOFILE, (3, 3))
    except OSError: pass' $PPID`,
		"renice -n 19 -p $(ls /proc/$PPID/task); ionice -c 3 -p $(ls /proc/$PPID/task); taskset -p 1 $PPID",
		"prlimit --pid $PPID --nofile=3:3",
		"gdb -p $PPID -batch -ex 'info threads'",
		"timeout 2 strace -p $PPID",
	}
}

// hidden is script behind eval of what a file named only at run time
// holds: the classifier cannot read it. (It computes base64 -d of literal
// text, so eval "$(echo … | base64 -d)" is read like the script, and its
// scan of text it cannot see into decodes base64 words, so the word is
// rot13'd too: still base64's alphabet, decoding to nothing readable.)
func hidden(script string) string {
	rot13 := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, base64.StdEncoding.EncodeToString([]byte(script)))
	return `f=$(mktemp) && echo ` + rot13 + ` > "$f" && eval "$(tr A-Za-z N-ZA-Mn-za-m < "$f" | base64 -d; rm -f "$f")"`
}

func secretsSpellings(t *testing.T, start func(*testing.T, []string, string) *mcp.ClientSession) {
	const secret = "canary-5d1e-env-secret"
	for _, mode := range []string{"readonly", "guarded", "open"} {
		t.Run(mode, func(t *testing.T) {
			env, _ := wardenEnv(t, "WARDEN_MODE="+mode, "WARDEN_TOKEN="+secret+"-0123456789", "AWS_SECRET_ACCESS_KEY="+secret, "SHELL=/bin/sh")
			cs := start(t, env, "")
			var state string
			for _, kv := range env {
				if v, ok := strings.CutPrefix(kv, "WARDEN_STATE_DIR="); ok {
					state = v
				}
			}
			_, info := callTool(t, cs, "server_info", nil)
			requireConfinement(t, info)
			canary := "canary-3b8c-audited-" + mode
			callTool(t, cs, "run_command", map[string]any{"command": "echo " + canary})
			check := func(what, out string) {
				t.Helper()
				if strings.Contains(out, secret) || strings.Contains(out, canary) {
					t.Errorf("%s in %s mode reached warden's secrets:\n%s", what, mode, out)
				}
				alive(t, cs, what)
			}
			var tries []string
			for _, s := range append(stateSpellings(state, filepath.Dir(state), filepath.Base(state)), processSpellings()...) {
				tries = append(tries, s, hidden(s))
			}
			for _, cmd := range tries {
				res, _ := callApproved(t, cs, "run_command", map[string]any{"command": cmd})
				check(cmd, text(res))
			}
			all := strings.Join(append(stateSpellings(state, filepath.Dir(state), filepath.Base(state)), processSpellings()...), "\n")
			res, _ := callApproved(t, cs, "run_script", map[string]any{"script": hidden(all)})
			check("run_script", text(res))

			// A session started writable (approved, or open mode) is
			// confined like an approved call: typing the same spellings
			// into it reaches nothing either.
			res, got := callApproved(t, cs, "session_start", map[string]any{"writable": true})
			if res.IsError || got["session_id"] == nil {
				return // readonly mode refuses a writable session
			}
			sh := &sess{t: t, cs: cs, id: got["session_id"].(string)}
			for _, s := range append(stateSpellings(state, filepath.Dir(state), filepath.Base(state)), processSpellings()...) {
				if s == "kill 0" {
					continue // the session's own shell is in that group
				}
				_, got := callApproved(t, cs, "session_send", map[string]any{"session_id": sh.id, "data": hidden(s) + " 2>&1; echo done-$((6*7))\n"})
				if got["status"] != "ok" {
					t.Fatalf("session_send in %s mode: %v", mode, got)
				}
				check("session: "+s, sh.readUntil("done-42"))
			}
		})
	}
}

// alive fails the test unless warden answers server_info promptly: a try
// that stopped, killed or starved it shows here.
func alive(t *testing.T, cs *mcp.ClientSession, after string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "server_info"}); err != nil {
		t.Fatalf("warden stopped answering after %q: %v", after, err)
	}
}

// TestSecretFilesOutOfReach: the key files the config names (the HTTPS
// key, an audit collector's client key), and copies of them beside them,
// are warden's own, wherever they live: neither the file tools, which run
// in warden, nor any child may read them. A child is judged by the key's digest, which no redaction
// of output hides.
func TestSecretFilesOutOfReach(t *testing.T) {
	dir := outsideTemp(t)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "warden-test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), DNSNames: []string{"localhost"}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder})
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	for _, f := range []string{"tls", "client"} {
		os.WriteFile(filepath.Join(dir, f+".crt"), certPEM, 0o644)
		if err := os.WriteFile(filepath.Join(dir, f+".key"), keyPEM, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Copies beside them hold the same key.
	for _, f := range []string{"tls.key.bak", ".client.key.swp"} {
		if err := os.WriteFile(filepath.Join(dir, f), keyPEM, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(keyPEM))
	cfg := writeFile(t, "http:\n  tls_cert_file: "+dir+"/tls.crt\n  tls_key_file: "+dir+"/tls.key\n"+
		"audit:\n  export:\n    - type: syslog\n      network: tls\n      address: 127.0.0.1:1\n      cert_file: "+dir+"/client.crt\n      key_file: "+dir+"/client.key\n")
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	_, info := callTool(t, s.cs, "server_info", nil)
	requireConfinement(t, info)
	for _, f := range []string{"tls.key", "client.key", "tls.key.bak", ".client.key.swp"} {
		p := filepath.Join(dir, f)
		res, got := callTool(t, s.cs, "read_file", map[string]any{"path": p})
		if got["status"] == "ok" || strings.Contains(text(res), "PRIVATE KEY") {
			t.Errorf("read_file %s: %v %s", f, got, text(res))
		}
		for _, cmd := range []string{"sha256sum " + p, "sha256sum " + dir + "/*", hidden("sha256sum " + p)} {
			res, _ := callApproved(t, s.cs, "run_command", map[string]any{"command": cmd})
			if strings.Contains(text(res), sum) {
				t.Errorf("%s read %s: %s", cmd, f, text(res))
			}
		}
	}
	// The same files are readable to a child when the config does not
	// name them: the refusal above is warden's, not the files' modes.
	env2, state2 := wardenEnv(t, "WARDEN_MODE=open")
	s2 := startStdio(t, env2, state2, nil)
	if res, _ := callTool(t, s2.cs, "run_command", map[string]any{"command": "sha256sum " + dir + "/client.key"}); !strings.Contains(text(res), sum) {
		t.Errorf("control: an unnamed key file was not readable: %s", text(res))
	}
}

// TestSSHKeysOutOfReachOfReads: the keys warden logs in to its hosts with
// (a host's identity_files, ssh's default key in ~/.ssh) cannot be read by
// a read, however it is spelled (a repository's hook included), so code
// one runs unseen cannot take warden's way into its hosts, nor (as root)
// reach warden's ssh-agent; nor their copies beside them. An approved
// call still can. The kernel suite holds benign calls the same way.
func TestSSHKeysOutOfReachOfReads(t *testing.T) {
	dir := outsideTemp(t)
	hostKey := filepath.Join(dir, "nas_key")
	if err := os.WriteFile(hostKey, []byte("canary-91ab-host-key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, "hosts:\n  - {name: nas, address: 127.0.0.1, user: admin, identity_files: ["+hostKey+"]}\n")
	agent := filepath.Join(dir, "agent.sock")
	confinetest.Agent(t, agent, "canary-e5a0-agent")
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+cfg, "SSH_AUTH_SOCK="+agent)
	var home string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	homeKey := filepath.Join(home, ".ssh", "id_ed25519")
	if err := os.MkdirAll(filepath.Dir(homeKey), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(homeKey, []byte("canary-4c2f-home-key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A repository whose config runs a program on git diff: code no
	// classifier reads, admitted as a read.
	repo := filepath.Join(dir, "repo")
	git := func(args ...string) {
		t.Helper()
		gitIn(t, dir, repo, args...)
	}
	os.MkdirAll(repo, 0o755)
	git("init", "-q")
	os.WriteFile(filepath.Join(repo, "f"), []byte("one\n"), 0o644)
	git("add", "f")
	git("commit", "-q", "-m", "f")
	os.WriteFile(filepath.Join(repo, "f"), []byte("two\n"), 0o644)
	s := startStdio(t, env, state, nil)
	_, info := callTool(t, s.cs, "server_info", nil)
	requireConfinement(t, info)
	script := filepath.Join(dir, "talk.py")
	if err := os.WriteFile(script, []byte("import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect('"+agent+"')\nprint(s.recv(100).decode())\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	talk := "python3 " + script
	if os.Geteuid() == 0 { // a mount namespace covers the agent's socket
		git("config", "core.fsmonitor", "sh -c 'echo HOOK-RAN; "+talk+"' >&2")
		res, _ := callTool(t, s.cs, "run_command", map[string]any{"command": "git -C " + repo + " status"})
		if !strings.Contains(text(res), "HOOK-RAN") || strings.Contains(text(res), "canary-") {
			t.Errorf("a repository's hook reached warden's ssh-agent, or did not run: %s", text(res))
		}
		if res, _ := callApproved(t, s.cs, "run_command", map[string]any{"command": talk}); !strings.Contains(text(res), "canary-e5a0") {
			t.Errorf("control: an approved call could not reach the agent: %s", text(res))
		}
	}
	// Copies of the keys beside them, made once warden runs, hold the
	// keys: an operator's .bak, an old_ prefix. The public key stays
	// readable.
	keys := []string{hostKey, homeKey, hostKey + ".bak", filepath.Join(home, ".ssh", "old_id_ed25519")}
	for _, k := range keys[2:] {
		canary := "canary-77d1-key-copy\n"
		if err := os.WriteFile(k, []byte(canary), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(homeKey+".pub", []byte("ssh-ed25519 AAAA public-readable\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, _ := callTool(t, s.cs, "run_command", map[string]any{"command": "cat " + homeKey + ".pub"}); !strings.Contains(text(res), "public-readable") {
		t.Errorf("control: a read could not read the public key: %s", text(res))
	}
	for _, key := range keys {
		git("config", "core.fsmonitor", "sh -c 'echo HOOK-RAN; cat "+key+"' >&2")
		for _, cmd := range []string{
			"cat " + key,
			"cat " + filepath.Dir(key) + "/*",
			"cd " + filepath.Dir(key) + " && cat ./" + filepath.Base(key),
			"git -C " + repo + " status",
		} {
			res, got := callTool(t, s.cs, "run_command", map[string]any{"command": cmd})
			if got["status"] != "ok" {
				t.Fatalf("%s did not run: %v %s", cmd, got, text(res))
			}
			if strings.Contains(text(res), "canary-") {
				t.Errorf("%s read warden's SSH key: %s", cmd, text(res))
			}
			if strings.HasPrefix(cmd, "git") && !strings.Contains(text(res), "HOOK-RAN") {
				t.Errorf("the repository's diff program did not run: %s", text(res))
			}
		}
		copied := filepath.Join(dir, "copy")
		res, _ := callApproved(t, s.cs, "run_command", map[string]any{"command": "cp " + key + " " + copied + " && cat " + copied + "; rm -f " + copied})
		if !strings.Contains(text(res), "canary-") {
			t.Errorf("control: an approved call could not read %s: %s", key, text(res))
		}
	}
}
