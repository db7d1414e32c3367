package session

import (
	"context"
	"errors"
	"strings"
	"time"
)

// Ctrl-C ends the command a shell runs only if that command lets it: one
// that ignores or catches SIGINT, or reads keys raw (where Ctrl-C is a
// key, not a signal), still holds the terminal afterwards and takes what
// is typed next. The kernel knows which process group reads the terminal
// (its foreground): locally warden asks it on the terminal's master side,
// and a remote session asks the far side's /proc (sshstart). So a caller
// can check that a shell at its prompt — the session's own program
// started with no command, or one typed into it — is back before it takes
// what it types next to be the shell's. A session without a terminal has
// none.

// foregrounder is what a Process has when it can tell whether a shell at
// its prompt holds the terminal's foreground.
type foregrounder interface {
	Foreground() (Foreground, error)
}

// Foreground is what leads a session terminal's foreground process group.
type Foreground struct {
	// Shell: a shell at its prompt (ShellAtPrompt), or one running a
	// builtin (read), which looks the same.
	Shell bool
	// Own: that shell is the session's own program, not one typed into
	// it: a shell typed into it ends into the shell that started it,
	// which may run more of the line it was typed in (bash; head -n 1).
	Own bool
	// Group is the foreground process group, which a shell typed into
	// the session leads with its own pid; 0 where it is not known.
	Group int
	// Known is false only where there is no foreground to ask: a
	// session without a terminal, one that ended.
	Known bool
}

// ProgramReads reports what leads the session's terminal's foreground,
// waiting up to wait for a shell at its prompt to lead it: a command
// takes a moment to end on Ctrl-C. Any failure to ask but a session
// without a terminal or one that ended (a remote pid never reported, a
// control session refused, an ioctl that failed) is a known answer of no
// shell: a caller takes an unknown answer to mean that the program it
// waited for is gone, and a send after Ctrl-C must not reach the shell on
// trust.
func (r *Registry) ProgramReads(ctx context.Context, id string, wait time.Duration) Foreground {
	s, err := r.get(id)
	if err != nil {
		return Foreground{}
	}
	f, ok := s.proc.(foregrounder)
	if !ok {
		return Foreground{}
	}
	deadline := time.Now().Add(wait)
	for {
		fg, err := f.Foreground()
		if errors.Is(err, ErrNoTerminal) || errors.Is(err, ErrNotFound) {
			return Foreground{}
		}
		if err != nil {
			fg = Foreground{}
		}
		fg.Known = true
		if fg.Shell || !time.Now().Before(deadline) {
			return fg
		}
		select {
		case <-ctx.Done():
			return Foreground{Known: true}
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// promptShells are the shells whose line editing warden's model follows
// (tools/sessions/line.go): one of them typed into a session leads the
// terminal's foreground at its prompt.
var promptShells = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "rbash": true}

// ShellAtPrompt reports whether a process that leads a terminal's
// foreground is a shell reading commands from it: named comm, one of the
// shells warden follows, the same file as the system's program of that
// name (same: a copy or link of zsh named bash is not bash), its input
// stdin a terminal rather than a script fed to it (bash < s.sh), and with
// options only in args (its argv without argv[0]): no -c string, no
// script, no startup file of its own.
func ShellAtPrompt(comm string, same bool, stdin string, args []string) bool {
	if !promptShells[comm] || !same || !strings.HasPrefix(stdin, "/dev/pts/") {
		return false
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || a == "--rcfile" || a == "--init-file" ||
			len(a) > 1 && a[1] != '-' && strings.ContainsAny(a[1:], "cs") {
			return false
		}
	}
	return true
}
