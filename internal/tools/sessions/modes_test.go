package sessions

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// A program warden cannot follow may turn the terminal's line editing
// and interrupt off and exit without turning them back on; Ctrl-C is
// then a character too. After one, edit keys, and Ctrl-C after text typed
// in the same send, may reach the shell as characters: "touch x #",
// Ctrl-U, "echo hi" runs touch in a plain shell.
func TestEditsAfterAProgramThatMaySetModes(t *testing.T) {
	t.Parallel()
	openers := []string{
		"perl -MPOSIX -e 1", "python3 s.py", "node app.js", "bash s.sh", "./tool", "/opt/x/bin/tui", "acmectl",
		"terraform apply", "make", "sudo -n ./tool", "mv a b", "ls; ./tool",
	}
	edits := []string{
		"touch /etc/x #\x15echo hi", "rm -rf /tmp/q\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7fls",
		"touch /etc/x ab\x17", "touch /etc/x\x03", "ls\x7f",
	}
	for _, o := range openers {
		for _, e := range edits {
			t.Run(o+" then "+e, func(t *testing.T) {
				// Ctrl-C on its own and plain lines are still followed.
				_, last := typeAll(tty, o, "\x03…", "", "ls -l", e)
				if last.unseen == "" {
					t.Errorf("seen: %q", last.text)
				}
			})
		}
		if _, last := typeAll(tty, o, "\x03…", "", "ls -l", "cat x…", "\x03…", "", "echo done"); last.unseen != "" {
			t.Errorf("%q, then plain lines and Ctrl-C on its own: %s", o, last.unseen)
		}
	}
	// After programs warden follows, edits stay edits.
	for _, o := range []string{"ls", "cat /etc/hosts", "git status", "rm -f x", "python3 -V"} {
		for _, e := range edits {
			if _, last := typeAll(tty, o, e); last.unseen != "" {
				t.Errorf("%q then %q: %s", o, e, last.unseen)
			}
		}
	}
}

// TestModesLeftRaw: a program that turns the terminal's editing and
// interrupt off and exits leaves a plain shell reading Ctrl-C and Ctrl-U
// as characters; "touch marker #", Ctrl-U, "echo hi" then runs touch. In
// a writable session that send needs approval, so no unapproved send
// runs the marker's touch.
func TestModesLeftRaw(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("no perl")
	}
	rg := newRig(t, policy.Guarded)
	marker := filepath.Join(t.TempDir(), "marker")
	id := rg.start(map[string]any{"writable": true})
	raw := `perl -MPOSIX -e '$t=POSIX::Termios->new; $t->getattr(0); $t->setlflag(0); $t->setattr(0, &POSIX::TCSANOW)'`
	if got := rg.approved("session_send", map[string]any{"session_id": id, "data": raw, "enter": true}); got["status"] != "ok" {
		t.Fatalf("send: %v", got)
	}
	time.Sleep(500 * time.Millisecond)
	ran := 0
	for _, data := range []string{"\x03", "\r", "touch " + marker + " #\x15echo hi\r", "\n"} {
		if got := rg.send(id, data, false); got["status"] == "ok" {
			ran++
		}
		time.Sleep(300 * time.Millisecond)
	}
	rg.approved("session_send", map[string]any{"session_id": id, "data": "\nstty sane\n", "enter": false})
	time.Sleep(300 * time.Millisecond)
	rg.approved("session_send", map[string]any{"session_id": id, "data": "echo done-$((20+3))", "enter": true})
	rg.readUntil(id, "done-23")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("an unapproved send ran touch after the terminal was left raw")
	}
	if ran == 4 {
		t.Errorf("every send after the raw terminal ran without approval")
	}
}
