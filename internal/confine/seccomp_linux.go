package confine

import (
	"fmt"
	"runtime"
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

	offNr   = 0
	offArch = 4
	offArg0 = 16 // low 32 bits on little-endian machines
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

// signalFilter builds the filter every confined program gets: no signal,
// queued signal or pidfd may name warden's process (pid) or its process
// group (pgid), nor every process at once (kill -1); with denyMeta, the
// metadata calls that Landlock does not cover (chmod, chown, utimes,
// extended attributes) and io_uring are refused too. A program of another
// ABI than the native one (32-bit compat, x32) runs nothing.
func signalFilter(pid, pgid int, denyMeta bool) (filter, error) {
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
	if denyMeta {
		for _, nr := range a.meta {
			f.denyIf(nr)
		}
	}
	// Jump to the pid check for the calls that name a process.
	check := len(f) + 2*len(a.signal) + 1
	for _, nr := range a.signal {
		f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 1, K: nr})
		f.stmt(bpfJa, uint32(check-(len(f)+1)))
	}
	f.stmt(bpfRet, unix.SECCOMP_RET_ALLOW)
	f.stmt(bpfLdW, offArg0)
	for _, k := range []int{pid, -pid, pgid, -pgid, -1} {
		if k == 0 {
			continue
		}
		f.denyIf(uint32(int32(k)))
	}
	f.stmt(bpfRet, unix.SECCOMP_RET_ALLOW)
	return f, nil
}

// install loads f on the calling thread only; no_new_privs must be set.
func (f filter) install() error {
	prog := unix.SockFprog{Len: uint16(len(f)), Filter: &f[0]}
	_, _, errno := unix.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(f)
	if errno != 0 {
		return fmt.Errorf("seccomp: %w", errno)
	}
	return nil
}

// arch is one architecture's seccomp identity and the calls the filter
// looks at.
type arch struct {
	audit  uint32
	x32    bool // numbers at and above 0x40000000 are the x32 ABI
	signal []uint32
	meta   []uint32
}
