package sessions

import (
	"os"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// A session's command runs before anything is typed: a reader in it
// takes the first lines sent, and a shell after it runs the rest.
func TestStartCommandReaders(t *testing.T) {
	for _, c := range []string{
		"head -n 1; sh", "read x; sh", "cat /dev/stderr; bash", "head -n 1 && exec bash", "sudo -S true; sh",
		"env -u X head -n 1; sh", "git check-ignore --std; sh", "./tool; sh", "grep --max-count 1 x; sh", "read x; /bin/bash -i", "head -n 1; $SHELL", "head -n 1; exec \"$0\"", "read x; sudo \"$SHELL\"",
	} {
		t.Run(c, func(t *testing.T) {
			st := startTyping(c, "")
			if got := st.feed("echo \\\r", tty); got.unseen == "" {
				t.Errorf("the first send after a session started with %q is seen", c)
			}
		})
	}
	for _, c := range []string{"", "bash", "docker stats", "journalctl -f", "tail -f /var/log/syslog", "ls; bash", "sh",
		"printf 'name? '; read n; echo hi $n", "echo first; read x; echo second $x", "cat", "./tool"} {
		if got := startTyping(c, "").feed("ls\r", tty); got.unseen != "" {
			t.Errorf("a session started with %q: ls: %s", c, got.unseen)
		}
	}
}

// TestStartCommandReaderInATerminal: session_start with "head -n 1; sh"
// (tier 1) gives head the first send; no unapproved send may make the
// marker.
func TestStartCommandReaderInATerminal(t *testing.T) {
	for _, cmd := range []string{"head -n 1; sh", "cat /dev/stderr; sh"} {
		t.Run(cmd, func(t *testing.T) {
			rg := newRig(t, policy.Guarded)
			marker := mark(t)
			got := rg.call("session_start", map[string]any{"command": cmd})
			if got["status"] != "ok" {
				t.Fatalf("session_start: %v", got)
			}
			id := got["session_id"].(string)
			time.Sleep(300 * time.Millisecond)
			for _, data := range []string{"echo \\", "touch " + marker} {
				if got := rg.send(id, data, true); got["status"] != "ok" {
					break
				}
				time.Sleep(400 * time.Millisecond)
			}
			time.Sleep(300 * time.Millisecond)
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("an unapproved send ran touch after a session started with %q", cmd)
			}
		})
	}
}
