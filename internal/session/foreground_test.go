//go:build linux

package session

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"
)

// askedProcess is a terminal session whose foreground check answers
// with err, as a remote host does that never reported the session's pid
// or refused the control session.
type askedProcess struct {
	err    error
	closed chan struct{}
	once   sync.Once
}

func (p *askedProcess) Read([]byte) (int, error) {
	<-p.closed
	return 0, io.EOF
}
func (p *askedProcess) Write(b []byte) (int, error)     { return len(b), nil }
func (p *askedProcess) Resize(uint16, uint16) error     { return nil }
func (p *askedProcess) Signal(string) error             { return nil }
func (p *askedProcess) Close() error                    { p.once.Do(func() { close(p.closed) }); return nil }
func (p *askedProcess) Wait() (int, string, error)      { <-p.closed; return 0, "", nil }
func (p *askedProcess) Foreground() (Foreground, error) { return Foreground{}, p.err }

type askedStarter struct{ err error }

func (s askedStarter) Start(context.Context, Spec) (Process, error) {
	return &askedProcess{err: s.err, closed: make(chan struct{})}, nil
}

// TestProgramReadsFailsClosed: a foreground that cannot be asked is not
// the shell's. Only a session with no terminal, or one that ended, has no
// answer at all, which its caller reads as the program being gone.
func TestProgramReadsFailsClosed(t *testing.T) {
	for _, err := range []error{
		errors.New("remote pid unknown"), errors.New("exec request refused"), context.DeadlineExceeded,
		errors.New("ioctl: bad file descriptor"), io.EOF,
	} {
		t.Run(err.Error(), func(t *testing.T) {
			r := newTestRegistry(t, Options{})
			info, e := r.Start(context.Background(), Spec{PTY: true, Owner: "tester", Starter: askedStarter{err}})
			if e != nil {
				t.Fatal(e)
			}
			if reads, _, known := triple(r.ProgramReads(t.Context(), info.ID, 50*time.Millisecond)); reads || !known {
				t.Errorf("reads %v, known %v: want a known no", reads, known)
			}
		})
	}
	for _, err := range []error{ErrNoTerminal, ErrNotFound} {
		t.Run(err.Error(), func(t *testing.T) {
			r := newTestRegistry(t, Options{})
			info, e := r.Start(context.Background(), Spec{PTY: true, Owner: "tester", Starter: askedStarter{err}})
			if e != nil {
				t.Fatal(e)
			}
			if _, _, known := triple(r.ProgramReads(t.Context(), info.ID, 0)); known {
				t.Error("known")
			}
		})
	}
}

// triple is a Foreground's shell, own and known.
func triple(fg Foreground) (shell, own, known bool) { return fg.Shell, fg.Own, fg.Known }
