//go:build linux && (amd64 || arm64)

package confine

import "golang.org/x/sys/unix"

// objectNumbers are the object calls' numbers, the same names on both
// architectures with a syscall table.
var objectNumbers = objectCalls{
	shmget: unix.SYS_SHMGET, shmat: unix.SYS_SHMAT, shmctl: unix.SYS_SHMCTL,
	semget: unix.SYS_SEMGET, semctl: unix.SYS_SEMCTL,
	msgget: unix.SYS_MSGGET, msgctl: unix.SYS_MSGCTL,
	mqOpen: unix.SYS_MQ_OPEN, keyctl: unix.SYS_KEYCTL,
	ioctl: unix.SYS_IOCTL, syslog: unix.SYS_SYSLOG,
	changes: []uint32{unix.SYS_SEMOP, unix.SYS_SEMTIMEDOP, unix.SYS_MSGSND, unix.SYS_MSGRCV,
		unix.SYS_MQ_UNLINK, unix.SYS_MQ_TIMEDSEND, unix.SYS_MQ_TIMEDRECEIVE, unix.SYS_MQ_NOTIFY,
		unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY},
}

// actNumbers are the calls' numbers on both architectures with a syscall
// table; amd64 adds its port calls.
func actNumbers(more ...uint32) actCalls {
	return actCalls{
		refused: append([]uint32{unix.SYS_SETHOSTNAME, unix.SYS_SETDOMAINNAME, unix.SYS_SWAPON, unix.SYS_SWAPOFF,
			unix.SYS_REBOOT, unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD,
			unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE, unix.SYS_DELETE_MODULE,
			unix.SYS_ACCT, unix.SYS_SETTIMEOFDAY, unix.SYS_CLOCK_SETTIME,
			// A file opened by handle is reached past the mounts that
			// cover warden's files; root's benign programs keep
			// CAP_DAC_READ_SEARCH, which it takes (tempTrade).
			unix.SYS_OPEN_BY_HANDLE_AT,
			// futex_requeue names its futexes and their flags in memory:
			// refused whole (see actCalls.futex); no C library uses it.
			unix.SYS_FUTEX_REQUEUE}, more...),
		bpf: unix.SYS_BPF, fanotify: unix.SYS_FANOTIFY_INIT,
		quotactl: unix.SYS_QUOTACTL, quotaFd: unix.SYS_QUOTACTL_FD,
		clone3: unix.SYS_CLONE3, futex: unix.SYS_FUTEX,
		mmap: unix.SYS_MMAP, memfd: unix.SYS_MEMFD_CREATE,
		unshare: unix.SYS_UNSHARE, clone: unix.SYS_CLONE,
		perf: unix.SYS_PERF_EVENT_OPEN,
	}
}
