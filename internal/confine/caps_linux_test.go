package confine

import (
	"os"
	"path/filepath"
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

// testOthersTemp: root's benign programs write the temporary directories
// as their owner, not past every user's permissions: another user's
// private file there (a database's POSIX shared memory in /dev/shm) can
// be read but neither rewritten nor added to, and no file can be made in
// another user's private directory. Nor can a file be opened by handle,
// which the capability they keep for reading would allow past the mounts
// that cover warden's files. Approved, root writes both (the control).
func (f fixture) testOthersTemp(t *testing.T) {
	if os.Geteuid() != 0 || !f.c.seccomp {
		t.Skip("only root writes past other users' permissions, and without seccomp root's benign calls keep doing so")
	}
	var files []string
	for _, dir := range []string{"/tmp", "/dev/shm"} {
		d, err := os.MkdirTemp(dir, "warden-confine-others-")
		if err != nil {
			t.Skip(err)
		}
		defer os.RemoveAll(d)
		file := filepath.Join(d, "shm")
		if err := os.WriteFile(file, []byte("owner's\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{d, file} {
			if err := os.Chown(p, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
		os.Chmod(d, 0o700)
		files = append(files, file)
	}
	for _, file := range files {
		dir := filepath.Dir(file)
		script := "cat " + file + "; echo x > " + file + "; echo x >> " + file + "; echo x > " + dir + "/new"
		if _, out := f.run(t, Temp, script); out == "" || !strings.HasPrefix(out, "owner's") {
			t.Errorf("a benign call could not read another user's file: %s", out)
		}
		if b, _ := os.ReadFile(file); string(b) != "owner's\n" {
			t.Errorf("a benign call rewrote another user's %s: %q", file, b)
		}
		if _, err := os.Stat(filepath.Join(dir, "new")); err == nil {
			t.Errorf("a benign call made a file in another user's directory %s", dir)
		}
		if code, out := f.run(t, Full, "echo x >> "+file+" && echo x > "+dir+"/new"); code != 0 {
			t.Errorf("control: root approved could not write another user's file: %s", out)
		}
	}
	byHandle := `python3 -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
h = ctypes.create_string_buffer(8 + 128); h[0:4] = (128).to_bytes(4, "little"); mnt = ctypes.c_int()
if libc.name_to_handle_at(-100, b"/etc/hostname", h, ctypes.byref(mnt), 0) < 0: raise SystemExit("no handle")
fd = libc.open_by_handle_at(os.open("/", os.O_RDONLY), h, 0)
print("opened" if fd >= 0 else os.strerror(ctypes.get_errno()))'`
	if _, out := f.run(t, Temp, byHandle); !strings.Contains(out, "not permitted") {
		t.Errorf("a benign call opened a file by handle: %s", out)
	}
}
