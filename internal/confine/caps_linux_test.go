package confine

import (
	"os"
	"strconv"
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

// testKmsg: below tier 2 no program drains /proc/kmsg, whose reads take
// the kernel's messages from the system logger (root's CAP_SYSLOG opens
// it); dmesg, which reads /dev/kmsg, still works. A marker written to the
// kernel's log must not be taken; approved, /proc/kmsg is the kernel's
// (the control, which reads nothing from it).
func (f fixture) testKmsg(t *testing.T) {
	if os.Geteuid() != 0 || !f.c.mountNS {
		t.Skip("only root opens /proc/kmsg; without a mount namespace it is a gap")
	}
	marker := "warden-kmsg-" + strconv.Itoa(os.Getpid())
	if err := os.WriteFile("/dev/kmsg", []byte(marker+"\n"), 0); err != nil {
		t.Skipf("cannot write the kernel's log: %v", err)
	}
	for _, level := range []Level{Read, Temp, Inspect} {
		if _, out := f.run(t, level, "timeout 1 cat /proc/kmsg; stat -c %F /proc/kmsg"); strings.Contains(out, marker) || !strings.Contains(out, "character special file") {
			t.Errorf("%s reached /proc/kmsg: %s", level, out)
		}
		if code, out := f.run(t, level, "dmesg | grep -c "+marker); code != 0 || strings.TrimSpace(out) == "0" {
			t.Errorf("%s: dmesg did not show the kernel's log: exit %d: %s", level, code, out)
		}
	}
	if _, out := f.run(t, Full, "stat -c %F /proc/kmsg"); !strings.Contains(out, "regular") {
		t.Errorf("control: approved, /proc/kmsg is %s", out)
	}
}
