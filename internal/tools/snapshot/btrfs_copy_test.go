//go:build linux

package snapshot

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// loopBtrfs makes and mounts a small btrfs on a loop device, or skips (with
// WARDEN_REQUIRE_BTRFS=1, fails) where that cannot be done.
func loopBtrfs(t *testing.T) string {
	t.Helper()
	need := func(why string) {
		t.Helper()
		if os.Getenv("WARDEN_REQUIRE_BTRFS") == "1" {
			t.Fatalf("btrfs required (WARDEN_REQUIRE_BTRFS=1): %s", why)
		}
		t.Skipf("no real btrfs: %s", why)
	}
	if os.Geteuid() != 0 {
		need("loop mounts need root")
	}
	if _, err := exec.LookPath("mkfs.btrfs"); err != nil {
		need("mkfs.btrfs not installed")
	}
	dir := t.TempDir()
	img := filepath.Join(dir, "fs.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 256<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.btrfs", "-q", img).CombinedOutput(); err != nil {
		need(fmt.Sprintf("mkfs.btrfs: %v %s", err, out))
	}
	mnt := filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
		need(fmt.Sprintf("mount: %v %s", err, out))
	}
	t.Cleanup(func() {
		if exec.Command("umount", mnt).Run() != nil {
			_ = exec.Command("umount", "-l", mnt).Run()
		}
	})
	return mnt
}

func btrfs(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("btrfs", args...).CombinedOutput(); err != nil {
		t.Fatalf("btrfs %s: %v %s", strings.Join(args, " "), err, out)
	}
}

// TestCopiesFromBtrfs fetches and restores from real read-only btrfs
// snapshot subvolumes into the live subvolume.
func TestCopiesFromBtrfs(t *testing.T) {
	mnt := loopBtrfs(t)
	live := filepath.Join(mnt, "live")
	snaps := filepath.Join(mnt, "snaps")
	btrfs(t, "subvolume", "create", live)
	if err := os.Mkdir(snaps, 0o755); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(live, "etc/app.conf"), "good\n")
	put(t, filepath.Join(live, "etc/other.conf"), "other\n")
	btrfs(t, "subvolume", "snapshot", "-r", live, filepath.Join(snaps, "s1"))
	put(t, filepath.Join(live, "etc/app.conf"), "broken\n")
	e, err := engine.New(engine.Config{Sources: []engine.SourceConfig{{Name: "vol", Kind: engine.KindBtrfs, Path: snaps, Live: live}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	x, err := e.OpenExport(ctx, "vol", "s1", "etc")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	out := t.TempDir()
	fr, err := fetchDir(ctx, x, localOpen, filepath.Join(out, "etc"), false, 1<<20, 10)
	if err != nil || fr.FilesWritten != 2 || read(t, filepath.Join(out, "etc/app.conf")) != "good\n" {
		t.Fatalf("fetch_dir from btrfs: %+v %v", fr, err)
	}
	rr, err := restoreDir(ctx, x, localOpen, live, "etc", 1<<20, 10, time.Date(2026, 11, 24, 5, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(live, "etc/app.conf")) != "good\n" || read(t, filepath.Join(live, "etc/app.conf.warden-restore-20261124T050000Z")) != "broken\n" || rr.FilesWritten != 2 {
		t.Errorf("restore_dir into the live subvolume: %+v", rr)
	}
	// The snapshot is read-only and unchanged.
	if read(t, filepath.Join(snaps, "s1/etc/app.conf")) != "good\n" {
		t.Error("the snapshot changed")
	}
}
