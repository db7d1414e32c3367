package confine

import "golang.org/x/sys/unix"

// A benign call may write the temporary directories, and as the owner of
// what it makes there it may give a file any mode. An executable it marks
// setuid or setgid there runs, for whoever starts it later outside warden
// (another local user, a cron job, a login over SSH), as the call's user:
// root's benign call would leave a way to root for every user of the host,
// and another user's a way to warden's own user, whose files include
// warden's token. So below tier 2 no call sets either bit (modeRules). A
// write to a setuid file clears the bits (the programs lack CAP_FSETID),
// so a file can be made one only by a mode given at creation or by chmod;
// the sticky bit and the rest of the mode stay free.

// modeCall is a call that gives a file a mode: argument mode holds it,
// and flags, when not -1, the open flags without which the mode is
// ignored.
type modeCall struct {
	nr          uint32
	mode, flags int
}

// setIDBits are S_ISUID and S_ISGID.
const setIDBits = unix.S_ISUID | unix.S_ISGID

// modeRules appends the rules refusing calls whose mode has a set-id bit:
// chmod and its kin always, open, creat and mknod when they create.
// openat2 takes its mode in memory the filter cannot read: it answers as
// on a kernel without it (ENOSYS), and callers fall back to openat.
func (f *filter) modeRules(calls []modeCall, openat2 uint32) {
	// O_CREAT, or O_TMPFILE's own bit (O_TMPFILE includes O_DIRECTORY,
	// which alone creates nothing).
	creating := uint32(unix.O_CREAT | unix.O_TMPFILE&^unix.O_DIRECTORY)
	for _, c := range calls {
		var s []step
		if c.flags >= 0 {
			s = append(s, load(c.flags), has(creating, 0, toAllow))
		}
		f.rule(c.nr, append(s, load(c.mode), has(setIDBits, toDeny, toAllow)))
	}
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 1, K: openat2},
		unix.SockFilter{Code: bpfRet, K: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)})
}
