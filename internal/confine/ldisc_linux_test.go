package confine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ldiscSpellings set the line discipline of the terminal a program was
// started on, a session's, to n_null, the one this suite's kernels build
// in: where a discipline is a module, the same request loads it for any
// user. The terminal's descriptor was opened by warden, so Landlock's
// device rules, which hold at open, do not hold its requests.
var ldiscSpellings = map[string]string{
	"stdin":      `fcntl.ioctl(0, 0x5423, struct.pack("i", 27))`,
	"stdout":     `fcntl.ioctl(1, 0x5423, struct.pack("i", 27))`,
	"high bits":  `fcntl.ioctl(0, 0x100005423, struct.pack("i", 27))`,
	"libc ioctl": `ctypes.CDLL(None).ioctl(1, 0x5423, ctypes.byref(ctypes.c_int(27)))`,
	// /dev/tty, once the terminal controls a session of the program's.
	"controlling terminal": `pid = os.fork()
if pid == 0:
    os.setsid()
    fcntl.ioctl(0, 0x540e, 0)
    fcntl.ioctl(os.open("/dev/tty", os.O_RDWR), 0x5423, struct.pack("i", 27))
    os._exit(0)
os.waitpid(pid, 0)`,
}

// testLineDisciplines starts each spelling on a pseudo-terminal, as a
// session's program: below tier 2 its discipline stays, and reading it
// (TIOCGETD) works. Approved, the change lands (the control).
func (f fixture) testLineDisciplines(t *testing.T) {
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		for name, set := range ldiscSpellings {
			t.Run(string(level)+"/"+name, func(t *testing.T) {
				got, out := f.runOnTerminal(t, level, `import ctypes, fcntl, os, struct
try:
    `+strings.ReplaceAll(set, "\n", "\n    ")+`
except OSError as e:
    print(e)
d = struct.unpack("i", fcntl.ioctl(0, 0x5424, struct.pack("i", -1)))[0]
if d != 0:
    fcntl.ioctl(0, 0x5423, struct.pack("i", 0))
print("read", d)
`)
				if !strings.Contains(out, fmt.Sprintf("read %d", got)) {
					t.Fatalf("the program could not read or restore its terminal's discipline: %s", out)
				}
				if level == Full && got != 27 {
					t.Errorf("control: an approved program could not set a discipline (%d): %s", got, out)
				}
				if level != Full && got != 0 {
					t.Errorf("%s at %s set its terminal's line discipline to %d: %s", name, level, got, out)
				}
			})
		}
	}
}

// runOnTerminal runs a Python program at level with a new pseudo-terminal
// as its standard streams, as a session's program, and returns the
// discipline it printed ("read N") and what it printed.
func (f fixture) runOnTerminal(t *testing.T, level Level, program string) (int, string) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	defer master.Close()
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer slave.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "python3", "-c", program)
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/"}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, &out
	release, err := f.c.Start(With(ctx, Admission{Level: level, Tool: SessionTool}), cmd.Start)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	cmd.Wait()
	release()
	// What the program printed on the terminal.
	// Fd makes the descriptor blocking again: taken once.
	fd := int(master.Fd())
	buf := make([]byte, 4096)
	for unix.SetNonblock(fd, true) == nil {
		k, err := unix.Read(fd, buf)
		if err != nil || k <= 0 {
			break
		}
		out.Write(buf[:k])
	}
	d := -1
	if i := strings.LastIndex(out.String(), "read "); i >= 0 {
		fmt.Sscan(out.String()[i+len("read "):], &d)
	}
	return d, out.String()
}
