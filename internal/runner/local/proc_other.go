//go:build unix && !linux

package local

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr puts the command in a new process group, so it can be killed
// as one. Only Linux offers a parent-death signal.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
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
