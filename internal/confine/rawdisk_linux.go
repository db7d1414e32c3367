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
		// mount's source names the block device.
		if dev = mountSource(dev); dev == 0 {
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
// dev names as its source, or 0.
func mountSource(dev uint64) uint64 {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return 0
	}
	want := fmt.Sprintf("%d:%d", unix.Major(dev), unix.Minor(dev))
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[2] != want {
			continue
		}
		_, rest, ok := strings.Cut(line, " - ")
		if g := strings.Fields(rest); ok && len(g) >= 2 && strings.HasPrefix(g[1], "/dev/") {
			var st unix.Stat_t
			if unix.Stat(g[1], &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFBLK {
				return uint64(st.Rdev)
			}
		}
	}
	return 0
}
