package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// mkSnapDir makes an empty snapshot directory timed mt, as a directory
// source without time_format reads it.
func mkSnapDir(t *testing.T, parent, name string, mt time.Time) {
	t.Helper()
	dir := filepath.Join(parent, name)
	writeFile(t, dir, "f", name, mt)
	if err := os.Chtimes(dir, mt, mt); err != nil {
		t.Fatal(err)
	}
}

func TestCadence(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 11, 20, 6, 30, 0, 0, time.UTC)
	at := func(s string) time.Time {
		tm, err := time.Parse("2006-01-02T15:04", s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	// Hourly with a three-hour hole, daily on time, one weekly long
	// overdue, one manual snapshot.
	for _, h := range []string{"01", "02", "03", "06"} {
		mkSnapDir(t, dir, "zfs-auto-snap_hourly-2026-11-20-"+h+"00", at("2026-11-20T"+h+":00"))
	}
	for _, d := range []string{"17", "18", "19"} {
		mkSnapDir(t, dir, "daily-2026-11-"+d, at("2026-11-"+d+"T03:00"))
	}
	mkSnapDir(t, dir, "weekly-2026-10-01", at("2026-10-01T00:00"))
	mkSnapDir(t, dir, "before-upgrade", at("2026-11-19T12:00"))
	e := newEngine(t, Config{Now: func() time.Time { return now }, Sources: []SourceConfig{{Name: "mixed", Kind: KindDir, Path: dir}}})
	res, err := e.Cadence(context.Background(), CadenceArgs{Dataset: "mixed"})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Cadence{}
	for _, c := range res.Schemes {
		by[c.Scheme] = c
	}
	if len(res.Schemes) != 4 || res.Schemes[0].Scheme != "hourly" || res.Verdict != VerdictLate {
		t.Fatalf("schemes = %+v verdict %s, want hourly, daily, weekly, manual and late", res.Schemes, res.Verdict)
	}
	h := by["hourly"]
	if h.Verdict != VerdictGaps || h.GapCount != 1 || len(h.Gaps) != 1 || h.Gaps[0].After != "zfs-auto-snap_hourly-2026-11-20-0300" || h.Gaps[0].MissedEst != 2 || h.Late || h.NewestAgeS != 1800 {
		t.Errorf("hourly = %+v", h)
	}
	if d := by["daily"]; d.Verdict != VerdictOK || d.Count != 3 || d.ExpectedS != 86400 || d.ExpectedFrom != "name" || d.Expected != "1d" {
		t.Errorf("daily = %+v", d)
	}
	if w := by["weekly"]; w.Verdict != VerdictLate || !w.Late || w.NewestAge != "50d6h30m0s" {
		t.Errorf("weekly = %+v", w)
	}
	if m := by["manual"]; m.Verdict != VerdictManual || m.Count != 1 || m.Newest != "before-upgrade" {
		t.Errorf("manual = %+v", m)
	}
	res, err = e.Cadence(context.Background(), CadenceArgs{Dataset: "mixed", MaxResults: 1})
	if err != nil || res.Truncated {
		t.Errorf("one gap with max_results 1: truncated=%v err=%v", res.Truncated, err)
	}

	// Unlabelled snapshots at a steady interval: the median is the
	// schedule, and a missed day is a gap.
	plain := t.TempDir()
	for i, d := range []string{"01", "02", "03", "04", "06"} {
		mkSnapDir(t, plain, "s"+string(rune('1'+i)), at("2026-11-"+d+"T03:00"))
	}
	e = newEngine(t, Config{Now: func() time.Time { return at("2026-11-06T12:00") }, Sources: []SourceConfig{{Name: "plain", Kind: KindDir, Path: plain}}})
	res, err = e.Cadence(context.Background(), CadenceArgs{Dataset: "plain"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Schemes) != 1 || res.Schemes[0].Scheme != SchemeObserved || res.Schemes[0].ExpectedS != 86400 || res.Schemes[0].GapCount != 1 || res.Verdict != VerdictGaps {
		t.Errorf("plain = %+v", res)
	}

	empty := t.TempDir()
	e = newEngine(t, Config{Sources: []SourceConfig{{Name: "none", Kind: KindDir, Path: empty}}})
	if res, err := e.Cadence(context.Background(), CadenceArgs{Dataset: "none"}); err != nil || res.Verdict != VerdictEmpty {
		t.Errorf("empty dataset: %+v %v", res, err)
	}
	if _, err := e.Cadence(context.Background(), CadenceArgs{Dataset: "nope"}); err == nil {
		t.Error("unknown dataset: no error")
	}
}
