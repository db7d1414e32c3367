package snapshot

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestCapsClamp(t *testing.T) {
	dir := t.TempDir()
	for i := range 20 {
		writeFile(t, dir+"/s1", fmt.Sprintf("d/f%02d.txt", i), strings.Repeat(fmt.Sprintf("line %d match\n", i), 50), time.Time{})
	}
	writeFile(t, dir+"/s2", "d/f00.txt", strings.Repeat("other\n", 10000), time.Time{})
	lim := Limits{
		ReadBytes:   Cap{8, 16},
		ListEntries: Cap{3, 5},
		Results:     Cap{2, 4},
		Matches:     Cap{3, 6},
		DiffBytes:   Cap{100, 200},
		TopN:        Cap{1, 2},
		Depth:       Cap{1, 1},
		TimeoutS:    Cap{1, 2},
	}
	e := newEngine(t, Config{Limits: lim, Sources: []SourceConfig{{Name: "d", Kind: KindDir, Path: dir}}})
	ctx := context.Background()
	huge := math.MaxInt32

	rf, err := e.ReadFile(ctx, ReadFileArgs{Dataset: "d", Snapshot: "s1", Path: "d/f00.txt", MaxBytes: huge})
	if err != nil || len(rf.Content) != 16 || !rf.Truncated {
		t.Errorf("read_file huge cap: %d bytes truncated=%v err=%v, want 16 true", len(rf.Content), rf.Truncated, err)
	}
	rf, _ = e.ReadFile(ctx, ReadFileArgs{Dataset: "d", Snapshot: "s1", Path: "d/f00.txt"})
	if len(rf.Content) != 8 {
		t.Errorf("read_file default: %d bytes, want 8", len(rf.Content))
	}
	rf, err = e.ReadFile(ctx, ReadFileArgs{Dataset: "d", Snapshot: "s1", Path: "d/f00.txt", Offset: 1 << 40})
	if err != nil || rf.Content != "" || rf.Truncated {
		t.Errorf("read past end: %+v %v", rf, err)
	}
	ld, err := e.ListDir(ctx, ListDirArgs{Dataset: "d", Snapshot: "s1", Path: "d", MaxEntries: huge})
	if err != nil || len(ld.Entries) != 5 || ld.Total != 20 || !ld.Truncated {
		t.Errorf("list_dir huge cap: %d of %d truncated=%v err=%v", len(ld.Entries), ld.Total, ld.Truncated, err)
	}
	ff, err := e.FindFiles(ctx, FindFilesArgs{Dataset: "d", Snapshot: "s1", Pattern: "*.txt", MaxResults: huge})
	if err != nil || len(ff.Files) != 4 || !ff.Truncated || ff.TruncatedReason != reasonResults {
		t.Errorf("find_files huge cap: %d truncated=%v %s err=%v", len(ff.Files), ff.Truncated, ff.TruncatedReason, err)
	}
	gr, err := e.Grep(ctx, GrepArgs{Dataset: "d", Snapshot: "s1", Regex: "match", MaxMatches: huge})
	if err != nil || len(gr.Matches) != 6 || !gr.Truncated {
		t.Errorf("grep huge cap: %d truncated=%v err=%v", len(gr.Matches), gr.Truncated, err)
	}
	df, err := e.Diff(ctx, DiffArgs{Dataset: "d", A: "s1", B: "s2", MaxResults: huge})
	if err != nil || len(df.Removed) != 4 || df.RemovedCount != 19 || !df.Truncated {
		t.Errorf("diff huge cap: %d of %d truncated=%v err=%v", len(df.Removed), df.RemovedCount, df.Truncated, err)
	}
	fd, err := e.FileDiff(ctx, FileDiffArgs{Dataset: "d", A: "s1", B: "s2", Path: "d/f00.txt", MaxBytes: huge})
	if err != nil || len(fd.Diff) > 200 || !fd.Truncated {
		t.Errorf("file_diff huge cap: %d bytes truncated=%v err=%v", len(fd.Diff), fd.Truncated, err)
	}
	if !strings.HasSuffix(fd.Diff, "\n") {
		t.Errorf("file_diff not cut on a line boundary: %q", fd.Diff)
	}
	tc, err := e.TopConsumers(ctx, TopArgs{Dataset: "d", Snapshot: "s1", N: huge})
	if err != nil || len(tc.Files) != 2 {
		t.Errorf("top_consumers huge n: %d files err=%v", len(tc.Files), err)
	}
	sb, err := e.SizeBreakdown(ctx, SizeArgs{Dataset: "d", Snapshot: "s1", Depth: huge})
	if err != nil || len(sb.Dirs) != 2 {
		t.Errorf("size_breakdown huge depth: %+v err=%v", sb.Dirs, err)
	}
	if got := e.limits.timeout("snapshot_grep", huge); got != 2*time.Second {
		t.Errorf("timeout huge = %v, want 2s", got)
	}
	if got := e.limits.timeout("snapshot_grep", 0); got != time.Second {
		t.Errorf("timeout default = %v, want 1s", got)
	}
}

func TestWalkAndScanLimits(t *testing.T) {
	dir := t.TempDir()
	for i := range 50 {
		writeFile(t, dir+"/s1", fmt.Sprintf("d%d/f.txt", i), "needle\n", time.Time{})
	}
	e := newEngine(t, Config{Limits: Limits{WalkEntries: 20, ScanBytes: 30}, Sources: []SourceConfig{{Name: "d", Kind: KindDir, Path: dir}}})
	ctx := context.Background()
	ff, err := e.FindFiles(ctx, FindFilesArgs{Dataset: "d", Pattern: "*.txt"})
	if err != nil || !ff.Truncated || ff.TruncatedReason != reasonWalk {
		t.Errorf("find_files walk limit: truncated=%v %q err=%v", ff.Truncated, ff.TruncatedReason, err)
	}
	e = newEngine(t, Config{Limits: Limits{ScanBytes: 30}, Sources: []SourceConfig{{Name: "d", Kind: KindDir, Path: dir}}})
	gr, err := e.Grep(ctx, GrepArgs{Dataset: "d", Snapshot: "s1", Regex: "needle", MaxMatches: 1000})
	if err != nil || !gr.Truncated || gr.TruncatedReason != reasonScan || gr.BytesScanned > 30+7*int64(e.workers) {
		t.Errorf("grep scan limit: truncated=%v %q scanned=%d err=%v", gr.Truncated, gr.TruncatedReason, gr.BytesScanned, err)
	}
}

// TestGrepHugeSingleLine greps a 50 MiB file with no newline: the answer
// is bounded, quick, and the file is never held in memory.
func TestGrepHugeSingleLine(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s1", "huge.txt")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	chunk := strings.Repeat("abcdefghij", 1<<16)
	for w.Size() > 0 && written(f, w) < 50<<20 {
		w.WriteString(chunk)
	}
	w.WriteString("NEEDLE-at-the-end")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	e := newEngine(t, Config{Sources: []SourceConfig{{Name: "d", Kind: KindDir, Path: dir}}})
	ctx := context.Background()

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	res, err := e.Grep(ctx, GrepArgs{Dataset: "d", Snapshot: "s1", Path: "huge.txt", Regex: "NEEDLE"})
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 1 || !res.Matches[0].Cut || len(res.Matches[0].Text) > excerptMax || !strings.Contains(res.Matches[0].Text, "NEEDLE-at-the-end") {
		t.Fatalf("matches = %+v", res.Matches)
	}
	if res.Matches[0].Line != 1 || res.Matches[0].Column != int64(50<<20)+1 {
		t.Errorf("line %d column %d, want 1 and %d", res.Matches[0].Line, res.Matches[0].Column, (50<<20)+1)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("grep allocated %d bytes for a 50 MiB line; it must not hold the line", alloc)
	}
	if elapsed > 10*time.Second {
		t.Errorf("grep took %v", elapsed)
	}
	t.Logf("50 MiB single line: %v, %d bytes scanned", elapsed, res.BytesScanned)

	// Matching everywhere stops at the match cap at once.
	start = time.Now()
	res, err = e.Grep(ctx, GrepArgs{Dataset: "d", Snapshot: "s1", Path: "huge.txt", Regex: "abc", MaxMatches: 5})
	if err != nil || len(res.Matches) != 5 || !res.Truncated || res.BytesScanned > 1<<20 {
		t.Errorf("match-everywhere: %d matches truncated=%v scanned=%d err=%v", len(res.Matches), res.Truncated, res.BytesScanned, err)
	}
	for _, m := range res.Matches {
		if len(m.Text) > excerptMax {
			t.Errorf("excerpt of %d bytes", len(m.Text))
		}
	}
	t.Logf("match-everywhere: %v", time.Since(start))

	// A wall-time bound ends a long scan with truncated, not an error.
	slow := newEngine(t, Config{Limits: Limits{TimeoutS: Cap{1, 1}}, Sources: []SourceConfig{{Name: "d", Kind: KindDir, Path: dir}}})
	tctx, cancel := context.WithTimeout(ctx, time.Millisecond)
	defer cancel()
	time.Sleep(2 * time.Millisecond)
	res, err = slow.Grep(tctx, GrepArgs{Dataset: "d", Snapshot: "s1", Path: "huge.txt", Regex: "NEEDLE"})
	if err == nil && !res.Truncated {
		t.Errorf("expired call: %+v", res)
	}
}

func written(f *os.File, w *bufio.Writer) int64 {
	st, _ := f.Stat()
	return st.Size() + int64(w.Buffered())
}
