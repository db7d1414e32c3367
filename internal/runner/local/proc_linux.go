package local

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// sysProcAttr puts the command in a new process group, so it can be killed
// as one, and has the kernel kill it if warden dies first. Pdeathsig fires
// when the forking OS thread exits; the Go runtime does not retire threads
// of unlocked goroutines, so in practice that means when warden exits.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
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
