package remotefs

import (
	"context"
	"testing"

	"github.com/warden-mcp/warden/internal/sshd"
)

// TestPicker: a host whose server offers SFTP is served over SFTP, one
// without (OpenSSH with no Subsystem line, dropbear with no sftp-server)
// over the exec channel; the probe's answer is kept, a forced transport
// is obeyed without one, and a host that cannot be reached is an error,
// not an answer.
func TestPicker(t *testing.T) {
	servers := map[string]*sshd.Server{
		"openssh":        sshd.Start(t, sshd.Options{User: "wardentest"}),
		"openssh_nosftp": sshd.Start(t, sshd.Options{User: "wardentest", NoSFTP: true}),
		"dropbear":       sshd.StartDropbear(t, sshd.DropbearOptions{User: "wardentest"}),
	}
	tests := []struct {
		server string
		force  Transport
		want   Transport
		fails  bool
	}{
		{"openssh", Auto, SFTP, false},
		{"openssh_nosftp", Auto, ExecTransport, false},
		{"dropbear", Auto, ExecTransport, false},
		{"openssh", ExecTransport, ExecTransport, false},
		{"openssh_nosftp", SFTP, "", true},
		{"dropbear", SFTP, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.server+"_"+string(tc.force), func(t *testing.T) {
			pool, tg := target(t, servers[tc.server])
			p := NewPicker(pool, func(string) Transport { return tc.force }, nil)
			if got := p.Chosen("box"); tc.force == Auto && got != Auto {
				t.Errorf("before any call: Chosen = %s, want auto", got)
			}
			f, err := p.Pick(context.Background(), tg)
			if tc.fails {
				if err == nil {
					t.Fatalf("Pick = %+v, want an error", f)
				}
				return
			}
			if err != nil || f.Transport != tc.want || (f.SFTP != nil) != (tc.want == SFTP) || (f.Exec != nil) != (tc.want == ExecTransport) {
				t.Fatalf("Pick = %+v, %v; want %s", f, err, tc.want)
			}
			if got := p.Chosen("box"); got != tc.want {
				t.Errorf("Chosen = %s, want %s", got, tc.want)
			}
			if f.Exec != nil {
				if _, err := f.Exec.Lstat(context.Background(), "/"); err != nil {
					t.Errorf("exec lstat /: %v", err)
				}
				// One Exec per host, so that a dropbear host's commands
				// run one at a time across calls.
				if again, _ := p.Pick(context.Background(), tg); again.Exec != f.Exec {
					t.Error("a second Pick made a second Exec")
				}
			}
		})
	}

	t.Run("unreachable", func(t *testing.T) {
		srv := sshd.Start(t, sshd.Options{User: "wardentest"})
		pool, tg := target(t, srv)
		srv.Stop()
		p := NewPicker(pool, nil, nil)
		if _, err := p.Pick(context.Background(), tg); err == nil {
			t.Fatal("picked a transport for a host that is down")
		}
		if got := p.Chosen("box"); got != Auto {
			t.Errorf("a failed dial was remembered as %s", got)
		}
	})
}
