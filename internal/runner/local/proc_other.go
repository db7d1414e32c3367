//go:build unix && !linux

package local

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr puts the command in a new process group, or with detach a
// new session without warden's terminal (see the Linux version). Only
// Linux offers a parent-death signal.
func sysProcAttr(detach bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: !detach, Setsid: detach}
}

// hasTerminal reports whether this process has a controlling terminal.
func hasTerminal() bool {
	f, err := os.OpenFile("/dev/tty", os.O_RDONLY|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// waitExited cannot wait without reaping on this platform; the caller
// reaps first and kills the group after.
func waitExited(int) error {
	return errors.ErrUnsupported
}

// newPipe makes a pipe; os.StartProcess sets the child's end blocking.
func newPipe(bool) (r, w *os.File, err error) {
	return os.Pipe()
}
