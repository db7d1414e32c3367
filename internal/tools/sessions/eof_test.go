package sessions

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// Ctrl-D on an empty line while a program reads the terminal ends that
// program's input, not the shell's: the next program of its list reads
// on. After "cat; head -n 1" and Ctrl-D, head takes "echo \" and "touch x"
// runs, where warden had taken the Ctrl-D for the shell's and read touch
// as echo's argument.
var eofLists = []string{
	"cat; head -n 1", "cat; read x", "cat; sed q", "head -n 1; head -n 1", "sort; head -n 1", "wc -l; read -r x",
	"cat && head -n 1", "cat || head -n 1", "cat; cat; head -n 1", "tac; grep -m1 x",
	"{ cat; head -n 1; }", "(cat; head -n 1)", "for i in 1 2; do head -n 1; done", "while read x; do :; done",
	"cat; read -n 1 x", "sudo true; head -n 1", "cat; sudo true", "uniq; awk 'NR==1{exit}'",
}

func TestEndOfInputIsTheReaders(t *testing.T) {
	t.Parallel()
	for _, list := range eofLists {
		t.Run(list, func(t *testing.T) {
			_, last := typeAll(tty, list, "\x04…", "echo \\", "touch /etc/x")
			if last.unseen == "" {
				t.Errorf("after Ctrl-D, %q is classified as echo's argument", last.text)
			}
			// Ctrl-C ends them all.
			if _, last := typeAll(tty, list, "\x03…", "", "echo \\", "ls"); last.unseen != "" {
				t.Errorf("after Ctrl-C: %s", last.unseen)
			}
		})
	}
	// At the shell's prompt Ctrl-D is the shell's: it drops an unfinished
	// command.
	if _, last := typeAll(tty, "echo 'a", "\x04…", "ls"); last.unseen != "" || last.text != "ls\n" {
		t.Errorf("ctrl-d at a continuation: unseen %q, text %q", last.unseen, last.text)
	}
}

// TestEndOfInputThenTheNextReader runs it in a real terminal: the send
// after Ctrl-D is refused, and the marker's touch never runs.
func TestEndOfInputThenTheNextReader(t *testing.T) {
	t.Parallel()
	rg := newRig(t, policy.Guarded)
	marker := filepath.Join(t.TempDir(), "marker")
	id := rg.start(map[string]any{"writable": true})
	if got := rg.send(id, "cat; head -n 1", true); got["status"] != "ok" {
		t.Fatalf("cat; head -n 1: %v", got)
	}
	time.Sleep(300 * time.Millisecond)
	if got := rg.send(id, "\x04", false); got["status"] != "ok" {
		t.Fatalf("ctrl-d: %v", got)
	}
	time.Sleep(300 * time.Millisecond)
	refused := rg.splitWrite(id, marker, 300*time.Millisecond, 3) != nil
	if _, err := os.Stat(marker); err == nil {
		t.Error("an unapproved send ran touch after head took the line before it")
	}
	if !refused {
		t.Error("every send after Ctrl-D ran without approval")
	}
}
