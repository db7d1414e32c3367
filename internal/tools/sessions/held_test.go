package sessions

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// Ctrl-C that ends a wait for a program leaves the session held until
// the shell is seen to read the terminal again; Ctrl-C with nothing
// waited for does not.
func TestCtrlCAfterAProgramHolds(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"cat", "head -n 1", "./tool", "sudo -S true", "python3 s.py", "read x"} {
		_, last := typeAll(tty, c, "\x03…")
		if last.next.held == "" {
			t.Errorf("%q then Ctrl-C: not held", c)
		}
		if n := (typing{adrift: "x"}).signalled(); n.held == "" {
			t.Error("session_signal INT after a program: not held")
		}
	}
	for _, c := range []string{"ls", "echo hi", "git status"} {
		if _, last := typeAll(tty, c, "\x03…"); last.next.held != "" {
			t.Errorf("%q then Ctrl-C: held %q", c, last.next.held)
		}
	}
}

// TestProgramsThatOutliveCtrlCInATerminal: a program warden cannot follow
// that ignores SIGINT, or reads keys raw, is still reading after Ctrl-C.
// Typed to it, "" and "echo \" are its two lines and the touch after runs
// alone; typed to the raw one, "echo 'q touch …; echo '" quits it at its
// q and leaves the shell the touch. No unapproved send may make the
// marker, and the first one after Ctrl-C is refused while the program
// holds the terminal.
func TestProgramsThatOutliveCtrlCInATerminal(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("no perl")
	}
	cases := []struct {
		name, opener string
		sends        func(marker string) []string
		settle       []string
	}{
		{
			name:   "ignores SIGINT",
			opener: `perl -e '$SIG{INT}="IGNORE"; $a=<STDIN>; $b=<STDIN>'`,
			sends:  func(m string) []string { return []string{"\r", "echo \\\r", "touch " + m + "\r"} },
			settle: []string{"\r", "\r"},
		},
		{
			name: "reads keys raw",
			opener: `perl -MPOSIX -e '$t=POSIX::Termios->new; $t->getattr(0); $o=$t->getlflag; $t->setlflag(0); ` +
				`$t->setattr(0, &POSIX::TCSANOW); while (sysread(STDIN, $c, 1)) { last if $c eq "q" } $t->setlflag($o); $t->setattr(0, &POSIX::TCSANOW)'`,
			sends:  func(m string) []string { return []string{"echo 'q touch " + m + "; echo '\r"} },
			settle: []string{"q", "\r"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			marker := mark(t)
			id := rg.start(map[string]any{"writable": true})
			if got := rg.approved("session_send", map[string]any{"session_id": id, "data": tc.opener, "enter": true}); got["status"] != "ok" {
				t.Fatalf("send: %v", got)
			}
			time.Sleep(500 * time.Millisecond)
			if got := rg.send(id, "\x03", false); got["status"] != "ok" {
				t.Fatalf("Ctrl-C: %v", got)
			}
			time.Sleep(300 * time.Millisecond)
			refused := false
			for _, data := range tc.sends(marker) {
				if got := rg.send(id, data, false); got["status"] != "ok" {
					refused = true
					break
				}
				time.Sleep(300 * time.Millisecond)
			}
			for _, data := range append(tc.settle, "\x03", "\r", "echo done-$((20+8))\r") {
				rg.approved("session_send", map[string]any{"session_id": id, "data": data, "enter": false})
				time.Sleep(300 * time.Millisecond)
			}
			rg.readUntil(id, "done-28")
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("an unapproved send ran touch after a program that outlived Ctrl-C")
			}
			if !refused {
				t.Errorf("every send after Ctrl-C ran without approval while the program held the terminal")
			}
		})
	}
}

// TestCtrlCEndsAReaderInATerminal: after a reader that Ctrl-C ends, the
// next send goes on without approval, as before.
func TestCtrlCEndsAReaderInATerminal(t *testing.T) {
	t.Parallel()
	for _, opener := range []string{"cat", "head -n 5", "sleep 30"} {
		t.Run(opener, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			id := rg.start(nil)
			if got := rg.send(id, opener, true); got["status"] != "ok" {
				t.Fatalf("send %q: %v", opener, got)
			}
			time.Sleep(300 * time.Millisecond)
			if got := rg.send(id, "\x03", false); got["status"] != "ok" {
				t.Fatalf("Ctrl-C: %v", got)
			}
			// dash may drop the line it reads as it handles the
			// interrupt: an empty one first.
			if got := rg.send(id, "", true); got["status"] != "ok" {
				t.Fatalf("the send after Ctrl-C: %v", got)
			}
			if got := rg.send(id, "echo ok-$((40+2))", true); got["status"] != "ok" {
				t.Fatalf("the send after Ctrl-C: %v", got)
			}
			rg.readUntil(id, "ok-42")
		})
	}
}

// TestNestedShellReadsAfterCtrlC: a shell typed into the session leads
// the terminal's foreground at its prompt; after a reader in it and
// Ctrl-C, the next send goes on. A shell running a script that ignores
// Ctrl-C is not one at its prompt.
func TestNestedShellReadsAfterCtrlC(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	rg := newRig(t, policy.Guarded)
	id := rg.start(nil)
	for _, data := range []string{"bash --norc --noprofile", "cat"} {
		if got := rg.send(id, data, true); got["status"] != "ok" {
			t.Fatalf("send %q: %v", data, got)
		}
		time.Sleep(300 * time.Millisecond)
	}
	rg.send(id, "\x03", false)
	for _, data := range []string{"", "echo nested-$((40+3))"} {
		if got := rg.send(id, data, true); got["status"] != "ok" {
			t.Fatalf("send %q after Ctrl-C in a nested shell: %v", data, got)
		}
	}
	rg.readUntil(id, "nested-43")

	script := filepath.Join(t.TempDir(), "s.sh")
	if err := os.WriteFile(script, []byte("trap '' INT\nread a\nread b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rg2 := newRig(t, policy.Guarded)
	id2 := rg2.start(map[string]any{"writable": true})
	if got := rg2.approved("session_send", map[string]any{"session_id": id2, "data": "bash " + script, "enter": true}); got["status"] != "ok" {
		t.Fatalf("send: %v", got)
	}
	time.Sleep(300 * time.Millisecond)
	rg2.send(id2, "\x03", false)
	if got := rg2.send(id2, "", true); got["status"] == "ok" {
		t.Errorf("a send after Ctrl-C went on while a script ignoring it held the terminal")
	}
	for _, data := range []string{"\r", "\r", "echo done-$((20+9))\r"} {
		rg2.approved("session_send", map[string]any{"session_id": id2, "data": data, "enter": false})
		time.Sleep(300 * time.Millisecond)
	}
	rg2.readUntil(id2, "done-29")
}
