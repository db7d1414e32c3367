package sshpool

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/sshd"
)

// TestProxyJump reaches a server on 127.0.0.2 through a jump server, with
// both named in an ssh_config. The test's dialler refuses the inner
// server's address, standing in for a network where only the jump host
// can reach it.
func TestProxyJump(t *testing.T) {
	key := sshd.NewKey(t)
	jump := sshd.Start(t, sshd.Options{User: testUser, UserKey: key, AllowTCPForwarding: true})
	inner := sshd.Start(t, sshd.Options{User: testUser, UserKey: key, ListenAddress: "127.0.0.2"})
	dir := t.TempDir()
	known := filepath.Join(dir, "known_hosts")
	if err := sshd.WriteKnownHosts(known, jump, inner); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`Host *
  User %s
  IdentityFile %s
  UserKnownHostsFile %s

Host jump
  HostName %s
  Port %d

Host inner
  HostName %s
  Port %d
  ProxyJump jump
`, testUser, key.Path, known, jump.Host, jump.Port, inner.Host, inner.Port)
	cfgPath := filepath.Join(dir, "config")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	inv, err := NewInventory(InventoryOptions{SSHConfig: cfgPath, HomeDir: dir, LocalUser: "nobody"})
	if err != nil {
		t.Fatal(err)
	}
	tgt, err := inv.Resolve("inner")
	if err != nil {
		t.Fatal(err)
	}
	if len(tgt.Jump) != 1 || tgt.Jump[0].Addr() != jump.Addr {
		t.Fatalf("jump chain = %+v, want [%s]", tgt.Jump, jump.Addr)
	}

	d := &countingDial{refuse: map[string]bool{inner.Addr: true}}
	p := newPool(t, Options{Dial: d.dial})
	direct := tgt
	direct.Jump = nil
	if _, err := p.Client(t.Context(), direct); err == nil || !strings.Contains(err.Error(), "only reachable through") {
		t.Fatalf("direct dial of the inner server: err = %v, want refused", err)
	}
	if got := run(t, p, tgt, "echo inner; echo $SSH_CONNECTION"); !strings.HasPrefix(got, "inner\n") {
		t.Errorf("got %q", got)
	}
	d.mu.Lock()
	addrs := slices.Clone(d.addrs)
	d.mu.Unlock()
	if want := []string{inner.Addr, jump.Addr}; !slices.Equal(addrs, want) {
		t.Errorf("TCP dials = %v, want %v (the refused direct one, then the jump host only)", addrs, want)
	}
	if st := p.Stats(); st.Open != 2 {
		t.Errorf("stats = %+v, want 2 open (jump and inner)", st)
	}
}

func TestSFTP(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	p := newPool(t, Options{})
	tgt := testTarget(t, s)
	sc, err := p.SFTP(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	// The server is local: write where the test user may, read back
	// both over SFTP and from the file system.
	path := fmt.Sprintf("/tmp/warden-sftp-%d", time.Now().UnixNano())
	t.Cleanup(func() { os.Remove(path) })
	data := make([]byte, 100<<10)
	rand.Read(data)
	w, err := sc.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	onDisk, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(onDisk, data) {
		t.Fatalf("file on disk: %d bytes, err %v; want the %d written", len(onDisk), err, len(data))
	}
	r, err := sc.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(r)
	r.Close()
	if err != nil || !bytes.Equal(back, data) {
		t.Errorf("read back %d bytes, err %v", len(back), err)
	}
	fi, err := sc.Stat(path)
	if err != nil || fi.Size() != int64(len(data)) {
		t.Errorf("stat: %v, %v", fi, err)
	}
	again, err := p.SFTP(t.Context(), tgt)
	if err != nil || again != sc {
		t.Errorf("second SFTP call: %p, %v; want the cached %p", again, err, sc)
	}
}

// echoServer accepts connections on loopback and echoes what it reads
// until the client half-closes.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				io.Copy(c, c)
			}()
		}
	}()
	return ln.Addr().String()
}

// exchange sends msg over c, half-closes and returns what came back.
func exchange(t *testing.T, c net.Conn, msg string) string {
	t.Helper()
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, msg); err != nil {
		t.Fatal(err)
	}
	c.(*net.TCPConn).CloseWrite()
	b, _ := io.ReadAll(c)
	return string(b)
}

func TestLocalForward(t *testing.T) {
	echo := echoServer(t)
	for _, allow := range []bool{true, false} {
		t.Run(fmt.Sprintf("AllowTcpForwarding=%v", allow), func(t *testing.T) {
			s := sshd.Start(t, sshd.Options{User: testUser, AllowTCPForwarding: allow})
			p := newPool(t, Options{})
			f, err := p.LocalForward(t.Context(), testTarget(t, s), "", echo)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if ip := f.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
				t.Errorf("forward listens on %v, want loopback", ip)
			}
			c, err := net.Dial("tcp", f.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			got := exchange(t, c, "ping through ssh")
			// With forwarding refused by the server, nothing comes
			// back: the bytes only ever travel through sshd.
			want := ""
			if allow {
				want = "ping through ssh"
			}
			if got != want {
				t.Errorf("echo = %q, want %q", got, want)
			}
		})
	}
}

func TestRemoteForward(t *testing.T) {
	echo := echoServer(t)
	s := sshd.Start(t, sshd.Options{User: testUser, AllowTCPForwarding: true})
	p := newPool(t, Options{})
	f, err := p.RemoteForward(t.Context(), testTarget(t, s), "127.0.0.1:0", echo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// The "remote" side is this machine: connect to the port sshd opened.
	c, err := net.Dial("tcp", f.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if got := exchange(t, c, "pong"); got != "pong" {
		t.Errorf("echo = %q, want pong", got)
	}
}

func TestDynamicForward(t *testing.T) {
	echo := echoServer(t)
	s := sshd.Start(t, sshd.Options{User: testUser, AllowTCPForwarding: true})
	p := newPool(t, Options{})
	f, err := p.DynamicForward(t.Context(), testTarget(t, s), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := net.Dial("tcp", f.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	host, port, _ := net.SplitHostPort(echo)
	var n int
	fmt.Sscan(port, &n)
	req := []byte{5, 1, 0, 5, 1, 0, 3, byte(len(host))}
	req = append(append(req, host...), byte(n>>8), byte(n))
	if _, err := c.Write(req); err != nil {
		t.Fatal(err)
	}
	reply := make([]byte, 2+10)
	if _, err := io.ReadFull(c, reply); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(reply[:2], []byte{5, 0}) || reply[3] != 0 {
		t.Fatalf("socks replies = %v, want method 0 and success", reply)
	}
	if got := exchange(t, c, "socks"); got != "socks" {
		t.Errorf("echo = %q, want socks", got)
	}
}

func TestAgentAuth(t *testing.T) {
	if _, err := exec.LookPath("ssh-agent"); err != nil {
		t.Skip("ssh-agent not installed (openssh-client)")
	}
	s := sshd.Start(t, sshd.Options{User: testUser})
	sock := filepath.Join(t.TempDir(), "agent.sock")
	agent := exec.Command("ssh-agent", "-D", "-a", sock)
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Process.Kill(); agent.Wait() })
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if time.Now().After(end) {
			t.Fatal("ssh-agent socket never appeared")
		}
	}
	add := exec.Command("ssh-add", s.UserKey.Path)
	add.Env = []string{"SSH_AUTH_SOCK=" + sock}
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v: %s", err, out)
	}

	tgt := testTarget(t, s)
	tgt.IdentityFiles = []string{filepath.Join(t.TempDir(), "absent")}
	if got := run(t, newPool(t, Options{AgentSocket: sock}), tgt, "echo agent"); got != "agent\n" {
		t.Errorf("got %q", got)
	}
	// Without the agent the same target has no key at all.
	if _, err := newPool(t, Options{}).Client(t.Context(), tgt); err == nil {
		t.Error("connected without the agent, want no usable key")
	}
	// IdentitiesOnly keeps agent keys that match no identity file out.
	tgt.IdentitiesOnly = true
	tgt.IdentityFiles = []string{sshd.NewKey(t).Path}
	if _, err := newPool(t, Options{AgentSocket: sock}).Client(t.Context(), tgt); err == nil {
		t.Error("IdentitiesOnly: connected with an agent key no identity file names")
	}
}

func TestCertificateAuth(t *testing.T) {
	ca := sshd.NewKey(t)
	// The server authorizes an unrelated key: only the CA lets us in.
	s := sshd.Start(t, sshd.Options{User: testUser, ExtraConfig: []string{"TrustedUserCAKeys " + ca.Path + ".pub"}})
	user := sshd.NewKey(t)
	tgt := testTarget(t, s)
	tgt.IdentityFiles = []string{user.Path}
	if _, err := newPool(t, Options{}).Client(t.Context(), tgt); err == nil {
		t.Fatal("connected with an unauthorized key before any certificate exists")
	}
	cert := &ssh.Certificate{
		Key:             user.Public(),
		CertType:        ssh.UserCert,
		KeyId:           "warden-test",
		ValidPrincipals: []string{testUser},
		ValidAfter:      uint64(time.Now().Add(-time.Minute).Unix()),
		ValidBefore:     uint64(time.Now().Add(time.Hour).Unix()),
		Permissions:     ssh.Permissions{Extensions: map[string]string{"permit-pty": ""}},
	}
	if err := cert.SignCert(rand.Reader, ca.Signer); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(user.Path+"-cert.pub", ssh.MarshalAuthorizedKey(cert), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := run(t, newPool(t, Options{}), tgt, "echo cert"); got != "cert\n" {
		t.Errorf("got %q", got)
	}
}
