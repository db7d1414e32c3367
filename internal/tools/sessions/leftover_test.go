package sessions

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// TestTextLeftAfterAnEnteredLine: text left typed after a line entered in
// the same send reaches the terminal in the mode of the program reading
// then. bash's readline reads keys raw; "sh⏎touch x #" hands the plain
// shell it starts "touch x #" already taken, and a Ctrl-U in the next
// send does not erase it, so "echo hi" after it ran touch.
func TestTextLeftAfterAnEnteredLine(t *testing.T) {
	t.Parallel()
	for _, sends := range [][]string{
		{"sh\rtouch /etc/x #…", "\x15echo hi"},
		{"dash\rtouch /etc/x #…", "\x17\x17\x17echo hi"},
		{"bash --norc\nrm -rf /srv/y…", "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7fls"},
		{"ls\rtouch /etc/x #…", "\x15echo hi"},
		{"\rtouch /etc/x #…", "\x15ls"},
		{"exit\rtouch /etc/x #…", "\x15ls"},
	} {
		if _, last := typeAll(tty, sends...); last.unseen == "" {
			t.Errorf("%q: %q is classified", sends, last.text)
		}
	}
	// Whole lines, text alone and edits of it read the same either way.
	for _, sends := range [][]string{
		{"ls\rpwd"}, {"sh", "echo hi"}, {"echo hi…", "\x15ls"}, {"sh", "touch x #…", "\x15echo hi"}, {"ls\r\rpwd"},
	} {
		if _, last := typeAll(tty, sends...); last.unseen != "" {
			t.Errorf("%q: %s", sends, last.unseen)
		}
	}
	// Without a terminal every byte reaches the program as it is.
	if _, last := typeAll(pipes, "sh\ntouch /tmp/x #…"); last.unseen != "" {
		t.Errorf("pipes: %s", last.unseen)
	}
}

// TestTextLeftAfterAnEnteredLineInATerminal: in a real terminal, no
// unapproved send makes the marker.
func TestTextLeftAfterAnEnteredLineInATerminal(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	rg := newRig(t, policy.Guarded)
	id, marker := rg.opened("bash --norc --noprofile")
	time.Sleep(300 * time.Millisecond)
	refused := false
	for _, data := range []string{"sh\rtouch " + marker + " #", "\x15echo hi\r"} {
		if got := rg.send(id, data, false); got["status"] != "ok" {
			refused = true
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	for _, data := range []string{"\x03", "\r"} {
		rg.approved("session_send", map[string]any{"session_id": id, "data": data, "enter": false})
		time.Sleep(300 * time.Millisecond)
	}
	rg.resync(id, 31)
	if _, err := os.Stat(marker); err == nil {
		t.Error("an unapproved send ran touch")
	}
	if !refused {
		t.Error("text left after a line entered in the same send was followed")
	}
}
