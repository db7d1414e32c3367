package sshpool

import (
	"fmt"
	"io"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/sshd"
)

func TestOneSessionPerConn(t *testing.T) {
	for version, want := range map[string]bool{
		"SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3": false,
		"SSH-2.0-dropbear_2022.83":               true,
		"SSH-2.0-dropbear_2024.85":               true,
		"SSH-2.0-dropbear_2024.86":               false,
		"SSH-2.0-dropbear_2025.88":               false,
		"SSH-2.0-dropbear_0.52":                  true,
		"SSH-2.0-dropbear":                       true, // Asuswrt-Merlin hides the version
		"SSH-2.0-dropbear_":                      true,
		"SSH-2.0-dropbear_2022.x":                true,
		"SSH-2.0-Go":                             false,
		"":                                       false,
	} {
		if got := OneSessionPerConn(version); got != want {
			t.Errorf("OneSessionPerConn(%q) = %v, want %v", version, got, want)
		}
	}
}

// execOn runs cmd in a channel from l.Channel and returns its stdout.
func execOn(l *Lease, t *testing.T, cmd string) (string, error) {
	ch, reqs, release, err := l.Channel(t.Context())
	if err != nil {
		return "", err
	}
	defer release()
	defer ch.Close()
	go ssh.DiscardRequests(reqs)
	ok, err := ch.SendRequest("exec", true, ssh.Marshal(struct{ Command string }{cmd}))
	if err != nil || !ok {
		return "", fmt.Errorf("exec: %v, %v", ok, err)
	}
	out, err := io.ReadAll(ch)
	return string(out), err
}

// TestDropbearSessionsSpreadOverConnections: more concurrent sessions
// than the pool allows a connection, on a dropbear server that loses
// sessions opened beside a running one (OneSessionPerConn), all run, on
// more connections of one session each, no more of them than a
// connection would carry sessions.
func TestDropbearSessionsSpreadOverConnections(t *testing.T) {
	s := sshd.StartDropbear(t, sshd.DropbearOptions{User: testUser})
	d := &countingDial{}
	p := newPool(t, Options{Dial: d.dial, MaxSessions: 5})
	tgt := testTarget(t, s)
	const calls = 24
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for i := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, err := p.Acquire(t.Context(), tgt)
			if err != nil {
				errs <- err
				return
			}
			defer l.Release()
			// Some commands end while others start, which is what
			// dropbear mishandles.
			out, err := execOn(l, t, fmt.Sprintf("sleep 0.%d; echo %d", i%3, i))
			if err == nil && out != fmt.Sprintf("%d\n", i) {
				err = fmt.Errorf("call %d: output %q", i, out)
			}
			if err != nil {
				errs <- fmt.Errorf("call %d: %w", i, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := d.n.Load(); got < 2 || got > 4 {
		t.Errorf("%d connections for %d concurrent sessions, want 2 to 4 (MaxSessions-1)", got, calls)
	}
	if t.Failed() {
		t.Log(s.Log())
	}
}

// TestOpenSSHKeepsSessionsOnOneConnection: the same against OpenSSH
// stays on one connection with several sessions at once.
func TestOpenSSHKeepsSessionsOnOneConnection(t *testing.T) {
	s := sshd.Start(t, sshd.Options{User: testUser})
	d := &countingDial{}
	p := newPool(t, Options{Dial: d.dial})
	tgt := testTarget(t, s)
	l, err := p.Acquire(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	var held []func()
	for range 9 {
		ch, reqs, release, err := l.Channel(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		go ssh.DiscardRequests(reqs)
		held = append(held, func() { ch.Close(); release() })
	}
	for _, h := range held {
		h()
	}
	if got := d.n.Load(); got != 1 {
		t.Errorf("%d connections, want 1", got)
	}
}
