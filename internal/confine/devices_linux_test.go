package confine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"github.com/warden-mcp/warden/internal/confine/confinetest"
	"golang.org/x/sys/unix"
)

// testNodes are the device nodes the suite's child makes before any rules
// are built: a watchdog stand-in (a node named like one, /dev/zero's
// driver behind it, so that opening it arms nothing), a node of
// /dev/random's driver under a name no ioctl rule grants, and a block
// device that exists already.
type testNodes struct {
	watchdog, asked, block string
}

// makeDevices makes the nodes as root in warden's own namespaces; it
// returns none otherwise.
func makeDevices(t *testing.T, enter int) testNodes {
	var d testNodes
	if os.Geteuid() != 0 || enter > 0 {
		return d
	}
	d.watchdog = fmt.Sprintf("/dev/watchdog9%d", os.Getpid())
	d.asked = fmt.Sprintf("/dev/warden-ioctl-%d", os.Getpid())
	for path, minor := range map[string]uint32{d.watchdog: 5, d.asked: 8} {
		if err := unix.Mknod(path, unix.S_IFCHR|0o600, int(unix.Mkdev(1, minor))); err != nil {
			t.Fatalf("mknod %s: %v", path, err)
		}
		t.Cleanup(func() { os.Remove(path) })
	}
	if fi, err := os.Stat("/dev/loop0"); err == nil && fi.Mode()&os.ModeDevice != 0 {
		d.block = "/dev/loop0"
	}
	return d
}

// testDevices checks that no level opens a watchdog and that reads and
// benign calls may ask only the devices whose drivers refuse changes on a
// read-only descriptor.
func (f fixture) testDevices(t *testing.T, d testNodes) {
	if d.watchdog == "" {
		t.Skip("making device nodes needs root in warden's own namespaces")
	}
	// The controls: unconfined, the stand-in reads zeros and the ioctl
	// answers.
	zero, err := os.Open(d.watchdog)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if n, err := zero.Read(buf); err != nil || n != 4 || string(buf) != "\x00\x00\x00\x00" {
		t.Fatalf("the stand-in does not read zeros: %d %v %q", n, err, buf)
	}
	zero.Close()
	read := `head -c 4 ` + d.watchdog + ` | od -An -tx1`
	ask := `python3 -c "import fcntl; fcntl.ioctl(open('` + d.asked + `','rb'), 0x80045200, b'1234'); print('ioctl-ok')"`
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		t.Run(string(level), func(t *testing.T) {
			if _, out := f.run(t, level, read); strings.Contains(out, "00 00 00 00") {
				t.Errorf("%s opened a watchdog: %s", level, out)
			}
			_, out := f.run(t, level, ask)
			switch asked := strings.Contains(out, "ioctl-ok"); {
			case asked && (level == Read || level == Temp):
				t.Errorf("%s sent an ioctl to a device no rule grants one: %s", level, out)
			case !asked && (level == Inspect || level == Full):
				t.Errorf("%s could not send an ioctl (the control): %s", level, out)
			}
			if d.block == "" {
				return
			}
			size := `python3 -c "import fcntl; fcntl.ioctl(open('` + d.block + `','rb'), 0x80081272, b'12345678'); print('ioctl-ok')"`
			if code, out := f.run(t, level, size); code != 0 || !strings.Contains(out, "ioctl-ok") {
				t.Errorf("%s could not ask a block device its size: exit %d: %s", level, code, out)
			}
		})
	}
}

// testAbstract checks that reads and benign calls cannot connect to an
// abstract Unix socket outside their domain (daemons listen on them),
// even those that may ask daemons over sockets named by a path, while
// approved calls can.
func (f fixture) testAbstract(t *testing.T) {
	if f.c.abi < 6 {
		t.Skip("abstract sockets are scoped from Landlock ABI 6")
	}
	name := fmt.Sprintf("warden-confine-%d", os.Getpid())
	confinetest.Daemon(t, "@"+name)
	connect := `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('\0` + name + `'); print('connected')"`
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		// Daemons: a Unix socket may be made, so what refuses the
		// connection is Landlock's scope.
		_, out := f.runAs(t, Admission{Level: level, Daemons: true}, connect)
		if connected := strings.Contains(out, "connected"); connected != (level == Full) {
			t.Errorf("%s: connected to an abstract socket outside its domain: %v: %s", level, connected, out)
		}
	}
}

// testForeign checks that reads and benign calls can change neither the
// limits nor the priority of a process outside their own (lowering a
// limit can kill a process as surely as a signal), while they still can
// their own, and approved calls can both.
func (f fixture) testForeign(t *testing.T) {
	if !f.c.notify {
		t.Skip("needs a seccomp listener (Linux 5.5)")
	}
	victim := exec.Command("sleep", "120")
	victim.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := victim.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { victim.Process.Kill(); victim.Wait() }()
	pid := victim.Process.Pid
	limit := func() uint64 {
		var r unix.Rlimit
		if err := unix.Prlimit(pid, unix.RLIMIT_NOFILE, nil, &r); err != nil {
			t.Fatal(err)
		}
		return r.Cur
	}
	nice := func() string {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			t.Fatal(err)
		}
		_, rest, _ := strings.Cut(string(b), ") ")
		return strings.Fields(rest)[16]
	}
	before, niceBefore := limit(), nice()
	reset := func() {
		unix.Prlimit(pid, unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: before, Max: before}, nil)
		unix.Setpriority(unix.PRIO_PROCESS, pid, 0)
	}
	p := strconv.Itoa(pid)
	changes := []string{
		`python3 -c "import resource; resource.prlimit(` + p + `, resource.RLIMIT_NOFILE, (17, 17))"`,
		`prlimit --pid ` + p + ` --nofile=17:17`,
		`renice -n 7 -p ` + p,
		`python3 -c "import os; os.setpriority(os.PRIO_PGRP, ` + p + `, 7)"`,
	}
	own := `python3 -c "
import os, resource, threading, time
resource.prlimit(0, resource.RLIMIT_NOFILE, (64, 64))
resource.prlimit(os.getpid(), resource.RLIMIT_NOFILE, (60, 60))
os.setpriority(os.PRIO_PROCESS, os.getpid(), 5)
t = threading.Thread(target=time.sleep, args=(1,)); t.start()
os.setpriority(os.PRIO_PROCESS, t.native_id, 6)
print('own-ok')"`
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		for i, script := range changes {
			t.Run(fmt.Sprintf("%s/%d", level, i), func(t *testing.T) {
				defer reset()
				_, out := f.run(t, level, script)
				changed := limit() != before || nice() != niceBefore
				if changed != (level == Full) {
					t.Errorf("%s at %s: changed another process: %v (limit %d, nice %s): %s", script, level, changed, limit(), nice(), out)
				}
			})
		}
		if _, out := f.run(t, level, own); !strings.Contains(out, "own-ok") {
			t.Errorf("%s: a program could not change its own limits and priority: %s", level, out)
		}
	}
}

// TestDeviceNames pins which names count as a watchdog and which
// character devices reads may ask.
func TestDeviceNames(t *testing.T) {
	for name, want := range map[string]bool{
		"watchdog": true, "watchdog0": true, "watchdog31": true,
		"watchdogd": false, "watchdog-x": false, "xwatchdog": false, "wdt": false,
	} {
		if got := isWatchdog(name); got != want {
			t.Errorf("isWatchdog(%q) = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]bool{
		"tty": true, "ptmx": true,
		// Other terminals are out of reach altogether (terminals).
		"tty1": false, "tty63": false, "console": false,
		"nvme0": true, "ng0n1": true, "sg2": true, "zfs": true, "btrfs-control": true,
		"rtc": true, "rtc0": true, "mtd0": true, "mtd0ro": true, "ubi0": true,
		// Serial lines, the BMC, HID, buses and the rest are read, not asked.
		"ttyS0": false, "ttyUSB0": false, "ttyACM0": false, "ttyAMA0": false,
		"ipmi0": false, "hidraw0": false, "i2c-1": false, "spidev0.0": false,
		"gpiochip0": false, "watchdog": false, "kvm": false, "nvme-fabrics": false,
		"uinput": false, "loop-control": false, "mem": false, "port": false,
	} {
		if got := ioctlSafe(name); got != want {
			t.Errorf("ioctlSafe(%q) = %v, want %v", name, got, want)
		}
	}
	dev := t.TempDir()
	for _, name := range []string{"pts", "tty", "tty1", "ttyS0", "console", "null"} {
		os.Mkdir(filepath.Join(dev, name), 0o755) // stand-ins: only pts is a directory in /dev
	}
	if got := terminals(dev); len(got) != 1 || got[0] != filepath.Join(dev, "pts") {
		t.Errorf("terminals(%s) = %v, want only its pts directory among directories", dev, got)
	}
	if got := terminals("/dev"); !slices.Contains(got, "/dev/pts") || slices.Contains(got, "/dev/tty") {
		t.Errorf("terminals(/dev) = %v, want /dev/pts and not /dev/tty", got)
	}
	for name, want := range map[string]bool{
		"hidraw0": true, "vcs": true, "vcs7": true, "vcsa1": true, "vcsu": true, "video0": true,
		"hidrawx": false, "vcsx": false, "video-cam": false, "input": false, "null": false,
	} {
		if got := numbered(name, "hidraw", "vcs", "vcsa", "vcsu", "video"); got != want {
			t.Errorf("numbered(%q) = %v, want %v", name, got, want)
		}
	}
	if got := inputs(dev); len(got) != 0 {
		t.Errorf("inputs(%s) = %v, want none of its stand-in directories", dev, got)
	}
}

// testInputs: below tier 2 no program reads the devices that carry what
// a person types or shows at the host (inputs): stand-ins for a keyboard's
// event device, a raw HID device, a console's screen and a camera, each
// reading zeros as /dev/zero does, read nothing; approved, they read (the
// control).
func (f fixture) testInputs(t *testing.T) {
	if os.Geteuid() != 0 || f.enter > 0 {
		t.Skip("making device nodes needs root in warden's own namespaces")
	}
	if _, err := os.Stat("/dev/input"); err != nil {
		if err := os.Mkdir("/dev/input", 0o755); err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { os.Remove("/dev/input") })
	}
	n := fmt.Sprint(90000 + os.Getpid())
	var nodes []string
	for _, p := range []string{"/dev/input/event" + n, "/dev/hidraw" + n, "/dev/vcsa" + n, "/dev/video" + n} {
		if err := unix.Mknod(p, unix.S_IFCHR|0o600, int(unix.Mkdev(1, 5))); err != nil {
			t.Fatalf("mknod %s: %v", p, err)
		}
		t.Cleanup(func() { os.Remove(p) })
		nodes = append(nodes, p)
	}
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		for _, p := range nodes {
			_, out := f.run(t, level, "head -c 4 "+p+" | od -An -tx1")
			if read := strings.Contains(out, "00 00 00 00"); read != (level == Full) {
				t.Errorf("%s read %s: %v, want %v: %s", level, p, read, level == Full, out)
			}
		}
	}
}

// TestDeviceIoctlsWatchOnce checks that /dev is watched once however
// many enumerations need it, so a program's start stats it once.
func TestDeviceIoctlsWatchOnce(t *testing.T) {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil || abi < 5 {
		t.Skip("device ioctl rules need Landlock ABI 5")
	}
	dev := t.TempDir()
	rs, err := newRuleset(abi, []string{filepath.Join(dev, "watchdog")}, false, true)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.close()
	if err := rs.tree(dev, readRights); err != nil {
		t.Fatal(err)
	}
	if err := rs.deviceIoctls(dev); err != nil {
		t.Fatal(err)
	}
	if n := len(rs.watch); n != 1 {
		t.Errorf("%s watched %d times: %v", dev, n, rs.watch)
	}
}
