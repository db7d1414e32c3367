package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// side says which trees a diff job's directory exists in.
type side uint8

const (
	sideBoth side = iota
	sideA
	sideB
)

// diffJob is one directory to compare: p is its display path, relA and
// relB its resolved paths in each snapshot.
type diffJob struct {
	p, relA, relB string
	side          side
}

// item is one added or removed entry found by a diff.
type item struct {
	path string
	info fs.FileInfo
}

// differ compares two snapshot trees. Directories are compared by their
// listings (name, type, size, mtime, mode) in parallel; file contents are
// read only for same-size files whose mtimes differ, and only when contents
// is set.
type differ struct {
	e        *Engine
	va, vb   *view
	contents bool

	mu                  sync.Mutex
	removed, added      []item
	modified            []Modification
	nRemoved, nAdded    int
	nModified           int
	collected, capacity int
	overChanges         bool

	scanned atomic.Int64
	read    atomic.Int64
	overScn atomic.Bool
	st      walkStats
}

// Modification is a path present in both snapshots whose content, type
// details or mode differ.
type Modification struct {
	Path   string    `json:"path"`
	Type   EntryType `json:"type"`
	Reason string    `json:"reason" jsonschema:"size, content, link_target or mode"`
	SizeA  int64     `json:"size_a"`
	SizeB  int64     `json:"size_b"`
	MtimeA time.Time `json:"mtime_a"`
	MtimeB time.Time `json:"mtime_b"`
}

// Rename is a file removed from one path and added at another with the
// same size and content hash.
type Rename struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

func (d *differ) record(f func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.collected >= d.capacity {
		d.overChanges = true
		return
	}
	d.collected++
	f()
}

func (d *differ) remove(p, rel string, fi fs.FileInfo) []diffJob {
	d.mu.Lock()
	d.nRemoved++
	d.mu.Unlock()
	d.record(func() { d.removed = append(d.removed, item{p, fi}) })
	if fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0 {
		return []diffJob{{p: p, relA: rel, side: sideA}}
	}
	return nil
}

func (d *differ) add(p, rel string, fi fs.FileInfo) []diffJob {
	d.mu.Lock()
	d.nAdded++
	d.mu.Unlock()
	d.record(func() { d.added = append(d.added, item{p, fi}) })
	if fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0 {
		return []diffJob{{p: p, relB: rel, side: sideB}}
	}
	return nil
}

func (d *differ) modify(p string, a, b fs.FileInfo, reason string) {
	d.mu.Lock()
	d.nModified++
	d.mu.Unlock()
	d.record(func() {
		d.modified = append(d.modified, Modification{Path: p, Type: entryType(b.Mode()), Reason: reason,
			SizeA: a.Size(), SizeB: b.Size(), MtimeA: a.ModTime(), MtimeB: b.ModTime()})
	})
}

// pair compares one name present in A (a), B (b) or both, and returns the
// directories left to compare below it.
func (d *differ) pair(ctx context.Context, p, relA, relB string, a, b fs.FileInfo) []diffJob {
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil:
		return d.add(p, relB, b)
	case b == nil:
		return d.remove(p, relA, a)
	}
	ta, tb := entryType(a.Mode()), entryType(b.Mode())
	if ta != tb {
		return append(d.remove(p, relA, a), d.add(p, relB, b)...)
	}
	modeChanged := a.Mode() != b.Mode()
	switch ta {
	case TypeDir:
		if modeChanged && d.contents {
			d.modify(p, a, b, "mode")
		}
		return []diffJob{{p: p, relA: relA, relB: relB, side: sideBoth}}
	case TypeFile:
		if !d.contents {
			return nil
		}
		switch {
		case a.Size() != b.Size():
			d.modify(p, a, b, "size")
		case !a.ModTime().Equal(b.ModTime()) && !d.sameContent(ctx, relA, relB, a.Size()):
			d.modify(p, a, b, "content")
		case modeChanged:
			d.modify(p, a, b, "mode")
		}
	case TypeSymlink:
		if !d.contents || (a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())) {
			return nil
		}
		la, errA := d.va.fsys.ReadLink(relA)
		lb, errB := d.vb.fsys.ReadLink(relB)
		if errA != nil || errB != nil || la != lb {
			d.modify(p, a, b, "link_target")
		}
	default:
		if d.contents && (modeChanged || a.Size() != b.Size()) {
			d.modify(p, a, b, "mode")
		}
	}
	return nil
}

// sameContent reports whether two same-size files hold the same bytes,
// stopping at the first difference. A file that cannot be read, or a
// comparison past the scan budget, counts as different, so nothing changed
// is ever hidden.
func (d *differ) sameContent(ctx context.Context, relA, relB string, size int64) bool {
	if d.scanned.Add(2*size) > d.e.limits.ScanBytes {
		d.overScn.Store(true)
		return false
	}
	d.read.Add(1)
	fa, err := d.va.fsys.Open(relA)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := d.vb.fsys.Open(relB)
	if err != nil {
		return false
	}
	defer fb.Close()
	ra, rb := ctxReader{ctx, fa}, ctxReader{ctx, fb}
	bufA, bufB := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, errA := io.ReadFull(ra, bufA)
		nb, errB := io.ReadFull(rb, bufB)
		if na != nb || !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false
		}
		endA := errors.Is(errA, io.EOF) || errors.Is(errA, io.ErrUnexpectedEOF)
		endB := errors.Is(errB, io.EOF) || errors.Is(errB, io.ErrUnexpectedEOF)
		if endA && endB {
			return true
		}
		if (errA != nil && !endA) || (errB != nil && !endB) || endA != endB {
			return false
		}
	}
}

// do compares one directory (or lists one side-only directory).
func (d *differ) do(ctx context.Context, j diffJob) ([]diffJob, error) {
	var la, lb []fs.FileInfo
	var err error
	if j.side != sideB {
		if la, err = d.va.fsys.ReadDir(j.relA); err != nil {
			d.st.unreadable.Add(1)
			return nil, nil
		}
	}
	if j.side != sideA {
		if lb, err = d.vb.fsys.ReadDir(j.relB); err != nil {
			d.st.unreadable.Add(1)
			return nil, nil
		}
	}
	if d.st.entries.Add(int64(len(la)+len(lb))) > int64(d.e.limits.WalkEntries) {
		d.st.overLimit.Store(true)
		return nil, errStop
	}
	sortInfos(la)
	sortInfos(lb)
	var jobs []diffJob
	i, k := 0, 0
	for i < len(la) || k < len(lb) {
		var a, b fs.FileInfo
		var name string
		switch {
		case k >= len(lb) || (i < len(la) && la[i].Name() < lb[k].Name()):
			a, name = la[i], la[i].Name()
			i++
		case i >= len(la) || lb[k].Name() < la[i].Name():
			b, name = lb[k], lb[k].Name()
			k++
		default:
			a, b, name = la[i], lb[k], la[i].Name()
			i++
			k++
		}
		jobs = append(jobs, d.pair(ctx, joinRel(j.p, name), joinRel(j.relA, name), joinRel(j.relB, name), a, b)...)
	}
	return jobs, nil
}

// run compares the trees below the display path p (resolved to relA and
// relB, described by a and b, either possibly nil).
func (d *differ) run(ctx context.Context, p, relA, relB string, a, b fs.FileInfo) error {
	var seed []diffJob
	if a != nil && b != nil && entryType(a.Mode()) == TypeDir && entryType(b.Mode()) == TypeDir {
		// The starting directory itself is not reported, only its contents.
		seed = []diffJob{{p: p, relA: relA, relB: relB, side: sideBoth}}
	} else {
		seed = d.pair(ctx, p, relA, relB, a, b)
	}
	err := parallel(ctx, d.e.workers, d.e.looks, seed, d.do)
	if errors.Is(err, errStop) || ctx.Err() != nil {
		return nil
	}
	return err
}

// renames pairs removed and added regular files with the same size and
// SHA-256, removing the pairs from both lists. Only sizes that occur on
// both sides are hashed; empty files are never paired.
func (d *differ) renames(ctx context.Context) []Rename {
	bySize := map[int64][]int{}
	for i, it := range d.added {
		if it.info.Mode().IsRegular() && it.info.Size() > 0 {
			bySize[it.info.Size()] = append(bySize[it.info.Size()], i)
		}
	}
	type cand struct {
		idx  int
		hash string
	}
	hashAll := func(v *view, items []item, idxs []int) []cand {
		out := make([]cand, 0, len(idxs))
		for _, i := range idxs {
			if ctx.Err() != nil || d.scanned.Add(items[i].info.Size()) > d.e.limits.ScanBytes {
				d.overScn.Store(ctx.Err() == nil)
				return out
			}
			d.read.Add(1)
			if h, _, err := v.hash(ctx, items[i].path); err == nil {
				out = append(out, cand{i, h})
			}
		}
		return out
	}
	removedBySize := map[int64][]int{}
	for i, it := range d.removed {
		if it.info.Mode().IsRegular() && len(bySize[it.info.Size()]) > 0 {
			removedBySize[it.info.Size()] = append(removedBySize[it.info.Size()], i)
		}
	}
	sizes := make([]int64, 0, len(removedBySize))
	for s := range removedBySize {
		sizes = append(sizes, s)
	}
	sort.Slice(sizes, func(i, j int) bool { return sizes[i] < sizes[j] })
	var out []Rename
	goneA, goneB := map[int]bool{}, map[int]bool{}
	for _, size := range sizes {
		ra := hashAll(d.va, d.removed, removedBySize[size])
		rb := hashAll(d.vb, d.added, bySize[size])
		for _, x := range ra {
			best := -1
			for n, y := range rb {
				if goneB[y.idx] || y.hash != x.hash {
					continue
				}
				if best < 0 || path.Base(d.added[y.idx].path) == path.Base(d.removed[x.idx].path) {
					best = n
				}
			}
			if best >= 0 {
				y := rb[best]
				goneA[x.idx], goneB[y.idx] = true, true
				out = append(out, Rename{From: d.removed[x.idx].path, To: d.added[y.idx].path, Size: size, SHA256: x.hash})
			}
		}
	}
	d.removed = dropItems(d.removed, goneA)
	d.added = dropItems(d.added, goneB)
	d.nRemoved -= len(goneA)
	d.nAdded -= len(goneB)
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out
}

func dropItems(items []item, gone map[int]bool) []item {
	if len(gone) == 0 {
		return items
	}
	out := items[:0]
	for i, it := range items {
		if !gone[i] {
			out = append(out, it)
		}
	}
	return out
}

func sortItems(items []item) {
	sort.Slice(items, func(i, j int) bool { return items[i].path < items[j].path })
}

func itemEntries(items []item, max int) ([]Entry, bool) {
	sortItems(items)
	cut := len(items) > max
	if cut {
		items = items[:max]
	}
	out := make([]Entry, 0, len(items))
	for _, it := range items {
		out = append(out, makeEntry(it.path, it.info))
	}
	return out, cut
}

// DiffArgs are the arguments of snapshot_diff.
type DiffArgs struct {
	Dataset    string `json:"dataset" jsonschema:"dataset name"`
	A          string `json:"a" jsonschema:"the older snapshot"`
	B          string `json:"b" jsonschema:"the newer snapshot, or @live"`
	Path       string `json:"path,omitempty" jsonschema:"subtree to compare, relative to the snapshot root; empty for everything"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"most entries per list (clamped to the server cap)"`
	TimeoutS   int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// DiffResult is the result of snapshot_diff. Lists are sorted by path and
// cut to max_results; the counts cover everything found.
type DiffResult struct {
	Dataset         string         `json:"dataset"`
	A               string         `json:"a"`
	B               string         `json:"b"`
	Path            string         `json:"path"`
	Added           []Entry        `json:"added"`
	Removed         []Entry        `json:"removed"`
	Modified        []Modification `json:"modified"`
	Renamed         []Rename       `json:"renamed" jsonschema:"files moved with identical content (same size and sha256)"`
	AddedCount      int            `json:"added_count"`
	RemovedCount    int            `json:"removed_count"`
	ModifiedCount   int            `json:"modified_count"`
	RenamedCount    int            `json:"renamed_count"`
	EntriesCompared int64          `json:"entries_compared" jsonschema:"directory entries read on both sides"`
	FilesRead       int64          `json:"files_read" jsonschema:"files whose contents were read (same size, different mtime, or rename candidates)"`
	Unreadable      int64          `json:"unreadable_dirs" jsonschema:"directories that could not be listed and were skipped"`
	Truncated       bool           `json:"truncated"`
	TruncatedReason string         `json:"truncated_reason,omitempty" jsonschema:"max_results, timeout, walk_limit or scan_limit"`
}

// prepareDiff opens two snapshots and resolves a path in both.
func (e *Engine) prepareDiff(ctx context.Context, va, vb *view, p string) (rel, relA, relB string, a, b fs.FileInfo, err error) {
	rel, err = cleanRel(p)
	if err != nil {
		return
	}
	relA, a, errA := va.lookup(rel)
	relB, b, errB := vb.lookup(rel)
	for _, err := range []error{errA, errB} {
		if err != nil && !errors.Is(err, ErrNotFound) {
			return "", "", "", nil, nil, err
		}
	}
	if a == nil && b == nil {
		return "", "", "", nil, nil, notFoundf("%s exists in neither %s nor %s", rel, va.snap.Name, vb.snap.Name)
	}
	if relA == "" {
		relA = rel
	}
	if relB == "" {
		relB = rel
	}
	return rel, relA, relB, a, b, nil
}

func (e *Engine) openPair(ctx context.Context, dataset, a, b string) (*view, *view, error) {
	va, err := e.open(ctx, dataset, a)
	if err != nil {
		return nil, nil, err
	}
	vb, err := e.open(ctx, dataset, b)
	if err != nil {
		va.close()
		return nil, nil, err
	}
	return va, vb, nil
}

// Diff compares two snapshots of a dataset (snapshot_diff).
func (e *Engine) Diff(ctx context.Context, args DiffArgs) (DiffResult, error) {
	ctx, cancel := e.withTimeout(ctx, "snapshot_diff", args.TimeoutS)
	defer cancel()
	va, vb, err := e.openPair(ctx, args.Dataset, args.A, args.B)
	if err != nil {
		return DiffResult{}, err
	}
	defer va.close()
	defer vb.close()
	rel, relA, relB, a, b, err := e.prepareDiff(ctx, va, vb, args.Path)
	if err != nil {
		return DiffResult{}, err
	}
	d := &differ{e: e, va: va, vb: vb, contents: true, capacity: e.limits.Changes}
	if err := d.run(ctx, rel, relA, relB, a, b); err != nil {
		return DiffResult{}, fmt.Errorf("snapshot_diff: %w", err)
	}
	renamed := d.renames(ctx)
	max := e.limits.Results.clamp(args.MaxResults)
	res := DiffResult{Dataset: args.Dataset, A: va.snap.Name, B: vb.snap.Name, Path: rel,
		AddedCount: d.nAdded, RemovedCount: d.nRemoved, ModifiedCount: d.nModified, RenamedCount: len(renamed),
		EntriesCompared: d.st.entries.Load(), FilesRead: d.read.Load(), Unreadable: d.st.unreadable.Load()}
	var cutA, cutR bool
	res.Added, cutA = itemEntries(d.added, max)
	res.Removed, cutR = itemEntries(d.removed, max)
	sort.Slice(d.modified, func(i, j int) bool { return d.modified[i].Path < d.modified[j].Path })
	res.Modified = d.modified
	if len(res.Modified) > max {
		res.Modified, cutA = res.Modified[:max], true
	}
	res.Renamed = renamed
	if len(res.Renamed) > max {
		res.Renamed, cutA = res.Renamed[:max], true
	}
	if res.Renamed == nil {
		res.Renamed = []Rename{}
	}
	if res.Modified == nil {
		res.Modified = []Modification{}
	}
	res.TruncatedReason = d.reason(ctx, cutA || cutR)
	res.Truncated = res.TruncatedReason != ""
	return res, nil
}

// reason names why a diff's result is incomplete, most fundamental first.
func (d *differ) reason(ctx context.Context, cut bool) string {
	if r := truncation(ctx, &d.st); r != "" {
		return r
	}
	if d.overScn.Load() {
		return reasonScan
	}
	if cut || d.overChanges {
		return reasonResults
	}
	return ""
}
