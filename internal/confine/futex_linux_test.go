package confine

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// futexVictim waits on a shared futex in the file $1 (3 s at most: a
// waiter moved away is never woken) until told to wake
// it, then says how many waiters its wake found.
const futexVictim = `
import ctypes, mmap, os, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
os.ftruncate(fd, 4096)
os.fchmod(fd, 0o644)
m = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
addr = ctypes.c_void_p(ctypes.addressof(ctypes.c_int.from_buffer(m)))
class TS(ctypes.Structure):
    _fields_ = [("s", ctypes.c_long), ("ns", ctypes.c_long)]
t = threading.Thread(target=lambda: libc.syscall(NR, addr, 0, 0, ctypes.byref(TS(3, 0)), None, 0))
t.start()
print("ready", flush=True)
sys.stdin.readline()
print("woke", libc.syscall(NR, addr, 1, 1, None, None, 0), flush=True)
t.join()
`

// futexThief maps the file $1 read-only and moves its futex's waiters onto
// a futex of its own (FUTEX_CMP_REQUEUE), then does the same with the
// private flag on its own memory, as a C library's condition variable does.
const futexThief = `python3 -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
fd = os.open(sys.argv[1], os.O_RDONLY)
p = libc.mmap(None, 4096, 1, 1, fd, 0)
own, own2 = ctypes.create_string_buffer(4), ctypes.create_string_buffer(4)
r = libc.syscall(NR, ctypes.c_void_p(p), 4, 0, ctypes.c_void_p(0x7fffffff), own, 0)
print("moved", r, os.strerror(ctypes.get_errno()) if r < 0 else "")
print("private", libc.syscall(NR, own, 3 | 128, 0, ctypes.c_void_p(1), own2, 0))
' "$1" 2>&1`

// testFutex: below tier 2 a program cannot move another program's futex
// waiters, which it reaches through any file it may read and map (a
// POSIX semaphore in /dev/shm, a database's lock file): the owner's wake
// would find no one and its waiter would hang. The private requeue C
// libraries use on their own memory stays.
func (f fixture) testFutex(t *testing.T) {
	if !f.c.seccomp {
		t.Skip("needs seccomp")
	}
	nr := map[string]string{"amd64": "202", "arm64": "98"}[runtime.GOARCH]
	if nr == "" {
		t.Skip("no futex number for this architecture")
	}
	file := filepath.Join(f.target, "futex")
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		t.Run(string(level), func(t *testing.T) {
			f.reset(t)
			victim := exec.Command("python3", "-c", strings.ReplaceAll(futexVictim, "NR", nr), file)
			in, err := victim.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			pipe, err := victim.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			victim.Stderr = os.Stderr
			if err := victim.Start(); err != nil {
				t.Fatal(err)
			}
			defer victim.Wait()
			out := bufio.NewReader(pipe)
			if line, _ := out.ReadString('\n'); line != "ready\n" {
				in.Close()
				t.Fatalf("victim: %q", line)
			}
			_, thief := f.run(t, level, "set -- "+file+"; "+strings.ReplaceAll(futexThief, "NR", nr))
			in.Write([]byte("\n"))
			in.Close()
			woke, _ := out.ReadString('\n')
			moved := woke == "woke 0\n"
			if moved != (level == Full) || (!moved && woke != "woke 1\n") {
				t.Errorf("the owner's wake: %q, the thief: %s (moved: %v, want %v)", woke, thief, moved, level == Full)
			}
			if !strings.Contains(thief, "private 0") {
				t.Errorf("a private requeue was refused: %s", thief)
			}
		})
	}
}
