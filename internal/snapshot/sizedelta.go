package snapshot

import (
	"bytes"
	"container/heap"
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// SizeDeltaArgs are the arguments of size_delta.
type SizeDeltaArgs struct {
	Dataset  string `json:"dataset" jsonschema:"dataset name"`
	From     string `json:"from" jsonschema:"older snapshot"`
	To       string `json:"to" jsonschema:"newer snapshot, or @live"`
	Path     string `json:"path,omitempty" jsonschema:"subtree to compare; empty for the root"`
	N        int    `json:"n,omitempty" jsonschema:"how many contributors to return (clamped to the server cap)"`
	TimeoutS int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// Contributor is one file or top-level directory whose size changed.
type Contributor struct {
	Path      string `json:"path"`
	FromBytes int64  `json:"from_bytes"`
	ToBytes   int64  `json:"to_bytes"`
	Delta     int64  `json:"delta_bytes"`
	Change    string `json:"change" jsonschema:"added, removed, grown or shrunk"`
}

// ZFSWritten is what ZFS itself says was written between the snapshots.
type ZFSWritten struct {
	Property string `json:"property" jsonschema:"the property read, written@<from>"`
	Of       string `json:"of" jsonschema:"the dataset or snapshot it was read on"`
	Bytes    int64  `json:"bytes" jsonschema:"bytes written after from and still referenced by to"`
	Error    string `json:"error,omitempty" jsonschema:"why it could not be read; the walk's figures stand"`
}

// SizeDeltaResult is the result of size_delta.
type SizeDeltaResult struct {
	Dataset      string        `json:"dataset"`
	From         string        `json:"from"`
	To           string        `json:"to"`
	Path         string        `json:"path"`
	FromBytes    int64         `json:"from_bytes" jsonschema:"apparent size of the tree in from"`
	ToBytes      int64         `json:"to_bytes" jsonschema:"apparent size of the tree in to"`
	FromFiles    int64         `json:"from_files"`
	ToFiles      int64         `json:"to_files"`
	Delta        int64         `json:"delta_bytes" jsonschema:"to_bytes - from_bytes"`
	AddedBytes   int64         `json:"added_bytes" jsonschema:"bytes of files only in to"`
	RemovedBytes int64         `json:"removed_bytes" jsonschema:"bytes of files only in from"`
	GrownBytes   int64         `json:"grown_bytes" jsonschema:"growth of files in both"`
	ShrunkBytes  int64         `json:"shrunk_bytes" jsonschema:"shrinkage of files in both"`
	Files        []Contributor `json:"files" jsonschema:"files with the largest size change, largest first"`
	Dirs         []Contributor `json:"dirs" jsonschema:"entries directly below path with the largest size change, largest first"`
	ZFS          *ZFSWritten   `json:"zfs,omitempty" jsonschema:"for ZFS with zfs get: the written@from property of to"`
	Btrfs        *BtrfsSpace   `json:"btrfs,omitempty" jsonschema:"for btrfs: the quota groups (referenced, exclusive) of both snapshots, where quotas are enabled"`
	Unreadable   int64         `json:"unreadable_dirs"`
	Truncated    bool          `json:"truncated"`
	// TruncatedReason says which bound stopped the walk: the totals then
	// cover only what was visited.
	TruncatedReason string `json:"truncated_reason,omitempty"`
}

type deltaJob struct {
	dir  string
	side side
	top  string // the entry directly below the start it belongs to
}

// deltaState is what the parallel walk accumulates.
type deltaState struct {
	mu    sync.Mutex
	res   *SizeDeltaResult
	files deltaHeap
	top   map[string]*Contributor
	n     int
}

// SizeDelta compares the apparent size of a tree in two snapshots
// (size_delta): totals, bytes added, removed, grown and shrunk, and the
// files and top-level entries that changed most. Both trees are walked
// together, a directory pair at a time, so memory grows with the
// contributors kept and the entries directly below path, not with the
// tree. For ZFS with a dataset and a runner, the written@from property of
// to is reported as well: the space the snapshots really hold apart.
func (e *Engine) SizeDelta(ctx context.Context, args SizeDeltaArgs) (SizeDeltaResult, error) {
	ctx, cancel := e.withTimeout(ctx, "size_delta", args.TimeoutS)
	defer cancel()
	if args.From == "" || args.To == "" {
		return SizeDeltaResult{}, invalidf("from and to are required")
	}
	if args.From == LiveSnapshot {
		return SizeDeltaResult{}, invalidf("from must be a snapshot; @live can only be to")
	}
	a, err := e.open(ctx, args.Dataset, args.From)
	if err != nil {
		return SizeDeltaResult{}, err
	}
	defer a.close()
	b, err := e.open(ctx, args.Dataset, args.To)
	if err != nil {
		return SizeDeltaResult{}, err
	}
	defer b.close()
	rel, err := cleanRel(args.Path)
	if err != nil {
		return SizeDeltaResult{}, err
	}
	ra, ia, errA := a.lookup(rel)
	rb, ib, errB := b.lookup(rel)
	for _, err := range []error{errA, errB} {
		if isInvalid(err) {
			return SizeDeltaResult{}, err
		}
	}
	if errA != nil && errB != nil {
		return SizeDeltaResult{}, notFoundf("%s exists in neither %s nor %s", rel, args.From, args.To)
	}
	res := SizeDeltaResult{Dataset: args.Dataset, From: a.snap.Name, To: b.snap.Name, Path: rel, Files: []Contributor{}, Dirs: []Contributor{}}
	seed := deltaJob{dir: rel, side: sideBoth}
	switch {
	case errA != nil:
		seed.dir, seed.side = rb, sideB
	case errB != nil:
		seed.dir, seed.side = ra, sideA
	case ra != rb:
		return SizeDeltaResult{}, invalidf("%s resolves to %s in %s but %s in %s; name the real directory", rel, ra, args.From, rb, args.To)
	default:
		seed.dir = ra
	}
	for _, info := range []fs.FileInfo{ia, ib} {
		if info != nil && !info.IsDir() {
			return SizeDeltaResult{}, invalidf("%s is not a directory", rel)
		}
	}
	st := &deltaState{res: &res, top: map[string]*Contributor{}, n: e.limits.TopN.clamp(args.N)}
	var ws walkStats
	limit := int64(e.limits.WalkEntries)
	err = parallel(ctx, e.workers, e.looks, []deltaJob{seed}, func(ctx context.Context, j deltaJob) ([]deltaJob, error) {
		var ea, eb []fs.FileInfo
		var err error
		if j.side != sideB {
			if ea, err = a.fsys.ReadDir(j.dir); err != nil {
				ws.unreadable.Add(1)
				ea = nil
			}
		}
		if j.side != sideA {
			if eb, err = b.fsys.ReadDir(j.dir); err != nil {
				ws.unreadable.Add(1)
				eb = nil
			}
		}
		if ws.entries.Add(int64(len(ea)+len(eb))) > limit {
			ws.overLimit.Store(true)
			return nil, errStop
		}
		return st.pair(j, ea, eb), nil
	})
	if err != nil && err != errStop && ctx.Err() == nil {
		return SizeDeltaResult{}, fmt.Errorf("size_delta: %w", err)
	}
	res.Delta = res.ToBytes - res.FromBytes
	res.Files = st.files.sorted()
	var tops deltaHeap
	for _, c := range st.top {
		if c.Delta != 0 {
			tops.offer(*c, st.n)
		}
	}
	res.Dirs = tops.sorted()
	res.Unreadable = ws.unreadable.Load()
	res.TruncatedReason = truncation(ctx, &ws)
	res.Truncated = res.TruncatedReason != ""
	if src, err := e.source(args.Dataset); err == nil && e.runner != nil {
		switch {
		case src.Kind == KindZFS && src.Dataset != "":
			res.ZFS = e.zfsWritten(ctx, src, a.snap, b.snap)
		case src.Kind == KindBtrfs:
			res.Btrfs = e.btrfsSpace(ctx, src, a.snap, b.snap)
		}
	}
	return res, nil
}

// pair compares one directory's listings in from (ea) and to (eb) and
// returns the directories to visit next.
func (st *deltaState) pair(j deltaJob, ea, eb []fs.FileInfo) []deltaJob {
	type both struct{ a, b fs.FileInfo }
	names := make(map[string]*both, len(ea)+len(eb))
	for _, fi := range ea {
		names[fi.Name()] = &both{a: fi}
	}
	for _, fi := range eb {
		if p, ok := names[fi.Name()]; ok {
			p.b = fi
		} else {
			names[fi.Name()] = &both{b: fi}
		}
	}
	isDir := func(fi fs.FileInfo) bool { return fi != nil && fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0 }
	var next []deltaJob
	var changes []Contributor
	var fromB, toB, fromN, toN, added, removed, grown, shrunk int64
	topDelta := map[string][2]int64{}
	for name, p := range names {
		child := joinRel(j.dir, name)
		top := j.top
		if top == "" {
			top = child
		}
		da, db := isDir(p.a), isDir(p.b)
		switch {
		case da && db:
			next = append(next, deltaJob{dir: child, side: sideBoth, top: top})
		case da:
			next = append(next, deltaJob{dir: child, side: sideA, top: top})
		case db:
			next = append(next, deltaJob{dir: child, side: sideB, top: top})
		}
		var sa, sb int64
		if p.a != nil && !da {
			sa = p.a.Size()
			fromB += sa
			fromN++
		}
		if p.b != nil && !db {
			sb = p.b.Size()
			toB += sb
			toN++
		}
		fileA, fileB := p.a != nil && !da, p.b != nil && !db
		if fileA || fileB {
			d := topDelta[top]
			topDelta[top] = [2]int64{d[0] + sa, d[1] + sb}
		}
		var c Contributor
		switch {
		case fileA && fileB && sa != sb:
			c = Contributor{Path: child, FromBytes: sa, ToBytes: sb, Delta: sb - sa, Change: "grown"}
			if sb > sa {
				grown += sb - sa
			} else {
				c.Change = "shrunk"
				shrunk += sa - sb
			}
		case fileA && !fileB:
			c = Contributor{Path: child, FromBytes: sa, Delta: -sa, Change: "removed"}
			removed += sa
		case fileB && !fileA:
			c = Contributor{Path: child, ToBytes: sb, Delta: sb, Change: "added"}
			added += sb
		default:
			continue
		}
		changes = append(changes, c)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	r := st.res
	r.FromBytes += fromB
	r.ToBytes += toB
	r.FromFiles += fromN
	r.ToFiles += toN
	r.AddedBytes += added
	r.RemovedBytes += removed
	r.GrownBytes += grown
	r.ShrunkBytes += shrunk
	for _, c := range changes {
		if c.Delta != 0 {
			st.files.offer(c, st.n)
		}
	}
	for top, d := range topDelta {
		c := st.top[top]
		if c == nil {
			c = &Contributor{Path: top}
			st.top[top] = c
		}
		c.FromBytes += d[0]
		c.ToBytes += d[1]
		c.Delta = c.ToBytes - c.FromBytes
		switch {
		case c.FromBytes == 0:
			c.Change = "added"
		case c.ToBytes == 0:
			c.Change = "removed"
		case c.Delta >= 0:
			c.Change = "grown"
		default:
			c.Change = "shrunk"
		}
	}
	return next
}

// deltaHeap keeps the n contributors with the largest absolute change.
type deltaHeap []Contributor

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func (h deltaHeap) Len() int           { return len(h) }
func (h deltaHeap) Less(i, j int) bool { return abs64(h[i].Delta) < abs64(h[j].Delta) }
func (h deltaHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *deltaHeap) Push(x any)        { *h = append(*h, x.(Contributor)) }
func (h *deltaHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (h *deltaHeap) offer(c Contributor, n int) {
	if h.Len() < n {
		heap.Push(h, c)
	} else if abs64((*h)[0].Delta) < abs64(c.Delta) {
		(*h)[0] = c
		heap.Fix(h, 0)
	}
}

func (h deltaHeap) sorted() []Contributor {
	out := append([]Contributor{}, h...)
	sort.Slice(out, func(i, j int) bool {
		if abs64(out[i].Delta) != abs64(out[j].Delta) {
			return abs64(out[i].Delta) > abs64(out[j].Delta)
		}
		return out[i].Path < out[j].Path
	})
	return out
}

// zfsWritten reads written@<from> on to (the dataset itself for @live).
// A failure is reported in the result, not as the call's error: the walk
// has already answered.
func (e *Engine) zfsWritten(ctx context.Context, src SourceConfig, from, to Snapshot) *ZFSWritten {
	of := src.Dataset
	if !to.Live {
		of += "@" + to.Name
	}
	w := &ZFSWritten{Property: "written@" + from.Name, Of: of}
	out, err := e.run(ctx, zfsWrittenArgv(src.Dataset, from.Name, to))
	if err == nil {
		w.Bytes, err = parseZFSGet(out, of, w.Property)
	}
	if err != nil {
		w.Error = err.Error()
	}
	return w
}

// zfsWrittenArgv is the argv that reads how much was written between two
// snapshots: written@<from> of <dataset>@<to>, or of the dataset for @live.
func zfsWrittenArgv(dataset, from string, to Snapshot) []string {
	of := dataset
	if !to.Live {
		of += "@" + to.Name
	}
	return []string{"zfs", "get", "-H", "-p", "-o", "name,property,value", "written@" + from, of}
}

// parseZFSGet reads one numeric property from `zfs get -H -p -o
// name,property,value` output: a single line naming exactly what was asked.
func parseZFSGet(out []byte, name, property string) (int64, error) {
	lines := bytes.Split(bytes.TrimRight(out, "\n"), []byte("\n"))
	if len(lines) != 1 {
		return 0, fmt.Errorf("parse zfs get: %d lines, want 1", len(lines))
	}
	f := strings.Split(string(lines[0]), "\t")
	if len(f) != 3 {
		return 0, fmt.Errorf("parse zfs get: %d fields, want 3", len(f))
	}
	if f[0] != name || f[1] != property {
		return 0, fmt.Errorf("parse zfs get: got %s %s, want %s %s", f[0], f[1], name, property)
	}
	if f[2] == "-" {
		return 0, fmt.Errorf("parse zfs get: %s of %s is not available", property, name)
	}
	n, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("parse zfs get: value %q is not a byte count", f[2])
	}
	return n, nil
}
