package snapshot

import (
	"container/heap"
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

// dirTotals walks a subtree and returns each directory's own file bytes
// and file count (not yet summed into ancestors), and the files seen.
type dirTotals struct {
	mu    sync.Mutex
	bytes map[string]int64
	files map[string]int64
	dirs  []string
}

func (t *dirTotals) visit(dir string, entries []fs.FileInfo) {
	var b, n int64
	for _, fi := range entries {
		if !fi.IsDir() {
			b += fi.Size()
			n++
		}
	}
	t.mu.Lock()
	t.bytes[dir] += b
	t.files[dir] += n
	t.dirs = append(t.dirs, dir)
	t.mu.Unlock()
}

// rollUp sums every directory's totals into its ancestors up to start.
func (t *dirTotals) rollUp(start string) {
	sort.Slice(t.dirs, func(i, j int) bool {
		return strings.Count(t.dirs[i], "/") > strings.Count(t.dirs[j], "/")
	})
	for _, d := range t.dirs {
		if d == start {
			continue
		}
		parent := path.Dir(d)
		t.bytes[parent] += t.bytes[d]
		t.files[parent] += t.files[d]
	}
}

// depthBelow is how many components p has below start.
func depthBelow(start, p string) int {
	if p == start {
		return 0
	}
	if start == "." {
		return strings.Count(p, "/") + 1
	}
	return strings.Count(strings.TrimPrefix(p, start+"/"), "/") + 1
}

// SizeArgs are the arguments of size_breakdown.
type SizeArgs struct {
	Dataset    string `json:"dataset" jsonschema:"dataset name"`
	Snapshot   string `json:"snapshot" jsonschema:"snapshot name, or @live"`
	Path       string `json:"path,omitempty" jsonschema:"directory to break down; empty for the root"`
	Depth      int    `json:"depth,omitempty" jsonschema:"directory levels to report below path (clamped to the server cap)"`
	MaxEntries int    `json:"max_entries,omitempty" jsonschema:"most directories to report, largest kept (clamped to the server cap)"`
	TimeoutS   int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// DirSize is the apparent size of a directory tree.
type DirSize struct {
	Path  string `json:"path"`
	Depth int    `json:"depth" jsonschema:"levels below the requested path (0 is the path itself)"`
	Bytes int64  `json:"bytes" jsonschema:"apparent size of all non-directory entries below"`
	Files int64  `json:"files" jsonschema:"non-directory entries below"`
}

// SizeResult is the result of size_breakdown.
type SizeResult struct {
	Dataset         string    `json:"dataset"`
	Snapshot        string    `json:"snapshot"`
	Path            string    `json:"path"`
	Dirs            []DirSize `json:"dirs" jsonschema:"directories down to depth, sorted by path"`
	Unreadable      int64     `json:"unreadable_dirs"`
	Truncated       bool      `json:"truncated"`
	TruncatedReason string    `json:"truncated_reason,omitempty"`
}

// SizeBreakdown reports where the bytes of a snapshot subtree are, down to
// a depth (size_breakdown). Sizes are apparent sizes; hard links count
// once per name.
func (e *Engine) SizeBreakdown(ctx context.Context, args SizeArgs) (SizeResult, error) {
	ctx, cancel := e.withTimeout(ctx, "size_breakdown", args.TimeoutS)
	defer cancel()
	v, err := e.open(ctx, args.Dataset, args.Snapshot)
	if err != nil {
		return SizeResult{}, err
	}
	defer v.close()
	rel, info, err := v.lookup(args.Path)
	if err != nil {
		return SizeResult{}, err
	}
	if !info.IsDir() {
		return SizeResult{}, invalidf("%s is not a directory", rel)
	}
	depth := e.limits.Depth.clamp(args.Depth)
	t := &dirTotals{bytes: map[string]int64{}, files: map[string]int64{}}
	var st walkStats
	if err := e.walk(ctx, v.fsys, rel, &st, func(dir string, entries []fs.FileInfo) error {
		t.visit(dir, entries)
		return nil
	}); err != nil {
		return SizeResult{}, fmt.Errorf("size_breakdown: %w", err)
	}
	t.rollUp(rel)
	res := SizeResult{Dataset: args.Dataset, Snapshot: v.snap.Name, Path: rel, Dirs: []DirSize{}, Unreadable: st.unreadable.Load()}
	for _, d := range t.dirs {
		if dd := depthBelow(rel, d); dd <= depth {
			res.Dirs = append(res.Dirs, DirSize{Path: d, Depth: dd, Bytes: t.bytes[d], Files: t.files[d]})
		}
	}
	if max := e.limits.ListEntries.clamp(args.MaxEntries); len(res.Dirs) > max {
		sort.Slice(res.Dirs, func(i, j int) bool { return res.Dirs[i].Bytes > res.Dirs[j].Bytes })
		res.Dirs = res.Dirs[:max]
		res.TruncatedReason = reasonResults
	}
	sort.Slice(res.Dirs, func(i, j int) bool { return res.Dirs[i].Path < res.Dirs[j].Path })
	if r := truncation(ctx, &st); r != "" {
		res.TruncatedReason = r
	}
	res.Truncated = res.TruncatedReason != ""
	return res, nil
}

// TopArgs are the arguments of top_consumers.
type TopArgs struct {
	Dataset  string `json:"dataset" jsonschema:"dataset name"`
	Snapshot string `json:"snapshot" jsonschema:"snapshot name, or @live"`
	Path     string `json:"path,omitempty" jsonschema:"subtree to search; empty for the root"`
	N        int    `json:"n,omitempty" jsonschema:"how many files and directories to return (clamped to the server cap)"`
	TimeoutS int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// Consumer is one large file or directory.
type Consumer struct {
	Path    string    `json:"path"`
	Bytes   int64     `json:"bytes"`
	Files   int64     `json:"files,omitempty" jsonschema:"for directories, non-directory entries below"`
	ModTime time.Time `json:"mtime,omitzero"`
}

// TopResult is the result of top_consumers.
type TopResult struct {
	Dataset         string     `json:"dataset"`
	Snapshot        string     `json:"snapshot"`
	Path            string     `json:"path"`
	Files           []Consumer `json:"files" jsonschema:"largest files, largest first"`
	Dirs            []Consumer `json:"dirs" jsonschema:"largest directories by total size below them, largest first"`
	TotalBytes      int64      `json:"total_bytes"`
	Unreadable      int64      `json:"unreadable_dirs"`
	Truncated       bool       `json:"truncated"`
	TruncatedReason string     `json:"truncated_reason,omitempty"`
}

// consumerHeap is a min-heap by size, holding the n largest seen.
type consumerHeap []Consumer

func (h consumerHeap) Len() int           { return len(h) }
func (h consumerHeap) Less(i, j int) bool { return h[i].Bytes < h[j].Bytes }
func (h consumerHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *consumerHeap) Push(x any)        { *h = append(*h, x.(Consumer)) }
func (h *consumerHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (h *consumerHeap) offer(c Consumer, n int) {
	if h.Len() < n {
		heap.Push(h, c)
	} else if (*h)[0].Bytes < c.Bytes {
		(*h)[0] = c
		heap.Fix(h, 0)
	}
}

func (h consumerHeap) sorted() []Consumer {
	out := append([]Consumer{}, h...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bytes != out[j].Bytes {
			return out[i].Bytes > out[j].Bytes
		}
		return out[i].Path < out[j].Path
	})
	return out
}

// TopConsumers finds the largest files and directories of a snapshot
// (top_consumers).
func (e *Engine) TopConsumers(ctx context.Context, args TopArgs) (TopResult, error) {
	ctx, cancel := e.withTimeout(ctx, "top_consumers", args.TimeoutS)
	defer cancel()
	v, err := e.open(ctx, args.Dataset, args.Snapshot)
	if err != nil {
		return TopResult{}, err
	}
	defer v.close()
	rel, info, err := v.lookup(args.Path)
	if err != nil {
		return TopResult{}, err
	}
	if !info.IsDir() {
		return TopResult{}, invalidf("%s is not a directory", rel)
	}
	n := e.limits.TopN.clamp(args.N)
	t := &dirTotals{bytes: map[string]int64{}, files: map[string]int64{}}
	var (
		mu    sync.Mutex
		files consumerHeap
		st    walkStats
	)
	if err := e.walk(ctx, v.fsys, rel, &st, func(dir string, entries []fs.FileInfo) error {
		t.visit(dir, entries)
		mu.Lock()
		defer mu.Unlock()
		for _, fi := range entries {
			if !fi.IsDir() {
				files.offer(Consumer{Path: joinRel(dir, fi.Name()), Bytes: fi.Size(), ModTime: fi.ModTime()}, n)
			}
		}
		return nil
	}); err != nil {
		return TopResult{}, fmt.Errorf("top_consumers: %w", err)
	}
	t.rollUp(rel)
	var dirs consumerHeap
	for _, d := range t.dirs {
		if d != rel {
			dirs.offer(Consumer{Path: d, Bytes: t.bytes[d], Files: t.files[d]}, n)
		}
	}
	res := TopResult{Dataset: args.Dataset, Snapshot: v.snap.Name, Path: rel, Files: files.sorted(), Dirs: dirs.sorted(),
		TotalBytes: t.bytes[rel], Unreadable: st.unreadable.Load()}
	res.TruncatedReason = truncation(ctx, &st)
	res.Truncated = res.TruncatedReason != ""
	return res, nil
}
