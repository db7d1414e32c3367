package snapshot

import (
	"context"
	"fmt"
	"time"
)

// FindDeletedArgs are the arguments of find_deleted.
type FindDeletedArgs struct {
	Dataset     string `json:"dataset" jsonschema:"dataset name"`
	After       string `json:"after,omitempty" jsonschema:"start of the range (RFC 3339 or date); empty for the first snapshot"`
	Before      string `json:"before,omitempty" jsonschema:"end of the range (RFC 3339 or date); empty for the latest snapshot"`
	AgainstLive bool   `json:"against_live,omitempty" jsonschema:"compare the earliest snapshot in range with the live data instead of the latest snapshot in range"`
	Path        string `json:"path,omitempty" jsonschema:"subtree to search, relative to the snapshot root; empty for everything"`
	MaxResults  int    `json:"max_results,omitempty" jsonschema:"most entries to return (clamped to the server cap)"`
	TimeoutS    int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// DeletedEntry is a file or directory present at the start of the range
// and gone at its end.
type DeletedEntry struct {
	Path    string    `json:"path"`
	Type    EntryType `json:"type"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
	// LastSeen and GoneIn bracket the deletion, found by binary search over
	// the snapshots in range (assuming the path did not come and go).
	LastSeen string `json:"last_seen" jsonschema:"latest snapshot in range still holding the path"`
	GoneIn   string `json:"gone_in" jsonschema:"first snapshot after last_seen without the path (or @live)"`
}

// FindDeletedResult is the result of find_deleted.
type FindDeletedResult struct {
	Dataset         string         `json:"dataset"`
	From            string         `json:"from" jsonschema:"earliest snapshot in range"`
	To              string         `json:"to" jsonschema:"latest snapshot in range, or @live"`
	Deleted         []DeletedEntry `json:"deleted" jsonschema:"entries sorted by path"`
	Moved           []Rename       `json:"moved" jsonschema:"files gone from one path but present at another with the same content; not deleted"`
	DeletedCount    int            `json:"deleted_count"`
	MovedCount      int            `json:"moved_count"`
	EntriesCompared int64          `json:"entries_compared"`
	Unreadable      int64          `json:"unreadable_dirs"`
	Truncated       bool           `json:"truncated"`
	TruncatedReason string         `json:"truncated_reason,omitempty"`
}

// FindDeleted lists what was deleted within a time range (find_deleted):
// every path present in the earliest snapshot of the range and absent from
// the latest snapshot of the range, or from the live data when
// against_live is set. Only directory listings are compared; files created
// and deleted between the two ends are not seen, and files that moved with
// identical content are reported as moved instead.
func (e *Engine) FindDeleted(ctx context.Context, args FindDeletedArgs) (FindDeletedResult, error) {
	ctx, cancel := e.withTimeout(ctx, "find_deleted", args.TimeoutS)
	defer cancel()
	src, err := e.source(args.Dataset)
	if err != nil {
		return FindDeletedResult{}, err
	}
	snaps, err := e.snapshotsInRange(ctx, src, args.After, args.Before)
	if err != nil {
		return FindDeletedResult{}, err
	}
	if args.AgainstLive {
		live, err := e.snapshot(ctx, src, LiveSnapshot)
		if err != nil {
			return FindDeletedResult{}, err
		}
		snaps = append(snaps, live)
	}
	if len(snaps) < 2 {
		return FindDeletedResult{}, invalidf("find_deleted needs two snapshots in range; found %d", len(snaps))
	}
	first, last := snaps[0], snaps[len(snaps)-1]
	va, err := e.openSnap(ctx, src, first)
	if err != nil {
		return FindDeletedResult{}, err
	}
	defer va.close()
	vb, err := e.openSnap(ctx, src, last)
	if err != nil {
		return FindDeletedResult{}, err
	}
	defer vb.close()
	rel, relA, relB, a, b, err := e.prepareDiff(ctx, va, vb, args.Path)
	if err != nil {
		return FindDeletedResult{}, err
	}
	d := &differ{e: e, va: va, vb: vb, capacity: e.limits.Changes}
	if err := d.run(ctx, rel, relA, relB, a, b); err != nil {
		return FindDeletedResult{}, fmt.Errorf("find_deleted: %w", err)
	}
	moved := d.renames(ctx)
	max := e.limits.Results.clamp(args.MaxResults)
	entries, cut := itemEntries(d.removed, max)
	res := FindDeletedResult{Dataset: src.Name, From: first.Name, To: last.Name,
		Deleted: make([]DeletedEntry, 0, len(entries)), Moved: moved,
		DeletedCount: d.nRemoved, MovedCount: len(moved),
		EntriesCompared: d.st.entries.Load(), Unreadable: d.st.unreadable.Load()}
	if len(res.Moved) > max {
		res.Moved, cut = res.Moved[:max], true
	}
	if res.Moved == nil {
		res.Moved = []Rename{}
	}
	views := newViewCache(e, src)
	defer views.close()
	for _, en := range entries {
		de := DeletedEntry{Path: en.Path, Type: en.Type, Size: en.Size, ModTime: en.ModTime, LastSeen: first.Name, GoneIn: last.Name}
		if ctx.Err() == nil && len(snaps) > 2 {
			i := lastWhere(ctx, len(snaps), func(i int) bool { return views.exists(ctx, snaps[i], en.Path) })
			de.LastSeen, de.GoneIn = snaps[i].Name, snaps[i+1].Name
		}
		res.Deleted = append(res.Deleted, de)
	}
	res.TruncatedReason = d.reason(ctx, cut)
	res.Truncated = res.TruncatedReason != ""
	return res, nil
}

// lastWhere finds, by binary search, the last index in [0, n-2] for which
// holds reports true, given holds(0) and !holds(n-1).
func lastWhere(ctx context.Context, n int, holds func(int) bool) int {
	lo, hi := 0, n-1
	for hi-lo > 1 && ctx.Err() == nil {
		mid := lo + (hi-lo)/2
		if holds(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// viewCache opens each snapshot at most once per call.
type viewCache struct {
	e     *Engine
	src   SourceConfig
	views map[string]*view
}

func newViewCache(e *Engine, src SourceConfig) *viewCache {
	return &viewCache{e: e, src: src, views: map[string]*view{}}
}

func (c *viewCache) get(ctx context.Context, s Snapshot) (*view, error) {
	if v, ok := c.views[s.Name]; ok {
		return v, nil
	}
	v, err := c.e.openSnap(ctx, c.src, s)
	if err != nil {
		return nil, err
	}
	c.views[s.Name] = v
	return v, nil
}

// exists reports whether path exists (as anything) in snapshot s.
func (c *viewCache) exists(ctx context.Context, s Snapshot, p string) bool {
	v, err := c.get(ctx, s)
	if err != nil {
		return false
	}
	_, _, err = v.lookup(p)
	return err == nil
}

func (c *viewCache) close() {
	for _, v := range c.views {
		v.close()
	}
}
