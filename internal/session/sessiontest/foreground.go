package sessiontest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/session"
)

// testForeground: a session's terminal tells which process group reads
// it, so that Ctrl-C of a program that ignores it is not taken on trust
// (session/foreground.go): the shell at its prompt, or a shell typed into
// it at its own, reads it; a program Ctrl-C did not end, or another shell
// under a followed shell's name, does not.
func testForeground(t *testing.T, h *harness) {
	id := h.shell()
	n := 0
	// sync waits until what was typed has been read and run by a shell.
	sync := func() {
		t.Helper()
		n++
		h.send(id, fmt.Sprintf("echo sync-$((%d+0))\r", n))
		h.readUntil(id, fmt.Sprintf("sync-%d\n", n))
	}
	send := func(data string) {
		t.Helper()
		h.send(id, data)
		time.Sleep(300 * time.Millisecond)
	}
	reads := func(what string, want bool, wait time.Duration) {
		t.Helper()
		got, _, known := triple(h.reg.ProgramReads(t.Context(), id, wait))
		if !known || got != want {
			t.Errorf("%s: the shell reads the terminal: %v (known %v), want %v", what, got, known, want)
		}
	}
	reads("at the prompt", true, 0)
	send("sleep 30\r")
	reads("while sleep runs", false, 0)
	send("\x03")
	reads("after Ctrl-C ended sleep", true, 2*time.Second)
	send("\r")
	sync()
	send("sh -c 'trap \"\" INT; sleep 3'\r")
	send("\x03")
	reads("after Ctrl-C of a program that ignores it", false, time.Second)
	time.Sleep(3 * time.Second)
	send("\r")
	sync()
	send("sh\r")
	sync()
	reads("at a nested shell's prompt", true, 2*time.Second)
	// A shell typed into the session is not its own: the shell that
	// started it may run more before its prompt.
	if _, own, _ := triple(h.reg.ProgramReads(t.Context(), id, 0)); own {
		t.Error("a nested shell at its prompt is taken for the session's own")
	}
	send("exit\r")
	sync()
	if _, own, _ := triple(h.reg.ProgramReads(t.Context(), id, 2*time.Second)); !own {
		t.Error("the session's own shell at its prompt is not taken for its own")
	}

	// A session started with a command runs it in the program's own
	// process group, the foreground while it reads: only the shell it
	// starts after, at its prompt, reads the terminal.
	cmd := h.start(session.Spec{Argv: []string{"sh", "-c", "sh -c 'trap \"\" INT; sleep 2'; sh"}, PTY: true})
	if got, _, known := triple(h.reg.ProgramReads(t.Context(), cmd, 0)); !known || got {
		t.Errorf("a session's command ignoring Ctrl-C: the shell reads the terminal: %v (known %v)", got, known)
	}
	time.Sleep(2 * time.Second)
	if got, own, known := triple(h.reg.ProgramReads(t.Context(), cmd, 2*time.Second)); !known || !got || own {
		t.Errorf("the shell a session's command started, at its prompt: reads the terminal: %v, its own %v (known %v)", got, own, known)
	}
	if !h.c.SameHost {
		return
	}
	// A link to another shell named as a followed one is not it: its
	// name is the link's.
	other := ""
	for _, sh := range []string{"zsh", "bash", "busybox"} {
		if p, err := exec.LookPath(sh); err == nil {
			other = p
			break
		}
	}
	if other == "" {
		return
	}
	dir, err := os.MkdirTemp("", "warden-fg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "dash")
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	send(link + "\r")
	reads(strings.TrimPrefix(other, "/usr")+" linked as dash, at its prompt", false, time.Second)
}

// triple is a Foreground's shell, own and known.
func triple(fg session.Foreground) (shell, own, known bool) { return fg.Shell, fg.Own, fg.Known }
