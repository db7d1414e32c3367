package confine

import (
	"os"
	"strings"
	"testing"
)

// testLockedMemory: below tier 2 a root program cannot lock memory past
// its RLIMIT_MEMLOCK (CAP_IPC_LOCK), memory no other program can then
// have until it exits. The script lowers its own limit to 1 MiB and locks
// 4 MiB; approved, root may (the control).
func (f fixture) testLockedMemory(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("without CAP_IPC_LOCK to drop, the limit holds already")
	}
	script := `python3 -c '
import ctypes, mmap, resource
resource.setrlimit(resource.RLIMIT_MEMLOCK, (1 << 20, 1 << 20))
m = mmap.mmap(-1, 4 << 20)
libc = ctypes.CDLL(None, use_errno=True)
print("locked" if libc.mlock(ctypes.c_void_p(ctypes.addressof(ctypes.c_char.from_buffer(m))), 4 << 20) == 0 else "refused")'`
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		t.Run(string(level), func(t *testing.T) {
			_, out := f.run(t, level, script)
			if locked := strings.Contains(out, "locked"); locked != (level == Full) {
				t.Errorf("locked 4 MiB past a 1 MiB limit: %v, want %v: %s", locked, level == Full, out)
			}
		})
	}
}
