package sessions

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// A session's command runs before anything is typed: a reader in it
// takes the first lines sent, and a shell after it runs the rest.
func TestStartCommandReaders(t *testing.T) {
	t.Parallel()
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
		"printf 'name? '; read n; echo hi $n", "echo first; read x; echo second $x", "cat"} {
		if got := startTyping(c, "").feed("ls\r", tty); got.unseen != "" {
			t.Errorf("a session started with %q: ls: %s", c, got.unseen)
		}
	}
}

// TestStartCommandUnknownShells: a session's command that runs a program
// warden does not know may be running another shell, which reads what is
// typed next in its own language (zsh's ls *(e:'touch x':) runs touch):
// the session is adrift from its start, under every spelling.
func TestStartCommandUnknownShells(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"exec -a x zsh", "exec -a sh zsh", "exec -a bash /usr/bin/zsh", "exec -la x ksh", "./tool", "/tmp/x/zsh5",
		"zsh5", "zsh-5.9", "/usr/bin/zsh-static", "mksh-static", "nice -n 5 zsh", "ionice -c 3 zsh", "taskset 1 zsh",
		"timeout 100 zsh", "chrt 1 zsh", "env -S 'exec -a x zsh'", "stdbuf -o0 ./tool", "exec ./tool", "command ./tool",
		"exec -- ./tool", "nohup ./tool", "busybox env ./tool", "fakesh", "sh5",
	} {
		t.Run(c, func(t *testing.T) {
			st := startTyping(c, startRekeys(&StartArgs{Command: c}, "/bin/sh"))
			if got := st.feed("ls\r", tty); got.unseen == "" {
				t.Errorf("a session started with %q: ls is seen, but %q may be another shell", c, c)
			}
			// Typed into the session, it leaves the next send unknown.
			if _, last := typeAll(tty, c+"\r", "ls\r"); last.unseen == "" {
				t.Errorf("%q typed into a session: the ls typed next is seen", c)
			}
		})
	}
}

// TestUnknownShellInATerminal: zsh runs the code of a glob qualifier,
// which sh reads as a harmless ls; started by a session's command or typed
// into it after a wrapper's option value, no unapproved send may run it,
// before Ctrl-C or after (zsh ignores it at its prompt).
func TestUnknownShellInATerminal(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("zsh"); err != nil {
		t.Skip("no zsh")
	}
	for _, c := range []struct{ start, typed string }{
		{"bash -c 'exec -a x zsh -f'", ""},
		{"nice -n 5 zsh -f", ""},
		{"", "nice -n 5 zsh -f"},
		{"", "timeout 100 zsh -f"},
	} {
		t.Run(c.start+c.typed, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			marker := mark(t)
			args := map[string]any{"writable": true}
			if c.start != "" {
				args["command"] = c.start
			}
			id := rg.startNow(args)
			if c.typed != "" {
				rg.approved("session_send", map[string]any{"session_id": id, "data": c.typed, "enter": true})
			}
			time.Sleep(500 * time.Millisecond)
			attack := "ls *(e:'touch " + marker + "':)"
			rg.send(id, attack, true)
			rg.send(id, "\x03", false)
			time.Sleep(300 * time.Millisecond)
			rg.send(id, "", true)
			rg.send(id, attack, true)
			time.Sleep(500 * time.Millisecond)
			// zsh's line editor, still busy with the lines and Ctrl-C
			// before, can drop a key of what is typed next ("cho
			// done-24" on a busy machine): the marker line is typed
			// again until it runs.
			var out strings.Builder
			for try := 0; try < 5 && !strings.Contains(out.String(), "done-24"); try++ {
				rg.approved("session_send", map[string]any{"session_id": id, "data": "echo done-$((20+4))", "enter": true})
				for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && !strings.Contains(out.String(), "done-24"); {
					got := rg.call("session_read", map[string]any{"session_id": id, "wait_s": 1})
					d, _ := got["data"].(string)
					out.WriteString(d)
				}
			}
			if !strings.Contains(out.String(), "done-24") {
				t.Fatalf("never read done-24; got %q", out.String())
			}
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("an unapproved send ran zsh's glob qualifier")
			}
		})
	}
}

// TestStartCommandReaderInATerminal: session_start with "head -n 1; sh"
// (tier 1) gives head the first send; no unapproved send may make the
// marker.
func TestStartCommandReaderInATerminal(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"head -n 1; sh", "cat /dev/stderr; sh"} {
		t.Run(cmd, func(t *testing.T) {
			t.Parallel()
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
