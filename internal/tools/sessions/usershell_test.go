package sessions

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// TestUserShellsMayBeZsh: after a program that starts the shell $SHELL or
// a login entry names, which may be zsh, a line zsh reads otherwise than
// sh is not known, for the rest of the session: in zsh, "ls # ; touch x"
// runs touch, *(e:…:) runs code and "< f" pages f with more.
func TestUserShellsMayBeZsh(t *testing.T) {
	t.Parallel()
	starters := []string{
		"sudo -s", "sudo -i", "sudo -iu bob", "sudo -u bob -s", "sudo --login", "doas -s", "su", "su -", "su - bob", "su -l bob",
		"runuser -u bob", "runuser -l bob", "login", "newgrp", "newgrp wheel", "sg wheel", "script", "script -q /dev/null",
		"chroot /", "unshare", "unshare -m", "nsenter -t 1 -m", "systemd-run --shell", "machinectl shell", "pkexec",
		"exec su -", "env su", "command su -", "sudo su", "sudo su -", "nice su -", "sudo -u root su - bob", "ksu",
	}
	zsh := []string{"ls # ; touch /etc/x", "ls *(e:'touch /etc/x':)", "< /etc/hosts", "ls /etc/*(+f)", "echo hi #; touch /etc/x", ">> /etc/x"}
	for _, s := range starters {
		for _, z := range zsh {
			t.Run(s+" then "+z, func(t *testing.T) {
				if _, last := typeAll(tty, s, z); last.unseen == "" {
					t.Errorf("%q after %q is seen", z, s)
				}
				// Ctrl-C does not end the doubt.
				if _, last := typeAll(tty, s, "\x03", "", z); last.unseen == "" {
					t.Errorf("%q after %q and Ctrl-C is seen", z, s)
				}
			})
		}
	}
	for _, s := range []string{"sudo -i", "su -", "sudo su -", "script -q /dev/null"} {
		t.Run("started with "+s, func(t *testing.T) {
			if got := startTyping(s, "").feed("ls # ; touch /etc/x\r", tty); got.unseen == "" {
				t.Errorf("a session started with %q: a comment is seen", s)
			}
		})
	}
	// The lines both shells read alike stay seen, and so do comments
	// where no such program ran.
	for _, s := range []string{"sudo -i", "su -"} {
		for _, l := range []string{"ls -la", "systemctl status nginx", "cat /etc/hosts", "echo '#' x", "grep -c '#' /etc/hosts"} {
			if _, last := typeAll(tty, s, l); last.unseen != "" {
				t.Errorf("%q after %q: %s", l, s, last.unseen)
			}
		}
	}
	for _, s := range []string{"sudo ls", "sudo apt install -s nginx", "sudo -u bob id", "su -c id bob", "script -c ls /dev/null",
		"unshare -m ls", "sudo -l", "ls # a comment", "echo su"} {
		if _, last := typeAll(tty, s, "ls # a comment"); last.unseen != "" {
			t.Errorf("%q then a comment: %s", s, last.unseen)
		}
	}
}

// TestUserShellInATerminal: a real zsh that script starts from $SHELL
// runs what follows '#' on a line; no unapproved send may run it.
func TestUserShellInATerminal(t *testing.T) {
	t.Parallel()
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("no zsh")
	}
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("no script")
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".zshrc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rg := newRig(t, policy.Guarded)
	marker := mark(t)
	id := rg.start(map[string]any{"writable": true, "env": map[string]any{"SHELL": zsh, "HOME": home}})
	if got := rg.approved("session_send", map[string]any{"session_id": id, "data": "script -q /dev/null", "enter": true}); got["status"] != "ok" {
		t.Fatalf("send: %v", got)
	}
	time.Sleep(time.Second)
	rg.send(id, "echo hi # ; touch "+marker, true)
	time.Sleep(500 * time.Millisecond)
	rg.approved("session_send", map[string]any{"session_id": id, "data": "echo done-$((20+13))", "enter": true})
	rg.readUntil(id, "done-33")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("an unapproved send ran touch in the zsh that script started")
	}
}
