package sessions

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// Turning job control off, in any spelling, ends the model for good: with
// it off the shell leads the terminal's foreground while its programs
// run, so the check after Ctrl-C cannot tell a program still reading
// from a shell at its prompt.
func TestJobControlOffEndsTheModel(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"set +m", "set +o monitor", "set -e +o monitor", "set +eo monitor", "set +bm", "set +mB", "set -x +m",
		"command set +m", "builtin set +m", "eval set +m", "eval 'set +m'", "s\\et +m", "'set' +m", "set +\\m",
		"set $'+m'", `set +"m"`, "set +$o", "ls; set +m", "true && set +o monitor", "{ set +m; }",
		"shopt -uo monitor", "shopt -u -o monitor", "shopt -o -u monitor", "shopt -ou monitor",
		"bash +m", "bash +o monitor", "sh +m", "dash +m", "ash +m", "rbash +m", "bash -i +m", "bash --norc +m",
		"exec bash +m", "sudo bash +m", "env bash +m", "/bin/bash +m", "b\\ash +o monitor",
	} {
		t.Run(s, func(t *testing.T) {
			_, last := typeAll(tty, s)
			if last.unseen == "" || last.next.rekeyed == "" && last.next.adrift == "" {
				t.Errorf("unseen %q, rekeyed %q", last.unseen, last.next.rekeyed)
			}
		})
	}
}

// Job control left on, or options that are not it, keep the model.
func TestJobControlOnStaysFollowed(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"set -m", "set -o monitor", "set -- +m", "set - +m", "shopt -so monitor", "shopt -o monitor",
		"set -e", "set +e", "set +x", "set -o pipefail", "set +o pipefail", "bash -m", "sh -c 'echo +m'",
	} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s, "ls -l"); last.unseen != "" {
				t.Errorf("%s", last.unseen)
			}
		})
	}
}

// TestJobControlOffInATerminal: after "set +m" a program that ignores
// Ctrl-C runs in the shell's own process group, which leads the
// terminal, so the shell looks to be at its prompt while the program
// still reads: "" and "echo \" go to it and touch runs alone. No
// unapproved send may make the marker.
func TestJobControlOffInATerminal(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("no perl")
	}
	rg := newRig(t, policy.Guarded)
	marker := mark(t)
	id := rg.start(map[string]any{"writable": true})
	refused := rg.send(id, "set +m", true)["status"] != "ok"
	time.Sleep(200 * time.Millisecond)
	opener := `perl -e '$SIG{INT}="IGNORE"; $a=<STDIN>; $b=<STDIN>'`
	if got := rg.approved("session_send", map[string]any{"session_id": id, "data": opener, "enter": true}); got["status"] != "ok" {
		t.Fatalf("send: %v", got)
	}
	time.Sleep(500 * time.Millisecond)
	if got := rg.send(id, "\x03", false); got["status"] != "ok" {
		t.Fatalf("Ctrl-C: %v", got)
	}
	time.Sleep(300 * time.Millisecond)
	for _, data := range []string{"\r", "echo \\\r", "touch " + marker + "\r"} {
		if got := rg.send(id, data, false); got["status"] != "ok" {
			refused = true
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	for _, data := range []string{"\r", "\r", "\x03", "\r", "echo done-$((20+8))\r"} {
		rg.approved("session_send", map[string]any{"session_id": id, "data": data, "enter": false})
		time.Sleep(300 * time.Millisecond)
	}
	out := rg.readUntil(id, "done-28")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("an unapproved send ran touch after set +m and a program that outlived Ctrl-C: %q", strings.TrimSpace(out))
	}
	if !refused {
		t.Errorf("every unapproved send went on")
	}
}
