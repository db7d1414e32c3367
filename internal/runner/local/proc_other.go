//go:build unix && !linux

package local

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr puts the command in a new session, and so a new process
// group it can be killed as, without warden's controlling terminal (see
// the Linux version). Only Linux offers a parent-death signal.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
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
