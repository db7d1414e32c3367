package confine

import "golang.org/x/sys/unix"

// actCalls are the calls that change the system without writing a file
// and that no read needs. Below tier 2 they are refused (actRules). Root's
// reads and benign calls have lost the capabilities most of them take;
// warden's own probes (Inspect) keep CAP_SYS_ADMIN, CAP_SYS_RAWIO and
// CAP_NET_ADMIN (keepInspect), with which a probe's program could set the
// host name, turn swap or quotas off, reach I/O ports (a reset through
// port 0xcf9), attach a BPF program to a cgroup (dropping every packet of
// the host, and staying after the program exits) or detach one systemd
// filters a service with, or hold every open on a file system for its
// answer (fanotify's permission events).
type actCalls struct {
	refused  []uint32 // whatever their arguments
	bpf      uint32
	fanotify uint32 // fanotify_init
	quotactl uint32 // its command in the first argument
	quotaFd  uint32 // quotactl_fd: its command in the second
	// clone3 can start the new process in any cgroup given by a
	// directory descriptor (CLONE_INTO_CGROUP), which the kernel checks
	// against the permissions of the cgroup's cgroup.procs file and not
	// against Landlock; root's reads pass them (CAP_DAC_OVERRIDE). A read
	// would move a process into a service's cgroup, to be counted against
	// its memory limit (the service's own processes are then killed when
	// it is reached) or frozen with it. The flag lives in memory seccomp
	// cannot read, so clone3 answers as on a kernel without it (ENOSYS):
	// the C library, Go and Rust then use clone, which has no such flag.
	clone3 uint32
	// futex can move the waiters of any futex the caller can map, read
	// only included (a POSIX semaphore in /dev/shm, a database's lock
	// file), onto one nobody wakes (FUTEX_REQUEUE, FUTEX_CMP_REQUEUE and
	// the PI variant): the program that owns them then hangs. With
	// FUTEX_PRIVATE_FLAG the futexes are the caller's own, as in every
	// C library's private condition variables; only those stay.
	futex uint32
	// mmap and memfd_create can take huge pages from the pool an operator
	// reserved for a database or virtual machines (vm.nr_hugepages), which
	// any user may map anonymously: a read holding them makes the
	// service's next start fail for want of memory. Only their
	// MAP_HUGETLB and MFD_HUGETLB are refused; transparent huge pages,
	// which the kernel gives and takes back, stay.
	mmap, memfd uint32
	// unshare and clone with CLONE_NEWUSER make a user namespace, in
	// which the program holds every capability (whatever its bounding
	// set) over the namespaces it then makes: with a network namespace of
	// its own, CAP_NET_ADMIN reaches nf_tables and the rest of the code
	// the kernel guards with it, the way most local root exploits of the
	// last years began, and past the kernel no rule holds. No read needs
	// one: Landlock already refuses a sandbox's mounts (bwrap and
	// unshare -r cannot work in a read). Joining a namespace another
	// process made (setns) takes tracing rights over it, which Landlock
	// refuses across its boundary.
	//
	// clone with CLONE_PARENT gives the new process the caller's parent:
	// made by the program warden started, it is warden's child, which
	// warden never waits for (it waits for the programs it started,
	// each by id). Exited, it stays a zombie in warden's process table
	// until warden exits, holding a pid and, for a user other than root,
	// a count against RLIMIT_NPROC: no kill reaches a zombie, so a read
	// could fill either for good, and warden could start nothing more.
	// No program needs its siblings' parent (clone3's flag is out of
	// reach, as above).
	unshare, clone uint32
	// perf_event_open on every task a CPU runs (pid -1), or on every
	// task of a cgroup (PERF_FLAG_PID_CGROUP), samples each one's
	// registers and user stack into the caller's ring buffer: warden's
	// among them, past its being non-dumpable and past Landlock, which
	// asks nothing of such events. The kernel asks CAP_PERFMON or
	// CAP_SYS_ADMIN (warden's probes keep the latter), or, of any user, a
	// kernel.perf_event_paranoid of 0 or less (a host set up for
	// profiling). A program's own tasks (perf stat) stay.
	perf uint32
}

// perfFlagPidCgroup is perf_event_open's PERF_FLAG_PID_CGROUP.
const perfFlagPidCgroup = 1 << 2

// The futex commands that move waiters, and the flag and mask of
// linux/futex.h.
const (
	futexRequeue, futexCmpRequeue, futexCmpRequeuePI = 3, 4, 12
	futexPrivateFlag, futexCmdMask                   = 128, 0x7f
)

// bpfReads are the bpf(2) commands that look at what is loaded (bpftool
// prog show, map dump): the ids, a descriptor by id, an object's
// information, a cgroup's attached programs, a map's elements. Each
// descriptor by id takes CAP_SYS_ADMIN, which only warden's probes keep;
// they may also open a pinned object (bpfPinned).
var bpfReads = []uint32{
	unix.BPF_MAP_LOOKUP_ELEM, unix.BPF_MAP_GET_NEXT_KEY,
	unix.BPF_PROG_GET_NEXT_ID, unix.BPF_MAP_GET_NEXT_ID, unix.BPF_PROG_GET_FD_BY_ID,
	unix.BPF_MAP_GET_FD_BY_ID, unix.BPF_OBJ_GET_INFO_BY_FD, unix.BPF_PROG_QUERY,
	unix.BPF_BTF_GET_FD_BY_ID, unix.BPF_TASK_FD_QUERY, unix.BPF_BTF_GET_NEXT_ID,
	unix.BPF_MAP_LOOKUP_BATCH, unix.BPF_LINK_GET_FD_BY_ID, unix.BPF_LINK_GET_NEXT_ID,
}

// bpfPinned is the command that opens an object pinned in a bpf file
// system, which needs no capability, only the pin's permissions (root's
// CAP_DAC_OVERRIDE passes them). It opens a map read-write unless asked
// otherwise, in memory the filter cannot read, and a read-write map that
// is mmapable — every BPF program's global variables, its .data and .bss
// — is written through a shared mapping without BPF_MAP_UPDATE_ELEM: a
// read would change a loaded program's settings (a firewall's switch) for
// as long as it stays loaded. Reads and benign calls cannot open one;
// warden's probes, which keep CAP_SYS_ADMIN and open every map by id
// anyway, can.
const bpfPinned = unix.BPF_OBJ_GET

// quotaReads are the quotactl commands that look (linux/quota.h,
// linux/dqblk_xfs.h), shifted as QCMD puts them; the low byte is the
// quota type. Syncing writes what the kernel holds already.
var quotaReads = []uint32{
	0x800001 << 8, 0x800004 << 8, 0x800005 << 8, 0x800007 << 8, 0x800009 << 8, // Q_SYNC, Q_GETFMT, Q_GETINFO, Q_GETQUOTA, Q_GETNEXTQUOTA
	0x5803 << 8, 0x5805 << 8, 0x5807 << 8, 0x5808 << 8, 0x5809 << 8, // Q_XGETQUOTA, Q_XGETQSTAT, Q_XQUOTASYNC, Q_XGETQSTATV, Q_XGETNEXTQUOTA
}

// deviceActs are the ioctl requests that act on a device through a
// descriptor opened read-only, refused below tier 2 whatever the device:
// the driver checks neither the descriptor's mode nor a capability, or
// checks only one warden's probes keep (keepInspect), which may ask every
// device. Landlock lets reads and benign calls ask block devices, SCSI
// generic and NVMe nodes and clocks (deviceIoctls), whose other changing
// requests need a writable descriptor or a capability they lack.
var deviceActs = []uint32{
	// Loop devices: detaching one (losetup -d: a disk image under a
	// mount or a LUKS container is gone when its last user closes it),
	// swapping the file behind a read-only one (a snap's squashfs) and
	// binding a file to one need only a descriptor; the rest
	// CAP_SYS_ADMIN; the control device makes and removes them.
	0x4c00, 0x4c01, 0x4c06, 0x4c0a, // LOOP_SET_FD, LOOP_CLR_FD, LOOP_CHANGE_FD, LOOP_CONFIGURE
	0x4c02, 0x4c04, 0x4c07, 0x4c08, 0x4c09, // LOOP_SET_STATUS, _STATUS64, _CAPACITY, _DIRECT_IO, _BLOCK_SIZE
	0x4c80, 0x4c81, 0x4c82, // LOOP_CTL_ADD, _REMOVE, _GET_FREE
	// Real-time clocks: the alarm that wakes a powered-off host
	// (rtcwake), and turning it on or off, need no capability; the time,
	// epoch, rate and parameters need CAP_SYS_TIME or CAP_SYS_RESOURCE.
	// The update and periodic interrupts hwclock waits on end with the
	// descriptor and stay allowed.
	0x7001, 0x7002, 0x40247007, 0x4028700f, // RTC_AIE_ON, RTC_AIE_OFF, RTC_ALM_SET, RTC_WKALM_SET
	0x4024700a, 0x4008700c, 0x4008700e, 0x40187014, // RTC_SET_TIME, RTC_IRQP_SET, RTC_EPOCH_SET, RTC_PARAM_SET
	// SCSI disks and generic nodes: stopping a disk's spindle (its file
	// systems then fail) and the medium's lock need no capability; a
	// reset needs CAP_SYS_ADMIN and CAP_SYS_RAWIO.
	5, 6, 0x5380, 0x5381, 0x2284, // SCSI_IOCTL_START_UNIT, _STOP_UNIT, _DOORLOCK, _DOORUNLOCK, SG_SCSI_RESET
	// Optical drives: the tray and its lock.
	0x5309, 0x5319, 0x530f, 0x5329, 0x5320, 0x5321, // CDROMEJECT, CDROMCLOSETRAY, CDROMEJECT_SW, CDROM_LOCKDOOR, CDROM_SET_OPTIONS, CDROM_CLEAR_OPTIONS
	// NVMe controller reset and rescan (no capability before Linux 6.3).
	0x4e44, 0x4e45, 0x4e46, // NVME_IOCTL_RESET, _SUBSYS_RESET, _RESCAN
	// Block devices: read-only flag, partition table, read-ahead
	// (CAP_SYS_ADMIN).
	0x125d, 0x125f, 0x1269, 0x1262, 0x1264, // BLKROSET, BLKRRPART, BLKPG, BLKRASET, BLKFRASET
	// Software RAID (CAP_SYS_ADMIN): stopping, failing, adding and
	// removing disks.
	0x920, 0x40140921, 0x922, 0x40480923, 0x928, 0x929, 0x4004092b, // CLEAR_ARRAY, ADD_NEW_DISK, HOT_REMOVE_DISK, SET_ARRAY_INFO, HOT_ADD_DISK, SET_DISK_FAULTY, SET_BITMAP_FILE
	0x400c0930, 0x932, 0x933, 0x934, // RUN_ARRAY, STOP_ARRAY, STOP_ARRAY_RO, RESTART_ARRAY_RW
	// Device mapper's control (CAP_SYS_ADMIN): suspending or removing
	// the device under the root file system hangs the host.
	0xc138fd01, 0xc138fd03, 0xc138fd04, 0xc138fd05, 0xc138fd06, // DM_REMOVE_ALL, DM_DEV_CREATE, _REMOVE, _RENAME, _SUSPEND
	0xc138fd09, 0xc138fd0a, 0xc138fd0e, 0xc138fd0f, // DM_TABLE_LOAD, DM_TABLE_CLEAR, DM_TARGET_MSG, DM_DEV_SET_GEOMETRY
	// A network interface made through /dev/net/tun (CAP_NET_ADMIN),
	// and made to outlive the program.
	0x400454ca, 0x400454cb, // TUNSETIFF, TUNSETPERSIST
	// A terminal's line discipline, on a pseudo-terminal any program
	// makes through /dev/ptmx or its own: one the kernel lacks is loaded
	// as a module for any user (dev.tty.ldisc_autoload, on by default),
	// and n_hdlc and n_gsm, long modules no host needs, are where local
	// root exploits began. No read sets one.
	0x5423, // TIOCSETD
	// A file system, through any descriptor on it, read-only included
	// (CAP_SYS_ADMIN, which warden's probes keep; a read-only mount does
	// not stop them): frozen, every write on it waits until it is thawed,
	// by anyone, later; shut down, every access fails until it is mounted
	// again; trimmed, what was deleted cannot be recovered.
	0xc0045877, 0xc0045878, 0x8004587d, 0xc0185879, // FIFREEZE, FITHAW, FS_IOC_SHUTDOWN, FITRIM
}

// actRules appends the rules for a's calls: the refused ones, bpf(2) but
// for bpfReads (and, for warden's probes, bpfPinned), fanotify but for
// notification groups (a permission group's events make every open or
// access it watches wait for its answer), quotactl but for quotaReads, futex but for moving the waiters
// of a shared futex, huge pages from the reserved pool, a new user
// namespace or a sibling in place of a child (CLONE_PARENT), perf events
// on others' tasks, and clone3 as unimplemented.
func (f *filter) actRules(a actCalls, probes bool) {
	for _, nr := range a.refused {
		f.rule(nr, nil)
	}
	bpf := bpfReads
	if probes {
		bpf = append(bpf[:len(bpf):len(bpf)], bpfPinned)
	}
	f.rule(a.bpf, oneOf(0, bpf...))
	f.rule(a.fanotify, []step{load(0), has(unix.FAN_CLASS_CONTENT|unix.FAN_CLASS_PRE_CONTENT, toDeny, toAllow)})
	quota := func(arg int) []step {
		s := []step{load(arg), {code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, k: 0xffffff00}}
		for _, k := range quotaReads {
			s = append(s, is(k, toAllow, 0))
		}
		return s
	}
	f.rule(a.quotactl, quota(0))
	f.rule(a.quotaFd, quota(1))
	f.rule(a.futex, []step{load(1), has(futexPrivateFlag, toAllow, 0),
		{code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, k: futexCmdMask},
		is(futexRequeue, toDeny, 0), is(futexCmpRequeue, toDeny, 0), is(futexCmpRequeuePI, toDeny, toAllow)})
	f.rule(a.mmap, []step{load(3), has(unix.MAP_HUGETLB, toDeny, toAllow)})
	f.rule(a.memfd, []step{load(1), has(unix.MFD_HUGETLB, toDeny, toAllow)})
	f.rule(a.perf, []step{load(1), is(^uint32(0), toDeny, 0), load(4), has(perfFlagPidCgroup, toDeny, toAllow)})
	f.rule(a.unshare, []step{load(0), has(unix.CLONE_NEWUSER, toDeny, toAllow)})
	f.rule(a.clone, []step{load(0), has(unix.CLONE_NEWUSER|unix.CLONE_PARENT, toDeny, toAllow)})
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 1, K: a.clone3},
		unix.SockFilter{Code: bpfRet, K: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)})
}

// noneOf denies when argument arg (its low 32 bits) is one of ks and
// allows otherwise.
func noneOf(arg int, ks ...uint32) []step {
	s := []step{load(arg)}
	for i, k := range ks {
		no := 0
		if i == len(ks)-1 {
			no = toAllow
		}
		s = append(s, is(k, toDeny, no))
	}
	return s
}
