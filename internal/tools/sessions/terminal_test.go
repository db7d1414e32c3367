package sessions

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/session"
)

// reader is a real program reading a real terminal.
type reader struct {
	t   *testing.T
	reg *session.Registry
	id  string
	n   int
}

func startReader(t *testing.T, reg *session.Registry, argv ...string) *reader {
	t.Helper()
	path, err := exec.LookPath(argv[0])
	if err != nil {
		t.Skipf("%s: %v", argv[0], err)
	}
	argv[0] = path
	info, err := reg.Start(t.Context(), session.Spec{
		Argv: argv, PTY: true,
		Env: []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "LANG=C.UTF-8", "TERM=dumb", "PS1=$ "},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := &reader{t: t, reg: reg, id: info.ID}
	r.sync()
	return r
}

// sync waits until everything typed so far has been read and run.
func (r *reader) sync() string {
	r.t.Helper()
	r.n++
	if err := r.reg.Send(r.t.Context(), r.id, []byte(fmt.Sprintf("echo sync-$((%d+0))\r", r.n))); err != nil {
		r.t.Fatal(err)
	}
	want := fmt.Sprintf("sync-%d\r\n", r.n)
	var out strings.Builder
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(out.String(), want) {
		res, err := r.reg.Read(r.t.Context(), r.id, session.ReadOptions{Wait: time.Second, MaxBytes: 1 << 16, Raw: true})
		if err != nil {
			r.t.Fatal(err)
		}
		out.WriteString(res.Data)
	}
	if !strings.Contains(out.String(), want) {
		r.t.Fatalf("the reader never ran the sync; output %q", out.String())
	}
	return out.String()
}

// run types data and Enter and returns the lines the reader printed
// between the "=" marks of "echo =…=".
func (r *reader) run(data string) string {
	r.t.Helper()
	if err := r.reg.Send(r.t.Context(), r.id, []byte(data+"\r")); err != nil {
		r.t.Fatal(err)
	}
	// The sync line is typed only once the prompt is back: typed ahead,
	// the terminal echoes it while the command prints, and the two
	// interleave at any byte.
	var out strings.Builder
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && !strings.Contains(out.String(), "\n$ ") {
		res, err := r.reg.Read(r.t.Context(), r.id, session.ReadOptions{Wait: time.Second, MaxBytes: 1 << 16, Raw: true})
		if err != nil {
			r.t.Fatal(err)
		}
		out.WriteString(res.Data)
	}
	out.WriteString(r.sync())
	for _, l := range strings.Split(out.String(), "\r\n") {
		if strings.HasPrefix(l, "=") && strings.HasSuffix(l, "=") && len(l) > 1 {
			return l
		}
	}
	return "(nothing printed: " + fmt.Sprintf("%q", out.String()) + ")"
}

// TestTerminalsAgree checks the model against real readers: the kernel's
// canonical line discipline (dash) and readline (bash). Where warden
// applies an edit, both print what the model hands over; where it refuses
// one, they differ, so no single answer would be right.
func TestTerminalsAgree(t *testing.T) {
	t.Parallel()
	reg := session.NewRegistry(session.Options{})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		reg.Shutdown(ctx)
	})
	readers := map[string]*reader{
		"dash": startReader(t, reg, "dash"),
		"bash": startReader(t, reg, "bash", "--norc", "--noprofile"),
	}
	applied := []string{
		"echo =abc\x7f\x7fd=",
		"echo =abc def\x17ghi=",
		"echo =abc def   \x17ghi=",
		"echo =x a_b1 c_d2\x17\x17y=",
		"echo zzz\x15echo =kill=",
		"echo =ab\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7fecho =all=",
		"   \x17echo =spaces=",
		"echo =héllo=",
	}
	for _, data := range applied {
		ty := typing{}.feed(data+"\r", tty)
		if ty.unseen != "" || len(ty.lines) != 1 {
			t.Errorf("%q: model: unseen %q, lines %q", data, ty.unseen, ty.lines)
			continue
		}
		want := strings.TrimPrefix(ty.lines[0][strings.Index(ty.lines[0], "echo "):], "echo ")
		for name, r := range readers {
			if got := r.run(data); got != want {
				t.Errorf("%s ran %q as %q; the model hands over %q", name, data, got, want)
			}
		}
	}
	refused := []string{
		"echo =ab\x08c=",      // ^H: typed by the terminal, erased by readline
		"echo =a/bc\x17d=",    // Ctrl-W: stops at '/' in the terminal, at ' ' in readline
		"echo =a;bc\x17d=",    // the same at ';'
		"echo =aé\x7f\x7fb=",  // DEL: one byte in the terminal, one character in readline
		"echo =ab\x04\x7fc=",  // Ctrl-D: hands "ab" over in the terminal, deletes nothing in readline
		"echo =ab\x01\x7fc=",  // Ctrl-A: moves to the start in readline
		"echo =ab\x1b[D\x7f=", // an arrow: moves left in readline
	}
	for _, data := range refused {
		if ty := (typing{}).feed(data+"\r", tty); ty.unseen == "" {
			t.Errorf("%q: the model applies it, as %q", data, ty.lines)
		}
		d, b := readers["dash"].run(data), readers["bash"].run(data)
		t.Logf("%q: dash printed %q, bash %q", data, d, b)
	}
}

// TestReaderTakesTheOpener: a program that reads lines of the terminal
// (head -n 1, read, sed q, cat) takes the next line typed, so a line that
// opens a continuation, quote or here-document goes to it, and what
// warden would read as that construct's body is a command to the shell.
// After such a program the session is adrift: the next send is refused
// until Ctrl-C, and a send that types past the reader is refused, so in a
// writable session no unapproved send runs the marker's touch.
func TestReaderTakesTheOpener(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		sends func(m string) []string
		wait  time.Duration // after each send but the first, for the reader to end
	}{
		{"head then a continuation", func(m string) []string { return []string{"head -n 1", "echo \\", "touch " + m} }, 0},
		{"read then a continuation", func(m string) []string { return []string{"read -r x", ": \\", "touch " + m} }, 0},
		{"sed then a continuation", func(m string) []string { return []string{"sed q", "echo \\", "touch " + m} }, 0},
		{"cat behind timeout", func(m string) []string { return []string{"timeout 3 cat", "echo \\", "touch " + m} }, 0},
		{"one send, a quote", func(m string) []string { return []string{"head -n 1\necho '\ntouch " + m + " #'"} }, 0},
		{"one send, a here-document", func(m string) []string { return []string{"read -r x\ncat <<'EOF'\ntouch " + m + "\nEOF"} }, 0},
		// Readers that give up at the first line they cannot use.
		{"numfmt then a continuation", func(m string) []string { return []string{"numfmt", "echo \\", "touch " + m} }, 0},
		{"file - then a continuation", func(m string) []string { return []string{"file -", "echo \\", "touch " + m} }, 0},
		{"cat given - among its files", func(m string) []string { return []string{"cat /dev/null -", "echo \\", "touch " + m} }, 0},
		{"grep given - among its files", func(m string) []string { return []string{"grep -m 1 x /dev/null -", "echo \\", "touch " + m} }, 0},
		{"head reading /dev/tty", func(m string) []string { return []string{"head -n 1 < /dev/tty", "echo \\", "touch " + m} }, 0},
		// While watch runs the terminal does not edit what is typed: dash
		// then reads the Ctrl-U as a character, in a comment.
		{"watch, then a line killed by Ctrl-U", func(m string) []string {
			return []string{"TERM=xterm timeout 2 watch -n 1 true", "touch " + m + " #\x15echo hi", ""}
		}, 3 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rg := newRig(t, policy.Guarded)
			marker := filepath.Join(t.TempDir(), "marker")
			id := rg.start(map[string]any{"writable": true})
			refused := false
			for i, data := range c.sends(marker) {
				if got := rg.send(id, data, true); got["status"] != "ok" {
					refused = true
					break
				}
				time.Sleep(300 * time.Millisecond) // the reader is waiting for a line
				if i > 0 {
					time.Sleep(c.wait)
				}
			}
			time.Sleep(c.wait) // a full-screen program ends and restores the terminal
			rg.send(id, "\x03", false)
			rg.send(id, "", true)
			rg.resync(id, 3)
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("an unapproved send ran touch after the reader took the line before it")
			}
			if !refused {
				t.Errorf("every send after a program reading the terminal ran without approval")
			}
		})
	}
	// A reader of a file or a pipe takes nothing typed.
	rg := newRig(t, policy.Guarded)
	id := rg.start(nil)
	for _, data := range []string{"head -n 1 /etc/hostname", "echo x | head -n 1", "cat < /etc/hostname", "echo after-readers"} {
		if got := rg.send(id, data, true); got["status"] != "ok" {
			t.Errorf("send %q: %v", data, got)
		}
	}
	rg.readUntil(id, "after-readers")
}

// resync waits until the shell runs "echo done-$((20+n))", typing it
// again while it does not: dash may drop the line it reads as it handles
// Ctrl-C, and that may be the sync when the empty line before it reached
// the terminal first. What the test checks was settled before.
func (rg *rig) resync(id string, n int) {
	rg.t.Helper()
	want := fmt.Sprintf("done-%d", 20+n)
	var all strings.Builder
	for range 3 {
		rg.approved("session_send", map[string]any{"session_id": id, "data": fmt.Sprintf("echo done-$((20+%d))", n), "enter": true})
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
			got := rg.call("session_read", map[string]any{"session_id": id, "wait_s": 1})
			s, _ := got["data"].(string)
			all.WriteString(s)
			if strings.Contains(all.String(), want) {
				return
			}
		}
	}
	rg.t.Fatalf("never read %q; got %q", want, all.String())
}

// TestPagersAreOff: a pager reads keys with the terminal's editing off,
// so a shell without readline gets what was typed while it ran unedited:
// after git log, "qtouch x #^Uecho hi" quit less and dash ran touch where
// warden classified echo hi. Sessions start with the pagers off.
func TestPagersAreOff(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	msg := strings.Repeat("a line of a long commit message\n", 200)
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", msg}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	rg := newRig(t, policy.Guarded)
	marker := filepath.Join(t.TempDir(), "marker")
	id := rg.start(map[string]any{"writable": true})
	// git in a temporary repository runs what its .git/config names: it
	// needs approval, given here as a human would.
	for _, data := range []string{"TERM=xterm git -C " + repo + " log", "qtouch " + marker + " #\x15echo hi", ""} {
		if got := rg.approved("session_send", map[string]any{"session_id": id, "data": data, "enter": true}); got["status"] != "ok" {
			t.Fatalf("send %q: %v", data, got)
		}
		time.Sleep(500 * time.Millisecond)
	}
	rg.send(id, "\x03", false)
	rg.send(id, "", true)
	rg.send(id, "echo done-$((20+3))", true)
	rg.readUntil(id, "done-23")
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("a send classified as echo hi ran touch after git log's pager")
	}
}
