package confine

import "golang.org/x/sys/unix"

var arches = map[string]arch{"arm64": {
	audit: unix.AUDIT_ARCH_AARCH64,
	group: []uint32{unix.SYS_TGKILL, unix.SYS_RT_TGSIGQUEUEINFO},
	task: []uint32{unix.SYS_KILL, unix.SYS_TKILL, unix.SYS_RT_SIGQUEUEINFO, unix.SYS_PIDFD_OPEN,
		unix.SYS_PRLIMIT64, unix.SYS_SCHED_SETAFFINITY, unix.SYS_SCHED_SETPARAM,
		unix.SYS_SCHED_SETSCHEDULER, unix.SYS_SCHED_SETATTR},
	who: []whoCall{{unix.SYS_SETPRIORITY, unix.PRIO_PROCESS, unix.PRIO_PGRP},
		{unix.SYS_IOPRIO_SET, ioprioWhoProcess, ioprioWhoPgrp}},
	setters: []uint32{unix.SYS_SCHED_SETAFFINITY, unix.SYS_SCHED_SETPARAM, unix.SYS_SCHED_SETSCHEDULER,
		unix.SYS_SCHED_SETATTR, unix.SYS_SETPRIORITY, unix.SYS_IOPRIO_SET},
	prlimit:     unix.SYS_PRLIMIT64,
	pidfdSignal: unix.SYS_PIDFD_SEND_SIGNAL,
	fcntl:       unix.SYS_FCNTL,
	ioctl:       unix.SYS_IOCTL,
	socket:      unix.SYS_SOCKET,
	setrlimit:   unix.SYS_SETRLIMIT,
	mounts: []uint32{unix.SYS_OPEN_TREE, unix.SYS_MOVE_MOUNT, unix.SYS_FSOPEN, unix.SYS_FSCONFIG,
		unix.SYS_FSMOUNT, unix.SYS_FSPICK, unix.SYS_MOUNT_SETATTR},
	meta: []uint32{unix.SYS_FCHMOD, unix.SYS_FCHMODAT, unix.SYS_FCHMODAT2,
		unix.SYS_FCHOWN, unix.SYS_FCHOWNAT, unix.SYS_UTIMENSAT,
		unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_SETXATTRAT,
		unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, unix.SYS_REMOVEXATTRAT,
		unix.SYS_FILE_SETATTR},
	uring: unix.SYS_IO_URING_SETUP,
	modes: []modeCall{{unix.SYS_FCHMOD, 1, -1}, {unix.SYS_FCHMODAT, 2, -1}, {unix.SYS_FCHMODAT2, 2, -1},
		{unix.SYS_MKNODAT, 2, -1}, {unix.SYS_OPENAT, 3, 2}},
	openat2: unix.SYS_OPENAT2,
	objects: objectNumbers,
	acts:    actNumbers(),
}}
