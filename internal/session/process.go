package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Starter starts the program of a session somewhere: on this host (the local
// starter, [Local]) or on a remote one (an SSH PTY session). It is the one
// seam between the Registry and where a session runs.
//
// The Registry fills in the defaults of spec (Argv, Cols, Rows, TERM for a
// PTY) before calling Start. ctx bounds starting only — dialling, spawning —
// and its cancellation must not end the program afterwards: sessions outlive
// the request that started them.
type Starter interface {
	Start(ctx context.Context, spec Spec) (Process, error)
}

// Process is a running session program as its Starter hands it over. The
// Registry calls Read from one goroutine and Wait from another for the whole
// life of the process, and the other methods from any goroutine.
//
// The contract, which every implementation must keep:
//
//   - Read returns the program's output: the terminal for a PTY session,
//     stdout and stderr merged for a pipes session. It returns io.EOF (or any
//     error) once no more output can come, and must return promptly once
//     Close has been called.
//   - Write sends input. It may block while the program does not read; Close
//     must unblock it. An implementation should also have
//     SetWriteDeadline(time.Time) error (as *os.File and net.Conn do) so that
//     a send can be abandoned when its caller's context ends.
//   - Resize changes the terminal size (the kernel, or the remote side, then
//     delivers SIGWINCH). Without a terminal it returns [ErrNoTerminal].
//   - Signal delivers the named signal, one of [Signals], without the SIG
//     prefix. With a terminal it goes to the terminal's foreground process
//     group — what Ctrl-C would reach — so INT interrupts a command a shell
//     is running and leaves the shell alone; without one, to the program's
//     process group. An unsupported name gives [ErrUnknownSignal].
//   - Close kills everything the program started — locally the whole process
//     tree (HUP and TERM, a grace period, then KILL); remotely a signal and
//     closing the channel — and releases the process's resources. It may
//     block for the grace period, is safe to call more than once, and makes
//     Read, Write and Wait return.
//   - Wait blocks until the program has exited and reports how: its exit
//     code, or -1 and the signal's name (without SIG) when a signal killed
//     it. err is for when the status cannot be known (a lost connection).
//     Wait is called once. It may return while output is still draining or
//     while processes the program left behind still run.
type Process interface {
	io.Reader
	io.Writer
	Resize(cols, rows uint16) error
	Signal(name string) error
	Close() error
	Wait() (exitCode int, signal string, err error)
}

// Errors callers branch on. Each is wrapped with the operation and session.
var (
	// ErrTooManySessions refuses a start when the registry holds
	// Options.MaxSessions sessions; no live session is reaped to make room.
	ErrTooManySessions = errors.New("too many sessions")
	// ErrNotFound means no session has the given id (it never existed, was
	// closed, or expired and was swept).
	ErrNotFound = errors.New("no such session")
	// ErrClosed refuses a start after Shutdown.
	ErrClosed = errors.New("session registry is shut down")
	// ErrNoTerminal refuses a resize of a session without a PTY.
	ErrNoTerminal = errors.New("session has no terminal")
	// ErrUnknownSignal refuses a signal name outside [Signals]().
	ErrUnknownSignal = errors.New("unknown signal")
	// ErrExited refuses a send to a session whose program has exited:
	// nothing would read what was typed.
	ErrExited = errors.New("the session's program has exited")
)

// Signals returns the signal names a session accepts, without the SIG
// prefix.
func Signals() []string {
	return []string{"INT", "TERM", "KILL", "HUP", "QUIT", "TSTP", "CONT", "WINCH", "USR1", "USR2"}
}

// normalizeSignal accepts "INT", "int", "SIGINT" and the like and returns the
// canonical name.
func normalizeSignal(name string) (string, error) {
	n := strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(name)), "SIG")
	if all := Signals(); !slices.Contains(all, n) {
		return "", fmt.Errorf("%w %q (want one of %s)", ErrUnknownSignal, name, strings.Join(all, ", "))
	}
	return n, nil
}
