package sshstart

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/session"
	"github.com/warden-mcp/warden/internal/sshd"
)

// TestControlWhateverTheLoginShell: the foreground check and
// session_signal's kill are sh scripts, and the login shell of the
// remote account need not be sh. Under zsh (which does not split "set --
// $s") the foreground was never the shell's and kill missed; under any
// login shell the shell at its prompt must be seen, a program that
// ignores Ctrl-C must not be, and TERM must reach the foreground.
func TestControlWhateverTheLoginShell(t *testing.T) {
	for _, c := range []struct{ user, shell string }{
		{"wardenzsh", "/usr/bin/zsh"}, {"wardenbash", "/bin/bash"}, {testUser, "/bin/sh"},
	} {
		t.Run(c.shell, func(t *testing.T) {
			if _, err := os.Stat(c.shell); err != nil {
				t.Skip(err)
			}
			reg := session.NewRegistry(session.Options{})
			t.Cleanup(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				reg.Shutdown(ctx)
			})
			info, err := reg.Start(t.Context(), session.Spec{
				Argv: []string{"sh"}, PTY: true, Starter: starterWith(t, sshd.Options{User: c.user, Shell: c.shell}),
				Env: []string{"PATH=/usr/bin:/bin", "PS1=$ "},
			})
			if err != nil {
				t.Fatal(err)
			}
			id := info.ID
			send := func(data string) {
				t.Helper()
				if err := reg.Send(t.Context(), id, []byte(data)); err != nil {
					t.Fatal(err)
				}
			}
			n := 0
			sync := func() {
				t.Helper()
				n++
				send(fmt.Sprintf("echo sync-$((%d+0))\r", n))
				readUntil(t, reg, id, fmt.Sprintf("sync-%d\n", n))
			}
			sync()
			if reads, _, known := triple(reg.ProgramReads(t.Context(), id, 5*time.Second)); !reads || !known {
				t.Errorf("at the prompt: reads %v, known %v", reads, known)
			}
			send("sh -c 'trap \"\" INT; echo sle''eping; sleep 30'\r")
			readUntil(t, reg, id, "sleeping")
			send("\x03")
			if reads, _, known := triple(reg.ProgramReads(t.Context(), id, time.Second)); reads || !known {
				t.Errorf("under a program that ignores Ctrl-C: reads %v, known %v", reads, known)
			}
			if err := reg.Signal(id, "TERM"); err != nil {
				t.Fatal(err)
			}
			sync()
			if reads, _, known := triple(reg.ProgramReads(t.Context(), id, 5*time.Second)); !reads || !known {
				t.Errorf("after TERM ended it: reads %v, known %v", reads, known)
			}
		})
	}
}

// readUntil reads session id until its output holds want, for up to a
// generous while.
func readUntil(t *testing.T, reg *session.Registry, id, want string) {
	t.Helper()
	var out strings.Builder
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(out.String(), want) {
		res, err := reg.Read(t.Context(), id, session.ReadOptions{Wait: time.Second, MaxBytes: 1 << 16})
		if err != nil {
			t.Fatalf("read: %v (so far %q)", err, out.String())
		}
		out.WriteString(res.Data)
	}
	if !strings.Contains(out.String(), want) {
		t.Fatalf("output never held %q: %q", want, out.String())
	}
}

// triple is a Foreground's shell, own and known.
func triple(fg session.Foreground) (shell, own, known bool) { return fg.Shell, fg.Own, fg.Known }
