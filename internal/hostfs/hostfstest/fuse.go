package hostfstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// FUSE is a bindfs mount a test can make stop answering, as a hard NFS
// mount whose server is gone does: every look at it waits in the kernel.
type FUSE struct {
	daemon *exec.Cmd
}

// MountPoint makes a directory, hold, holding two empty directories: nas,
// to mount on, and plain beside it; it returns hold and nas's path.
func MountPoint(t testing.TB) (hold, mnt string) {
	t.Helper()
	hold = t.TempDir()
	mnt = filepath.Join(hold, "nas")
	for _, d := range []string{mnt, filepath.Join(hold, "plain")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return hold, mnt
}

// MountFUSE mounts src on mnt with bindfs in the foreground, with no
// attribute cache (a look asks the daemon at once) and open to every user;
// it is unmounted and its daemon ended when the test ends, before mnt is
// removed. Without bindfs, or FUSE (no /dev/fuse, no right to mount), the
// test is skipped, unless WARDEN_REQUIRE_BINDFS=1 or WARDEN_REQUIRE_FUSE=1.
func MountFUSE(t testing.TB, src, mnt string) *FUSE {
	t.Helper()
	bindfs, err := exec.LookPath("bindfs")
	if err != nil {
		if os.Getenv("WARDEN_REQUIRE_BINDFS") == "1" {
			t.Fatal("bindfs is required (WARDEN_REQUIRE_BINDFS=1) but not installed")
		}
		t.Skip("bindfs is not installed")
	}
	log := filepath.Join(t.TempDir(), "bindfs.log")
	out, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command(bindfs, "-f", "-o", "allow_other,attr_timeout=0,entry_timeout=0", src, mnt)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGCONT)
		exec.Command("umount", "-l", mnt).Run()
		cmd.Process.Kill()
		<-exited
	})
	said := func() string { b, _ := os.ReadFile(log); return string(b) }
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-exited:
			exited <- err
			if os.Getenv("WARDEN_REQUIRE_FUSE") == "1" {
				t.Fatalf("bindfs could not mount (WARDEN_REQUIRE_FUSE=1): %v: %s", err, said())
			}
			t.Skipf("FUSE is not available here: bindfs: %v: %s", err, said())
		default:
		}
		if mounted(mnt) {
			return &FUSE{daemon: cmd}
		}
	}
	t.Fatalf("bindfs did not mount %s within 30s: %s", mnt, said())
	return nil
}

// mounted reports whether a file system other than its parent's is
// mounted on p.
func mounted(p string) bool {
	var st, parent syscall.Stat_t
	return syscall.Stat(p, &st) == nil && syscall.Stat(filepath.Dir(p), &parent) == nil && st.Dev != parent.Dev
}

// Stop stops the mount's daemon, so that the mount does not answer, and
// returns what resumes it. The test's end resumes it first, before what
// was set up earlier is taken down.
func (f *FUSE) Stop(t testing.TB) (resume func()) {
	t.Helper()
	if err := f.daemon.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	resume = func() { once.Do(func() { f.daemon.Process.Signal(syscall.SIGCONT) }) }
	t.Cleanup(resume)
	return resume
}
