package session

import (
	"context"
	"time"
)

// Ctrl-C ends the command a shell runs only if that command lets it: one
// that ignores or catches SIGINT, or reads keys raw (where Ctrl-C is a
// key, not a signal), still holds the terminal afterwards and takes what
// is typed next. Locally the kernel knows which process group reads the
// terminal (its foreground), so a caller can check that the session's own
// program, the shell, is back before it takes what it types next to be
// the shell's. A remote terminal's foreground is the far side's, and a
// session without a terminal has none.

// foregrounder is what a Process has when it can tell whether its own
// program holds the terminal's foreground.
type foregrounder interface {
	OwnsForeground() (bool, error)
}

// ProgramReads reports whether the session's own program (its shell) is
// the terminal's foreground, the one that reads what is typed next,
// waiting up to wait for it to become so: a command takes a moment to end
// on Ctrl-C. known is false where that cannot be seen: a remote session,
// one without a terminal, one that ended.
func (r *Registry) ProgramReads(ctx context.Context, id string, wait time.Duration) (reads, known bool) {
	s, err := r.get(id)
	if err != nil {
		return false, false
	}
	f, ok := s.proc.(foregrounder)
	if !ok {
		return false, false
	}
	deadline := time.Now().Add(wait)
	for {
		owns, err := f.OwnsForeground()
		if err != nil {
			return false, false
		}
		if owns || !time.Now().Before(deadline) {
			return owns, true
		}
		select {
		case <-ctx.Done():
			return false, true
		case <-time.After(20 * time.Millisecond):
		}
	}
}
