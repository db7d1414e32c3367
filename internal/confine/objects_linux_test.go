package confine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// objectsPy makes, changes and describes the kernel objects that are not
// files, by their system calls: System V shared memory, semaphores and
// message queues, and a POSIX message queue. "state" prints one line per
// object (a removed one prints "gone") and the object counts, so any
// change shows.
const objectsPy = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
IPC_NOWAIT, IPC_STAT, SETVAL, GETVAL, SHM_RDONLY = 0o4000, 2, 16, 12, 0o10000
class Msg(ctypes.Structure):
    _fields_ = [("mtype", ctypes.c_long), ("text", ctypes.c_char * 8)]
class MqAttr(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_long), ("maxmsg", ctypes.c_long), ("msgsize", ctypes.c_long), ("curmsgs", ctypes.c_long), ("pad", ctypes.c_long * 4)]
def check(r, what):
    if r is None or r == -1 or r == ctypes.c_void_p(-1).value:
        sys.exit(what + ": " + os.strerror(ctypes.get_errno()))
    return r
op, args = sys.argv[1], sys.argv[2:]
if op == "make":
    shm = check(libc.shmget(0, 4096, 0o600), "shmget")
    p = check(libc.shmat(shm, None, 0), "shmat")
    ctypes.memmove(p, b"A", 1)
    sem = check(libc.semget(0, 1, 0o600), "semget")
    check(libc.semctl(sem, 0, SETVAL, 3), "semctl")
    msq = check(libc.msgget(0, 0o600), "msgget")
    check(libc.msgsnd(msq, ctypes.byref(Msg(1, b"hello")), 8, IPC_NOWAIT), "msgsnd")
    mq = check(libc.mq_open(args[0].encode(), os.O_CREAT | os.O_WRONLY, 0o600, None), "mq_open")
    check(libc.mq_send(mq, b"hello", 5, 0), "mq_send")
    print(shm, sem, msq)
elif op == "state":
    shm, sem, msq, mq = int(args[0]), int(args[1]), int(args[2]), args[3]
    p = libc.shmat(shm, None, SHM_RDONLY)
    print("shm", "gone" if p == ctypes.c_void_p(-1).value else ctypes.string_at(p, 1))
    v = libc.semctl(sem, 0, GETVAL)
    print("sem", "gone" if v < 0 else v)
    rows = [l.split() for l in open("/proc/sysvipc/msg")][1:]
    print("msg", [r[4] for r in rows if r[1] == str(msq)] or "gone")
    fd = libc.mq_open(mq.encode(), os.O_RDONLY)
    a = MqAttr()
    print("mq", "gone" if fd < 0 else (libc.mq_getattr(fd, ctypes.byref(a)), a.curmsgs))
    for kind in ("shm", "sem", "msg"):
        print(kind, "objects", len(open("/proc/sysvipc/" + kind).readlines()))
    print("mq", args[4], "exists" if libc.mq_open(args[4].encode(), os.O_RDONLY) >= 0 else "absent")
elif op == "drop":
    shm, sem, msq, mq = int(args[0]), int(args[1]), int(args[2]), args[3]
    libc.shmctl(shm, 0, None); libc.semctl(sem, 0, 0); libc.msgctl(msq, 0, None); libc.mq_unlink(mq.encode())
elif op == "shmwrite":
    p = check(libc.shmat(int(args[0]), None, 0), "shmat")
    ctypes.memmove(p, b"Z", 1)
elif op == "semop":
    buf = (ctypes.c_short * 3)(0, 1, IPC_NOWAIT)
    check(libc.semop(int(args[0]), buf, 1), "semop")
elif op == "semset":
    check(libc.semctl(int(args[0]), 0, SETVAL, 9), "semctl")
elif op == "msgsnd":
    check(libc.msgsnd(int(args[0]), ctypes.byref(Msg(1, b"more")), 8, IPC_NOWAIT), "msgsnd")
elif op == "msgrcv":
    check(libc.msgrcv(int(args[0]), ctypes.byref(Msg()), 8, 0, IPC_NOWAIT), "msgrcv")
elif op == "mqrecv":
    fd = check(libc.mq_open(args[0].encode(), os.O_RDONLY | os.O_NONBLOCK), "mq_open")
    buf = ctypes.create_string_buffer(8192)
    check(libc.mq_receive(fd, buf, 8192, None), "mq_receive")
elif op == "mqsend":
    fd = check(libc.mq_open(args[0].encode(), os.O_WRONLY | os.O_NONBLOCK), "mq_open")
    check(libc.mq_send(fd, b"more", 4, 0), "mq_send")
elif op == "mqunlink":
    check(libc.mq_unlink(args[0].encode()), "mq_unlink")
elif op == "mqmake":
    check(libc.mq_open(args[0].encode(), os.O_CREAT | os.O_RDONLY, 0o600, None), "mq_open")
else:
    sys.exit("unknown op " + op)
`

// testObjects: System V IPC, POSIX message queues and key rings are not
// files, so neither Landlock nor the read-only mounts hold them. Below
// tier 2 they are looked at, never made, changed or removed; approved,
// each change lands (the control).
func (f fixture) testObjects(t *testing.T) {
	py := filepath.Join(os.Getenv(baseEnv), "objects.py")
	if err := os.WriteFile(py, []byte(objectsPy), 0o644); err != nil {
		t.Fatal(err)
	}
	// Made, described and removed by warden's stand-in itself, in the
	// namespaces its programs run in: confined programs cannot open a
	// POSIX message queue at all (Landlock covers the queues' internal
	// mount, which no rule grants).
	open := func(t *testing.T, script string) string {
		t.Helper()
		cmd := exec.Command("/bin/sh", "-c", script)
		if f.enter > 0 {
			cmd = exec.Command("nsenter", "--target", strconv.Itoa(f.enter), "--ipc", "--mount", "--", "/bin/sh", "-c", script)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v: %s", script, err, out)
		}
		return string(out)
	}
	mq := fmt.Sprintf("/warden-confine-%d", os.Getpid())
	made := mq + "-made"
	// fresh creates one object of each kind from an approved program.
	fresh := func(t *testing.T) (ids string) {
		t.Helper()
		ids = strings.TrimSpace(open(t, "python3 "+py+" make "+mq))
		t.Cleanup(func() { open(t, "python3 "+py+" drop "+ids+" "+mq+"; python3 "+py+" drop -1 -1 -1 "+made) })
		return ids
	}
	state := func(t *testing.T, ids string) string {
		t.Helper()
		return open(t, "python3 "+py+" state "+ids+" "+mq+" "+made)
	}
	changes := []string{
		`ipcrm -m SHM`, `ipcrm -s SEM`, `ipcrm -q MSQ`, `ipcrm -a`,
		`ipcmk -M 4096`, `ipcmk -S 1`, `ipcmk -Q`,
		`PY shmwrite SHM`, `PY semop SEM`, `PY semset SEM`, `PY msgsnd MSQ`, `PY msgrcv MSQ`,
		`PY mqrecv MQ`, `PY mqsend MQ`, `PY mqunlink MQ`, `PY mqmake MADE`,
	}
	for _, change := range changes {
		t.Run(change, func(t *testing.T) {
			ids := fresh(t)
			id := strings.Fields(ids)
			script := strings.NewReplacer("SHM", id[0], "SEM", id[1], "MSQ", id[2], "MQ", mq, "MADE", made, "PY", "python3 "+py).Replace(change)
			before := state(t, ids)
			var outs []string
			for _, level := range []Level{Read, Temp, Inspect} {
				_, out := f.run(t, level, script)
				outs = append(outs, out)
			}
			if after := state(t, ids); after != before {
				t.Fatalf("%s below tier 2 changed a kernel object:\nbefore:\n%s\nafter:\n%s\noutput: %q", script, before, after, outs)
			}
			if strings.HasSuffix(script, "-a") {
				return // approved, it would remove every object of the user, the test's or not
			}
			// The control: approved, the change lands; a POSIX queue
			// only unconfined, where the change needs an open.
			if strings.Contains(script, " mq") && !strings.Contains(script, "unlink") {
				if open(t, script); state(t, ids) == before {
					t.Errorf("%s changed nothing even unconfined", script)
				}
				return
			}
			_, out := f.run(t, Full, script)
			if state(t, ids) == before {
				t.Errorf("%s changed nothing even when approved: %s", script, out)
			}
			if m := regexp.MustCompile(`id: (\d+)`).FindStringSubmatch(out); m != nil {
				open(t, "ipcrm "+strings.ToLower(strings.Fields(change)[1])+" "+m[1]) // what ipcmk made
			}
		})
	}
	t.Run("reads", func(t *testing.T) {
		ids := fresh(t)
		id := strings.Fields(ids)
		for _, level := range []Level{Read, Temp, Inspect} {
			code, out := f.run(t, level, fmt.Sprintf("ipcs -m -i %s && ipcs -s -i %s && ipcs -q && python3 %s state %s %s %s", id[0], id[1], py, ids, mq, made))
			for _, want := range []string{"shm b'A'", "sem 3", "msg ['1']"} {
				if code != 0 || !strings.Contains(out, want) {
					t.Errorf("%s could not look at the objects (want %q): exit %d: %s", level, want, code, out)
				}
			}
		}
	})
	f.testKeys(t)
}

// testKeys: key rings, with keyutils' keyctl. A key ring of the test's
// own under the user's key ring holds one key.
func (f fixture) testKeys(t *testing.T) {
	ring := fmt.Sprintf("warden-confine-%d", os.Getpid())
	fresh := func(t *testing.T) (r, k string) {
		t.Helper()
		code, out := f.run(t, Full, "R=$(keyctl newring "+ring+" @u) && K=$(keyctl add user k v3ry-s3cret $R) && echo $R $K")
		if code != 0 {
			t.Skipf("no key rings here (keyctl: %s): exit %d", strings.TrimSpace(out), code)
		}
		id := strings.Fields(out)
		if len(id) != 2 {
			t.Fatalf("keyctl printed %q", out)
		}
		t.Cleanup(func() { f.run(t, Full, "keyctl unlink "+id[0]+" @u") })
		return id[0], id[1]
	}
	// What the kernel shows of both: flags, use count, expiry,
	// permissions, description; which of the two the user's key ring
	// holds; and the ring's members and the key. The user's key ring is
	// the uid's, shared with every suite running beside this one, so
	// only these two of its members are looked at.
	state := func(t *testing.T, r, k string) string {
		t.Helper()
		_, out := f.run(t, Full, fmt.Sprintf(`grep -E "^(%08x|%08x) " /proc/keys; keyctl rlist @u | tr ' ' '\n' | grep -xE '%s|%s'; keyctl rlist %s; keyctl print %s; keyctl rdescribe %s`, atoi(t, r), atoi(t, k), r, k, r, k, k))
		return out
	}
	changes := []string{
		`keyctl unlink KEY RING`, `keyctl revoke KEY`, `keyctl invalidate KEY`, `keyctl clear RING`,
		`keyctl add user x y RING`, `echo y | keyctl padd user x RING`, `keyctl update KEY changed`,
		`keyctl timeout KEY 1000`, `keyctl setperm KEY 0x3f1f0000`, `keyctl newring inner RING`,
		`keyctl link KEY @u`, `keyctl request2 user x y RING`,
	}
	for _, change := range changes {
		t.Run(change, func(t *testing.T) {
			r, k := fresh(t)
			script := strings.NewReplacer("KEY", k, "RING", r).Replace(change)
			before := state(t, r, k)
			var outs []string
			for _, level := range []Level{Read, Temp, Inspect} {
				_, out := f.run(t, level, script)
				outs = append(outs, out)
			}
			if after := state(t, r, k); after != before {
				t.Fatalf("%s below tier 2 changed a key ring:\nbefore:\n%s\nafter:\n%s\noutput: %q", script, before, after, outs)
			}
			if _, out := f.run(t, Full, script); state(t, r, k) == before {
				t.Errorf("%s changed nothing even when approved: %s", script, out)
			}
		})
	}
	t.Run("keyctl reads", func(t *testing.T) {
		r, k := fresh(t)
		for _, level := range []Level{Read, Temp, Inspect} {
			code, out := f.run(t, level, fmt.Sprintf("keyctl show %s && keyctl print %s && keyctl search %s user k", r, k, r))
			if code != 0 || !strings.Contains(out, "v3ry-s3cret") || !strings.Contains(out, k) {
				t.Errorf("%s could not look at the key ring: exit %d: %s", level, code, out)
			}
		}
	})
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}
