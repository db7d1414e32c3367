package snapshot

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBisectVisits checks bisect_change against every range size N from 1
// to 40 and every flip point: the answer is right and at most
// ceil(log2 N)+1 snapshots are visited.
func TestBisectVisits(t *testing.T) {
	const total = 40
	dir := t.TempDir()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	name := func(i int) string { return "h-" + base.Add(time.Duration(i)*time.Hour).Format("2006-01-02T1504") }
	// Snapshot i holds flip/k for every k <= i: "flip/k exists" turns
	// true at snapshot k.
	for i := range total {
		for k := 0; k <= i; k++ {
			writeFile(t, filepath.Join(dir, name(i)), fmt.Sprintf("flip/%d", k), "", time.Time{})
		}
	}
	e := newEngine(t, Config{Sources: []SourceConfig{{Name: "h", Kind: KindDir, Path: dir, Pattern: "h-*", TimeFormat: "2006-01-02T1504"}}})
	ctx := context.Background()
	for n := 1; n <= total; n++ {
		before := base.Add(time.Duration(n-1) * time.Hour).Format(time.RFC3339)
		bound := int(math.Ceil(math.Log2(float64(n)))) + 1
		for k := 0; k <= n; k++ {
			res, err := e.Bisect(ctx, BisectArgs{Dataset: "h", Path: fmt.Sprintf("flip/%d", k), Predicate: PredExists, Before: before})
			if err != nil {
				t.Fatal(err)
			}
			if res.Snapshots != n {
				t.Fatalf("n=%d: range holds %d snapshots", n, res.Snapshots)
			}
			if len(res.Visited) > bound {
				t.Errorf("n=%d k=%d: visited %d snapshots, bound %d", n, k, len(res.Visited), bound)
			}
			switch {
			case k == 0:
				if !res.Initial || res.Flipped {
					t.Errorf("n=%d k=0: %+v, want initially true and no flip", n, res)
				}
			case k >= n:
				if res.Initial || res.Flipped {
					t.Errorf("n=%d k=%d: %+v, want no flip in range", n, k, res)
				}
			default:
				if res.Initial || !res.Flipped || res.First != name(k) || res.Last != name(k-1) {
					t.Errorf("n=%d k=%d: first=%s last=%s, want %s %s", n, k, res.First, res.Last, name(k), name(k-1))
				}
			}
		}
	}
}

func TestStreamContains(t *testing.T) {
	for _, tc := range []struct {
		name   string
		size   int
		at     int
		needle string
	}{
		{"start", 200000, 0, "needle"},
		{"straddles chunk", 200000, 64<<10 - 3, "needle"},
		{"end", 200000, 200000 - 6, "needle"},
		{"long needle straddling", 300000, 2*(64<<10) - 100, strings.Repeat("0", 299) + "7"},
	} {
		buf := make([]byte, tc.size)
		for i := range buf {
			buf[i] = 'x'
		}
		copy(buf[tc.at:], tc.needle)
		ok, err := streamContains(&slowReader{b: buf}, []byte(tc.needle))
		if err != nil || !ok {
			t.Errorf("%s: found=%v err=%v", tc.name, ok, err)
		}
		ok, _ = streamContains(&slowReader{b: buf}, []byte(tc.needle+"!"))
		if ok {
			t.Errorf("%s: found a needle that is not there", tc.name)
		}
	}
}

// slowReader returns odd-sized reads to exercise chunk boundaries.
type slowReader struct {
	b []byte
	n int
}

func (r *slowReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	r.n++
	k := min(len(p), len(r.b), 1000+r.n*7919%50000)
	copy(p, r.b[:k])
	r.b = r.b[k:]
	return k, nil
}
