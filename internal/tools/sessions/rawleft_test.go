package sessions

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// TestEditsAfterEnterInOneSend: the terminal handles a send's bytes as
// they arrive, in the mode of the program reading then. Typed to bash,
// whose readline reads keys raw, "exit⏎touch x #^Uecho hi" leaves the
// ^U for the shell below, which reads it as a character, in a comment:
// touch runs. An edit key or Ctrl-D after a line entered in the same send
// is unknown; the same keys in a send of their own, or before the first
// Enter, are followed as before.
func TestEditsAfterEnterInOneSend(t *testing.T) {
	t.Parallel()
	for _, first := range []string{"exit", "logout", "sh", "dash", "exec sh", "bash", "ls", "", "echo hi"} {
		for _, rest := range []string{"touch /etc/x #\x15echo hi", "touch /etc/x #\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7fecho hi",
			"touch /etc/x # a\x17\x17\x17echo hi", "\x15echo hi", "echo hi\x7f\x7f\x7f\x7f\x7f\x7f\x7fls", "\x04", "echo '\r\x04"} {
			data := first + "\r" + rest + "\r"
			t.Run(strings.ReplaceAll(data, "\r", "⏎"), func(t *testing.T) {
				if ty := (typing{}).feed(data, tty); ty.unseen == "" {
					t.Errorf("%q: seen, as %q", data, ty.lines)
				}
			})
		}
	}
	for _, data := range []string{"echo abc\x7f\x7fd\r", "echo zzz\x15echo hi\r", "echo a b\x17c\r", "ls\rpwd\recho hi\r", "exit\r", "\x15", "\x7f\x7f"} {
		if ty := (typing{}).feed(data, tty); ty.unseen != "" {
			t.Errorf("%q: %s", data, ty.unseen)
		}
	}
	// Without a terminal every byte is data, as before.
	if ty := (typing{}).feed("exit\ntouch x #\x15echo hi\n", keyboard{}); ty.unseen != "" {
		t.Errorf("a pipes session: %s", ty.unseen)
	}
}

// TestEditsLeftToAnotherShell: in real terminals, the text after "exit"
// in a nested bash, or after "sh" typed into bash, reaches dash with its
// edit keys as characters; no unapproved send may run the touch.
func TestEditsLeftToAnotherShell(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ start, nested, handover string }{
		{"", "bash --norc --noprofile", "exit"},
		{"bash --norc --noprofile", "", "sh"},
	} {
		t.Run(c.handover, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			marker := mark(t)
			args := map[string]any{"writable": true}
			if c.start != "" {
				args["command"] = c.start
			}
			id := rg.startNow(args)
			if c.nested != "" {
				rg.send(id, c.nested, true)
			}
			time.Sleep(500 * time.Millisecond)
			rg.send(id, c.handover+"\rtouch "+marker+" #\x15echo hi", false)
			time.Sleep(300 * time.Millisecond)
			rg.send(id, "", true)
			time.Sleep(300 * time.Millisecond)
			rg.approved("session_send", map[string]any{"session_id": id, "data": "\x03", "enter": false})
			rg.approved("session_send", map[string]any{"session_id": id, "data": "", "enter": true})
			rg.resync(id, 6)
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("an unapproved send ran touch after %q", c.handover)
			}
		})
	}
}
