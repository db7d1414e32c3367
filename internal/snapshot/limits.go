package snapshot

import "time"

// Cap is a per-call bound: the value used when a call names none, and the
// most any call may ask for. A larger request is clamped to Max.
type Cap struct {
	Default int
	Max     int
}

// clamp returns the bound for a request: Default for <= 0, at most Max.
func (c Cap) clamp(req int) int {
	if req <= 0 {
		return c.Default
	}
	if req > c.Max {
		return c.Max
	}
	return req
}

func (c Cap) or(d Cap) Cap {
	if c.Default <= 0 {
		c.Default = d.Default
	}
	if c.Max <= 0 {
		c.Max = d.Max
	}
	if c.Default > c.Max {
		c.Default = c.Max
	}
	return c
}

// Limits bounds every tool. Per-call arguments may narrow a limit, never
// raise it past Max.
type Limits struct {
	// ReadBytes bounds snapshot_read_file.
	ReadBytes Cap
	// ListEntries bounds snapshot_list_dir and snapshot_list.
	ListEntries Cap
	// Results bounds find_files, snapshot_diff and find_deleted lists.
	Results Cap
	// Matches bounds snapshot_grep.
	Matches Cap
	// DiffBytes bounds file_diff output.
	DiffBytes Cap
	// Depth bounds size_breakdown.
	Depth Cap
	// TopN bounds top_consumers.
	TopN Cap
	// TimeoutS bounds every call's wall time, in seconds.
	TimeoutS Cap
	// WalkEntries is the most directory entries one call may visit.
	WalkEntries int
	// ScanBytes is the most file bytes one call may read (grep, hashing,
	// content comparison).
	ScanBytes int64
	// DiffInputBytes is the largest file file_diff will compare.
	DiffInputBytes int64
	// Changes is the most changes snapshot_diff collects before sorting and
	// cutting to Results; beyond it only counts grow.
	Changes int
}

// DefaultLimits returns the bounds used for zero fields of Config.Limits.
func DefaultLimits() Limits {
	return Limits{
		ReadBytes:      Cap{64 << 10, 1 << 20},
		ListEntries:    Cap{1000, 10000},
		Results:        Cap{500, 10000},
		Matches:        Cap{100, 2000},
		DiffBytes:      Cap{64 << 10, 1 << 20},
		Depth:          Cap{1, 6},
		TopN:           Cap{20, 500},
		TimeoutS:       Cap{20, 120},
		WalkEntries:    5_000_000,
		ScanBytes:      4 << 30,
		DiffInputBytes: 8 << 20,
		Changes:        1_000_000,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	l.ReadBytes = l.ReadBytes.or(d.ReadBytes)
	l.ListEntries = l.ListEntries.or(d.ListEntries)
	l.Results = l.Results.or(d.Results)
	l.Matches = l.Matches.or(d.Matches)
	l.DiffBytes = l.DiffBytes.or(d.DiffBytes)
	l.Depth = l.Depth.or(d.Depth)
	l.TopN = l.TopN.or(d.TopN)
	l.TimeoutS = l.TimeoutS.or(d.TimeoutS)
	if l.WalkEntries <= 0 {
		l.WalkEntries = d.WalkEntries
	}
	if l.ScanBytes <= 0 {
		l.ScanBytes = d.ScanBytes
	}
	if l.DiffInputBytes <= 0 {
		l.DiffInputBytes = d.DiffInputBytes
	}
	if l.Changes <= 0 {
		l.Changes = d.Changes
	}
	return l
}

// timeout is the wall-time bound for one call.
func (l Limits) timeout(_ string, requestedS int) time.Duration {
	return time.Duration(l.TimeoutS.clamp(requestedS)) * time.Second
}

// Truncation reasons reported in results.
const (
	reasonResults = "max_results"
	reasonBytes   = "max_bytes"
	reasonTimeout = "timeout"
	reasonWalk    = "walk_limit"
	reasonScan    = "scan_limit"
)
