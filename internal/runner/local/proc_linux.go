package local

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// sysProcAttr puts the command in a new process group, so it can be
// killed as one, and has the kernel kill it if warden dies first. With
// detach it is a new session (and so a new group) instead, without the
// controlling terminal warden was started from: an operator's shell or an
// AI client's, where a command could draw or type into the shell behind
// it (TIOCSTI). Without a terminal to withhold, commands stay in warden's
// session, where the agent finds what a dead agent left running
// (agent.reapSession). Pdeathsig fires when the forking OS thread exits;
// the Go runtime does not retire threads of unlocked goroutines, so in
// practice that means when warden exits.
func sysProcAttr(detach bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: !detach, Setsid: detach, Pdeathsig: syscall.SIGKILL}
}

// hasTerminal reports whether this process has a controlling terminal.
func hasTerminal() bool {
	fd, err := unix.Open("/dev/tty", unix.O_RDONLY|unix.O_NOCTTY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
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
