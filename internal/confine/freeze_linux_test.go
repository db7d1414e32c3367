package confine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// freezeSpellings freeze the file system %[1]s is on, through a
// descriptor opened for reading: every write on it would then wait until
// someone thaws it. Warden's probes keep CAP_SYS_ADMIN, which the kernel
// asks for; a read-only mount does not stop it.
var freezeSpellings = map[string]string{
	"directory": `fcntl.ioctl(os.open("%[1]s", os.O_RDONLY), 0xc0045877, struct.pack("i", 0))`,
	"file":      `fcntl.ioctl(os.open("%[1]s/f", os.O_RDONLY), 0xc0045877, struct.pack("i", 0))`,
	"path only": `fcntl.ioctl(os.open("%[1]s", os.O_RDONLY | os.O_DIRECTORY), 0xc0045877, struct.pack("i", 0))`,
	"high bits": `fcntl.ioctl(os.open("%[1]s", os.O_RDONLY), 0x1c0045877, struct.pack("i", 0))`,
	"libc ioctl": `l = ctypes.CDLL(None, use_errno=True)
    if l.ioctl(os.open("%[1]s", os.O_RDONLY), 0xc0045877, 0) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))`,
	"proc root": `fcntl.ioctl(os.open("/proc/self/root%[1]s", os.O_RDONLY), 0xc0045877, struct.pack("i", 0))`,
}

// testFreeze mounts a tmpfs and has each spelling freeze it, and shut it
// down, at every level. tmpfs has neither request: the kernel answers
// EOPNOTSUPP or ENOTTY once past the capability check, so EPERM below
// tier 2 (from seccomp at warden's probes, from the missing capability at
// the others) shows the request never reached the file system, and
// approved it does (the control). A disk's file system is not used: the
// control would freeze it, or shut it down, for real.
func (f fixture) testFreeze(t *testing.T) {
	if os.Geteuid() != 0 || f.enter > 0 {
		t.Skip("freezing takes CAP_SYS_ADMIN (root); in the entered shape the host's mounts do not show the suite's tmpfs")
	}
	dir := filepath.Join(os.Getenv(baseEnv), "freeze")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("warden-freeze", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	defer unix.Unmount(dir, unix.MNT_DETACH)
	thaw := func() bool {
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer unix.Close(fd)
		_, err = unix.IoctlRetInt(fd, 0xc0045878) // FITHAW
		return err == nil                         // EINVAL: it was not frozen
	}
	defer thaw()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The workers' mount namespaces were made before the mount.
	f.c.Rebuild()
	defer f.c.Rebuild()
	py := func(call string) string {
		return "python3 -c 'import ctypes, fcntl, os, struct\ntry:\n    " +
			strings.ReplaceAll(call, "%[1]s", dir) + "\n    print(\"OK\")\nexcept OSError as e:\n    print(e)'"
	}
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		for name, call := range freezeSpellings {
			t.Run(string(level)+"/"+name, func(t *testing.T) {
				_, out := f.run(t, level, py(call))
				refused := strings.Contains(out, "Operation not permitted")
				if thaw() {
					t.Errorf("%s at %s froze the file system: %s", name, level, out)
				}
				if level == Full && refused {
					t.Errorf("control: an approved program's freeze did not reach the file system: %s", out)
				}
				if level != Full && !refused {
					t.Errorf("%s at %s reached the file system's freeze: %s", name, level, out)
				}
			})
		}
		t.Run(string(level)+"/shutdown", func(t *testing.T) {
			_, out := f.run(t, level, py(`fcntl.ioctl(os.open("%[1]s", os.O_RDONLY), 0x8004587d, struct.pack("I", 0))`))
			if refused := strings.Contains(out, "Operation not permitted"); refused != (level != Full) {
				t.Errorf("a file system's shutdown at %s: %s", level, out)
			}
		})
	}
}
