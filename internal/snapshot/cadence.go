package snapshot

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Cadence verdicts, worst first.
const (
	VerdictLate   = "late"   // the newest snapshot is overdue
	VerdictGaps   = "gaps"   // on time now, with missed runs in the history
	VerdictOK     = "ok"     // on time, no gaps
	VerdictManual = "manual" // no schedule to hold the snapshots to
	VerdictEmpty  = "empty"  // no snapshots at all
)

// Scheme names: a schedule named in the snapshot names, one observed in
// unlabelled snapshots taken at a steady interval, or none.
const (
	SchemeObserved = "observed"
	SchemeManual   = "manual"
)

// namedSchemes are the schedule words of zfs-auto-snapshot, sanoid,
// snapper-style and rsnapshot names, with their nominal intervals, most
// specific first ("frequent" before "hourly": neither contains the other,
// but the order is the order of matching).
var namedSchemes = []struct {
	word  string
	every time.Duration
}{
	{"frequent", 15 * time.Minute},
	{"hourly", time.Hour},
	{"daily", 24 * time.Hour},
	{"weekly", 7 * 24 * time.Hour},
	{"monthly", 31 * 24 * time.Hour},
	{"yearly", 366 * 24 * time.Hour},
}

// lateFactor and gapFactor: a schedule is late when its newest snapshot is
// older than lateFactor intervals, and an interval longer than gapFactor
// expected intervals is a gap (a daily job that ran an hour late is not).
const (
	lateFactor = 1.5
	gapFactor  = 1.5
)

// CadenceArgs are the arguments of snapshot_cadence.
type CadenceArgs struct {
	Dataset    string `json:"dataset" jsonschema:"dataset name"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"most gaps to list per scheme (clamped to the server cap)"`
}

// Gap is a stretch between two snapshots longer than the schedule allows.
type Gap struct {
	After     string    `json:"after" jsonschema:"last snapshot before the gap"`
	Before    string    `json:"before" jsonschema:"first snapshot after the gap"`
	From      time.Time `json:"from"`
	To        time.Time `json:"to"`
	Length    string    `json:"length"`
	LengthS   int64     `json:"length_s"`
	MissedEst int       `json:"missed_estimate" jsonschema:"about how many scheduled snapshots are missing"`
}

// Cadence is the observed pattern of one naming scheme.
type Cadence struct {
	Scheme       string    `json:"scheme" jsonschema:"frequent, hourly, daily, weekly, monthly or yearly when the names say so; observed for unlabelled snapshots at a steady interval; manual otherwise"`
	Expected     string    `json:"expected_interval,omitempty"`
	ExpectedS    int64     `json:"expected_interval_s,omitempty"`
	ExpectedFrom string    `json:"expected_from,omitempty" jsonschema:"name (the scheme word) or observed (the median interval)"`
	Count        int       `json:"count"`
	Oldest       string    `json:"oldest"`
	Newest       string    `json:"newest"`
	NewestTime   time.Time `json:"newest_time"`
	NewestAge    string    `json:"newest_age"`
	NewestAgeS   int64     `json:"newest_age_s"`
	MedianS      int64     `json:"median_interval_s"`
	MinS         int64     `json:"min_interval_s"`
	MaxS         int64     `json:"max_interval_s"`
	Gaps         []Gap     `json:"gaps"`
	GapCount     int       `json:"gap_count"`
	Late         bool      `json:"late" jsonschema:"the newest snapshot is older than 1.5 expected intervals"`
	Verdict      string    `json:"verdict" jsonschema:"late, gaps, ok or manual"`
}

// CadenceResult is the result of snapshot_cadence.
type CadenceResult struct {
	Dataset   string    `json:"dataset"`
	Now       time.Time `json:"now"`
	Snapshots int       `json:"snapshots"`
	Schemes   []Cadence `json:"schemes" jsonschema:"one entry per naming scheme, shortest interval first"`
	Verdict   string    `json:"verdict" jsonschema:"the worst scheme's verdict: late, gaps, ok, manual, or empty when there are no snapshots"`
	Truncated bool      `json:"truncated" jsonschema:"true when a gap list was cut at max_results"`
}

// Cadence reports how regularly a dataset's snapshots are taken
// (snapshot_cadence): per naming scheme the interval, the gaps against it,
// the newest snapshot's age and a verdict. It reads no file.
func (e *Engine) Cadence(ctx context.Context, args CadenceArgs) (CadenceResult, error) {
	ctx, cancel := e.withTimeout(ctx, "snapshot_cadence", 0)
	defer cancel()
	src, err := e.source(args.Dataset)
	if err != nil {
		return CadenceResult{}, err
	}
	snaps, err := e.snapshots(ctx, src)
	if err != nil {
		return CadenceResult{}, err
	}
	now := e.now().UTC()
	res := CadenceResult{Dataset: src.Name, Now: now, Snapshots: len(snaps), Schemes: []Cadence{}, Verdict: VerdictEmpty}
	groups := map[string][]Snapshot{}
	for _, s := range snaps {
		w := schemeOf(s.Name)
		groups[w] = append(groups[w], s)
	}
	max := e.limits.Results.clamp(args.MaxResults)
	for w, group := range groups {
		c, cut := cadenceOf(w, group, now, max)
		res.Truncated = res.Truncated || cut
		res.Schemes = append(res.Schemes, c)
	}
	sort.Slice(res.Schemes, func(i, j int) bool {
		a, b := res.Schemes[i], res.Schemes[j]
		if (a.ExpectedS == 0) != (b.ExpectedS == 0) {
			return a.ExpectedS != 0
		}
		if a.ExpectedS != b.ExpectedS {
			return a.ExpectedS < b.ExpectedS
		}
		return a.Scheme < b.Scheme
	})
	order := []string{VerdictLate, VerdictGaps, VerdictOK, VerdictManual}
	for _, c := range res.Schemes {
		if res.Verdict == VerdictEmpty || slices.Index(order, c.Verdict) < slices.Index(order, res.Verdict) {
			res.Verdict = c.Verdict
		}
	}
	return res, nil
}

// schemeOf is the schedule word in a snapshot name, or "" for none.
func schemeOf(name string) string {
	l := strings.ToLower(name)
	for _, s := range namedSchemes {
		if strings.Contains(l, s.word) {
			return s.word
		}
	}
	return ""
}

// cadenceOf describes one scheme's snapshots (oldest first); cut reports
// that the gap list was cut at max.
func cadenceOf(word string, snaps []Snapshot, now time.Time, max int) (Cadence, bool) {
	first, last := snaps[0], snaps[len(snaps)-1]
	c := Cadence{Scheme: word, Count: len(snaps), Oldest: first.Name, Newest: last.Name, NewestTime: last.Time,
		Gaps: []Gap{}, NewestAgeS: int64(now.Sub(last.Time) / time.Second)}
	c.NewestAge = human(now.Sub(last.Time))
	var intervals []time.Duration
	for i := 1; i < len(snaps); i++ {
		intervals = append(intervals, snaps[i].Time.Sub(snaps[i-1].Time))
	}
	var median time.Duration
	if len(intervals) > 0 {
		sorted := slices.Clone(intervals)
		slices.Sort(sorted)
		median = sorted[len(sorted)/2]
		c.MedianS, c.MinS, c.MaxS = secs(median), secs(sorted[0]), secs(sorted[len(sorted)-1])
	}
	var expected time.Duration
	for _, s := range namedSchemes {
		if s.word == word {
			expected, c.ExpectedFrom = s.every, "name"
		}
	}
	if word == "" {
		c.Scheme = SchemeManual
		if steady(intervals, median) {
			c.Scheme, expected, c.ExpectedFrom = SchemeObserved, median, "observed"
		}
	}
	if expected <= 0 {
		c.Verdict = VerdictManual
		return c, false
	}
	c.Expected, c.ExpectedS = human(expected), secs(expected)
	cut := false
	limit := time.Duration(float64(expected) * gapFactor)
	for i, d := range intervals {
		if d <= limit {
			continue
		}
		c.GapCount++
		if len(c.Gaps) >= max {
			cut = true
			continue
		}
		c.Gaps = append(c.Gaps, Gap{After: snaps[i].Name, Before: snaps[i+1].Name, From: snaps[i].Time, To: snaps[i+1].Time,
			Length: human(d), LengthS: secs(d), MissedEst: int((d+expected/2)/expected) - 1})
	}
	c.Late = now.Sub(last.Time) > time.Duration(float64(expected)*lateFactor)
	switch {
	case c.Late:
		c.Verdict = VerdictLate
	case c.GapCount > 0:
		c.Verdict = VerdictGaps
	default:
		c.Verdict = VerdictOK
	}
	return c, cut
}

// steady reports whether unlabelled snapshots follow a schedule: at least
// two intervals, a positive median, and two thirds of them within half a
// median of it.
func steady(intervals []time.Duration, median time.Duration) bool {
	if len(intervals) < 2 || median < time.Minute {
		return false
	}
	near := 0
	for _, d := range intervals {
		if d >= median/2 && d <= median*3/2 {
			near++
		}
	}
	return near*3 >= len(intervals)*2
}

func secs(d time.Duration) int64 { return int64(d / time.Second) }

// human writes whole days as "3d" and anything else as Go does, to the
// second.
func human(d time.Duration) string {
	if d < 0 {
		return "-" + human(-d)
	}
	day := 24 * time.Hour
	if d >= day && d%day == 0 {
		return fmt.Sprintf("%dd", d/day)
	}
	if d >= day {
		return fmt.Sprintf("%dd%s", d/day, (d % day).Truncate(time.Second))
	}
	return d.Truncate(time.Second).String()
}
