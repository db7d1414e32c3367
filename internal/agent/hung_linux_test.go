package agent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hostfs"
)

// TestReadDirUnansweredAcrossWire: an entry the agent's host could not
// look at (a FUSE mount whose daemon is stopped) reaches warden listed as
// not answering, beside the entries that answered.
func TestReadDirUnansweredAcrossWire(t *testing.T) {
	bindfs, err := exec.LookPath("bindfs")
	if err != nil {
		if os.Getenv("WARDEN_REQUIRE_BINDFS") == "1" {
			t.Fatal("bindfs is not installed (WARDEN_REQUIRE_BINDFS=1)")
		}
		t.Skip("bindfs is not installed")
	}
	src, hold := t.TempDir(), t.TempDir()
	mnt := filepath.Join(hold, "nas")
	for _, d := range []string{mnt, filepath.Join(hold, "plain")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(src, "f"), []byte("x"), 0o644)
	// No attribute cache: a look at the mount asks the daemon at once.
	daemon := exec.Command(bindfs, "-f", "-o", "attr_timeout=0,entry_timeout=0", src, mnt)
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- daemon.Wait() }()
	t.Cleanup(func() {
		daemon.Process.Signal(syscall.SIGCONT)
		exec.Command("umount", "-l", mnt).Run()
		daemon.Process.Kill()
		<-exited
	})
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(mnt, "f")); err == nil {
			break
		}
		select {
		case err := <-exited:
			exited <- err
			if os.Getenv("WARDEN_REQUIRE_FUSE") == "1" {
				t.Fatalf("bindfs could not mount (WARDEN_REQUIRE_FUSE=1): %v", err)
			}
			t.Skipf("FUSE is not available here: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("bindfs did not mount within 30s")
		}
	}
	if err := daemon.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}

	c, _ := pair(t, ServeOptions{})
	infos, _, err := c.FS().ReadDir(context.Background(), hold, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []hostfs.Info{{Name: "nas", Type: hostfs.TypeDir, Unanswered: true}}
	if len(infos) != 2 || infos[0] != want[0] || infos[1].Name != "plain" || infos[1].Unanswered || infos[1].Type != hostfs.TypeDir {
		t.Errorf("read dir across the wire with a stopped mount: %+v, want nas unanswered beside plain", infos)
	}
}
