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
)

// historyTree builds (once, cached under the temp dir) n daily directory
// snapshots of a small tree whose etc/app.conf changes every tenth day.
func historyTree(b *testing.B, n int) string {
	b.Helper()
	root := filepath.Join(os.TempDir(), fmt.Sprintf("warden-snapshot-history-%d-v1", n))
	done := filepath.Join(root, ".complete")
	if _, err := os.Stat(done); err == nil {
		return root
	}
	if err := os.RemoveAll(root); err != nil {
		b.Fatal(err)
	}
	base := time.Date(2025, 1, 1, 3, 0, 0, 0, time.UTC)
	for i := range n {
		day := base.AddDate(0, 0, i)
		dir := filepath.Join(root, "daily-"+day.Format("2006-01-02"))
		writeFile(b, dir, "etc/app.conf", fmt.Sprintf("version=%d\n%s", i/10, strings.Repeat("# padding\n", 100)), base.AddDate(0, 0, i/10*10))
		writeFile(b, dir, "etc/hosts", "127.0.0.1 localhost\n", base)
		writeFile(b, dir, "var/log/app.log", strings.Repeat("line\n", i), day)
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return root
}

// BenchmarkFileHistory runs file_history over 100 and 500 directory
// snapshots, warm (the tree was read once before timing). B/op divided by
// the snapshot count stays the same: memory per snapshot is flat.
func BenchmarkFileHistory(b *testing.B) {
	for _, n := range []int{100, 500} {
		b.Run(fmt.Sprintf("snapshots=%d", n), func(b *testing.B) {
			root := historyTree(b, n)
			e := newEngine(b, Config{Sources: []SourceConfig{{Name: "h", Kind: KindDir, Path: root, Pattern: "daily-*", TimeFormat: "2006-01-02"}}})
			ctx := context.Background()
			args := FileHistoryArgs{Dataset: "h", Path: "etc/app.conf", MaxResults: 10000, TimeoutS: 120}
			if _, err := e.FileHistory(ctx, args); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				res, err := e.FileHistory(ctx, args)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Revisions) != n || res.Changes != (n-1)/10 || res.Truncated {
					b.Fatalf("%d revisions, %d changes, truncated %v", len(res.Revisions), res.Changes, res.Truncated)
				}
			}
		})
	}
}

// BenchmarkSizeDelta runs size_delta between the two 200,000-file trees.
func BenchmarkSizeDelta(b *testing.B) {
	root := benchTree(b)
	e := benchEngine(b, root)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := e.SizeDelta(ctx, SizeDeltaArgs{Dataset: "bench", From: "a", To: "b", TimeoutS: 120})
		if err != nil {
			b.Fatal(err)
		}
		if res.FromFiles != benchFiles || res.ToFiles != benchFiles || res.Truncated || res.AddedBytes == 0 || res.GrownBytes < int64(500*len("grown\n")) {
			b.Fatalf("size_delta: %+v", res)
		}
	}
}

// BenchmarkDuBoth is size_delta's baseline: du -s of both trees, one run.
func BenchmarkDuBoth(b *testing.B) {
	root := benchTree(b)
	if _, err := exec.LookPath("du"); err != nil {
		b.Skip("du not installed")
	}
	b.ResetTimer()
	for b.Loop() {
		out, err := exec.Command("du", "-s", filepath.Join(root, "a"), filepath.Join(root, "b")).Output()
		if err != nil || strings.Count(string(out), "\n") != 2 {
			b.Fatalf("du -s: %v %q", err, out)
		}
	}
}
