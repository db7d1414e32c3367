package confine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestRawDiskOfState puts warden's state on a file system of its own (an
// ext4 image on a loop device) and reads that disk raw, in every spelling
// that reaches its bytes: below tier 2 none finds the token, while an
// approved program does (so the reads do reach the disk).
func TestRawDiskOfState(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("reading a block device and mounting one need root")
	}
	for _, tool := range []string{"mkfs.ext4", "losetup", "mount", "umount"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	base, loop, mnt := loopDisk(t)
	img := filepath.Join(base, "disk.img")
	state := filepath.Join(mnt, "state")
	const token = "wdn_rawdisk0token0that0only0the0disk0holds"
	plantToken(t, state, mnt, token)
	var st unix.Stat_t
	if err := unix.Stat(loop, &st); err != nil {
		t.Fatal(err)
	}
	c, err := New(Options{Protect: []string{state}}, Required)
	if err != nil {
		t.Fatal(err)
	}
	if !c.mountNS {
		t.Skipf("no mount namespace: %s", c.Status().Mechanism)
	}
	f := fixture{c: c, state: state, target: base}
	block := fmt.Sprintf("/dev/block/%d:%d", unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev)))
	reads := []string{
		"grep -a -o 'wdn_[a-z0-9]*' " + loop,
		"cat " + loop + " | grep -a -o 'wdn_[a-z0-9]*'",
		"dd if=" + loop + " bs=1M 2>/dev/null | strings | grep -o 'wdn_[a-z0-9]*'",
		"grep -a -o 'wdn_[a-z0-9]*' " + block,
		"cd /dev && grep -a -o 'wdn_[a-z0-9]*' ./" + filepath.Base(loop),
		"grep -a -o 'wdn_[a-z0-9]*' " + img,
		"python3 -c 'import re,sys; print(re.findall(rb\"wdn_[a-z0-9]+\", open(sys.argv[1],\"rb\").read()))' " + loop,
	}
	diskHidesToken(t, f, reads, token)
	// A disk under none of warden's files stays readable.
	other := filepath.Join(base, "other.img")
	data := make([]byte, 1<<20) // whole sectors, or losetup warns
	copy(data, "plain-"+"bytes\n")
	if err := os.WriteFile(other, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "-f", "--show", other).CombinedOutput()
	if err != nil {
		t.Skipf("no second loop device: %v: %s", err, out)
	}
	otherLoop := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("losetup", "-d", otherLoop).Run() })
	if _, out := f.run(t, Read, "grep -a -o plain-bytes "+otherLoop); !strings.Contains(out, "plain-bytes") {
		t.Errorf("a disk under none of warden's files was hidden: %q", out)
	}
	// Paths on no block device (tmpfs) or on none at all name no node.
	if got := rawNodes([]string{"/dev/shm", "/proc/self", filepath.Join(base, "missing")}); len(got) != 0 {
		t.Errorf("rawNodes of paths on no disk = %v", got)
	}
}

// loopDisk makes an ext4 image under /var/lib, attaches it to a loop
// device and mounts it; it returns the image's directory, the loop device
// and the mount point.
func loopDisk(t *testing.T) (base, loop, mnt string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("reading a block device and mounting one need root")
	}
	for _, tool := range []string{"mkfs.ext4", "losetup", "mount", "umount"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	base, err := os.MkdirTemp("/var/lib", "warden-rawdisk-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	img := filepath.Join(base, "disk.img")
	mnt = filepath.Join(base, "mnt")
	if err := os.WriteFile(img, make([]byte, 8<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", img).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4: %v: %s", err, out)
	}
	out, err := exec.Command("losetup", "-f", "--show", img).CombinedOutput()
	if err != nil {
		t.Skipf("no loop device: %v: %s", err, out)
	}
	loop = strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("losetup", "-d", loop).Run() })
	if err := os.Mkdir(mnt, 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", loop, mnt).CombinedOutput(); err != nil {
		t.Skipf("mount %s: %v: %s", loop, err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", mnt).Run() })
	return base, loop, mnt
}

// TestRawDiskOfOverlayState puts warden's state on an overlay (a
// container's root, an overlayroot system) whose upper directory is on a
// disk of its own: the overlay's device is anonymous and its source names
// no disk, yet its files' bytes are on that disk. Below tier 2 no read of
// the disk finds the token; an approved one does.
func TestRawDiskOfOverlayState(t *testing.T) {
	base, loop, mnt := loopDisk(t)
	lower, upper, work, merged := filepath.Join(mnt, "lower"), filepath.Join(mnt, "upper"), filepath.Join(mnt, "work"), filepath.Join(base, "merged")
	for _, d := range []string{lower, upper, work, merged} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := unix.Mount("overlay", merged, "overlay", 0, "lowerdir="+lower+",upperdir="+upper+",workdir="+work); err != nil {
		t.Skipf("overlay: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(merged, unix.MNT_DETACH) })
	state := filepath.Join(merged, "state")
	const token = "wdn_overlay0token0on0the0upper0disk"
	plantToken(t, state, mnt, token)
	c, err := New(Options{Protect: []string{state}}, Required)
	if err != nil {
		t.Fatal(err)
	}
	if !c.mountNS {
		t.Skipf("no mount namespace: %s", c.Status().Mechanism)
	}
	f := fixture{c: c, state: state, target: base}
	reads := []string{
		"grep -a -o 'wdn_[a-z0-9]*' " + loop,
		"dd if=" + loop + " bs=1M 2>/dev/null | strings | grep -o 'wdn_[a-z0-9]*'",
		"grep -a -o 'wdn_[a-z0-9]*' " + filepath.Join(base, "disk.img"),
	}
	diskHidesToken(t, f, reads, token)
}

func TestOverlayLayers(t *testing.T) {
	for opts, want := range map[string][]string{
		"rw,lowerdir=/a:/b,upperdir=/u,workdir=/w":                     {"/a", "/b", "/u", "/w"},
		"rw,lowerdir=/l\\:x::/data,upperdir=/u\\054v,workdir=/w\\040x": {"/l:x", "/data", "/u,v", "/w x"},
		"rw,lowerdir+=/a,lowerdir+=/b,datadir+=/d,redirect_dir=on":     {"/a", "/b", "/d"},
		"rw,size=4k": nil,
	} {
		if got := overlayLayers(opts); !slices.Equal(got, want) {
			t.Errorf("overlayLayers(%q) = %q, want %q", opts, got, want)
		}
	}
}

// plantToken writes token into a new state directory on the file system
// mounted at mnt, through to the disk, so that a raw read of the disk
// meets its bytes.
func plantToken(t *testing.T, state, mnt, token string) {
	t.Helper()
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, "token"), []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fd, err := unix.Open(mnt, unix.O_RDONLY, 0); err == nil {
		unix.Syncfs(fd)
		unix.Close(fd)
	}
	unix.Sync()
}

// diskHidesToken runs each of reads at Read and Temp and fails when one
// finds token; and runs the first approved, which must find it, or the
// reads prove nothing.
func diskHidesToken(t *testing.T, f fixture, reads []string, token string) {
	t.Helper()
	for _, level := range []Level{Read, Temp} {
		for _, script := range reads {
			if _, out := f.run(t, level, script); strings.Contains(out, token) {
				t.Errorf("%s at %s read the token off the disk: %s", script, level, out)
			}
		}
	}
	if _, out := f.run(t, Full, reads[0]); !strings.Contains(out, token) {
		t.Errorf("an approved program did not find the token on the disk, so the reads above prove nothing: %q", out)
	}
}
