//go:build linux

package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	engine "github.com/warden-mcp/warden/internal/snapshot"
	"github.com/warden-mcp/warden/internal/snapshot/btrfstest"
)

// TestCopiesFromBtrfs fetches and restores from real read-only btrfs
// snapshot subvolumes into the live subvolume.
func TestCopiesFromBtrfs(t *testing.T) {
	mnt := btrfstest.Mount(t)
	live := filepath.Join(mnt, "live")
	snaps := filepath.Join(mnt, "snaps")
	btrfstest.Run(t, "subvolume", "create", live)
	if err := os.Mkdir(snaps, 0o755); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(live, "etc/app.conf"), "good\n")
	put(t, filepath.Join(live, "etc/other.conf"), "other\n")
	btrfstest.Run(t, "subvolume", "snapshot", "-r", live, filepath.Join(snaps, "s1"))
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
