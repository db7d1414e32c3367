package confine

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cloneIntoCgroup starts a child in the cgroup directory $1 with clone3's
// CLONE_INTO_CGROUP and prints the cgroup the child is in.
const cloneIntoCgroup = `python3 -c '
import ctypes, os, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
args = struct.pack("=11Q", 0x200000000, 0, 0, 0, 17, 0, 0, 0, 0, 0, fd)
pid = libc.syscall(435, ctypes.create_string_buffer(args), len(args))
if pid == 0:
    time.sleep(0.2)
    os._exit(0)
if pid < 0:
    print("refused:", os.strerror(ctypes.get_errno()))
    sys.exit(1)
print("child in", [l for l in open("/proc/%d/cgroup" % pid).read().split("\n") if l.startswith("0::")])
os.waitpid(pid, 0)
' "$1" 2>&1`

// testCgroups: below tier 2 no program starts a process in another
// cgroup (clone3's CLONE_INTO_CGROUP, which the kernel checks against
// the cgroup.procs file's permissions, not Landlock's rules): a read would
// put a process into a service's cgroup, counted against its memory
// limit or frozen with it. Approved, it may.
func (f fixture) testCgroups(t *testing.T) {
	if !f.c.seccomp {
		t.Skip("needs seccomp")
	}
	if f.enter > 0 || os.Geteuid() != 0 {
		t.Skip("needs a cgroup v2 hierarchy this user may move processes in, in the programs' mounts")
	}
	mnt := cgroup2Mount()
	if mnt == "" {
		t.Skip("no cgroup v2 hierarchy mounted")
	}
	dir := filepath.Join(mnt, fmt.Sprintf("warden-confine-%d", os.Getpid()))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("cannot make a cgroup: %v", err)
	}
	defer os.Remove(dir)
	name := "0::/" + strings.TrimPrefix(dir, mnt+"/")
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		t.Run(string(level), func(t *testing.T) {
			_, out := f.run(t, level, "set -- "+dir+"; "+cloneIntoCgroup)
			if moved := strings.Contains(out, name); moved != (level == Full) {
				t.Errorf("started a child in %s: %v, want %v: %s", dir, moved, level == Full, out)
			}
			if level != Full && !strings.Contains(out, "Function not implemented") {
				t.Errorf("clone3 refused without falling back: %s", out)
			}
		})
	}
	// The fallback: programs that start threads and processes, which the
	// C library does through clone3 first.
	if code, out := f.run(t, Read, `python3 -u -c 'import subprocess, threading; t = threading.Thread(target=print, args=("thread",)); t.start(); t.join(); subprocess.run(["echo", "child"])'`); code != 0 || out != "thread\nchild\n" {
		t.Errorf("threads or processes failed at %s: exit %d: %s", Read, code, out)
	}
}

// cgroup2Mount returns where a cgroup v2 hierarchy is mounted, or "".
func cgroup2Mount() string {
	fh, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		// id parent major:minor root mountpoint options... - type source
		fields := strings.Fields(sc.Text())
		for i, fld := range fields {
			if fld == "-" && i+1 < len(fields) && fields[i+1] == "cgroup2" && fields[3] == "/" {
				return fields[4]
			}
		}
	}
	return ""
}
