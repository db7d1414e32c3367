package confine

import "golang.org/x/sys/unix"

// objectCalls are the calls on the kernel objects that are neither files
// nor processes: System V shared memory, semaphores and message queues,
// POSIX message queues and key rings. Landlock rules files and the mounts
// cover file systems, so without these rules a read could remove another
// program's shared memory or semaphores (ipcrm), take the messages queued
// for it, or revoke and clear the user's keys (keyctl clear @u, which
// locks an fscrypt directory). Below tier 2 they may be looked at, never
// changed; see objectRules. Two more objects are held the same way: the
// file systems' encryption keys, which an ioctl on any file adds or
// removes (removing one locks an fscrypt directory), and the kernel's
// log, which root's CAP_SYSLOG lets a program clear (dmesg -C) or
// silence on the console.
type objectCalls struct {
	shmget, shmat, shmctl uint32
	semget, semctl        uint32
	msgget, msgctl        uint32
	mqOpen, keyctl        uint32
	ioctl, syslog         uint32
	changes               []uint32 // refused whatever their arguments
}

// The exits of a rule block.
const (
	toAllow = -1
	toDeny  = -2
)

// step is one instruction of a rule block; jt and jf are relative jumps
// within the block, or toAllow or toDeny.
type step struct {
	code   uint16
	k      uint32
	jt, jf int
}

func load(arg int) step { return step{code: bpfLdW, k: uint32(offArg0 + 8*arg)} }

// is jumps to yes when the accumulator equals k, else to no.
func is(k uint32, yes, no int) step { return step{code: bpfJeq, k: k, jt: yes, jf: no} }

// has jumps to yes when the accumulator has any bit of k set, else to no.
func has(k uint32, yes, no int) step {
	return step{code: unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K, k: k, jt: yes, jf: no}
}

// oneOf allows when argument arg (its low 32 bits, an int as the kernel
// reads it) is one of ks and denies otherwise.
func oneOf(arg int, ks ...uint32) []step {
	s := []step{load(arg)}
	for _, k := range ks {
		s = append(s, is(k, toAllow, 0))
	}
	return s
}

// rule appends "if the call is nr, run steps": a path that leaves steps
// without reaching an exit is denied. The accumulator holds the call's
// number before and, when the call is not nr, after.
func (f *filter) rule(nr uint32, steps []step) {
	deny := len(steps) // the block's own exits follow its steps
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: uint8(deny + 2), K: nr})
	rel := func(i, to int) uint8 {
		switch to {
		case toAllow:
			return uint8(deny + 1 - (i + 1))
		case toDeny:
			return uint8(deny - (i + 1))
		}
		return uint8(to)
	}
	for i, s := range steps {
		*f = append(*f, unix.SockFilter{Code: s.code, K: s.k, Jt: rel(i, s.jt), Jf: rel(i, s.jf)})
	}
	f.stmt(bpfRet, retDeny)
	f.stmt(bpfRet, unix.SECCOMP_RET_ALLOW)
}

// The commands that only read (linux/ipc.h, shm.h, sem.h, msg.h): x/sys
// names few of them.
const (
	ipcPrivate = 0
	ipcInfo    = 3

	shmStat, shmInfo, shmStatAny = 13, 14, 15

	semGetPID, semGetVal, semGetAll, semGetNCnt, semGetZCnt = 11, 12, 13, 14, 15
	semStat, semInfo, semStatAny                            = 18, 19, 20

	msgStat, msgInfo, msgStatAny = 11, 12, 13

	// syslog(2)'s actions that only look: close and open (no-ops),
	// read all, the unread and buffer sizes (linux/syslog.h).
	syslogClose, syslogOpen, syslogReadAll, syslogSizeUnread, syslogSizeBuffer = 0, 1, 3, 9, 10

	// fscrypt's key ioctls (linux/fscrypt.h).
	fsIocAddEncryptionKey, fsIocRemoveEncryptionKey, fsIocRemoveEncryptionKeyAllUsers = 0xc0506617, 0xc0406618, 0xc0406619
)

// objectRules appends the rules for a's object calls. Allowed: what ipcs,
// keyctl show/print/search and a read-only attach do. Refused: making an
// object (a private key or IPC_CREAT), removing or changing one, attaching
// shared memory writable, operating on semaphores, sending or taking
// messages, opening a POSIX queue for writing, notification (one
// registration per queue, so it would lock out the queue's owner), and
// every key ring call that adds, links, revokes, clears, times out or
// re-permits a key, or creates a key ring by looking one up.
func (f *filter) objectRules(o objectCalls) {
	for _, nr := range o.changes {
		f.rule(nr, nil)
	}
	for _, c := range []struct{ nr, flags uint32 }{{o.shmget, 2}, {o.semget, 2}, {o.msgget, 1}} {
		f.rule(c.nr, []step{load(0), is(ipcPrivate, toDeny, 0), load(int(c.flags)), has(unix.IPC_CREAT, toDeny, toAllow)})
	}
	f.rule(o.shmat, []step{load(2), has(unix.SHM_RDONLY, toAllow, toDeny)})
	f.rule(o.shmctl, oneOf(1, unix.IPC_STAT, ipcInfo, shmStat, shmInfo, shmStatAny))
	f.rule(o.semctl, oneOf(2, unix.IPC_STAT, ipcInfo, semGetPID, semGetVal, semGetAll, semGetNCnt,
		semGetZCnt, semStat, semInfo, semStatAny))
	f.rule(o.msgctl, oneOf(1, unix.IPC_STAT, ipcInfo, msgStat, msgInfo, msgStatAny))
	f.rule(o.mqOpen, []step{load(1), has(unix.O_WRONLY|unix.O_RDWR|unix.O_CREAT, toDeny, toAllow)})
	f.rule(o.syslog, oneOf(0, syslogClose, syslogOpen, syslogReadAll, syslogSizeUnread, syslogSizeBuffer))
	f.rule(o.ioctl, noneOf(1, append([]uint32{fsIocAddEncryptionKey, fsIocRemoveEncryptionKey,
		fsIocRemoveEncryptionKeyAllUsers}, deviceActs...)...))
	f.rule(o.keyctl, append(oneOf(0, unix.KEYCTL_DESCRIBE, unix.KEYCTL_READ, unix.KEYCTL_GET_SECURITY),
		// A key ring's id, without creating it; a search that links
		// what it finds into no key ring.
		is(unix.KEYCTL_GET_KEYRING_ID, 0, 2), load(2), is(0, toAllow, toDeny),
		is(unix.KEYCTL_SEARCH, 0, 2), load(4), is(0, toAllow, toDeny)))
}
