package confine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
		// Device requests that act through a read-only descriptor (on a
		// file, the kernel answers ENOTTY): losetup -d, a loop device's
		// file swapped, the RTC's wake alarm set or turned off, a SCSI
		// disk stopped, a tray ejected, an NVMe controller reset, and
		// with warden's probes' capabilities a tun interface kept, a
		// RAID array stopped, a mapped device removed, a disk made
		// read-only.
		"loop detach":     `fcntl.ioctl(fd, 0x4c01)`,
		"loop change fd":  `fcntl.ioctl(fd, 0x4c06, fd)`,
		"rtc wake alarm":  `fcntl.ioctl(fd, 0x4028700f, bytes(40))`,
		"rtc alarm off":   `fcntl.ioctl(fd, 0x7002)`,
		"scsi stop unit":  `fcntl.ioctl(fd, 6)`,
		"cdrom eject":     `fcntl.ioctl(fd, 0x5309)`,
		"nvme reset":      `fcntl.ioctl(fd, 0x4e44)`,
		"tun persist":     `fcntl.ioctl(fd, 0x400454cb, 1)`,
		"md stop":         `fcntl.ioctl(fd, 0x932)`,
		"dm remove":       `fcntl.ioctl(fd, 0xc138fd04, bytes(312))`,
		"block read-only": `fcntl.ioctl(fd, 0x125d, bytes(4))`,
		// An io_uring ring: its operations never pass the seccomp filter,
		// so with one a benign call made a Unix socket and connected it
		// to dockerd's (IORING_OP_SOCKET, IORING_OP_CONNECT).
		"io_uring": `(_ for _ in ()).throw(OSError(ctypes.get_errno(), "")) if libc.syscall(425, 8, ctypes.create_string_buffer(120)) < 0 else None`,
		// Huge pages from the pool reserved for a database or VMs:
		// approved, the kernel answers (ENOMEM with no pool, or maps).
		"hugetlb mmap":  `(_ for _ in ()).throw(OSError(ctypes.get_errno(), "")) if ctypes.c_void_p(libc.mmap(None, 2 << 20, 3, 0x22 | 0x40000, -1, 0)).value in (None, 2**64 - 1) else None`,
		"hugetlb memfd": `(_ for _ in ()).throw(OSError(ctypes.get_errno(), "")) if libc.memfd_create(b"x", 4) < 0 else None`,
		// quotaoff: the path is looked up first (ENOENT when approved).
		"quota off": `(_ for _ in ()).throw(OSError(ctypes.get_errno(), "")) if libc.quotactl(ctypes.c_uint(0x80000300), b"/nonexistent-warden", 0, None) < 0 else None`,
	}
	if os.Geteuid() == 0 {
		// syslog(2) sets the console's log level to what it is already.
		level := "7"
		if b, err := os.ReadFile("/proc/sys/kernel/printk"); err == nil {
			level = strings.Fields(string(b))[0]
		}
		calls["console log level"] = `(_ for _ in ()).throw(OSError(ctypes.get_errno(), "")) if libc.syscall(103, 8, None, ` + level + `) < 0 else None`
		// What root's remaining capabilities allow warden's probes
		// (CAP_SYS_ADMIN, CAP_SYS_RAWIO) or root's approved programs,
		// each answered by the kernel when approved: the host name set
		// to itself, swap off on a path that does not exist, a reboot
		// with an unknown command (EINVAL), accounting to a missing file,
		// a BPF program attached from no descriptor (EBADF), a fanotify
		// group whose events wait for its answer.
		throw := `(_ for _ in ()).throw(OSError(ctypes.get_errno(), "")) if `
		calls["hostname"] = throw + `libc.sethostname(os.uname().nodename.encode(), len(os.uname().nodename)) < 0 else None`
		calls["swapoff"] = throw + `libc.swapoff(b"/nonexistent-warden") < 0 else None`
		calls["reboot"] = throw + `libc.reboot(0x0badc0de) < 0 else None`
		calls["accounting"] = throw + `libc.acct(b"/nonexistent-warden") < 0 else None`
		calls["bpf attach"] = throw + `libc.syscall({"x86_64": 321, "aarch64": 280}[os.uname().machine], 8, bytes(128), 128) < 0 else None`
		calls["fanotify permission group"] = throw + `libc.fanotify_init(4, 0) < 0 else None`
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

// testInspectCaps: warden's own probes, as root, keep only the
// capabilities inspection needs (firewall rules, SMART data, subvolume
// lists); rebooting, the clock, modules, signals to other users and the
// rest go as for reads.
func (f fixture) testInspectCaps(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root holds capabilities to drop")
	}
	code, out := f.run(t, Inspect, "grep CapEff /proc/self/status")
	fields := strings.Fields(out)
	if code != 0 || len(fields) != 2 {
		t.Fatalf("exit %d: %s", code, out)
	}
	eff, err := strconv.ParseUint(fields[1], 16, 64)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range dropConfined {
		kept := slices.Contains(keepInspect, c)
		if has := eff&(1<<c) != 0; has != kept {
			t.Errorf("capability %d: held %v at inspect, want %v", c, has, kept)
		}
	}
}

// testLoop: below tier 2 no program detaches a loop device (losetup -d
// opens it read-only), which takes a disk image away from whatever was
// to use it; approved, it does.
func (f fixture) testLoop(t *testing.T) {
	if os.Geteuid() != 0 || f.enter > 0 {
		t.Skip("binding a loop device needs root in warden's own namespaces")
	}
	img := filepath.Join(os.Getenv(baseEnv), "loop.img")
	if err := os.WriteFile(img, make([]byte, 1<<16), 0o600); err != nil {
		t.Fatal(err)
	}
	bind := func() string {
		ctl, err := os.OpenFile("/dev/loop-control", os.O_RDWR, 0)
		if err != nil {
			t.Skipf("no loop devices: %v", err)
		}
		defer ctl.Close()
		n, err := unix.IoctlRetInt(int(ctl.Fd()), unix.LOOP_CTL_GET_FREE)
		if err != nil {
			t.Skipf("no free loop device: %v", err)
		}
		dev := fmt.Sprintf("/dev/loop%d", n)
		loop, err := os.OpenFile(dev, os.O_RDWR, 0)
		if err != nil {
			t.Skipf("%s: %v", dev, err)
		}
		defer loop.Close()
		file, err := os.Open(img)
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		if err := unix.IoctlSetInt(int(loop.Fd()), unix.LOOP_SET_FD, int(file.Fd())); err != nil {
			t.Skipf("bind %s: %v", dev, err)
		}
		t.Cleanup(func() {
			if l, err := os.Open(dev); err == nil {
				unix.IoctlSetInt(int(l.Fd()), unix.LOOP_CLR_FD, 0)
				l.Close()
			}
		})
		return dev
	}
	bound := func(dev string) bool {
		_, err := os.Stat("/sys/block/" + filepath.Base(dev) + "/loop/backing_file")
		return err == nil
	}
	detach := func(dev string) string {
		return `python3 -c 'import fcntl, os; fcntl.ioctl(os.open("` + dev + `", os.O_RDONLY), 0x4c01)'`
	}
	dev := bind()
	for _, level := range []Level{Read, Temp, Inspect} {
		if _, out := f.run(t, level, detach(dev)); !bound(dev) {
			t.Errorf("%s detached %s: %s", level, dev, out)
			dev = bind()
		}
	}
	if code, out := f.run(t, Full, detach(dev)); code != 0 || bound(dev) {
		t.Errorf("control: an approved program could not detach %s: exit %d: %s", dev, code, out)
	}
}
