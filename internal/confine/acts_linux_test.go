package confine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// testTerminals: below tier 2 no program opens another program's
// terminal, whose typed keys it could take and whose line discipline it
// could change (stty -F: a kill character makes the next line a session
// is sent run another command). Approved, stty -F works (the control).
func (f fixture) testTerminals(t *testing.T) {
	// In the entered shape the programs see the same devpts instance
	// through the target's mounts, so the pty made here is theirs too.
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	defer master.Close()
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	pts := fmt.Sprintf("/dev/pts/%d", n)
	slave, err := os.OpenFile(pts, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer slave.Close()
	os.Chown(pts, os.Geteuid(), os.Getegid())
	kill := func() byte {
		tio, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		return tio.Cc[unix.VKILL]
	}
	before := kill()
	master.WriteString("typed-secret-7c1\n")
	for _, level := range []Level{Read, Temp, Inspect} {
		_, out := f.run(t, level, "stty -F "+pts+" kill x; timeout 2 head -c 64 "+pts+"; echo; stty -F /dev/console 2>&1 | head -c 0")
		if got := kill(); got != before {
			t.Errorf("%s changed another terminal's kill character to %q: %s", level, got, out)
		}
		if strings.Contains(out, "typed-secret-7c1") {
			t.Errorf("%s read what was typed on another terminal: %s", level, out)
		}
	}
	if code, out := f.run(t, Full, "stty -F "+pts+" kill x"); code != 0 || kill() != 'x' {
		t.Errorf("control: an approved stty -F did not change the terminal: exit %d: %s", code, out)
	}
}

// testActs: calls that act on the system through a file a read may open
// (an ioctl on a read-only descriptor, a lease) or through root's
// remaining capabilities (the kernel's log) are refused below tier 2,
// with EPERM from seccomp where otherwise the call would fail for another
// reason or succeed.
func (f fixture) testActs(t *testing.T) {
	file := filepath.Join(os.Getenv(baseEnv), "acts")
	if err := os.WriteFile(file, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	errnoOf := func(t *testing.T, level Level, call string) string {
		t.Helper()
		code, out := f.run(t, level, `python3 -c '
import ctypes, errno, fcntl, os, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open("`+file+`", os.O_RDONLY)
try:
    `+call+`
    print("OK")
except OSError as e:
    print(errno.errorcode[e.errno])
'`)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", call, code, out)
		}
		return strings.TrimSpace(out)
	}
	calls := map[string]string{
		// fscrypt: removing a key locks an encrypted directory.
		"remove encryption key": `fcntl.ioctl(fd, 0xc0406618, bytes(64))`,
		"add encryption key":    `fcntl.ioctl(fd, 0xc0506617, bytes(80))`,
		// btrfs defragmentation rewrites shared extents as copies.
		"defrag": `fcntl.ioctl(fd, 0x40309410, bytes(48))`,
		// ext4's inode generation.
		"setversion": `fcntl.ioctl(fd, 0x40086604, bytes(8))`,
		// A lease makes other programs' opens for writing wait.
		"lease": `fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)`,
	}
	if os.Geteuid() == 0 {
		// syslog(2) sets the console's log level to what it is already.
		level := "7"
		if b, err := os.ReadFile("/proc/sys/kernel/printk"); err == nil {
			level = strings.Fields(string(b))[0]
		}
		calls["console log level"] = `(_ for _ in ()).throw(OSError(ctypes.get_errno(), "")) if libc.syscall(103, 8, None, ` + level + `) < 0 else None`
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			for _, level := range []Level{Read, Temp, Inspect} {
				if (name == "defrag" || name == "setversion") && level == Temp {
					continue // a metadata change, refused to reads (Status.Gaps for benign calls)
				}
				if got := errnoOf(t, level, call); got != "EPERM" {
					t.Errorf("%s: %s = %s, want EPERM", level, name, got)
				}
			}
			// The control: approved, the call reaches the kernel, which
			// answers for itself (ENOTTY on a file of another file
			// system, EOPNOTSUPP, or success).
			if got := errnoOf(t, Full, call); got == "EPERM" {
				t.Errorf("approved: %s = EPERM, want the kernel's own answer", name)
			}
		})
	}
	if os.Geteuid() == 0 {
		if code, out := f.run(t, Read, "dmesg | head -n 1"); code != 0 {
			t.Errorf("a read could not read the kernel's log: exit %d: %s", code, out)
		}
	}
}
