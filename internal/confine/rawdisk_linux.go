package confine

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// A disk holds the bytes of every file on it. Below tier 2 a root program
// reads every device node Landlock grants (smartctl, blkid and fdisk -l
// must), so "grep -a wdn_ /dev/sda1" would find warden's token on the
// partition that holds it, whatever the rules say about the token's path.
// At Read and Temp, with a mount namespace, the nodes through which the
// bytes under warden's paths can be read raw are covered as those paths
// are: the partition or volume, the disk it is on, the layers between
// (device mapper, md, a loop device and the file behind it), and the
// disk's SCSI and NVMe pass-through nodes. Other disks stay readable, and
// warden's probes (Inspect) and approved programs keep them all.

// rawNodes returns the device nodes under /dev, and the files behind loop
// devices, through which the bytes of the files at paths can be read.
func rawNodes(paths []string) []string {
	r := rawReach{devs: map[uint64]bool{}}
	for _, p := range paths {
		r.path(p, 0)
	}
	if len(r.devs) == 0 {
		return r.files
	}
	nodes := r.files
	filepath.WalkDir("/dev", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		switch {
		case d.IsDir():
			switch p {
			case "/dev/pts", "/dev/shm", "/dev/mqueue", "/dev/hugepages":
				return fs.SkipDir
			}
		case d.Type()&fs.ModeDevice != 0 && d.Type()&fs.ModeCharDevice == 0:
			var st unix.Stat_t
			if unix.Lstat(p, &st) == nil && r.devs[uint64(st.Rdev)] {
				nodes = append(nodes, p)
			}
		}
		return nil
	})
	for _, n := range r.passThrough {
		if _, err := os.Lstat(n); err == nil {
			nodes = append(nodes, n)
		}
	}
	return nodes
}

// rawReach collects the block devices under a path.
type rawReach struct {
	devs        map[uint64]bool
	files       []string // files behind loop devices
	passThrough []string // SCSI generic and NVMe generic nodes of the disks
}

// path adds the block devices of the file system holding p.
func (r *rawReach) path(p string, depth int) {
	var st unix.Stat_t
	if depth > 8 || unix.Stat(p, &st) != nil {
		return
	}
	dev := uint64(st.Dev) // uint32 on some 32-bit platforms
	if unix.Major(dev) == 0 {
		// btrfs and other file systems on an anonymous device: the
		// mount's source names the block device. An overlay names
		// none: its bytes are in its layers' directories, each on a
		// file system of its own (a container's upper directory on
		// the host's disk).
		var layers []string
		dev, layers = mountSource(dev)
		for _, l := range layers {
			r.path(l, depth+1)
		}
		if dev == 0 {
			return
		}
	}
	r.block(dev, depth)
}

// block adds dev, the disk a partition of it is on, the devices beneath
// it, and what a loop device reads.
func (r *rawReach) block(dev uint64, depth int) {
	if r.devs[dev] || depth > 8 {
		return
	}
	r.devs[dev] = true
	sys, err := filepath.EvalSymlinks(fmt.Sprintf("/sys/dev/block/%d:%d", unix.Major(dev), unix.Minor(dev)))
	if err != nil {
		return
	}
	if _, err := os.Stat(filepath.Join(sys, "partition")); err == nil {
		if d, ok := sysDev(filepath.Dir(sys)); ok {
			r.block(d, depth+1)
		}
	} else {
		r.disk(sys)
	}
	slaves, _ := os.ReadDir(filepath.Join(sys, "slaves"))
	for _, s := range slaves {
		if d, ok := sysDev(filepath.Join(sys, "slaves", s.Name())); ok {
			r.block(d, depth+1)
		}
	}
	if b, err := os.ReadFile(filepath.Join(sys, "loop", "backing_file")); err == nil {
		if f := strings.TrimSpace(string(b)); strings.HasPrefix(f, "/") {
			r.files = append(r.files, f)
			r.path(f, depth+1)
		}
	}
}

// disk adds the pass-through nodes of the whole disk at sys: a SCSI
// disk's sg and bsg nodes take read commands through SG_IO, an NVMe
// namespace's generic node its read commands, from a read-only descriptor.
func (r *rawReach) disk(sys string) {
	for _, sub := range []struct{ dir, dev string }{{"device/scsi_generic", "/dev"}, {"device/bsg", "/dev/bsg"}} {
		ents, _ := os.ReadDir(filepath.Join(sys, sub.dir))
		for _, e := range ents {
			r.passThrough = append(r.passThrough, filepath.Join(sub.dev, e.Name()))
		}
	}
	if name := filepath.Base(sys); strings.HasPrefix(name, "nvme") {
		r.passThrough = append(r.passThrough, "/dev/ng"+strings.TrimPrefix(name, "nvme"))
	}
}

// sysDev reads the device number in a sysfs block directory's dev file.
func sysDev(dir string) (uint64, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "dev"))
	if err != nil {
		return 0, false
	}
	maj, min, ok := strings.Cut(strings.TrimSpace(string(b)), ":")
	ma, err1 := strconv.ParseUint(maj, 10, 32)
	mi, err2 := strconv.ParseUint(min, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return 0, false
	}
	return unix.Mkdev(uint32(ma), uint32(mi)), true
}

// mountSource returns the block device a mount of the anonymous device
// dev names as its source, or 0, and an overlay's layer directories. It
// reads the calling thread's mounts, which are the host's when warden has
// entered them.
func mountSource(dev uint64) (uint64, []string) {
	b, err := os.ReadFile("/proc/thread-self/mountinfo")
	if err != nil {
		return 0, nil
	}
	want := fmt.Sprintf("%d:%d", unix.Major(dev), unix.Minor(dev))
	var layers []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[2] != want {
			continue
		}
		_, rest, ok := strings.Cut(line, " - ")
		g := strings.Fields(rest)
		if !ok || len(g) < 2 {
			continue
		}
		if strings.HasPrefix(g[1], "/dev/") {
			var st unix.Stat_t
			if unix.Stat(g[1], &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFBLK {
				return uint64(st.Rdev), nil
			}
		}
		if g[0] == "overlay" && len(g) >= 3 {
			layers = append(layers, overlayLayers(g[2])...)
		}
	}
	return 0, layers
}

// overlayLayers returns the directories an overlay's super options name:
// its lower directories (separated by colons; "::" before data-only ones),
// upper and work directories. mountinfo escapes spaces, tabs, newlines and
// backslashes in octal; overlay escapes a colon or comma in a path with a
// backslash.
func overlayLayers(opts string) []string {
	var dirs []string
	for _, o := range splitUnescaped(opts, ',') {
		key, val, ok := strings.Cut(o, "=")
		if !ok {
			continue
		}
		switch strings.TrimSuffix(key, "+") {
		case "lowerdir", "datadir":
			for _, d := range splitUnescaped(val, ':') {
				if d = unescapeLayer(d); strings.HasPrefix(d, "/") {
					dirs = append(dirs, d)
				}
			}
		case "upperdir", "workdir":
			if d := unescapeLayer(val); strings.HasPrefix(d, "/") {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// splitUnescaped splits s at each sep not escaped by a backslash.
func splitUnescaped(s string, sep byte) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case sep:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// unescapeLayer undoes mountinfo's octal escapes (\040, as unescapeMount)
// and overlay's backslash before a colon or comma.
func unescapeLayer(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		if i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		i++
		b.WriteByte(s[i])
	}
	return b.String()
}
