package sshpool

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/sshd"
)

// TestSFTPRefusedLeaksNoSession: a server that offers no SFTP is asked
// for it three times as often as it has sessions; every call says so
// plainly and what to do, and a command still runs afterwards.
//
// OpenSSH refuses the subsystem: the calls share one connection, so had
// any left its session open the server's MaxSessions of 10 would refuse
// the later ones and the command. Dropbear accepts the subsystem and runs
// an sftp-server that is not there, after which it loses some of the
// connection's next sessions: each failed call retires its connection.
func TestSFTPRefusedLeaksNoSession(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start func(t *testing.T) *sshd.Server
		dials int64
	}{
		{"openssh", func(t *testing.T) *sshd.Server { return sshd.Start(t, sshd.Options{User: testUser, NoSFTP: true}) }, 1},
		{"dropbear", func(t *testing.T) *sshd.Server {
			return sshd.StartDropbear(t, sshd.DropbearOptions{User: testUser})
		}, 31},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.start(t)
			d := &countingDial{}
			p := newPool(t, Options{Dial: d.dial})
			tgt := testTarget(t, s)
			for i := range 30 {
				_, err := p.SFTP(t.Context(), tgt)
				if !errors.Is(err, ErrNoSFTP) {
					t.Fatalf("call %d: err = %v, want ErrNoSFTP", i, err)
				}
				if msg := err.Error(); !strings.Contains(msg, "no SFTP subsystem") || !strings.Contains(msg, "files_transport: exec or auto") {
					t.Fatalf("call %d: error %q does not say what to do", i, msg)
				}
			}
			if out := run(t, p, tgt, "echo still"); out != "still\n" {
				t.Errorf("after the refusals: %q", out)
			}
			if got := d.n.Load(); got != tc.dials {
				t.Errorf("%d TCP dials, want %d", got, tc.dials)
			}
		})
	}
}

// TestRetireSFTPDrains: an SFTP session retired while its server waits (a
// stopped sftp-server, as one waiting on a mount that does not answer
// would) keeps its place among the connection's sessions on the server
// until that server ends. Retired ten times over, more than the
// connection's sessions, the target still runs a command at once: each
// retire drains the connection, so the next call dials another. A
// command leased on the drained connection goes on, and the connection
// is closed once it is released.
func TestRetireSFTPDrains(t *testing.T) {
	// OpenSSH's own sftp-server, a process of its own to stop, as hosts
	// configure it by default.
	s := sshd.Start(t, sshd.Options{User: testUser, NoSFTP: true, ExtraConfig: []string{"Subsystem sftp /usr/lib/openssh/sftp-server"}})
	// The stopped servers outlive their drained connections, no longer
	// below sshd: they are ended by pid.
	var stopped []int
	t.Cleanup(func() {
		for _, p := range stopped {
			syscall.Kill(p, syscall.SIGKILL)
		}
	})
	d := &countingDial{}
	p := newPool(t, Options{Dial: d.dial})
	tgt := testTarget(t, s)

	held, err := p.Acquire(t.Context(), tgt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		_, err := p.SFTP(ctx, tgt)
		cancel()
		if err != nil {
			t.Fatalf("sftp %d: %v", i, err)
		}
		pids := s.SignalNamed("sftp-server", syscall.SIGSTOP)
		if len(pids) == 0 {
			t.Fatalf("sftp %d: no sftp-server to stop", i)
		}
		stopped = append(stopped, pids...)
		p.RetireSFTP(tgt)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if out, err := tryRun(ctx, p, tgt, "echo still"); err != nil || out != "still\n" {
		t.Fatalf("a command after ten retired SFTP sessions: %q %v", out, err)
	}
	if got := d.n.Load(); got != 11 {
		t.Errorf("%d TCP dials, want 11 (one per retire, and the first)", got)
	}
	// The lease taken before the retires still runs commands on its
	// connection, which closes once the lease is released.
	sess, release, err := held.Session(t.Context())
	if err != nil {
		t.Fatalf("a session on the drained connection: %v", err)
	}
	out, err := sess.CombinedOutput("echo held")
	sess.Close()
	release()
	if err != nil || string(out) != "held\n" {
		t.Errorf("a command on the drained connection: %q %v", out, err)
	}
	held.Release()
	select {
	case <-held.Dead():
	case <-time.After(20 * time.Second):
		t.Error("the drained connection was not closed once its lease was released")
	}
	if st := p.Stats(); st.Open != 1 {
		t.Errorf("open connections: %d, want 1", st.Open)
	}
}
