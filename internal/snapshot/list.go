package snapshot

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// ListArgs are the arguments of snapshot_list.
type ListArgs struct {
	Dataset string `json:"dataset" jsonschema:"dataset name as configured"`
	After   string `json:"after,omitempty" jsonschema:"only snapshots taken at or after this time (RFC 3339 or 2026-11-20)"`
	Before  string `json:"before,omitempty" jsonschema:"only snapshots taken at or before this time (RFC 3339 or 2026-11-20)"`
}

// ListResult is the result of snapshot_list.
type ListResult struct {
	Dataset   string     `json:"dataset"`
	Kind      string     `json:"kind" jsonschema:"zfs, btrfs or dir"`
	Snapshots []Snapshot `json:"snapshots" jsonschema:"snapshots oldest first"`
	HasLive   bool       `json:"has_live" jsonschema:"whether @live (the live data) can be named as a snapshot"`
	Total     int        `json:"total" jsonschema:"snapshots in range, returned or not"`
	Truncated bool       `json:"truncated"`
}

// List lists a dataset's snapshots in a time range (snapshot_list). When
// more than the entry cap match, the newest are kept.
func (e *Engine) List(ctx context.Context, args ListArgs) (ListResult, error) {
	ctx, cancel := e.withTimeout(ctx, "snapshot_list", 0)
	defer cancel()
	src, err := e.source(args.Dataset)
	if err != nil {
		return ListResult{}, err
	}
	snaps, err := e.snapshotsInRange(ctx, src, args.After, args.Before)
	if err != nil {
		return ListResult{}, err
	}
	res := ListResult{Dataset: src.Name, Kind: src.Kind, Snapshots: snaps, HasLive: e.liveRoot(ctx, src) != "", Total: len(snaps)}
	if max := e.limits.ListEntries.Max; len(snaps) > max {
		res.Snapshots = snaps[len(snaps)-max:]
		res.Truncated = true
	}
	if res.Snapshots == nil {
		res.Snapshots = []Snapshot{}
	}
	return res, nil
}

// StaleArgs are the arguments of stale_snapshots.
type StaleArgs struct {
	Dataset   string `json:"dataset" jsonschema:"dataset name"`
	OlderThan string `json:"older_than" jsonschema:"age such as 30d, 2w, 720h or 90m"`
}

// StaleResult is the result of stale_snapshots. It only reports; nothing is
// ever destroyed.
type StaleResult struct {
	Dataset   string     `json:"dataset"`
	Cutoff    time.Time  `json:"cutoff" jsonschema:"snapshots taken before this time are listed"`
	Snapshots []Snapshot `json:"snapshots" jsonschema:"stale snapshots, oldest first"`
	// UsedBytes sums zfs used: roughly the space destroying them would free
	// (an underestimate, since space shared only among them is not counted).
	UsedBytes int64 `json:"used_bytes" jsonschema:"sum of zfs used bytes of the stale snapshots (0 when unknown)"`
	Total     int   `json:"total" jsonschema:"snapshots in the dataset"`
	Truncated bool  `json:"truncated"`
}

// Stale lists snapshots older than a given age (stale_snapshots).
func (e *Engine) Stale(ctx context.Context, args StaleArgs) (StaleResult, error) {
	ctx, cancel := e.withTimeout(ctx, "stale_snapshots", 0)
	defer cancel()
	age, err := ParseAge(args.OlderThan)
	if err != nil {
		return StaleResult{}, err
	}
	src, err := e.source(args.Dataset)
	if err != nil {
		return StaleResult{}, err
	}
	snaps, err := e.snapshots(ctx, src)
	if err != nil {
		return StaleResult{}, err
	}
	res := StaleResult{Dataset: src.Name, Cutoff: e.now().Add(-age).UTC(), Snapshots: []Snapshot{}, Total: len(snaps)}
	for _, s := range snaps {
		if !s.Time.Before(res.Cutoff) {
			continue
		}
		res.UsedBytes += s.Used
		if len(res.Snapshots) >= e.limits.ListEntries.Max {
			res.Truncated = true
			continue
		}
		res.Snapshots = append(res.Snapshots, s)
	}
	return res, nil
}

// ParseAge parses an age: a Go duration ("720h", "90m") or a whole number
// of days or weeks ("30d", "2w").
func ParseAge(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, invalidf("older_than is empty; use e.g. 30d or 720h")
	}
	if unit := s[len(s)-1]; unit == 'd' || unit == 'w' {
		n, err := strconv.Atoi(s[:len(s)-1])
		if err != nil || n < 0 || n > 100000 {
			return 0, invalidf("older_than %q: want a whole number of days or weeks such as 30d", s)
		}
		d := time.Duration(n) * 24 * time.Hour
		if unit == 'w' {
			d *= 7
		}
		return d, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, invalidf("older_than %q: want a duration such as 30d, 2w or 720h", s)
	}
	return d, nil
}
