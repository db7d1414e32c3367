package confine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Some devices act when they are opened or asked, not only when written.

// watchdogs returns the watchdog devices in dev. Opening one, even to
// read, arms the hardware watchdog, and closing it without writing the
// magic character leaves it armed: the host reboots a minute later. No
// confined program may open one at any level, as none may reboot; each
// is handled like warden's own files (no rule reaches it, and a mount
// namespace covers it).
func watchdogs(dev string) []string {
	entries, err := os.ReadDir(dev)
	if err != nil {
		return nil
	}
	var found []string
	for _, e := range entries {
		if e.Type()&os.ModeCharDevice != 0 && isWatchdog(e.Name()) {
			found = append(found, filepath.Join(dev, e.Name()))
		}
	}
	return found
}

// isWatchdog reports whether name is that of a watchdog device:
// "watchdog" or "watchdog" and a number.
func isWatchdog(name string) bool {
	n, ok := strings.CutPrefix(name, "watchdog")
	return ok && strings.Trim(n, "0123456789") == ""
}

// terminals returns the terminals in dev other than the program's own
// (/dev/tty): other programs' pseudo-terminals (dev/pts), the console,
// virtual consoles and serial lines. A program that opens one can take
// the keys typed there, and change its line discipline (stty -F: a kill
// character that makes the next line sent to a session run another
// command), which needs no capability. Below tier 2 no program opens
// them; a program's own terminal is the descriptor it was started with,
// or /dev/tty.
func terminals(dev string) []string {
	return entriesOf(dev, func(name string, e os.DirEntry) bool {
		char := e.Type()&os.ModeCharDevice != 0
		return name == "pts" && e.IsDir() || name == "console" && char ||
			strings.HasPrefix(name, "tty") && name != "tty" && char
	})
}

// inputs returns the devices in dev that carry what a person types or
// shows at the host, for the reason terminals are out of reach: the input
// event devices (/dev/input: every key pressed on the host's keyboards,
// a console password included), raw HID devices (hidraw: keyboards and
// security keys), the virtual consoles' screens (vcs, vcsa, vcsu) and
// cameras (video). Their reads need no ioctl, so the device ioctl rules
// do not hold them. Below tier 2 no program opens them; lsusb, the input
// devices' list in /proc/bus/input and sysfs stay readable.
func inputs(dev string) []string {
	return entriesOf(dev, func(name string, e os.DirEntry) bool {
		return name == "input" && e.IsDir() ||
			e.Type()&os.ModeCharDevice != 0 && numbered(name, "hidraw", "vcs", "vcsa", "vcsu", "video")
	})
}

// entriesOf returns the paths of the entries of dev that keep accepts.
func entriesOf(dev string, keep func(name string, e os.DirEntry) bool) []string {
	entries, err := os.ReadDir(dev)
	if err != nil {
		return nil
	}
	var found []string
	for _, e := range entries {
		if keep(e.Name(), e) {
			found = append(found, filepath.Join(dev, e.Name()))
		}
	}
	return found
}

// numbered reports whether name is one of prefixes, alone or followed by
// a number.
func numbered(name string, prefixes ...string) bool {
	for _, p := range prefixes {
		if n, ok := strings.CutPrefix(name, p); ok && strings.Trim(n, "0123456789") == "" {
			return true
		}
	}
	return false
}

// deviceIoctls grants, to programs admitted as reads or benign, ioctl
// requests on the devices in dev whose drivers refuse every changing
// request on a descriptor opened read-only or without the capabilities
// those levels drop: block devices (discard, zeroing and passthrough
// writes need a writable descriptor or CAP_SYS_ADMIN/CAP_SYS_RAWIO),
// the program's own terminal, and the storage controllers disk tools query (ioctlSafe).
// Every other device may be read but not asked: the BMC behind
// /dev/ipmi0 powers the host off on one request from a read-only
// descriptor, and so would a UPS on /dev/hidraw*; I2C, SPI and GPIO
// lines, input devices, cameras, serial lines and the like are not
// reads either. dev is watched: a device plugged in later is granted
// once the rules are built again.
func (r *ruleset) deviceIoctls(dev string) error {
	if r.all&ll.AccessFSIoctlDev == 0 {
		return nil // below ABI 5 every ioctl is allowed
	}
	var st unix.Stat_t
	if err := unix.Stat(dev, &st); err != nil {
		return nil
	}
	if !slices.ContainsFunc(r.watch, func(w watched) bool { return w.path == dev }) {
		// Not yet watched for a watchdog below it (walk).
		r.watch = append(r.watch, watched{path: dev, mtime: time.Unix(st.Mtim.Unix()), ino: st.Ino})
	}
	entries, err := os.ReadDir(dev)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		p, t := filepath.Join(dev, e.Name()), e.Type()
		var err error
		switch {
		case t&os.ModeSymlink != 0:
			// Granted where it leads.
		case t.IsDir():
			if e.Name() == "bsg" {
				err = r.tree(p, readRights|ll.AccessFSIoctlDev)
			}
		case t&os.ModeDevice != 0 && t&os.ModeCharDevice == 0:
			err = r.tree(p, ll.AccessFSIoctlDev)
		case t&os.ModeCharDevice != 0 && ioctlSafe(e.Name()):
			err = r.tree(p, ll.AccessFSIoctlDev)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// ioctlSafe reports whether reads may send ioctl requests to the
// character device /dev/name: the program's own terminal (/dev/tty; the
// others are out of reach, see terminals) and ptmx, NVMe controllers and their generic nodes, SCSI generic
// nodes (writing commands need a writable descriptor or CAP_SYS_RAWIO),
// ZFS and btrfs control (their changing requests need CAP_SYS_ADMIN),
// clocks (setting one needs CAP_SYS_TIME) and MTD and UBI flash
// (erasing needs a writable descriptor).
func ioctlSafe(name string) bool {
	switch name {
	case "tty", "ptmx", "zfs", "btrfs-control", "rtc":
		return true
	}
	for _, prefix := range []string{"nvme", "ng", "sg", "rtc", "mtd", "ubi"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return true
		}
	}
	return false
}
