//go:build linux

package snapshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/runner"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

func put(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o640); err != nil {
		t.Fatal(err)
	}
}

func read(t testing.TB, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func absent(t testing.TB, p string) {
	t.Helper()
	if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s exists (%v), want nothing there", p, err)
	}
}

// copyFixture is a directory dataset with one snapshot s1 and live data,
// plus a directory outside both that no copy may touch.
type copyFixture struct {
	dir, snaps, snap, live, outside, out string
	e                                    *engine.Engine
}

const outsideText = "OUTSIDE-must-stay-untouched"

func newCopyFixture(t *testing.T) *copyFixture {
	t.Helper()
	dir := t.TempDir()
	f := &copyFixture{dir: dir, snaps: filepath.Join(dir, "snaps"), live: filepath.Join(dir, "live"), outside: filepath.Join(dir, "outside"), out: filepath.Join(dir, "out")}
	f.snap = filepath.Join(f.snaps, "s1")
	put(t, filepath.Join(f.snap, "etc/app.conf"), "port=80\n")
	put(t, filepath.Join(f.snap, "etc/sub/deep.conf"), "deep\n")
	put(t, filepath.Join(f.snap, "data/a.bin"), strings.Repeat("a", 1000))
	if err := os.Symlink(filepath.Join(f.outside, "secret"), filepath.Join(f.snap, "etc/link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(f.snap, "etc/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(f.live, "etc/app.conf"), "port=8080 broken\n")
	put(t, filepath.Join(f.outside, "secret"), outsideText)
	put(t, filepath.Join(f.outside, "app.conf"), outsideText)
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(engine.Config{Sources: []engine.SourceConfig{{Name: "ds", Kind: engine.KindDir, Path: f.snaps, Live: f.live}}})
	if err != nil {
		t.Fatal(err)
	}
	f.e = e
	return f
}

func (f *copyFixture) export(t *testing.T, p string) *engine.Export {
	t.Helper()
	x, err := f.e.OpenExport(context.Background(), "ds", "s1", p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(x.Close)
	return x
}

func TestFetchFile(t *testing.T) {
	f := newCopyFixture(t)
	ctx := context.Background()
	dest := filepath.Join(f.out, "app.conf")
	res, err := fetchFile(ctx, f.export(t, "etc/app.conf"), localOpen, dest, false, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, dest); got != "port=80\n" || len(res.Manifest) != 1 || res.Manifest[0].SHA256 != hexSHA("port=80\n") || res.Bytes != 8 {
		t.Fatalf("fetched %q, result %+v", got, res)
	}
	if st, _ := os.Stat(dest); st.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want the snapshot's 0640", st.Mode().Perm())
	}
	// Never overwriting unless asked.
	put(t, dest, "mine\n")
	if _, err := fetchFile(ctx, f.export(t, "etc/app.conf"), localOpen, dest, false, 1<<20); !errors.Is(err, engine.ErrInvalidArgument) || read(t, dest) != "mine\n" {
		t.Fatalf("existing destination: err %v, content %q; want refused and untouched", err, read(t, dest))
	}
	if _, err := fetchFile(ctx, f.export(t, "etc/app.conf"), localOpen, dest, true, 1<<20); err != nil || read(t, dest) != "port=80\n" {
		t.Fatalf("overwrite: err %v, content %q", err, read(t, dest))
	}
	// Bounded: a larger file is refused before anything is written.
	if _, err := fetchFile(ctx, f.export(t, "data/a.bin"), localOpen, filepath.Join(f.out, "a.bin"), false, 999); !errors.Is(err, engine.ErrInvalidArgument) {
		t.Errorf("over max_bytes: err %v", err)
	}
	absent(t, filepath.Join(f.out, "a.bin"))
	// Symlinks and special files in the snapshot are refused.
	for _, p := range []string{"etc/link", "etc/fifo", "etc"} {
		if _, err := fetchFile(ctx, f.export(t, p), localOpen, filepath.Join(f.out, "x"), false, 1<<20); !errors.Is(err, engine.ErrInvalidArgument) {
			t.Errorf("fetch %s: err %v, want refused", p, err)
		}
		absent(t, filepath.Join(f.out, "x"))
	}
	// A symlinked component of the destination is never followed.
	if err := os.Symlink(f.outside, filepath.Join(f.out, "via")); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(f.out, "via", "app.conf"), filepath.Join(f.out, "via", "new")} {
		if _, err := fetchFile(ctx, f.export(t, "etc/app.conf"), localOpen, d, true, 1<<20); err == nil || !strings.Contains(err.Error(), "symlink") {
			t.Errorf("destination %s through a symlink: err %v", d, err)
		}
	}
	if read(t, filepath.Join(f.outside, "app.conf")) != outsideText {
		t.Fatal("a fetch wrote through a symlinked destination")
	}
	absent(t, filepath.Join(f.outside, "new"))
	// A symlink as the destination itself is not replaced, even with
	// overwrite.
	if err := os.Symlink(filepath.Join(f.outside, "app.conf"), filepath.Join(f.out, "final")); err != nil {
		t.Fatal(err)
	}
	if _, err := fetchFile(ctx, f.export(t, "etc/app.conf"), localOpen, filepath.Join(f.out, "final"), true, 1<<20); err == nil {
		t.Error("a symlink destination was replaced")
	}
	if read(t, filepath.Join(f.outside, "app.conf")) != outsideText {
		t.Fatal("a fetch wrote through a symlink destination")
	}
}

func TestFetchDir(t *testing.T) {
	f := newCopyFixture(t)
	ctx := context.Background()
	dest := filepath.Join(f.out, "etc")
	res, err := fetchDir(ctx, f.export(t, "etc"), localOpen, dest, false, 1<<20, 100)
	if err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(dest, "app.conf")) != "port=80\n" || read(t, filepath.Join(dest, "sub/deep.conf")) != "deep\n" {
		t.Fatal("tree not copied")
	}
	byPath := map[string]string{}
	for _, m := range res.Manifest {
		byPath[m.Path] = m.SHA256
	}
	if len(byPath) != 2 || byPath["app.conf"] != hexSHA("port=80\n") || byPath["sub/deep.conf"] != hexSHA("deep\n") || res.Truncated {
		t.Errorf("manifest = %+v truncated=%v", res.Manifest, res.Truncated)
	}
	absent(t, filepath.Join(dest, "link"))
	absent(t, filepath.Join(dest, "fifo"))
	if res.SkippedCount != 2 {
		t.Errorf("skipped = %+v, want the symlink and the fifo", res.Skipped)
	}
	// Again: every file exists, none is overwritten.
	put(t, filepath.Join(dest, "app.conf"), "mine\n")
	res, err = fetchDir(ctx, f.export(t, "etc"), localOpen, dest, false, 1<<20, 100)
	if err != nil || res.FilesWritten != 0 || read(t, filepath.Join(dest, "app.conf")) != "mine\n" {
		t.Errorf("second fetch: %+v, %v; app.conf %q", res, err, read(t, filepath.Join(dest, "app.conf")))
	}
	// The byte bound stops the copy with truncated.
	res, err = fetchDir(ctx, f.export(t, "."), localOpen, filepath.Join(f.out, "all"), false, 500, 100)
	if err != nil || !res.Truncated || res.TruncatedReason != reasonBytes || res.Bytes > 500 {
		t.Errorf("max_bytes 500: %+v, %v", res, err)
	}
}

// TestFetchDirBounds copies from a 200,000-file directory with a file cap:
// it stops at the cap with truncated, and the heap does not grow with the
// directory (the listing is read in batches, the tree never held).
func TestFetchDirBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("200,000 files")
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "snaps", "s1", "big")
	if err := os.MkdirAll(big, 0o755); err != nil {
		t.Fatal(err)
	}
	const n = 200000
	for i := range n {
		name := filepath.Join(big, fmt.Sprintf("f%06d", i))
		if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := engine.New(engine.Config{Sources: []engine.SourceConfig{{Name: "ds", Kind: engine.KindDir, Path: filepath.Join(dir, "snaps")}}})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	x, err := e.OpenExport(context.Background(), "ds", "s1", "big")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	before := heap()
	res, err := fetchDir(context.Background(), x, localOpen, filepath.Join(out, "big"), false, 1<<30, 1000)
	if err != nil {
		t.Fatal(err)
	}
	grew := int64(heap()) - int64(before)
	if !res.Truncated || res.TruncatedReason != reasonFiles || res.FilesWritten != 1000 || len(res.Manifest) != 1000 {
		t.Fatalf("200,000 files with max_files 1000: written %d, truncated %v (%s)", res.FilesWritten, res.Truncated, res.TruncatedReason)
	}
	ents, err := os.ReadDir(filepath.Join(out, "big"))
	if err != nil || len(ents) != 1000 {
		t.Fatalf("destination holds %d entries (%v), want 1000", len(ents), err)
	}
	// A whole listing of 200,000 entries alone is tens of MiB; the
	// manifest of 1,000 is well under one.
	if grew > 8<<20 {
		t.Errorf("heap grew %d bytes copying 1,000 of 200,000 files; want < 8 MiB", grew)
	}
	t.Logf("heap growth: %d bytes", grew)
	// The byte bound too.
	res, err = fetchDir(context.Background(), x, localOpen, filepath.Join(out, "big2"), false, 2500, 10000)
	if err != nil || !res.Truncated || res.TruncatedReason != reasonBytes || res.Bytes != 2500 {
		t.Fatalf("max_bytes 2500: %+v %v", res.Bytes, err)
	}
}

func restoreDS(f *copyFixture, allow ...string) *dataset {
	return &dataset{name: "ds", kind: engine.KindDir, host: "local", engine: f.e, restore: Restore{Enabled: true, Allow: allow}}
}

func openPaths(t *testing.T, roots ...string) *policy.PathPolicy {
	t.Helper()
	pp, err := policy.NewPathPolicy(policy.PathRules{Allow: roots})
	if err != nil {
		t.Fatal(err)
	}
	return pp
}

func TestRestoreDestination(t *testing.T) {
	f := newCopyFixture(t)
	pp := openPaths(t, "/")
	ds := restoreDS(f, filepath.Join(f.live, "etc"))
	abs, rel, err := restoreDestination(ds, pp, f.live, "etc/app.conf", "")
	if err != nil || abs != filepath.Join(f.live, "etc/app.conf") || rel != "etc/app.conf" {
		t.Fatalf("default destination = %s %s %v", abs, rel, err)
	}
	for name, c := range map[string]struct {
		ds   *dataset
		dest string
	}{
		"outside the allowlist": {ds, filepath.Join(f.live, "data/a.bin")},
		"outside the live data": {ds, filepath.Join(f.outside, "app.conf")},
		"climbing out":          {ds, filepath.Join(f.live, "etc/../../outside/app.conf")},
		"relative":              {ds, "etc/app.conf"},
		"not enabled":           {&dataset{name: "ds", host: "local", engine: f.e}, filepath.Join(f.live, "etc/app.conf")},
		"path policy denies":    {restoreDS(f, f.live), filepath.Join(f.live, "etc/app.conf")},
		"the live root itself":  {restoreDS(f, f.live), f.live},
	} {
		t.Run(name, func(t *testing.T) {
			pol := pp
			if name == "path policy denies" {
				pol = openPaths(t, f.outside)
			}
			if _, rel, err := restoreDestination(c.ds, pol, f.live, "etc/app.conf", c.dest); err == nil && rel != "." {
				t.Errorf("destination %s accepted", c.dest)
			} else if err == nil {
				if _, err := restoreFile(context.Background(), f.export(t, "etc/app.conf"), localOpen, f.live, rel, 1<<20, time.Now()); err == nil {
					t.Errorf("restore over the live root accepted")
				}
			}
		})
	}
	if read(t, filepath.Join(f.live, "etc/app.conf")) != "port=8080 broken\n" {
		t.Fatal("a refused restore wrote")
	}
}

func TestRestoreFile(t *testing.T) {
	f := newCopyFixture(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 4, 5, 6, 0, time.UTC)
	live := filepath.Join(f.live, "etc/app.conf")
	res, err := restoreFile(ctx, f.export(t, "etc/app.conf"), localOpen, f.live, "etc/app.conf", 1<<20, now)
	if err != nil {
		t.Fatal(err)
	}
	aside := live + ".warden-restore-20261124T040506Z"
	if read(t, live) != "port=80\n" || read(t, aside) != "port=8080 broken\n" {
		t.Fatalf("live %q, aside %q", read(t, live), read(t, aside))
	}
	rf := res.Files[0]
	if rf.SHA256 != hexSHA("port=80\n") || rf.PreviousSHA256 != hexSHA("port=8080 broken\n") || rf.KeptAside != aside || rf.Created {
		t.Errorf("result = %+v", rf)
	}
	audit := restoreAudit(res)["restored"].([]map[string]any)[0]
	if audit["sha256_before"] != rf.PreviousSHA256 || audit["sha256_after"] != rf.SHA256 {
		t.Errorf("audit extra = %v, want both digests", audit)
	}
	// The kept version is restorable: moving it back gives the exact bytes.
	if err := os.Rename(aside, live); err != nil {
		t.Fatal(err)
	}
	if read(t, live) != "port=8080 broken\n" {
		t.Fatal("the kept-aside version is not the previous content")
	}
	// A second restore in the same second keeps a second version aside.
	for range 2 {
		if _, err := restoreFile(ctx, f.export(t, "etc/app.conf"), localOpen, f.live, "etc/app.conf", 1<<20, now); err != nil {
			t.Fatal(err)
		}
	}
	if read(t, aside) != "port=8080 broken\n" || read(t, aside+"-1") != "port=80\n" {
		t.Error("repeated restores overwrote a kept version")
	}
	// A missing file (and its directory) is created, nothing kept aside.
	res, err = restoreFile(ctx, f.export(t, "etc/sub/deep.conf"), localOpen, f.live, "etc/sub/deep.conf", 1<<20, now)
	if err != nil || !res.Files[0].Created || res.Files[0].KeptAside != "" || read(t, filepath.Join(f.live, "etc/sub/deep.conf")) != "deep\n" {
		t.Errorf("new file: %+v %v", res, err)
	}
}

// TestRestoreNeverFollowsOrOpensSpecials covers the snapshot side: a
// symlink, a FIFO and a device node are refused by restore_file and skipped
// by restore_dir, and a file swapped for a symlink after the export was
// opened is not followed.
func TestRestoreNeverFollowsOrOpensSpecials(t *testing.T) {
	f := newCopyFixture(t)
	ctx := context.Background()
	now := time.Now()
	if os.Geteuid() == 0 {
		if err := syscall.Mknod(filepath.Join(f.snap, "etc/null"), syscall.S_IFCHR|0o600, 1<<8|3); err != nil {
			t.Fatal(err)
		}
	} else {
		t.Log("not root: no device node in the snapshot")
	}
	for _, p := range []string{"etc/link", "etc/fifo", "etc/null"} {
		if _, err := os.Lstat(filepath.Join(f.snap, p)); err != nil {
			continue
		}
		if _, err := restoreFile(ctx, f.export(t, p), localOpen, f.live, p, 1<<20, now); !errors.Is(err, engine.ErrInvalidArgument) {
			t.Errorf("restore_file %s: err %v, want refused", p, err)
		}
		absent(t, filepath.Join(f.live, p))
	}
	res, err := restoreDir(ctx, f.export(t, "etc"), localOpen, f.live, "etc", 1<<20, 100, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"etc/link", "etc/fifo", "etc/null"} {
		absent(t, filepath.Join(f.live, p))
	}
	if res.FilesWritten != 2 || res.SkippedCount < 2 {
		t.Errorf("restore_dir = %+v", res)
	}
	// Swap the snapshot's file for a symlink to the outside after the
	// export saw a regular file.
	x := f.export(t, "etc/app.conf")
	snapFile := filepath.Join(f.snap, "etc/app.conf")
	if err := os.Remove(snapFile); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(f.outside, "secret"), snapFile); err != nil {
		t.Fatal(err)
	}
	before := read(t, filepath.Join(f.live, "etc/app.conf"))
	if _, err := restoreFile(ctx, x, localOpen, f.live, "etc/app.conf", 1<<20, now.Add(time.Hour)); err == nil {
		t.Fatal("restore followed a symlink swapped into the snapshot")
	}
	if got := read(t, filepath.Join(f.live, "etc/app.conf")); got != before || strings.Contains(got, outsideText) {
		t.Fatalf("live file = %q after a refused restore", got)
	}
	if m, _ := filepath.Glob(filepath.Join(f.live, "etc/app.conf.warden-restore-*")); len(m) != 1 {
		t.Errorf("kept-aside versions after a refused restore: %v, want only the earlier one", m)
	}
}

// TestRestoreDestinationSymlinkSwap: a directory of the destination
// replaced by a symlink to the outside, and the destination file replaced
// by one, are never written through.
func TestRestoreDestinationSymlinkSwap(t *testing.T) {
	f := newCopyFixture(t)
	ctx := context.Background()
	etc := filepath.Join(f.live, "etc")
	if err := os.Rename(etc, etc+".real"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.outside, etc); err != nil {
		t.Fatal(err)
	}
	if _, err := restoreFile(ctx, f.export(t, "etc/app.conf"), localOpen, f.live, "etc/app.conf", 1<<20, time.Now()); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("restore through a symlinked directory: err %v", err)
	}
	if _, err := restoreDir(ctx, f.export(t, "etc"), localOpen, f.live, "etc", 1<<20, 100, time.Now()); err == nil {
		t.Error("restore_dir through a symlinked directory succeeded")
	}
	if read(t, filepath.Join(f.outside, "app.conf")) != outsideText {
		t.Fatal("restore wrote through a symlinked directory")
	}
	if m, _ := filepath.Glob(filepath.Join(f.outside, "*warden*")); len(m) != 0 {
		t.Fatalf("restore left %v outside", m)
	}
	if err := os.Remove(etc); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(etc+".real", etc); err != nil {
		t.Fatal(err)
	}
	// The destination file itself a symlink to the outside.
	if err := os.Remove(filepath.Join(etc, "app.conf")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(f.outside, "app.conf"), filepath.Join(etc, "app.conf")); err != nil {
		t.Fatal(err)
	}
	if _, err := restoreFile(ctx, f.export(t, "etc/app.conf"), localOpen, f.live, "etc/app.conf", 1<<20, time.Now()); !errors.Is(err, engine.ErrInvalidArgument) {
		t.Errorf("restore over a symlink: err %v, want refused", err)
	}
	if read(t, filepath.Join(f.outside, "app.conf")) != outsideText {
		t.Fatal("restore wrote through a symlink destination")
	}
	if fi, err := os.Lstat(filepath.Join(etc, "app.conf")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v %v", fi, err)
	}
}

// TestRestoreFullDisk restores a file larger than the free space of a
// small tmpfs: the write fails, the original is intact at its name, and
// neither a kept-aside link nor a temporary file is left behind.
func TestRestoreFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	f := newCopyFixture(t)
	put(t, filepath.Join(f.snap, "etc/huge.bin"), strings.Repeat("h", 2<<20))
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", f.live).CombinedOutput(); err != nil {
		t.Fatalf("mount tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", f.live).Run() })
	put(t, filepath.Join(f.live, "etc/huge.bin"), "original\n")
	_, err := restoreFile(context.Background(), f.export(t, "etc/huge.bin"), localOpen, f.live, "etc/huge.bin", 4<<20, time.Now())
	if err == nil || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("restore onto a full disk: err %v, want ENOSPC", err)
	}
	if got := read(t, filepath.Join(f.live, "etc/huge.bin")); got != "original\n" {
		t.Fatalf("original = %q after a failed restore", got)
	}
	ents, err := os.ReadDir(filepath.Join(f.live, "etc"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("etc holds %v after a failed restore, want only huge.bin", names)
	}
}

// TestCopiesRefusedWhenEntered: with host_namespace: pid1 and no host
// seam to reach PID 1's files, the copy tools would write in warden's
// namespace, not the host's, so they refuse (with the seam they write
// there: TestSnapshotCopiesConformance in internal/hosts).
func TestCopiesRefusedWhenEntered(t *testing.T) {
	dir := t.TempDir()
	c, err := newCatalog(Deps{Sources: []Source{{SourceConfig: engine.SourceConfig{Name: "d", Kind: engine.KindDir, Path: dir, Live: dir}, Restore: Restore{Enabled: true, Allow: []string{dir}}}}})
	if err != nil {
		t.Fatal(err)
	}
	cg := copyGroup{group: group{c: c}, paths: openPaths(t, "/"), entered: true}
	if _, _, _, err := cg.plan(t.Context(), "d", "s1", "", filepath.Join(dir, "x")); err == nil {
		t.Error("fetch planned with host_namespace: pid1")
	}
	if _, _, _, _, _, err := cg.planRestore(context.Background(), "d", "s1", "x", ""); err == nil {
		t.Error("restore planned with host_namespace: pid1")
	}
	cg.entered = false
	if _, _, _, err := cg.plan(t.Context(), "d", "s1", "", filepath.Join(dir, "x")); err != nil {
		t.Errorf("fetch refused without pid1: %v", err)
	}
}

// TestRestoreConfig refuses, at startup, opt-ins that could never restore
// anything safely.
func TestRestoreConfig(t *testing.T) {
	for name, src := range map[string]Source{
		"empty allow":          {SourceConfig: engine.SourceConfig{Name: "a", Kind: engine.KindZFS, Path: "/tank/a"}, Restore: Restore{Enabled: true}},
		"allow outside live":   {SourceConfig: engine.SourceConfig{Name: "a", Kind: engine.KindZFS, Path: "/tank/a"}, Restore: Restore{Enabled: true, Allow: []string{"/etc"}}},
		"allow not clean":      {SourceConfig: engine.SourceConfig{Name: "a", Kind: engine.KindZFS, Path: "/tank/a"}, Restore: Restore{Enabled: true, Allow: []string{"/tank/a/../b"}}},
		"allow root":           {SourceConfig: engine.SourceConfig{Name: "a", Kind: engine.KindZFS, Path: "/"}, Restore: Restore{Enabled: true, Allow: []string{"/"}}},
		"dir without live":     {SourceConfig: engine.SourceConfig{Name: "a", Kind: engine.KindDir, Path: "/srv/b"}, Restore: Restore{Enabled: true, Allow: []string{"/srv/live"}}},
		"allow without enable": {SourceConfig: engine.SourceConfig{Name: "a", Kind: engine.KindZFS, Path: "/tank/a"}, Restore: Restore{Allow: []string{"/tank/a"}}},
		"remote without live":  {Host: "nas", SourceConfig: engine.SourceConfig{Name: "a", Kind: engine.KindBtrfs, Path: "/srv/.snapshots"}, Restore: Restore{Enabled: true, Allow: []string{"/srv/etc"}}},
	} {
		if _, err := newCatalog(Deps{Sources: []Source{src}, Remote: func(string) (runner.Runner, engine.OpenFSFunc, error) { return nil, nil, nil }}); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	ok := Source{SourceConfig: engine.SourceConfig{Name: "a", Kind: engine.KindZFS, Path: "/tank/a"}, Restore: Restore{Enabled: true, Allow: []string{"/tank/a/etc"}}}
	if _, err := newCatalog(Deps{Sources: []Source{ok}}); err != nil {
		t.Errorf("a valid opt-in was refused: %v", err)
	}
}
