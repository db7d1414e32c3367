package confine

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// seccompNotif and seccompNotifResp are the kernel's struct seccomp_notif
// and struct seccomp_notif_resp.
type seccompNotif struct {
	id    uint64
	pid   uint32
	flags uint32
	nr    int32
	arch  uint32
	ip    uint64
	args  [6]uint64
}

type seccompNotifResp struct {
	id    uint64
	val   int64
	error int32
	flags uint32
}

// serveNotify answers the calls a worker's filter holds for warden (a
// call naming one task by id, and below tier 2 a bind, which bindFor
// makes itself) until no program uses the filter any more:
// a call naming one of warden's own threads is refused with EPERM, and so,
// when confined, is one that changes a task outside the caller's own
// process; any other goes on as the program made it. The id is an
// integer the kernel reads again when the call goes on, so what was
// checked is what runs.
func serveNotify(fd, pid int, confined bool) {
	defer unix.Close(fd)
	for {
		pfd := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if _, err := unix.Poll(pfd, -1); err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return
		}
		if pfd[0].Revents&unix.POLLIN == 0 {
			return // POLLHUP: the filter's last user is gone
		}
		var req seccompNotif
		if err := ioctl(fd, unix.SECCOMP_IOCTL_NOTIF_RECV, unsafe.Pointer(&req)); err != nil {
			if errors.Is(err, unix.EINTR) || errors.Is(err, unix.ENOENT) {
				continue // interrupted, or the caller died before we read it
			}
			return
		}
		resp := seccompNotifResp{id: req.id}
		a, nr := arches[runtime.GOARCH], uint32(req.nr)
		target := int(int32(req.args[a.idArg(nr)]))
		if nr == a.bind {
			resp.val, resp.error = bindFor(fd, &req)
		} else if ownThread(pid, target) || confined && a.changes(nr, req.args) && !sameProcess(int(req.pid), target) {
			resp.error = -int32(unix.EPERM)
		} else {
			resp.flags = unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE
		}
		// ENOENT: the caller died or was interrupted meanwhile; nothing to
		// answer.
		_ = ioctl(fd, unix.SECCOMP_IOCTL_NOTIF_SEND, unsafe.Pointer(&resp))
	}
}

// ownThread reports whether tid is a thread of process pid: a null signal
// to it as a member of pid's thread group succeeds only then.
func ownThread(pid, tid int) bool {
	return tid > 0 && unix.Tgkill(pid, tid, 0) == nil
}

// sameProcess reports whether task tid belongs to the process of task
// caller: the thread group /proc names for caller.
func sameProcess(caller, tid int) bool {
	tgid, err := processOf(caller)
	return err == nil && ownThread(tgid, tid)
}

// processOf returns the process (thread group) task tid belongs to, as
// /proc names it.
func processOf(tid int) (int, error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", tid))
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "Tgid:"); ok {
			return strconv.Atoi(strings.TrimSpace(v))
		}
	}
	return 0, fmt.Errorf("no Tgid in /proc/%d/status", tid)
}

// notifyContinues reports whether the kernel lets a listener send a held
// call on as the program made it (SECCOMP_USER_NOTIF_FLAG_CONTINUE, Linux
// 5.5). Linux 5.0–5.4 hold calls for a listener but cannot send one on, so
// there a program's kill(2) of its own child could never complete: the
// listener is not used and the gap is reported instead.
func notifyContinues() bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	return releaseAtLeast(unix.ByteSliceToString(u.Release[:]), 5, 5)
}

// releaseAtLeast reports whether a kernel release ("6.1.0-27-amd64")
// is at least major.minor.
func releaseAtLeast(rel string, major, minor int) bool {
	var a, b int
	if _, err := fmt.Sscanf(rel, "%d.%d", &a, &b); err != nil {
		return false
	}
	return a > major || a == major && b >= minor
}

func ioctl(fd int, req uint, arg unsafe.Pointer) error {
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), uintptr(arg)); errno != 0 {
		return errno
	}
	return nil
}
