package confine

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// pinnedMapSpellings reach a BPF map pinned in a bpf file system and write
// it without BPF_MAP_UPDATE_ELEM, which seccomp refuses below tier 2: an
// array map made mmapable (every BPF program's global variables, .data
// and .bss, are such maps) is written through a shared mapping of the
// descriptor BPF_OBJ_GET returns, which opens it read-write unless asked
// otherwise. A read would change a loaded program's settings (a
// firewall's switch) for as long as the program stays loaded. Each
// names the pinned map %[1]s.
var pinnedMapSpellings = map[string]string{
	"mmap":          objGet() + "m = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)\nm[0:8] = b\"changed!\"\n",
	"update":        objGet() + "key = ctypes.create_string_buffer(4); val = ctypes.create_string_buffer(b\"changed!\", 8)\nassert bpf(2, struct.pack(\"IIQQQ\", fd, 0, ctypes.addressof(key), ctypes.addressof(val), 0)) == 0\n",
	"relative name": "import os\nos.chdir(os.path.dirname(\"%[1]s\"))\n" + strings.Replace(objGet(), `b"%[1]s"`, `os.path.basename("%[1]s").encode()`, 1) + "m = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)\nm[0:8] = b\"changed!\"\n",
	"proc root":     strings.Replace(objGet(), `b"%[1]s"`, `b"/proc/self/root%[1]s"`, 1) + "m = mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_WRITE)\nm[0:8] = b\"changed!\"\n",
}

// objGet is Python opening the pinned map %[1]s with BPF_OBJ_GET into fd,
// read-write as by default.
func objGet() string {
	return `import ctypes, mmap, struct
l = ctypes.CDLL(None, use_errno=True)
def bpf(cmd, attr):
    b = ctypes.create_string_buffer(attr, 128)
    return l.syscall(321, cmd, b, 128)
path = ctypes.create_string_buffer(b"%[1]s")
fd = bpf(7, struct.pack("QII", ctypes.addressof(path), 0, 0))
assert fd >= 0, "BPF_OBJ_GET: errno %%d" %% ctypes.get_errno()
`
}

// testPinnedMaps pins an mmapable array map (root: making one takes
// CAP_BPF; another user cannot open root's pins) and has each spelling
// write it at every level below tier 2: its value stays. Approved, the
// write lands (the control).
func (f fixture) testPinnedMaps(t *testing.T) {
	if os.Geteuid() != 0 || f.enter > 0 {
		t.Skip("root makes the map; in the entered shape the host's mounts do not show the suite's bpf file system")
	}
	if runtime.GOARCH != "amd64" {
		t.Skip("the spellings name amd64's bpf(2)")
	}
	dir := filepath.Join(os.Getenv(baseEnv), "bpffs")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("bpf", dir, "bpf", 0, ""); err != nil {
		t.Skipf("no bpf file system: %v", err)
	}
	defer unix.Unmount(dir, unix.MNT_DETACH)
	// The workers' mount namespaces were made before the mount: new ones
	// see it.
	f.c.Rebuild()
	defer f.c.Rebuild()
	pin := filepath.Join(dir, "settings")
	m, err := pinMap(pin)
	if err != nil {
		t.Skipf("cannot make a BPF map: %v", err)
	}
	defer unix.Close(m)
	for _, level := range []Level{Read, Temp} {
		for name, spelling := range pinnedMapSpellings {
			t.Run(string(level)+"/"+name, func(t *testing.T) {
				setMap(t, m, "original")
				f.run(t, level, "python3 -c '"+sprintfPy(spelling, pin)+"print(\"wrote\")'")
				if got := mapValue(t, m); got != "original" {
					t.Errorf("%s at %s wrote the pinned map: %q", name, level, got)
				}
			})
		}
	}
	setMap(t, m, "original")
	if code, out := f.run(t, Full, "python3 -c '"+sprintfPy(pinnedMapSpellings["mmap"], pin)+"print(\"wrote\")'"); code != 0 || mapValue(t, m) != "changed!" {
		t.Errorf("control: an approved program did not write the pinned map: exit %d: %s", code, out)
	}
}

// sprintfPy fills %[1]s in a spelling with path and undoubles its %%.
func sprintfPy(spelling, path string) string {
	return strings.ReplaceAll(strings.ReplaceAll(spelling, "%[1]s", path), "%%", "%")
}

// The bpf(2) commands and attributes the test uses (linux/bpf.h).
const (
	bpfMapCreate, bpfMapLookup, bpfMapUpdate, bpfObjPin = 0, 1, 2, 6
	bpfArray, bpfMmapable                               = 2, 1 << 10
)

func bpfCall(cmd int, attr []byte) (int, error) {
	buf := make([]byte, 128)
	copy(buf, attr)
	r, _, errno := unix.Syscall(unix.SYS_BPF, uintptr(cmd), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	runtime.KeepAlive(buf)
	if errno != 0 {
		return -1, errno
	}
	return int(r), nil
}

// pinMap makes an mmapable array map of one 8-byte value, pinned at path.
func pinMap(path string) (int, error) {
	attr := make([]byte, 20)
	for i, v := range []uint32{bpfArray, 4, 8, 1, bpfMmapable} {
		*(*uint32)(unsafe.Pointer(&attr[4*i])) = v
	}
	fd, err := bpfCall(bpfMapCreate, attr)
	if err != nil {
		return -1, err
	}
	p, _ := unix.BytePtrFromString(path)
	var pinner runtime.Pinner
	pinner.Pin(p)
	defer pinner.Unpin()
	pin := make([]byte, 16)
	*(*uint64)(unsafe.Pointer(&pin[0])) = uint64(uintptr(unsafe.Pointer(p)))
	*(*uint32)(unsafe.Pointer(&pin[8])) = uint32(fd)
	if _, err = bpfCall(bpfObjPin, pin); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// mapElem calls cmd (lookup or update) on m's only element with val.
func mapElem(t *testing.T, m, cmd int, val []byte) {
	t.Helper()
	key := make([]byte, 4)
	var pinner runtime.Pinner
	pinner.Pin(&key[0])
	pinner.Pin(&val[0])
	defer pinner.Unpin()
	attr := make([]byte, 32)
	*(*uint32)(unsafe.Pointer(&attr[0])) = uint32(m)
	*(*uint64)(unsafe.Pointer(&attr[8])) = uint64(uintptr(unsafe.Pointer(&key[0])))
	*(*uint64)(unsafe.Pointer(&attr[16])) = uint64(uintptr(unsafe.Pointer(&val[0])))
	if _, err := bpfCall(cmd, attr); err != nil {
		t.Fatalf("bpf %d: %v", cmd, err)
	}
}

func setMap(t *testing.T, m int, v string) {
	t.Helper()
	mapElem(t, m, bpfMapUpdate, []byte(v))
}

func mapValue(t *testing.T, m int) string {
	t.Helper()
	val := make([]byte, 8)
	mapElem(t, m, bpfMapLookup, val)
	return string(bytes.TrimRight(val, "\x00"))
}
