package sshpool

import (
	"errors"
	"strings"
	"testing"

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
