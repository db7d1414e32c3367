package snapshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// benchFiles is the size of the benchmark tree.
const benchFiles = 200_000

// benchTree builds (once, cached under the temp dir) two snapshots of a
// 200,000-file tree: a, and b = cp -a of a with 1,000 files deleted, 1,000
// added, 1,000 rewritten (half the same size, all with new mtimes) and 100
// renamed. It returns the parent of a and b.
func benchTree(b *testing.B) string {
	b.Helper()
	root := filepath.Join(os.TempDir(), fmt.Sprintf("warden-snapshot-bench-%d-v1", benchFiles))
	done := filepath.Join(root, ".complete")
	if _, err := os.Stat(done); err == nil {
		return root
	}
	b.Logf("building the %d-file benchmark tree under %s (cached for later runs)", benchFiles, root)
	if err := os.RemoveAll(root); err != nil {
		b.Fatal(err)
	}
	a := filepath.Join(root, "a")
	mt := time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)
	name := func(i int) string {
		return filepath.Join(fmt.Sprintf("d%02d", i%20), fmt.Sprintf("e%02d", (i/20)%20), fmt.Sprintf("f%06d.dat", i))
	}
	for i := range benchFiles {
		p := filepath.Join(a, name(i))
		if i < 400 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		body := fmt.Sprintf("file %d %0*d\n", i, 40+i%200, i)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Chtimes(p, mt, mt); err != nil {
			b.Fatal(err)
		}
	}
	bdir := filepath.Join(root, "b")
	if out, err := exec.Command("cp", "-a", a, bdir).CombinedOutput(); err != nil {
		b.Fatalf("cp -a: %v %s", err, out)
	}
	later := mt.Add(24 * time.Hour)
	for k := range 1000 {
		i := k * 197
		if err := os.Remove(filepath.Join(bdir, name(i))); err != nil {
			b.Fatal(err)
		}
		p := filepath.Join(bdir, name(i+1))
		old, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		body := append([]byte("X"), old[1:]...)
		if k%2 == 1 {
			body = append(body, "grown\n"...)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Chtimes(p, later, later); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bdir, fmt.Sprintf("d%02d", k%20), fmt.Sprintf("new%04d.dat", k)), []byte(fmt.Sprintf("new %d\n", k)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for k := range 100 {
		i := k*197 + 2
		if err := os.Rename(filepath.Join(bdir, name(i)), filepath.Join(bdir, name(i)+".moved")); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return root
}

func benchEngine(b *testing.B, root string) *Engine {
	return newEngine(b, Config{Sources: []SourceConfig{{Name: "bench", Kind: KindDir, Path: root, Pattern: "[ab]"}}})
}

// BenchmarkSnapshotDiff compares the two trees with snapshot_diff.
func BenchmarkSnapshotDiff(b *testing.B) {
	root := benchTree(b)
	e := benchEngine(b, root)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		res, err := e.Diff(ctx, DiffArgs{Dataset: "bench", A: "a", B: "b", TimeoutS: 120})
		if err != nil {
			b.Fatal(err)
		}
		if res.RemovedCount != 1000 || res.AddedCount != 1000 || res.ModifiedCount != 1000 || res.RenamedCount != 100 || res.Truncated && res.TruncatedReason != reasonResults {
			b.Fatalf("diff counts: removed %d added %d modified %d renamed %d truncated %v %s",
				res.RemovedCount, res.AddedCount, res.ModifiedCount, res.RenamedCount, res.Truncated, res.TruncatedReason)
		}
		b.ReportMetric(float64(res.FilesRead), "files-read/op")
	}
}

// BenchmarkFindDeleted runs find_deleted between the two trees.
func BenchmarkFindDeleted(b *testing.B) {
	root := benchTree(b)
	// Order the snapshots a, b by mtime.
	for i, s := range []string{"a", "b"} {
		t := time.Date(2026, 11, 1+i, 0, 0, 0, 0, time.UTC)
		if err := os.Chtimes(filepath.Join(root, s), t, t); err != nil {
			b.Fatal(err)
		}
	}
	e := benchEngine(b, root)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		res, err := e.FindDeleted(ctx, FindDeletedArgs{Dataset: "bench", TimeoutS: 120})
		if err != nil {
			b.Fatal(err)
		}
		if res.DeletedCount != 1000 || res.MovedCount != 100 {
			b.Fatalf("deleted %d moved %d", res.DeletedCount, res.MovedCount)
		}
	}
}

// BenchmarkDiffRQ is the baseline: GNU diff -rq over the same trees.
func BenchmarkDiffRQ(b *testing.B) {
	root := benchTree(b)
	if _, err := exec.LookPath("diff"); err != nil {
		b.Skip("diff not installed")
	}
	b.ResetTimer()
	for b.Loop() {
		cmd := exec.Command("diff", "-rq", filepath.Join(root, "a"), filepath.Join(root, "b"))
		out, err := cmd.Output()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || len(out) == 0 {
			b.Fatalf("diff -rq: %v", err)
		}
	}
}
