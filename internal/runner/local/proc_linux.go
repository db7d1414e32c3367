package local

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// sysProcAttr puts the command in a new session, and so a new process
// group it can be killed as, and has the kernel kill it if warden dies
// first. A new session has no controlling terminal: warden started from
// an operator's shell (or an AI client's terminal) must not hand that
// terminal to its programs, where one could type into the operator's
// shell (TIOCSTI) or draw on it. Pdeathsig fires when the forking OS
// thread exits; the Go runtime does not retire threads of unlocked
// goroutines, so in practice that means when warden exits.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}

// waitExited blocks until process pid has exited, leaving it unreaped so
// that its pid, which is also the group id, stays reserved.
func waitExited(pid int) error {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			return err
		}
	}
}

// newPipe makes a pipe whose parent end (the read end for output, the
// write end for stdin) is non-blocking and polled, and whose child end is
// blocking, as a child expects its standard streams. Made this way it
// takes five system calls; os.Pipe sets both ends non-blocking and
// registers both with the poller, and os.StartProcess then sets the
// child's end blocking again, twice as many on every command.
func newPipe(output bool) (r, w *os.File, err error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	parent := fds[1]
	if output {
		parent = fds[0]
	}
	// A new pipe's status flags are its access mode alone, which F_SETFL
	// ignores: setting O_NONBLOCK needs no F_GETFL first.
	if _, err := unix.FcntlInt(uintptr(parent), unix.F_SETFL, unix.O_NONBLOCK); err != nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}
