package confine

import (
	"fmt"
	"runtime"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The classic BPF opcodes a seccomp filter uses.
const (
	bpfLdW  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	bpfJeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	bpfJge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	bpfJa   = unix.BPF_JMP | unix.BPF_JA
	bpfRet  = unix.BPF_RET | unix.BPF_K
	retDeny = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	// retAccess answers "permission denied", which clients of a daemon
	// report as such ("permission denied while trying to connect to the
	// Docker daemon socket") and which name lookups treat as a daemon
	// that is not there, falling back to the files.
	retAccess = unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)

	offNr   = 0
	offArch = 4
	offArg0 = 16 // low 32 bits on little-endian machines
	offArg1 = 24
	offArg2 = 32
)

// filter is a seccomp program under construction.
type filter []unix.SockFilter

func (f *filter) stmt(code uint16, k uint32) {
	*f = append(*f, unix.SockFilter{Code: code, K: k})
}

// denyIf returns EPERM when the accumulator equals k.
func (f *filter) denyIf(k uint32) {
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 1, K: k}, unix.SockFilter{Code: bpfRet, K: retDeny})
}

// signalFilter builds the filter every confined program gets. No call may
// name warden's process (pid) or its process group (pgid), nor every
// process at once (kill -1) unless scoped, where Landlock holds kill -1
// to the caller's own domain. Calls that name one task (kill, tkill,
// rt_sigqueueinfo, pidfd_open, prlimit64, the scheduler and I/O priority
// setters) can name any of warden's threads, whose ids come and go: with
// notify, each such call naming another task is held for warden's
// listener (serveNotify), which refuses warden's own threads and lets the
// rest go on. Calls that name a thread group first (tgkill,
// rt_tgsigqueueinfo) reach warden's threads only through its pid.
// pidfd_send_signal names its target by a descriptor no filter can read,
// so it is refused as unimplemented and callers fall back to kill;
// F_SETSIG is refused, so a descriptor whose owner is set to warden
// (F_SETOWN) raises only SIGIO or SIGURG, which the Go runtime ignores.
// With denyMeta, the metadata calls that Landlock does not cover (chmod,
// chown, utimes, extended attributes, inode flags, the ioctls in
// metaIoctls) are refused too. With any of denyMeta, confined and noUnix,
// io_uring is refused: its operations (opening a socket, connecting,
// binding, opening a file with a mode) run in the kernel without passing
// through this filter, so a program with a ring would make a Unix socket
// unixRule refuses and reach dockerd with it. With confined (programs
// admitted below tier 2), the calls that change another task (its
// limits, scheduling, nice value or I/O priority: lowering a limit can
// kill a process as surely as a signal) may name only the caller's own
// process: the listener checks ids, and a process group other than the
// caller's, or a whole user, is refused here. A program of another ABI
// than the native one (32-bit compat, x32) runs nothing, and no program
// uses the new mount API (a.mounts). With confined, no file is made
// setuid or setgid (modeRules), and System V IPC, POSIX
// message queues and key rings may be looked at, not changed
// (objectRules). With noUnix, no Unix socket can be made (unixRule).
func signalFilter(pid, pgid int, o filterOpts) (filter, error) {
	denyMeta, confined, notify := o.denyMeta, o.confined, o.notify
	a, ok := arches[runtime.GOARCH]
	if !ok {
		return nil, fmt.Errorf("seccomp: no syscall table for %s", runtime.GOARCH)
	}
	var f filter
	f.stmt(bpfLdW, offArch)
	f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 1, Jf: 0, K: a.audit})
	f.stmt(bpfRet, retDeny)
	f.stmt(bpfLdW, offNr)
	if a.x32 {
		f = append(f, unix.SockFilter{Code: bpfJge, Jt: 0, Jf: 1, K: 0x40000000})
		f.stmt(bpfRet, retDeny)
	}
	for _, nr := range a.mounts {
		f.denyIf(nr)
	}
	if denyMeta || confined || o.noUnix {
		f.denyIf(a.uring)
	}
	if denyMeta {
		for _, nr := range a.meta {
			f.denyIf(nr)
		}
		// ioctl: past the block unless it is ioctl, then its request.
		f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: uint8(2 + 2*len(metaIoctls)), K: a.ioctl})
		f.stmt(bpfLdW, offArg1)
		for _, req := range metaIoctls {
			f.denyIf(req)
		}
		f.stmt(bpfLdW, offNr)
	}
	if confined {
		f.objectRules(a.objects)
		f.actRules(a.acts, o.probes)
	}
	if o.noUnix {
		f.unixRule(a.socket)
	}
	if o.bind {
		f.bindRule(a.bind)
	}
	if confined {
		f.familyRule(a.socket)
		f.coreRule(a.setrlimit, a.prlimit)
		f.modeRules(a.modes, a.openat2)
	}
	f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 1, K: a.pidfdSignal},
		unix.SockFilter{Code: bpfRet, K: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)})
	// Forward jumps to the blocks below, patched once their places are
	// known.
	var toFcntl, toTask, toCheck []int
	toWho := make([][]int, len(a.who))
	jump := func(to *[]int) {
		*to = append(*to, len(f))
		f.stmt(bpfJa, 0)
	}
	jumpIf := func(nr uint32, to *[]int) {
		f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 1, K: nr})
		jump(to)
	}
	patch := func(from []int) {
		for _, i := range from {
			f[i].K = uint32(len(f) - (i + 1))
		}
	}
	allow := func() { f.stmt(bpfRet, unix.SECCOMP_RET_ALLOW) }
	jumpIf(a.fcntl, &toFcntl)
	for _, nr := range append(append([]uint32(nil), a.group...), a.task...) {
		jumpIf(nr, &toTask)
	}
	for i, w := range a.who {
		jumpIf(w.nr, &toWho[i])
	}
	allow()

	patch(toFcntl)
	f.stmt(bpfLdW, offArg1)
	f.denyIf(unix.F_SETSIG)
	if confined {
		// A lease on a file the program owns (root owns most) makes
		// every other program's open for writing wait until it ends.
		f.denyIf(unix.F_SETLEASE)
	}
	allow()

	// setpriority and ioprio_set name a process, a process group or a user
	// by their second argument, as their first says.
	for i, w := range a.who {
		patch(toWho[i])
		f.stmt(bpfLdW, offArg0)
		f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 2, K: w.process})
		f.stmt(bpfLdW, offArg1)
		jump(&toCheck)
		if confined {
			// Only the caller's own process group (0); never a user.
			f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 3, K: w.pgrp})
			f.stmt(bpfLdW, offArg1)
			f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 1, K: 0})
			allow()
			f.stmt(bpfRet, retDeny)
			continue
		}
		f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 3, K: w.pgrp})
		f.stmt(bpfLdW, offArg1)
		f.denyIf(uint32(int32(pgid)))
		allow()
	}

	patch(toTask)
	f.stmt(bpfLdW, offArg0)
	patch(toCheck) // the id to check is in the accumulator
	everyone := -1
	if o.scoped {
		// kill -1 reaches only the caller's own Landlock domain: the
		// programs of its level, which the worker sweeps with it.
		everyone = 0
	}
	for _, k := range []int{pid, -pid, pgid, -pgid, everyone} {
		if k == 0 {
			continue
		}
		f.denyIf(uint32(int32(k)))
	}
	if !notify {
		allow()
		return f, nil
	}
	// A call naming another task goes to the listener; 0 is the caller
	// itself and a negative id a process group. The thread-group calls
	// came here too: the checks above settled them.
	f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 1, K: 0})
	allow()
	f = append(f, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K, Jt: 0, Jf: 1, K: 0x80000000})
	allow()
	f.stmt(bpfLdW, offNr)
	for _, nr := range a.group {
		f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 1, K: nr})
		allow()
	}
	f.stmt(bpfRet, unix.SECCOMP_RET_USER_NOTIF)
	return f, nil
}

// filterOpts says which of signalFilter's rules a level gets.
type filterOpts struct {
	denyMeta bool // the metadata calls Landlock does not cover
	confined bool // below tier 2: kernel objects and acts without a file
	noUnix   bool // no Unix socket (Admission.Daemons unset below tier 2)
	notify   bool // calls naming another task go to warden's listener
	bind     bool // binds go to warden's listener, which binds only port 0
	// scoped: Landlock keeps signals within the level's domain (ABI 6),
	// so kill -1 is left to it (worker.sweep uses it).
	scoped bool
	probes bool // warden's own probes (Inspect): see bpfPinned
}

// unixRule refuses socket(AF_UNIX, …). A daemon behind a socket named by
// a path does what any client that connects asks (dockerd runs a
// container with the host's root mounted; systemd starts a unit), and
// Landlock does not rule connecting to a socket, so a program a read
// starts without the command line showing it would reach through them
// every write the rules hold. socketpair stays: it reaches no one else.
// Abstract sockets were already out of reach (Landlock's scope).
func (f *filter) unixRule(socket uint32) {
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 3, K: socket})
	f.stmt(bpfLdW, offArg0)
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 1, K: unix.AF_UNIX})
	f.stmt(bpfRet, retAccess)
	f.stmt(bpfLdW, offNr)
}

// readFamilies are the socket families a program below tier 2 may make:
// Unix sockets (as unixRule says), the internet and packet sockets
// (tcpdump and ping as root); netlink is readProtocols'.
var readFamilies = []uint32{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6, unix.AF_PACKET}

// readProtocols are the netlink protocols such a program may use, each
// served by the kernel, which asks CAP_NET_ADMIN or CAP_AUDIT_CONTROL of
// a request that changes anything: routes and links (ip), socket lists
// (ss), IPsec, SELinux and audit notices, forwarding lookups, the
// firewall (nft list, for warden's probes), device events (udevadm
// monitor), generic families (iw, ethtool, devlink), RDMA links and the
// crypto API's list. Refused: NETLINK_USERSOCK, which carries messages
// between programs as a Unix socket does (any user may send to a
// daemon's port), and the drivers' channels (the connector, iSCSI, SCSI
// transports), which some drivers serve without asking a capability.
var readProtocols = []uint32{
	unix.NETLINK_ROUTE, unix.NETLINK_SOCK_DIAG, unix.NETLINK_XFRM, unix.NETLINK_SELINUX,
	unix.NETLINK_AUDIT, unix.NETLINK_FIB_LOOKUP, unix.NETLINK_NETFILTER,
	unix.NETLINK_KOBJECT_UEVENT, unix.NETLINK_GENERIC, unix.NETLINK_RDMA, unix.NETLINK_CRYPTO,
}

// familyRule refuses every other family as the kernel refuses one it
// lacks (EAFNOSUPPORT), and every other netlink protocol as one it lacks
// (EPROTONOSUPPORT). The other families reach past what the rules see and
// no read needs them: a virtual machine's socket (AF_VSOCK) reaches the
// hypervisor's agents, which act for whoever connects as a daemon's
// socket does; CAN and Bluetooth sockets send frames on a bus or HCI
// commands to a controller (any HCI command with root's CAP_NET_RAW);
// AF_XDP sends raw frames as packet sockets do; and making a socket of a
// family the kernel has as a module loads that module for the caller.
func (f *filter) familyRule(socket uint32) {
	// Absolute places of the block's exits, relative to its first
	// instruction.
	n := len(readFamilies) + len(readProtocols)
	noProto, noFamily, allow, end := n+4, n+5, n+6, n+7
	var b filter
	jeq := func(k uint32, yes, no int) {
		i := len(b)
		b = append(b, unix.SockFilter{Code: bpfJeq, K: k, Jt: uint8(yes - i - 1), Jf: uint8(no - i - 1)})
	}
	jeq(socket, 1, end)
	b.stmt(bpfLdW, offArg0)
	for _, fam := range readFamilies {
		jeq(fam, allow, len(b)+1)
	}
	jeq(unix.AF_NETLINK, len(b)+1, noFamily)
	b.stmt(bpfLdW, offArg2) // the protocol
	for _, p := range readProtocols {
		jeq(p, allow, len(b)+1)
	}
	b.stmt(bpfRet, unix.SECCOMP_RET_ERRNO|uint32(unix.EPROTONOSUPPORT))
	b.stmt(bpfRet, unix.SECCOMP_RET_ERRNO|uint32(unix.EAFNOSUPPORT))
	b.stmt(bpfRet, unix.SECCOMP_RET_ALLOW)
	if len(b) != end || b[noProto].K&unix.SECCOMP_RET_DATA != uint32(unix.EPROTONOSUPPORT) {
		panic("seccomp: familyRule's layout")
	}
	*f = append(*f, b...)
}

// install loads f on the calling thread only; no_new_privs must be set.
func (f filter) install() error {
	_, err := f.load(0)
	return err
}

// installListener loads f on the calling thread and returns the descriptor
// on which warden receives the calls f holds for it (SECCOMP_RET_USER_NOTIF).
func (f filter) installListener() (int, error) {
	return f.load(unix.SECCOMP_FILTER_FLAG_NEW_LISTENER)
}

// whoCall is a call whose first argument says whether its second is a
// process (or thread), a process group or a user.
type whoCall struct{ nr, process, pgrp uint32 }

// changes reports whether call nr with args changes the task it names
// (rather than signalling it, opening it or reading its limits).
func (a arch) changes(nr uint32, args [6]uint64) bool {
	if nr == a.prlimit {
		return args[2] != 0 // a new limit
	}
	return slices.Contains(a.setters, nr)
}

// idArg is the argument of call nr that names the task the listener
// checks.
func (a arch) idArg(nr uint32) int {
	for _, w := range a.who {
		if w.nr == nr {
			return 1
		}
	}
	return 0
}

func (f filter) load(flags uintptr) (int, error) {
	prog := unix.SockFprog{Len: uint16(len(f)), Filter: &f[0]}
	r, _, errno := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(f)
	if errno != 0 {
		return -1, fmt.Errorf("seccomp: %w", errno)
	}
	return int(r), nil
}

// arch is one architecture's seccomp identity and the calls the filter
// looks at.
type arch struct {
	audit uint32
	x32   bool // numbers at and above 0x40000000 are the x32 ABI
	// group are the calls whose first argument is a thread group;
	// task those whose first argument is any task (a process or one of
	// its threads).
	group, task []uint32
	// who are the calls that say in their first argument what their
	// second names.
	who []whoCall
	// setters are the calls that change the task they name; prlimit
	// changes it when given a new limit.
	setters     []uint32
	prlimit     uint32
	pidfdSignal uint32
	fcntl       uint32
	ioctl       uint32
	socket      uint32
	setrlimit   uint32
	bind        uint32
	// mounts are the calls of the new mount API. Landlock refuses
	// mount(2) and umount(2) to every program it confines, but not these:
	// a detached copy of a mount (open_tree) or a new mount of a file
	// system (fsmount) would reach files the masks cover.
	mounts []uint32
	meta   []uint32
	// uring is io_uring_setup: a ring's operations are calls the filter
	// never sees.
	uring uint32
	// modes are the calls that give a file a mode (modeRules).
	modes   []modeCall
	openat2 uint32
	objects objectCalls
	acts    actCalls
}

// metaIoctls are the ioctl requests that change a file without writing
// it, which Landlock leaves to the file's owner (it rules ioctls on
// devices only) and which a read-only mount refuses: refused where the
// metadata calls are. The request is an unsigned int, so the filter
// compares the low 32 bits, as the kernel reads it.
var metaIoctls = []uint32{
	unix.FS_IOC_SETFLAGS, 0x40046602, // chattr; FS_IOC32_SETFLAGS
	0x401c5820,             // FS_IOC_FSSETXATTR: flags, project id, extent size
	0x40087602, 0x40047602, // FS_IOC_SETVERSION and its 32-bit spelling
	unix.FS_IOC_SET_ENCRYPTION_POLICY,
	unix.FS_IOC_ENABLE_VERITY, // makes a file read-only for good
	// btrfs subvolumes and snapshots, made and removed through an ioctl
	// on a directory opened for reading, and their read-only flag.
	0x50009401, 0x5000940e, 0x50009417, 0x50009418, // SNAP_CREATE, SUBVOL_CREATE and their _V2
	0x5000940f, 0x5000943f, // SNAP_DESTROY and _V2
	0x4008941a,             // SUBVOL_SETFLAGS
	0xc0c89425,             // SET_RECEIVED_SUBVOL
	0x50009402, 0x40309410, // DEFRAG and DEFRAG_RANGE: rewrite shared extents as copies
	0x40086604, 0x40046604, // EXT4_IOC_SETVERSION and its 32-bit spelling: the inode's generation
}

// ioprio_set's IOPRIO_WHO_PROCESS and IOPRIO_WHO_PGRP (linux/ioprio.h).
const (
	ioprioWhoProcess = 1
	ioprioWhoPgrp    = 2
)
