package snapshot

import (
	"bytes"
	"context"
	"errors"
	"io"
	"regexp"
	"strconv"
	"time"
)

// Predicate names accepted by bisect_change.
const (
	PredExists       = "exists"
	PredContains     = "contains"
	PredSHA256Equals = "sha256_equals"
	PredSizeAtLeast  = "size_at_least"
)

// maxContainsValue bounds the needle of the contains predicate.
const maxContainsValue = 4096

var sha256HexRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// BisectArgs are the arguments of bisect_change.
type BisectArgs struct {
	Dataset   string `json:"dataset" jsonschema:"dataset name"`
	Path      string `json:"path" jsonschema:"path relative to the snapshot root"`
	Predicate string `json:"predicate" jsonschema:"exists, contains, sha256_equals or size_at_least"`
	Value     string `json:"value,omitempty" jsonschema:"for contains the text to look for; for sha256_equals a lowercase hex digest; for size_at_least a byte count"`
	After     string `json:"after,omitempty" jsonschema:"only snapshots at or after this time"`
	Before    string `json:"before,omitempty" jsonschema:"only snapshots at or before this time"`
}

// Visit is one snapshot bisect_change evaluated.
type Visit struct {
	Snapshot string `json:"snapshot"`
	Holds    bool   `json:"holds" jsonschema:"the predicate's value in this snapshot"`
}

// BisectResult is the result of bisect_change.
type BisectResult struct {
	Dataset   string `json:"dataset"`
	Path      string `json:"path"`
	Predicate string `json:"predicate"`
	Value     string `json:"value,omitempty"`
	Initial   bool   `json:"initial" jsonschema:"the predicate's value in the oldest snapshot"`
	Flipped   bool   `json:"flipped" jsonschema:"whether the predicate changes within the range"`
	// Last is the snapshot just before the flip (still Initial); First is
	// the first with the opposite value.
	Last      string    `json:"last_unchanged,omitempty" jsonschema:"last snapshot still holding the initial value"`
	First     string    `json:"first_changed,omitempty" jsonschema:"first snapshot where the predicate flipped"`
	FirstTime time.Time `json:"first_changed_time,omitzero"`
	Visited   []Visit   `json:"visited" jsonschema:"snapshots evaluated, in order"`
	Snapshots int       `json:"snapshots" jsonschema:"snapshots in range"`
	Truncated bool      `json:"truncated" jsonschema:"true when the wall-time bound stopped the search"`
}

// predicate is a compiled bisect predicate over one snapshot.
type predicate func(ctx context.Context, v *view) bool

func (e *Engine) compilePredicate(rel, name, value string) (predicate, error) {
	switch name {
	case PredExists:
		return func(_ context.Context, v *view) bool {
			_, _, err := v.lookup(rel)
			return err == nil
		}, nil
	case PredSizeAtLeast:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < 0 {
			return nil, invalidf("size_at_least needs a byte count, got %q", value)
		}
		return func(_ context.Context, v *view) bool {
			_, info, err := v.lookup(rel)
			return err == nil && info.Mode().IsRegular() && info.Size() >= n
		}, nil
	case PredSHA256Equals:
		if !sha256HexRE.MatchString(value) {
			return nil, invalidf("sha256_equals needs 64 lowercase hex digits, got %q", value)
		}
		return func(ctx context.Context, v *view) bool {
			r, info, err := v.lookup(rel)
			if err != nil || !info.Mode().IsRegular() || info.Size() > e.limits.ScanBytes {
				return false
			}
			sum, _, err := v.hash(ctx, r)
			return err == nil && sum == value
		}, nil
	case PredContains:
		if value == "" || len(value) > maxContainsValue {
			return nil, invalidf("contains needs 1 to %d bytes of text", maxContainsValue)
		}
		return func(ctx context.Context, v *view) bool {
			r, info, err := v.lookup(rel)
			if err != nil || !info.Mode().IsRegular() || info.Size() > e.limits.ScanBytes {
				return false
			}
			f, err := v.fsys.Open(r)
			if err != nil {
				return false
			}
			defer f.Close()
			ok, _ := streamContains(ctxReader{ctx, f}, []byte(value))
			return ok
		}, nil
	}
	return nil, invalidf("predicate %q is not one of exists, contains, sha256_equals, size_at_least", name)
}

// streamContains reports whether r contains needle, reading in fixed
// chunks and carrying len(needle)-1 bytes across chunk boundaries.
func streamContains(r io.Reader, needle []byte) (bool, error) {
	buf := make([]byte, 64<<10+len(needle))
	carry := 0
	for {
		n, err := r.Read(buf[carry:])
		if n > 0 {
			win := buf[:carry+n]
			if bytes.Contains(win, needle) {
				return true, nil
			}
			keep := min(len(needle)-1, len(win))
			copy(buf, win[len(win)-keep:])
			carry = keep
		}
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// Bisect finds the snapshot where a predicate on a path flips
// (bisect_change). It evaluates the oldest snapshot, then binary-searches
// the rest, so it visits at most ceil(log2 N)+1 snapshots. It assumes the
// predicate flips once; if it flips more often, the answer is still a real
// flip (last_unchanged and first_changed are adjacent and differ), though
// not necessarily the earliest.
func (e *Engine) Bisect(ctx context.Context, args BisectArgs) (BisectResult, error) {
	ctx, cancel := e.withTimeout(ctx, "bisect_change", 0)
	defer cancel()
	src, err := e.source(args.Dataset)
	if err != nil {
		return BisectResult{}, err
	}
	rel, err := cleanRel(args.Path)
	if err != nil {
		return BisectResult{}, err
	}
	pred, err := e.compilePredicate(rel, args.Predicate, args.Value)
	if err != nil {
		return BisectResult{}, err
	}
	snaps, err := e.snapshotsInRange(ctx, src, args.After, args.Before)
	if err != nil {
		return BisectResult{}, err
	}
	if len(snaps) == 0 {
		return BisectResult{}, notFoundf("dataset %q has no snapshots in range", src.Name)
	}
	res := BisectResult{Dataset: src.Name, Path: rel, Predicate: args.Predicate, Value: args.Value, Visited: []Visit{}, Snapshots: len(snaps)}
	eval := func(i int) bool {
		v, err := e.openSnap(ctx, src, snaps[i])
		holds := false
		if err == nil {
			holds = pred(ctx, v)
			v.close()
		}
		res.Visited = append(res.Visited, Visit{Snapshot: snaps[i].Name, Holds: holds})
		return holds
	}
	res.Initial = eval(0)
	// Invariant: snapshot lo-1 holds Initial; hi is the first known to
	// differ, or len(snaps) when none is known.
	lo, hi := 1, len(snaps)
	for lo < hi {
		if ctx.Err() != nil {
			res.Truncated = true
			return res, nil
		}
		mid := lo + (hi-lo)/2
		if eval(mid) == res.Initial {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if hi < len(snaps) {
		res.Flipped = true
		res.Last, res.First, res.FirstTime = snaps[hi-1].Name, snaps[hi].Name, snaps[hi].Time
	}
	return res, nil
}
