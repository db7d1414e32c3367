package sshpool

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/sshd"
)

// testUser logs in to test servers: a user of its own with /bin/sh as
// login shell, so no dotfile of the machine's accounts runs in tests.
const testUser = "wardentest"

// testTarget is a target for s that trusts it through a known_hosts file
// of the test's own.
func testTarget(t *testing.T, s *sshd.Server) Target {
	t.Helper()
	known := filepath.Join(t.TempDir(), "known_hosts")
	if err := sshd.WriteKnownHosts(known, s); err != nil {
		t.Fatal(err)
	}
	return Target{
		Name:            "test-" + s.Host,
		Host:            s.Host,
		Port:            s.Port,
		User:            s.User,
		IdentityFiles:   []string{s.UserKey.Path},
		KnownHostsFiles: []string{known},
		HostKeyPolicy:   HostKeyStrict,
		Shell:           DefaultShell,
	}
}

// countingDial counts TCP dials and refuses those to the addresses in
// refuse.
type countingDial struct {
	n      atomic.Int64
	mu     sync.Mutex
	addrs  []string
	refuse map[string]bool
}

func (d *countingDial) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d.n.Add(1)
	d.mu.Lock()
	d.addrs = append(d.addrs, addr)
	refused := d.refuse[addr]
	d.mu.Unlock()
	if refused {
		return nil, fmt.Errorf("test network: %s is only reachable through the jump host", addr)
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

func newPool(t *testing.T, opts Options) *Pool {
	t.Helper()
	p := New(opts)
	t.Cleanup(func() { p.Close() })
	return p
}

// run runs cmd on t through p and returns its combined output.
func run(t *testing.T, p *Pool, tgt Target, cmd string) string {
	t.Helper()
	out, err := tryRun(t.Context(), p, tgt, cmd)
	if err != nil {
		t.Fatalf("run %q on %s: %v", cmd, tgt.Name, err)
	}
	return out
}

func tryRun(ctx context.Context, p *Pool, tgt Target, cmd string) (string, error) {
	l, err := p.Acquire(ctx, tgt)
	if err != nil {
		return "", err
	}
	defer l.Release()
	s, release, err := l.Session(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	defer s.Close()
	out, err := s.CombinedOutput(cmd)
	return string(out), err
}

func TestClientRunsCommand(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	p := newPool(t, Options{})
	if got := run(t, p, testTarget(t, s), "echo hi"); got != "hi\n" {
		t.Errorf("got %q, want %q", got, "hi\n")
	}
}

func TestUnknownHostRefusedWithFingerprint(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	tgt := testTarget(t, s)
	tgt.KnownHostsFiles = []string{filepath.Join(t.TempDir(), "empty_known_hosts")}
	p := newPool(t, Options{})
	_, err := p.Client(t.Context(), tgt)
	if !errors.Is(err, ErrUnknownHost) || errors.Is(err, ErrHostKeyChanged) {
		t.Fatalf("err = %v, want ErrUnknownHost", err)
	}
	msg := err.Error()
	for _, want := range []string{
		ssh.FingerprintSHA256(s.HostKey),
		fmt.Sprintf("ssh-keyscan -p %d -t ssh-ed25519 -- %s >> %s", s.Port, s.Host, tgt.KnownHostsFiles[0]),
		"ssh_keyscan",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if _, err := os.Stat(tgt.KnownHostsFiles[0]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("strict policy wrote known_hosts (stat err %v)", err)
	}
}

func TestChangedHostKeyRefused(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	tgt := testTarget(t, s)
	other := sshd.NewKey(t)
	line := fmt.Sprintf("[%s]:%d %s", s.Host, s.Port, ssh.MarshalAuthorizedKey(other.Public()))
	if err := os.WriteFile(tgt.KnownHostsFiles[0], []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, policy := range []HostKeyPolicy{HostKeyStrict, HostKeyAcceptNew} {
		tgt.HostKeyPolicy = policy
		_, err := newPool(t, Options{}).Client(t.Context(), tgt)
		if !errors.Is(err, ErrHostKeyChanged) || errors.Is(err, ErrUnknownHost) {
			t.Fatalf("%s: err = %v, want ErrHostKeyChanged", policy, err)
		}
		for _, want := range []string{"HOST KEY CHANGED", ssh.FingerprintSHA256(s.HostKey), ssh.FingerprintSHA256(other.Public())} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: message %q lacks %q", policy, err, want)
			}
		}
	}
}

func TestAcceptNewTrustsOnceThenVerifies(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	tgt := testTarget(t, s)
	tgt.KnownHostsFiles = []string{filepath.Join(t.TempDir(), "ssh", "known_hosts")}
	tgt.HostKeyPolicy = HostKeyAcceptNew
	p := newPool(t, Options{})
	if r := p.Check(t.Context(), tgt); r.Err != nil || r.HostKey != HostKeyAdded {
		t.Fatalf("first check = %+v, want host key added", r)
	}
	b, err := os.ReadFile(tgt.KnownHostsFiles[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), strings.TrimSpace(s.KnownHostsLine())) {
		t.Errorf("known_hosts = %q, want the server's line %q", b, s.KnownHostsLine())
	}
	// The appended key is now what strict checking trusts.
	tgt.HostKeyPolicy = HostKeyStrict
	if r := newPool(t, Options{}).Check(t.Context(), tgt); r.Err != nil || r.HostKey != HostKeyKnown {
		t.Errorf("strict check after accept-new = %+v, want known", r)
	}
}

// TestHostKeyAlgorithmFollowsKnownHosts proves negotiation asks for the key
// type known_hosts holds: the server prefers ed25519, known_hosts lists its
// ECDSA key only, and without the algorithm list the client would see the
// ed25519 key and call it changed.
func TestHostKeyAlgorithmFollowsKnownHosts(t *testing.T) {
	dir := t.TempDir()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	keyPath := filepath.Join(dir, "ssh_host_ecdsa_key")
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	pub, err := ssh.NewPublicKey(&priv.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	s := sshd.Start(t, sshd.Options{User: testUser, ExtraConfig: []string{"HostKey " + keyPath}})
	tgt := testTarget(t, s)
	line := fmt.Sprintf("[%s]:%d %s", s.Host, s.Port, ssh.MarshalAuthorizedKey(pub))
	if err := os.WriteFile(tgt.KnownHostsFiles[0], []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	r := newPool(t, Options{}).Check(t.Context(), tgt)
	if r.Err != nil || r.Fingerprint != ssh.FingerprintSHA256(pub) {
		t.Errorf("check = %+v, want success with the ECDSA key %s", r, ssh.FingerprintSHA256(pub))
	}
}

func TestConcurrentCallsShareOneConnection(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	d := &countingDial{}
	p := newPool(t, Options{Dial: d.dial})
	tgt := testTarget(t, s)
	const calls = 24 // more than the server's MaxSessions of 10
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := tryRun(t.Context(), p, tgt, fmt.Sprintf("sleep 0.2; echo %d", i))
			if err == nil && out != fmt.Sprintf("%d\n", i) {
				err = fmt.Errorf("call %d: output %q", i, out)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := d.n.Load(); got != 1 {
		t.Errorf("%d TCP dials for %d concurrent calls, want 1", got, calls)
	}
	if st := p.Stats(); st.Open != 1 || st.Dials != 1 {
		t.Errorf("stats = %+v, want 1 open, 1 dial", st)
	}
}

func TestRedialAfterServerRestart(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	p := newPool(t, Options{})
	tgt := testTarget(t, s)
	run(t, p, tgt, "true")

	// Kill the server while a command runs on the pooled connection.
	done := make(chan error, 1)
	go func() {
		_, err := tryRun(context.Background(), p, tgt, "sleep 30")
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	s.Stop()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("command on a killed server succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("command on a killed server did not return")
	}
	s.Restart(t)
	if got := run(t, p, tgt, "echo again"); got != "again\n" {
		t.Errorf("after restart got %q", got)
	}
	if st := p.Stats(); st.Dials != 2 || st.Open != 1 {
		t.Errorf("stats = %+v, want 2 dials, 1 open", st)
	}
}

func TestKeepaliveDetectsHungServer(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	p := newPool(t, Options{KeepAlive: 100 * time.Millisecond, KeepAliveTimeout: 300 * time.Millisecond})
	tgt := testTarget(t, s)
	l, err := p.Acquire(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	// OpenSSH forks its post-auth process around the time the client sees
	// authentication succeed; a command proves it exists, so Pause stops
	// the process that answers keepalives and not only its parent.
	run(t, p, tgt, "true")
	s.Pause()
	defer s.Resume()
	select {
	case <-l.Dead():
		if !strings.Contains(l.Err().Error(), "keepalive") {
			t.Errorf("died of %v, want a keepalive failure", l.Err())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("connection to a hung server not declared dead")
	}
	if st := p.Stats(); st.Open != 0 {
		t.Errorf("stats = %+v, want the dead connection dropped", st)
	}
}

func TestIdleConnectionClosed(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	now := time.Now()
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	p := newPool(t, Options{IdleTimeout: 40 * time.Millisecond, Now: clock})
	tgt := testTarget(t, s)
	l, err := p.Acquire(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	now = now.Add(time.Hour)
	mu.Unlock()
	time.Sleep(100 * time.Millisecond)
	if p.Stats().Open != 1 {
		t.Fatal("leased connection closed for idleness")
	}
	l.Release() // stamps lastUsed at the advanced clock
	mu.Lock()
	now = now.Add(time.Hour)
	mu.Unlock()
	deadline := time.Now().Add(5 * time.Second)
	for p.Stats().Open != 0 {
		if time.Now().After(deadline) {
			t.Fatal("idle connection not closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := run(t, p, tgt, "echo back"); got != "back\n" {
		t.Errorf("after idle close got %q", got)
	}
}

func TestMaxConns(t *testing.T) {
	a := sshd.Start(t, sshd.Options{User: testUser})
	b := sshd.Start(t, sshd.Options{User: testUser})
	p := newPool(t, Options{MaxConns: 1})
	la, err := p.Acquire(t.Context(), testTarget(t, a))
	if err != nil {
		t.Fatal(err)
	}
	tb := testTarget(t, b)
	if _, err := p.Acquire(t.Context(), tb); !errors.Is(err, ErrPoolFull) {
		t.Fatalf("second connection while the first is leased: err = %v, want ErrPoolFull", err)
	}
	la.Release()
	// An idle connection makes room.
	if got := run(t, p, tb, "echo b"); got != "b\n" {
		t.Errorf("got %q", got)
	}
	if st := p.Stats(); st.Open != 1 {
		t.Errorf("stats = %+v, want 1 open", st)
	}
}

func TestCheck(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	p := newPool(t, Options{})
	tgt := testTarget(t, s)

	ok := p.Check(t.Context(), tgt)
	if !ok.Reachable || !ok.AuthOK || ok.HostKey != HostKeyKnown || ok.Latency <= 0 || ok.Err != nil {
		t.Errorf("healthy host: %+v", ok)
	}

	badKey := tgt
	badKey.IdentityFiles = []string{sshd.NewKey(t).Path}
	// The same pool: the healthy host's connection is not reused for
	// targets with other keys or other known_hosts.
	r := p.Check(t.Context(), badKey)
	if !r.Reachable || r.AuthOK || r.HostKey != HostKeyKnown || r.Err == nil {
		t.Errorf("unauthorised key: %+v", r)
	}
	var de *DialError
	if !errors.As(r.Err, &de) || de.Stage != StageAuth {
		t.Errorf("unauthorised key: err = %v, want a DialError at stage auth", r.Err)
	}

	unknown := tgt
	unknown.Name = "unknown"
	unknown.KnownHostsFiles = nil
	r = p.Check(t.Context(), unknown)
	if !r.Reachable || r.AuthOK || r.HostKey != HostKeyUnknown || r.Fingerprint != ssh.FingerprintSHA256(s.HostKey) {
		t.Errorf("unknown host: %+v", r)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := tgt
	down.Port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	r = p.Check(t.Context(), down)
	if r.Reachable || r.AuthOK || r.Err == nil {
		t.Errorf("closed port: %+v", r)
	}
}

func TestKeyscan(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	keys, err := newPool(t, Options{}).Keyscan(t.Context(), s.Host, s.Port)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 || keys[0].Fingerprint != ssh.FingerprintSHA256(s.HostKey) {
		t.Fatalf("keys = %+v, want the server's ed25519 key", keys)
	}
	if got, want := keys[0].Line, strings.TrimSpace(s.KnownHostsLine()); got != want {
		t.Errorf("line = %q, want %q", got, want)
	}
}

func TestKeyscanRefusesInjection(t *testing.T) {
	d := &countingDial{}
	p := newPool(t, Options{Dial: d.dial})
	for _, host := range []string{
		"-oProxyCommand=touch /tmp/pwned", "-p", "--", "a b", "a;id", "$(id)", "`id`",
		"host\nother", "a|b", "a&b", "a>b", "*", "", strings.Repeat("a", 300), "héllo",
	} {
		if _, err := p.Keyscan(t.Context(), host, 22); !errors.Is(err, ErrInvalidName) {
			t.Errorf("Keyscan(%q): err = %v, want ErrInvalidName", host, err)
		}
	}
	if _, err := p.Keyscan(t.Context(), "localhost", 0); !errors.Is(err, ErrInvalidName) {
		t.Errorf("port 0: err = %v, want ErrInvalidName", err)
	}
	if n := d.n.Load(); n != 0 {
		t.Errorf("%d dials for refused arguments, want 0", n)
	}
}

// TestSpareChannelLeavesASlotFree opens sessions on a connection of three
// (two run slots and the control one): a spare session may take the first
// run slot, never the last one.
func TestSpareChannelLeavesASlotFree(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	p := newPool(t, Options{MaxSessions: 3})
	l, err := p.Acquire(t.Context(), testTarget(t, s))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	ch, _, release, err := l.Channel(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := l.SpareChannel(t.Context()); !errors.Is(err, ErrNoSlot) {
		t.Fatalf("spare with one slot left: err = %v, want ErrNoSlot", err)
	}
	ch.Close()
	release()
	spare, _, release, err := l.SpareChannel(t.Context())
	if err != nil {
		t.Fatalf("spare with both slots free: %v", err)
	}
	defer release()
	defer spare.Close()
	// The call after it still gets the last slot without waiting.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	ch, _, release2, err := l.Channel(ctx)
	if err != nil {
		t.Fatalf("a call beside the spare: %v", err)
	}
	ch.Close()
	release2()
}
