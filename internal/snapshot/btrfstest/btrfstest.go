// Package btrfstest makes real btrfs filesystems for tests: an image on a
// loop device, mounted for the test's life.
package btrfstest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Require skips the test because no real btrfs can be made here, or fails
// it when WARDEN_REQUIRE_BTRFS=1 (as CI sets).
func Require(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("WARDEN_REQUIRE_BTRFS") == "1" {
		t.Fatalf("btrfs required (WARDEN_REQUIRE_BTRFS=1): %s", why)
	}
	t.Skipf("no real btrfs: %s (set WARDEN_REQUIRE_BTRFS=1 to fail instead)", why)
}

// Mount makes a 256 MiB btrfs image, loop-mounts it and returns the
// mountpoint, unmounted (lazily if busy) and removed when the test ends.
// The directories above it are 0755, so that another login (an SSH
// test user) can reach what the test puts there.
func Mount(t testing.TB) string {
	t.Helper()
	if os.Geteuid() != 0 {
		Require(t, "loop mounts need root")
	}
	for _, tool := range []string{"mkfs.btrfs", "btrfs", "mount", "umount"} {
		if _, err := exec.LookPath(tool); err != nil {
			Require(t, tool+" not installed (apt-get install btrfs-progs)")
		}
	}
	base, err := os.MkdirTemp("", "warden-btrfs-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	img := filepath.Join(base, "fs.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 256<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.btrfs", "-q", img).CombinedOutput(); err != nil {
		Require(t, fmt.Sprintf("mkfs.btrfs: %v: %s", err, out))
	}
	mnt := filepath.Join(base, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
		Require(t, fmt.Sprintf("mount -o loop: %v: %s", err, strings.TrimSpace(string(out))))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Logf("umount %s: %v: %s; lazy unmount", mnt, err, out)
			_ = exec.Command("umount", "-l", mnt).Run()
		}
	})
	return mnt
}

// Run runs btrfs with args and returns its output, failing the test if
// it fails.
func Run(t testing.TB, args ...string) string {
	t.Helper()
	out, err := exec.Command("btrfs", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("btrfs %s: %v %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
