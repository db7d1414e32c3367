package confine

import "golang.org/x/sys/unix"

// A program that crashes has the kernel write its core. Where the core
// pattern is a file, Landlock and the mounts hold that write as any
// other; where it is a pipe (systemd-coredump, apport), the kernel runs
// the helper as root outside every confinement, and it stores the core
// and writes a crash report for the read that crashed. A core limit of 1
// is the kernel's value for "no pipe dump" (and too small for a file), so
// warden sets its soft limit to 1 for every program it starts
// (limitCores), and below tier 2 seccomp refuses raising it (coreRule).
// Approved programs may raise it again.

// limitCores sets the process's soft core limit to 1, which every
// program warden starts inherits. warden itself is not dumpable
// (HideProcess), so it loses nothing.
func limitCores() error {
	var l unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_CORE, &l); err != nil {
		return err
	}
	if l.Max < 1 {
		l.Max = 1 // root may; otherwise Setrlimit fails and says so
	}
	l.Cur = 1
	return unix.Setrlimit(unix.RLIMIT_CORE, &l)
}

// coreRule refuses setrlimit(RLIMIT_CORE, …) and prlimit64 with a new
// RLIMIT_CORE; reading the limit stays.
func (f *filter) coreRule(setrlimit, prlimit uint32) {
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 3, K: setrlimit})
	f.stmt(bpfLdW, offArg0)
	f.denyIf(unix.RLIMIT_CORE)
	f.stmt(bpfLdW, offNr)
	// prlimit64(pid, resource, new, old): new is a pointer; either half
	// not zero is a new limit.
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 7, K: prlimit})
	f.stmt(bpfLdW, offArg1)
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 5, K: unix.RLIMIT_CORE})
	f.stmt(bpfLdW, offArg2)
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 2, K: 0})
	f.stmt(bpfLdW, offArg2+4)
	*f = append(*f, unix.SockFilter{Code: bpfJeq, Jt: 1, Jf: 0, K: 0})
	f.stmt(bpfRet, retDeny)
	f.stmt(bpfLdW, offNr)
}
