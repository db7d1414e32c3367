package confine

import (
	"fmt"
	"slices"

	"golang.org/x/sys/unix"
)

// Capabilities no confined program keeps: without CAP_SYS_PTRACE and
// CAP_PERFMON a program cannot trace warden, which is not dumpable. Reading
// its /proc files takes CAP_SYS_ADMIN too, which approved root programs
// keep (they may need it); warden's initial environment holds no secrets
// for them to read (cmd/warden scrubs it), and its memory is refused by
// Landlock. Without CAP_DAC_READ_SEARCH no program opens a file by handle
// (open_by_handle_at), which would reach a file its mount namespace covers;
// CAP_DAC_OVERRIDE still lets root read and search everything else (but
// for root's benign programs, see tempTrade).
var dropAlways = []uintptr{unix.CAP_SYS_PTRACE, unix.CAP_PERFMON, unix.CAP_DAC_READ_SEARCH}

// Capabilities a program admitted as a read or as benign never needs: each
// changes the system in a way file-system confinement does not see
// (modules, reboot, the clock, network configuration, raw devices, BPF,
// signals to other users' processes, limits, quotas, audit rules), or
// takes a service's privileged port (UDP 53, 123; TCP as Landlock holds
// it) before the service does, or locks memory past RLIMIT_MEMLOCK
// (CAP_IPC_LOCK): memory a read locks cannot be swapped or reclaimed, so
// it is taken from every other program until the read exits.
var dropConfined = []uintptr{
	unix.CAP_SYS_MODULE, unix.CAP_SYS_BOOT, unix.CAP_SYS_TIME, unix.CAP_NET_ADMIN,
	unix.CAP_SYS_RAWIO, unix.CAP_SYS_ADMIN, unix.CAP_BPF, unix.CAP_KILL,
	unix.CAP_SYS_RESOURCE, unix.CAP_SYS_NICE, unix.CAP_MKNOD, unix.CAP_LINUX_IMMUTABLE,
	unix.CAP_AUDIT_CONTROL, unix.CAP_AUDIT_WRITE, unix.CAP_MAC_ADMIN, unix.CAP_MAC_OVERRIDE,
	unix.CAP_SYS_PACCT, unix.CAP_SYS_TTY_CONFIG, unix.CAP_WAKE_ALARM, unix.CAP_SYS_CHROOT,
	unix.CAP_CHOWN, unix.CAP_FOWNER, unix.CAP_FSETID, unix.CAP_SETFCAP, unix.CAP_SETPCAP,
	unix.CAP_IPC_OWNER, unix.CAP_LEASE, unix.CAP_BLOCK_SUSPEND, unix.CAP_CHECKPOINT_RESTORE,
	unix.CAP_NET_BROADCAST, unix.CAP_NET_BIND_SERVICE, unix.CAP_IPC_LOCK,
}

// Capabilities warden's own probes (Inspect) keep from dropConfined:
// listing firewall rules takes CAP_NET_ADMIN, SMART data CAP_SYS_RAWIO
// (ATA passthrough) and CAP_SYS_ADMIN (NVMe), subvolume lists
// CAP_SYS_ADMIN. The calls these would also allow that change the system
// without a file are refused by seccomp (actRules); what remains is in
// docs/security.md.
var keepInspect = []uintptr{unix.CAP_NET_ADMIN, unix.CAP_SYS_RAWIO, unix.CAP_SYS_ADMIN}

// Capabilities root's benign programs trade (tempTrade): they may write
// the temporary directories, where CAP_DAC_OVERRIDE would let them
// rewrite any user's files (a database's POSIX shared memory in
// /dev/shm, another user's socket directory in /tmp) as their owners
// could not. Without it they write only what root owns or what the mode
// lets anyone write; CAP_DAC_READ_SEARCH, kept instead, still reads and
// searches everything, and seccomp refuses the one call it would add
// (open_by_handle_at, see actCalls). Executing a file only another user
// may execute is lost.
var tempTrade = struct{ drop, keep uintptr }{unix.CAP_DAC_OVERRIDE, unix.CAP_DAC_READ_SEARCH}

// dropCaps removes caps from the calling thread's bounding set, so no
// program it starts can hold them, and clears its ambient set. Only a
// thread that holds CAP_SETPCAP (root) can drop; for others there is
// nothing to drop. Below Full every capability in dropConfined goes;
// Inspect keeps keepInspect (rebooting, the clock, modules and the rest
// are no inspection), and Temp makes tempTrade where seccomp refuses
// open_by_handle_at (without it, CAP_DAC_READ_SEARCH goes as ever).
func dropCaps(level Level, seccomp bool) error {
	if unix.Geteuid() != 0 {
		return nil
	}
	caps := dropAlways
	if level != Full {
		trade := level == Temp && seccomp
		caps = nil
		for _, c := range dropAlways {
			if !trade || c != tempTrade.keep {
				caps = append(caps, c)
			}
		}
		if trade {
			caps = append(caps, tempTrade.drop)
		}
		for _, c := range dropConfined {
			if level != Inspect || !slices.Contains(keepInspect, c) {
				caps = append(caps, c)
			}
		}
	}
	// CAP_SETPCAP is needed for each drop, so it goes last.
	for _, c := range caps {
		if c == unix.CAP_SETPCAP {
			continue
		}
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("drop capability %d: %w", c, err)
		}
	}
	if level != Full {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, unix.CAP_SETPCAP, 0, 0, 0); err != nil {
			return fmt.Errorf("drop capability %d: %w", unix.CAP_SETPCAP, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	return nil
}
