package runner

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// DefaultMaxLooks bounds the looks at files that wait at once when the
// configuration names no bound (exec.max_waiting_looks).
const DefaultMaxLooks = 256

// Looks bounds the looks at files, and the classifications that look
// files up, which wait at once. A look at a path on a mount whose server
// does not answer (a hard NFS mount, a stopped FUSE daemon) waits in the
// kernel until the mount answers, holding an OS thread, and a call that
// gives up on it leaves it waiting. The Go runtime ends the whole process
// past 10,000 threads: an agent that kept asking about such a mount would
// end warden, every other call and session with it. Past the bound a
// look is refused at once instead, until earlier ones end.
//
// A nil *Looks bounds nothing.
type Looks struct {
	max     int64
	waiting atomic.Int64
}

// NewLooks returns a bound of max looks (DefaultMaxLooks when max is not
// positive).
func NewLooks(max int) *Looks {
	if max <= 0 {
		max = DefaultMaxLooks
	}
	return &Looks{max: int64(max)}
}

// BusyError is a look refused because the bound's looks all wait.
type BusyError struct{ Max int64 }

func (e *BusyError) Error() string {
	return fmt.Sprintf("not started: %d earlier looks at files are still waiting on file systems that do not answer "+
		"(a hard NFS mount, a stopped FUSE daemon; exec.max_waiting_looks); "+
		"no other starts until some end, when those file systems answer", e.Max)
}

// Busy reports whether err is, or wraps, a refused look.
func Busy(err error) bool {
	var b *BusyError
	return errors.As(err, &b)
}

// Begin counts a look that is to start, or returns a *BusyError when the
// bound's looks all wait; End is to be called once a counted look ends.
func (l *Looks) Begin() error {
	if l == nil {
		return nil
	}
	if l.waiting.Add(1) > l.max {
		l.waiting.Add(-1)
		return &BusyError{Max: l.max}
	}
	return nil
}

// End ends a look Begin counted.
func (l *Looks) End() {
	if l != nil {
		l.waiting.Add(-1)
	}
}

// Go runs f on a goroutine of its own, counted until f returns; or, when
// the bound's looks all wait, returns a *BusyError without running f.
func (l *Looks) Go(f func()) error {
	if err := l.Begin(); err != nil {
		return err
	}
	go func() {
		defer l.End()
		f()
	}()
	return nil
}

// Waiting is how many looks have started and not ended.
func (l *Looks) Waiting() int64 {
	if l == nil {
		return 0
	}
	return l.waiting.Load()
}
