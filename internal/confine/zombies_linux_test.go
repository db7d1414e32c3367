package confine

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// zombieSpellings make, from the program warden started itself, processes
// whose parent is warden rather than the program (CLONE_PARENT), which
// exit at once. warden waits only for the programs it started: each such
// process would stay a zombie in warden's process table until warden
// exits, holding a pid and, for a user other than root, a count against
// RLIMIT_NPROC — a read could fill either for good. Each spelling prints
// "made N" with the number the kernel let it make.
var zombieSpellings = map[string]string{
	"clone parent":   cloneParent("0x8000 | 17"),
	"no exit signal": cloneParent("0x8000"),
	"with files":     cloneParent("0x8000 | 0x400 | 17"), // CLONE_FILES
	"with pidfd":     cloneParent("0x8000 | 0x1000 | 17", "ctypes.byref(ctypes.c_int())"),
	"with fs and io": cloneParent("0x8000 | 0x200 | 0x80000000 | 17"), // CLONE_FS, CLONE_IO
	"from a thread":  fromThread,
	// clone3 carries its flags in memory: refused as unimplemented below
	// tier 2 (actCalls.clone3).
	"clone3": `import ctypes, os, struct, time
l = ctypes.PyDLL(None)
made = 0
for i in range(3):
    args = ctypes.create_string_buffer(struct.pack("QQQQQQQQ", 0x8000, 0, 0, 0, 0, 0, 0, 0), 64)
    r = l.syscall(435, args, 64)
    if r == 0:
        os._exit(0)
    if r > 0:
        made += 1
time.sleep(0.2)
print("made", made)
`,
}

// fromThread clones from a second thread once the main thread waits in
// join, having let go of the interpreter's lock: a main thread still
// taking that lock (back from start) can hold its mutex at the instant of
// the clone, and the child, asked to hand the lock over, then waits for
// that mutex for ever, holding the suite's output pipe open.
var fromThread = "import sys, threading\n" + cloneParentBody("0x8000 | 17", "0") + `def parked():
    main = threading.main_thread().ident
    while sys._current_frames()[main].f_code.co_name not in ("join", "_wait_for_tstate_lock"):
        time.sleep(0.01)
    time.sleep(0.05)
    make()
th = threading.Thread(target=parked)
th.start(); th.join()
report()
`

// cloneParent is a Python program calling clone(2) with flags three times.
// It calls through PyDLL, which keeps the interpreter's lock across the
// call: a child cloned while another thread had taken it would wait for it
// for ever, holding the suite's output pipe open.
func cloneParent(flags string, ptid ...string) string {
	p := "0"
	if len(ptid) > 0 {
		p = ptid[0]
	}
	return cloneParentBody(flags, p) + "make()\nreport()\n"
}

func cloneParentBody(flags, ptid string) string {
	return `import ctypes, os, time
l = ctypes.PyDLL(None)
made = 0
def make():
    global made
    for i in range(3):
        r = l.syscall(56, ` + flags + `, 0, ` + ptid + `, 0, 0)
        if r == 0:
            os._exit(0)
        if r > 0:
            made += 1
def report():
    time.sleep(0.2)
    print("made", made)
`
}

// testZombies runs each spelling as the program warden starts (exec, so
// that it is warden's child) and counts the exited children left to the
// suite's process, warden's stand-in, reaping them. Below tier 2 none is
// left; approved, they are (the control: the spellings do reach warden).
func (f fixture) testZombies(t *testing.T) {
	reap(t) // whatever an earlier test left
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		// The look-alike: a plain fork is the program's own child, which
		// goes to init when the program exits, never to warden.
		t.Run(string(level)+"/fork", func(t *testing.T) {
			code, out := f.run(t, level, "exec python3 -c '"+cloneParent("17")+"'")
			if left := reap(t); code != 0 || !strings.Contains(out, "made 3") || left > 0 {
				t.Errorf("a plain fork at %s: exit %d, %d children left to warden: %s", level, code, left, out)
			}
		})
		for name, program := range zombieSpellings {
			t.Run(string(level)+"/"+name, func(t *testing.T) {
				if level == Full && name == "clone3" {
					t.Skip("approved programs may use clone3, whose flags no filter reads (docs/security.md)")
				}
				code, out := f.run(t, level, "exec python3 -c '"+program+"'")
				if code != 0 || !strings.Contains(out, "made ") {
					t.Fatalf("exit %d: %s", code, out)
				}
				left := reap(t)
				if level == Full {
					if left == 0 {
						t.Errorf("control: an approved program's CLONE_PARENT left no child to warden: %s", out)
					}
					return
				}
				if left > 0 || !strings.Contains(out, "made 0") {
					t.Errorf("%s at %s left %d exited children to warden: %s", name, level, left, out)
				}
			})
		}
	}
}

// reap reaps the exited children of this process, waiting a little for
// those still exiting, and returns how many there were. The suite's
// programs have all been waited for when it is called, so each is one a
// program made warden's.
func reap(t *testing.T) int {
	t.Helper()
	n := 0
	for deadline := time.Now().Add(500 * time.Millisecond); time.Now().Before(deadline); {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, unix.WNOHANG|unix.WALL, nil)
		switch {
		case err == unix.EINTR:
		case err != nil:
			return n // ECHILD: no child at all
		case pid > 0:
			n++
			deadline = time.Now().Add(500 * time.Millisecond)
		default:
			time.Sleep(20 * time.Millisecond)
		}
	}
	return n
}
