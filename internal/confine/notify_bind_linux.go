package confine

import (
	"encoding/binary"
	"errors"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Below tier 2 a program binds only an address whose port the kernel
// picks. A program that binds a UDP port of its choosing takes it from
// the service that binds it next (WireGuard on 51820, OpenVPN on 1194,
// mDNS on 5353, SIP on 5060 after a restart): the service fails to start
// and its clients' datagrams reach the program. Landlock rules TCP ports
// only, and bind(2) names its address in memory no filter can read, so
// the filter holds every bind whose address could be an internet one (16
// bytes or more: sockaddr_in, sockaddr_in6, sockaddr_ll, a Unix name of
// 14 bytes and up) for warden's listener, which binds on the program's
// behalf (bindFor). Shorter addresses (netlink's, an autobound Unix
// name) go on untouched.

// minInetAddr is the size of the smallest address the kernel binds an
// internet socket to (sockaddr_in).
const minInetAddr = 16

// maxAddr is the largest address bind(2) takes (sockaddr_storage).
const maxAddr = 128

// bindRule appends the rule holding bind calls with an address of
// minInetAddr bytes or more for the listener.
func (f *filter) bindRule(bind uint32) {
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 4, K: bind})
	f.stmt(bpfLdW, offArg2)
	*f = append(*f, unix.SockFilter{Code: bpfJge, Jt: 1, Jf: 0, K: minInetAddr})
	f.stmt(bpfRet, unix.SECCOMP_RET_ALLOW)
	f.stmt(bpfRet, unix.SECCOMP_RET_USER_NOTIF)
}

// bindFor answers a held bind(2): it takes its own reference to the
// program's socket (pidfd_getfd) and its own copy of the address, checks
// them, and binds that socket itself, so what was checked is what is
// bound however the program changes its memory or its descriptors
// meanwhile. An internet socket is bound only to port 0 (the kernel
// picks one), TCP as Landlock would hold it; a packet socket, an abstract
// Unix name and a netlink socket without multicast groups are bound as
// asked. A Unix socket named by a path is refused: only the program's own
// Landlock domain can say where it may make one, and binding it from here
// would not ask. It returns the call's value and error (a negative errno).
func bindFor(listener int, req *seccompNotif) (int64, int32) {
	fail := func(err error) (int64, int32) {
		var errno unix.Errno
		if !errors.As(err, &errno) {
			errno = unix.EPERM
		}
		return -1, -int32(errno)
	}
	tid := int(req.pid)
	pidfd, err := callerFd(tid)
	if err != nil {
		return fail(err)
	}
	defer unix.Close(pidfd)
	// The caller's id named it when the call was held; the call is still
	// valid only while the caller waits, alive and in its process, so
	// pidfd is its process's.
	if err := ioctl(listener, unix.SECCOMP_IOCTL_NOTIF_ID_VALID, unsafe.Pointer(&req.id)); err != nil {
		return fail(err)
	}
	sock, err := unix.PidfdGetfd(pidfd, int(int32(req.args[0])), 0)
	if err != nil {
		return fail(err)
	}
	defer unix.Close(sock)
	n := int(uint32(req.args[2]))
	if n < minInetAddr || n > maxAddr {
		return fail(unix.EINVAL)
	}
	addr := make([]byte, n)
	local := unix.Iovec{Base: &addr[0]}
	local.SetLen(n)
	got, err := unix.ProcessVMReadv(tid, []unix.Iovec{local},
		[]unix.RemoteIovec{{Base: uintptr(req.args[1]), Len: n}}, 0)
	if err != nil || got != n {
		return fail(unix.EFAULT)
	}
	if err := ioctl(listener, unix.SECCOMP_IOCTL_NOTIF_ID_VALID, unsafe.Pointer(&req.id)); err != nil {
		return fail(err)
	}
	domain, err := unix.GetsockoptInt(sock, unix.SOL_SOCKET, unix.SO_DOMAIN)
	if err != nil {
		return fail(err)
	}
	switch domain {
	case unix.AF_INET, unix.AF_INET6:
		// The port is at the same place in both (and in AF_UNSPEC's).
		if binary.BigEndian.Uint16(addr[2:4]) != 0 {
			return fail(unix.EACCES)
		}
	case unix.AF_UNIX:
		if addr[2] != 0 {
			return fail(unix.EACCES)
		}
	case unix.AF_NETLINK:
		// Multicast groups the kernel would ask the caller's
		// capabilities for, not warden's.
		if binary.NativeEndian.Uint32(addr[8:12]) != 0 {
			return fail(unix.EPERM)
		}
	case unix.AF_PACKET:
	default:
		return fail(unix.EACCES)
	}
	if _, _, errno := unix.Syscall(unix.SYS_BIND, uintptr(sock), uintptr(unsafe.Pointer(&addr[0])), uintptr(n)); errno != 0 {
		return fail(errno)
	}
	return 0, 0
}

// pidfdThread is PIDFD_THREAD (Linux 6.9): a pidfd for a thread that
// may not lead its process.
const pidfdThread = unix.O_EXCL

// callerFd returns a pidfd through which the caller's descriptors are
// reached: the caller may be any thread of its process, whose threads
// share them. The id is in warden's PID namespace, which its /proc may
// not show (a container's warden entering the host's): /proc is asked
// only on kernels before 6.9, and only for a thread that does not lead
// its process.
func callerFd(tid int) (int, error) {
	if fd, err := unix.PidfdOpen(tid, pidfdThread); err == nil {
		return fd, nil
	}
	if fd, err := unix.PidfdOpen(tid, 0); err == nil {
		return fd, nil
	}
	pid, err := processOf(tid)
	if err != nil {
		return -1, unix.ESRCH
	}
	return unix.PidfdOpen(pid, 0)
}

// pidfdGetfdWorks reports whether the kernel takes a descriptor from
// another process (pidfd_getfd, Linux 5.6), which bindFor needs.
func pidfdGetfdWorks() bool {
	pidfd, err := unix.PidfdOpen(unix.Getpid(), 0)
	if err != nil {
		return false
	}
	defer unix.Close(pidfd)
	_, err = unix.PidfdGetfd(pidfd, -1, 0)
	return errors.Is(err, unix.EBADF)
}
