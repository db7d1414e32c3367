package confine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// mainThreadEnv makes the test binary, instead of running tests, start
// confined programs from its main thread and report that thread's state.
const mainThreadEnv = "WARDEN_CONFINE_MAIN_THREAD"

func TestMain(m *testing.M) {
	if os.Getenv(mainThreadEnv) != "" {
		os.Exit(startFromMainThread())
	}
	os.Exit(m.Run())
}

// startFromMainThread starts programs at each level from the main thread
// (where the Go scheduler runs a goroutine started from it next, when it
// then blocks) and prints the main thread's seccomp, no_new_privs and
// mount namespace before and after.
func startFromMainThread() int {
	runtime.LockOSThread()
	onMain := unix.Gettid() == unix.Getpid()
	runtime.UnlockOSThread()
	if !onMain {
		fmt.Println("skip: the main goroutine is not on the main thread")
		return 0
	}
	fmt.Print("before\n", mainThreadState())
	c, err := New(Options{}, Required)
	if err != nil {
		fmt.Println("skip:", err)
		return 0
	}
	for range 3 {
		for _, level := range []Level{Read, Temp, Inspect, Full} {
			cmd := exec.Command("true")
			release, err := c.Start(With(context.Background(), Admission{Level: level}), cmd.Start)
			if err != nil {
				fmt.Println("start:", err)
				return 1
			}
			cmd.Wait()
			release()
		}
		c.Rebuild()
	}
	fmt.Print("after\n", mainThreadState())
	return 0
}

// mainThreadState is what /proc says of the process's main thread.
func mainThreadState() string {
	var b strings.Builder
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", os.Getpid()))
	for line := range strings.Lines(string(status)) {
		if strings.HasPrefix(line, "Seccomp:") || strings.HasPrefix(line, "NoNewPrivs:") || strings.HasPrefix(line, "CapBnd:") {
			b.WriteString(line)
		}
	}
	ns, _ := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", os.Getpid()))
	fmt.Fprintf(&b, "mnt: %s\n", ns)
	return b.String()
}

// TestMainThreadUntouched: no worker runs on warden's main thread, which
// Go cannot end, so it would keep a worker's confinement — its mount
// namespace, whose mounts /proc/self/mountinfo then shows (the entered
// shape maps warden's files through it), its seccomp filter and Landlock
// domain — for the rest of the process.
func TestMainThreadUntouched(t *testing.T) {
	if _, err := New(Options{}, Required); err != nil {
		t.Skipf("confinement unavailable here: %v", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		cmd := exec.Command(exe, "-test.run", "^$")
		cmd.Env = append(os.Environ(), mainThreadEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if strings.HasPrefix(string(out), "skip:") {
			t.Skip(string(out))
		}
		before, after, ok := strings.Cut(strings.TrimPrefix(string(out), "before\n"), "after\n")
		if !ok {
			t.Fatalf("no report: %s", out)
		}
		if before != after {
			t.Fatalf("the main thread changed:\nbefore:\n%safter:\n%s", before, after)
		}
	}
}
