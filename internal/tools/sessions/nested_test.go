package sessions

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/session"
)

// TestShellAtItsPromptAfterCtrlC: after Ctrl-C, a shell at its prompt is
// not proof that the line which left the session adrift is over. A shell
// typed into the session ends into the shell that started it, which runs
// the rest of that line ("sh; head -n 1 >/dev/null": after "exit", head
// takes "echo \" and the outer shell runs the touch after it alone); and
// the shell running a builtin of the line (read) looks the same as at its
// prompt, after a program that kept Ctrl-C from ending the line. No
// unapproved send may make the marker.
func TestShellAtItsPromptAfterCtrlC(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("no perl")
	}
	const deaf = `perl -e '$SIG{INT}="IGNORE"; sleep 2'`
	for i, c := range []struct {
		opener string
		sends  []string
	}{
		{"bash --norc --noprofile; head -n 1 >/dev/null", []string{"", "exit"}},
		{"sh; read x", []string{"", "exit"}},
		{"dash || head -n 1 >/dev/null", []string{"", "exit"}},
		{"(sh); head -n 1 >/dev/null", []string{"", "exit"}},
		{"for i in 1; do bash --norc; done; head -c 9 >/dev/null", []string{"", "exit"}},
		{"sh -i; awk 'NR==1{exit}' >/dev/null", []string{"", "exit"}},
		// The first line after Ctrl-C must be complete: the line's
		// readers take it and the next.
		{"timeout --foreground -s HUP 2 bash --norc; read -r x; read -r y", []string{""}},
		{deaf + "; read -r x; read -r y", []string{""}},
		{deaf + " || true; read x; read y", []string{""}},
		{"while " + deaf + "; do read -r x; read -r y; break; done", []string{""}},
		{"{ " + deaf + "; read -r x; read y; }", []string{""}},
	} {
		t.Run(c.opener, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			id, marker := rg.opened(c.opener)
			time.Sleep(500 * time.Millisecond)
			rg.send(id, "\x03", false)
			// Let what ignores Ctrl-C end, and the line go on.
			time.Sleep(3 * time.Second)
			refused := false
			for _, data := range c.sends {
				if got := rg.send(id, data, true); got["status"] != "ok" {
					refused = true
					break
				}
				time.Sleep(300 * time.Millisecond)
			}
			if !refused {
				refused = rg.splitWrite(id, marker, 300*time.Millisecond, i) != nil
			} else {
				for _, data := range []string{"exit", "\x03"} {
					rg.approved("session_send", map[string]any{"session_id": id, "data": data, "enter": data == "exit"})
					time.Sleep(300 * time.Millisecond)
				}
				rg.approved("session_send", map[string]any{"session_id": id, "data": "", "enter": true})
				rg.resync(id, i)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("an unapproved send ran touch after the line went on")
			}
			if !refused {
				t.Error("every send after Ctrl-C ran without approval while the line that went adrift went on")
			}
		})
	}
}

// TestShellAtItsPromptAfterCtrlCGoesOn: where the shell at its prompt is
// the one the line was typed into and the line holds no builtin reader,
// or the line only ends in a shell, the sends after Ctrl-C go on.
func TestShellAtItsPromptAfterCtrlCGoesOn(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, c := range []struct{ before, opener string }{
		{"", "cat"},
		{"", "read x"},
		{"", "head -n 1; bash --norc --noprofile"},
		{"", "cat; sleep 0"},
		{"bash --norc --noprofile", "cat"},
		{"sh", "head -n 1 >/dev/null"},
		{"bash --norc --noprofile", "read -r x"},
	} {
		t.Run(c.before+"/"+c.opener, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			id := rg.start(nil)
			for _, data := range []string{c.before, c.opener} {
				if data == "" {
					continue
				}
				if got := rg.send(id, data, true); got["status"] != "ok" {
					t.Fatalf("send %q: %v", data, got)
				}
				time.Sleep(300 * time.Millisecond)
			}
			rg.send(id, "\x03", false)
			time.Sleep(300 * time.Millisecond)
			// dash may drop the line typed just after Ctrl-C.
			for _, data := range []string{"", "echo goes-$((40+6))"} {
				if got := rg.send(id, data, true); got["status"] != "ok" {
					t.Fatalf("send %q after Ctrl-C: %v", data, got)
				}
			}
			rg.readUntil(id, "goes-46")
		})
	}
}

// TestWhichShellAfterCtrlC: which shell at its prompt after Ctrl-C is
// taken to read what is typed next, for the lines that went adrift.
func TestWhichShellAfterCtrlC(t *testing.T) {
	t.Parallel()
	own := session.Foreground{Shell: true, Own: true, Group: 10, Known: true}
	typed := session.Foreground{Shell: true, Group: 20, Known: true}
	other := session.Foreground{Shell: true, Group: 30, Known: true}
	for _, c := range []struct {
		text     string
		reader   int
		fg       session.Foreground
		believed bool
	}{
		{"cat", 10, own, true},
		{"read x", 10, own, true},
		{"cat", 20, typed, true},
		{"read -r x", 20, typed, true},
		{"cat", 20, other, false},
		{"bash; head -n 1", 10, typed, false},
		{"sh; read x", 10, typed, false},
		{"sh; read x", 10, own, false},
		{"perl -e 1; read -r x", 10, own, false},
		{"x || mapfile a", 10, own, false},
		{"while :; do readarray -n 1 a; done", 10, own, false},
		{"cat; $r x", 10, own, false},
		{"cat; eval 'read x'", 10, own, false},
		{"cat; command read x", 10, own, false},
		{"cat; select y in a b; do break; done", 10, own, false},
		{"cat", 0, typed, false},
		{"head -n 1; sh", 10, typed, true},
		{"head -n 1; bash --norc", 0, other, true},
		{"sudo -i", 10, typed, true},
		{"su -", 10, typed, true},
		{"sudo -S true; sudo -s", 10, typed, true},
		{"head -n 1; sh; read x", 10, typed, false},
		{"head -n 1; sh -c 'read x'", 10, typed, false},
		{"head -n 1; sh script.sh", 10, typed, false},
		{"head -n 1; sh &", 10, typed, false},
		{"head -n 1 && sh", 10, typed, false},
		{"sudo -s sh -c 'sh; read x'", 10, typed, false},
		{"su -s /tmp/x", 10, typed, false},
		{"su --shell=/tmp/x root", 10, typed, false},
		{"", 0, typed, false},
	} {
		if got := afterCtrlC(episode{reader: c.reader, text: c.text}, c.fg) == ""; got != c.believed {
			t.Errorf("%q read by %d, then %+v: believed %v, want %v", c.text, c.reader, c.fg, got, c.believed)
		}
	}
}
