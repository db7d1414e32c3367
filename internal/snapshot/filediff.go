package snapshot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
)

const (
	// diffContext is the number of unchanged lines around each hunk.
	diffContext = 3
	// maxEditDistance bounds the Myers search (memory grows with its
	// square); past it the changed middle is shown as one replacement.
	maxEditDistance = 1000
)

// FileDiffArgs are the arguments of file_diff.
type FileDiffArgs struct {
	Dataset  string `json:"dataset" jsonschema:"dataset name"`
	A        string `json:"a" jsonschema:"the older snapshot"`
	B        string `json:"b" jsonschema:"the newer snapshot, or @live"`
	Path     string `json:"path" jsonschema:"file relative to the snapshot root"`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"most bytes of diff text (clamped to the server cap)"`
}

// FileDiffResult is the result of file_diff.
type FileDiffResult struct {
	Dataset string `json:"dataset"`
	A       string `json:"a"`
	B       string `json:"b"`
	Path    string `json:"path"`
	// Diff is a unified diff (3 lines of context); empty when identical.
	Diff      string `json:"diff" jsonschema:"unified diff text with 3 lines of context"`
	Identical bool   `json:"identical"`
	Binary    bool   `json:"binary,omitempty" jsonschema:"true when either side holds NUL bytes; no text diff is given"`
	// Approximate is set when the files differ too much for a minimal
	// diff within the edit bound; the diff is still correct.
	Approximate     bool   `json:"approximate,omitempty"`
	SHA256A         string `json:"sha256_a,omitempty"`
	SHA256B         string `json:"sha256_b,omitempty"`
	SizeA           int64  `json:"size_a"`
	SizeB           int64  `json:"size_b"`
	Truncated       bool   `json:"truncated"`
	TruncatedReason string `json:"truncated_reason,omitempty" jsonschema:"max_bytes, or input_too_large when a side exceeds the comparable size"`
}

// diffSide reads one side of a file_diff: its bytes (empty when absent).
func (e *Engine) diffSide(ctx context.Context, v *view, p string) (data []byte, size int64, present, tooBig bool, err error) {
	rel, info, err := v.lookup(p)
	if errors.Is(err, ErrNotFound) {
		return nil, 0, false, false, nil
	}
	if err != nil {
		return nil, 0, false, false, err
	}
	switch entryType(info.Mode()) {
	case TypeSymlink:
		t, err := v.fsys.ReadLink(rel)
		if err != nil {
			return nil, 0, false, false, err
		}
		s := "symlink -> " + t + "\n"
		return []byte(s), int64(len(s)), true, false, nil
	case TypeFile:
	default:
		return nil, 0, false, false, invalidf("%s is a %s in %s; file_diff compares files", rel, entryType(info.Mode()), v.snap.Name)
	}
	if info.Size() > e.limits.DiffInputBytes {
		return nil, info.Size(), true, true, nil
	}
	f, err := v.fsys.Open(rel)
	if err != nil {
		return nil, 0, false, false, err
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(ctxReader{ctx, f}, e.limits.DiffInputBytes+1))
	if err != nil {
		return nil, 0, false, false, err
	}
	if int64(len(data)) > e.limits.DiffInputBytes {
		return nil, int64(len(data)), true, true, nil
	}
	return data, int64(len(data)), true, false, nil
}

// FileDiff shows how one file differs between two snapshots as a unified
// diff (file_diff). A side where the file is absent reads as empty.
func (e *Engine) FileDiff(ctx context.Context, args FileDiffArgs) (FileDiffResult, error) {
	ctx, cancel := e.withTimeout(ctx, "file_diff", 0)
	defer cancel()
	rel, err := cleanRel(args.Path)
	if err != nil {
		return FileDiffResult{}, err
	}
	if rel == "." {
		return FileDiffResult{}, invalidf("file_diff needs a file path")
	}
	va, vb, err := e.openPair(ctx, args.Dataset, args.A, args.B)
	if err != nil {
		return FileDiffResult{}, err
	}
	defer va.close()
	defer vb.close()
	da, sa, okA, bigA, err := e.diffSide(ctx, va, rel)
	if err != nil {
		return FileDiffResult{}, err
	}
	db, sb, okB, bigB, err := e.diffSide(ctx, vb, rel)
	if err != nil {
		return FileDiffResult{}, err
	}
	if !okA && !okB {
		return FileDiffResult{}, notFoundf("%s exists in neither %s nor %s", rel, va.snap.Name, vb.snap.Name)
	}
	res := FileDiffResult{Dataset: args.Dataset, A: va.snap.Name, B: vb.snap.Name, Path: rel, SizeA: sa, SizeB: sb}
	if bigA || bigB {
		res.Truncated, res.TruncatedReason = true, "input_too_large"
		res.Identical = false
		return res, nil
	}
	ha, hb := sha256.Sum256(da), sha256.Sum256(db)
	if okA {
		res.SHA256A = hex.EncodeToString(ha[:])
	}
	if okB {
		res.SHA256B = hex.EncodeToString(hb[:])
	}
	if okA == okB && ha == hb {
		res.Identical = true
		return res, nil
	}
	if bytes.IndexByte(da, 0) >= 0 || bytes.IndexByte(db, 0) >= 0 {
		res.Binary = true
		return res, nil
	}
	nameA, nameB := "a/"+rel, "b/"+rel
	if !okA {
		nameA = "/dev/null"
	}
	if !okB {
		nameB = "/dev/null"
	}
	la, lb := splitLines(da), splitLines(db)
	edits, exact := lineDiff(la, lb, maxEditDistance)
	res.Approximate = !exact
	w := &boundedWriter{max: e.limits.DiffBytes.clamp(args.MaxBytes)}
	fmt.Fprintf(w, "--- %s\t%s\n+++ %s\t%s\n", nameA, va.snap.Name, nameB, vb.snap.Name)
	writeHunks(w, edits, la, lb)
	res.Diff, res.Truncated = w.String(), w.cut
	if w.cut {
		res.TruncatedReason = reasonBytes
	}
	return res, nil
}

// splitLines splits text into lines that keep their "\n"; a last line
// without one is marked the way diff(1) does.
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] += "\n\\ No newline at end of file\n"
	}
	return lines
}

// edit is one step of a line diff: ' ' keeps a[ai] (= b[bi]), '-' deletes
// a[ai], '+' inserts b[bi].
type edit struct {
	op     byte
	ai, bi int
}

// lineDiff returns a shortest edit script from a to b by Myers' algorithm,
// or, when more than maxD edits are needed, a correct but not minimal one
// (exact=false).
func lineDiff(a, b []string, maxD int) (edits []edit, exact bool) {
	ids := map[string]int32{}
	intern := func(ls []string) []int32 {
		out := make([]int32, len(ls))
		for i, l := range ls {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	x, y := intern(a), intern(b)
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	for i := 0; i < pre; i++ {
		edits = append(edits, edit{' ', i, i})
	}
	mid, exact := myers(x[pre:len(x)-suf], y[pre:len(y)-suf], maxD)
	for _, m := range mid {
		edits = append(edits, edit{m.op, m.ai + pre, m.bi + pre})
	}
	for i := 0; i < suf; i++ {
		edits = append(edits, edit{' ', len(x) - suf + i, len(y) - suf + i})
	}
	return edits, exact
}

// myers is the O(ND) greedy diff; it keeps one V row per step, only over
// the diagonals reachable at that step.
func myers(a, b []int32, maxD int) ([]edit, bool) {
	n, m := len(a), len(b)
	fallback := func() []edit {
		out := make([]edit, 0, n+m)
		for i := range n {
			out = append(out, edit{'-', i, 0})
		}
		for j := range m {
			out = append(out, edit{'+', n, j})
		}
		return out
	}
	if n == 0 || m == 0 {
		return fallback(), true
	}
	limit := min(maxD, n+m)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int
	for d := 0; d <= limit; d++ {
		row := make([]int, 2*d+1)
		for k := -d; k <= d; k++ {
			row[k+d] = v[k+off]
		}
		trace = append(trace, row)
		for k := -d; k <= d; k += 2 {
			var xx int
			if k == -d || (k != d && v[k-1+off] < v[k+1+off]) {
				xx = v[k+1+off]
			} else {
				xx = v[k-1+off] + 1
			}
			yy := xx - k
			for xx < n && yy < m && a[xx] == b[yy] {
				xx++
				yy++
			}
			v[k+off] = xx
			if xx >= n && yy >= m {
				return backtrack(trace, n, m), true
			}
		}
	}
	return fallback(), false
}

// backtrack walks the Myers trace from (n, m) to the origin.
func backtrack(trace [][]int, n, m int) []edit {
	var rev []edit
	x, y := n, m
	at := func(row []int, d, k int) int {
		if k < -d || k > d {
			return 0
		}
		return row[k+d]
	}
	for d := len(trace) - 1; d >= 0; d-- {
		row := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && at(row, d, k-1) < at(row, d, k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(row, d, pk)
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, edit{' ', x, y})
		}
		if d > 0 {
			if x == px {
				y--
				rev = append(rev, edit{'+', x, y})
			} else {
				x--
				rev = append(rev, edit{'-', x, y})
			}
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// writeHunks writes unified-diff hunks for an edit script.
func writeHunks(w *boundedWriter, edits []edit, a, b []string) {
	for i := 0; i < len(edits) && !w.cut; {
		if edits[i].op == ' ' {
			i++
			continue
		}
		start := max(i-diffContext, 0)
		end := i
		for {
			for end < len(edits) && edits[end].op != ' ' {
				end++
			}
			run := end
			for run < len(edits) && edits[run].op == ' ' && run-end < 2*diffContext+1 {
				run++
			}
			if run < len(edits) && edits[run].op != ' ' && run-end <= 2*diffContext {
				end = run
				continue
			}
			end = min(end+diffContext, len(edits))
			break
		}
		h := edits[start:end]
		aStart, bStart, aLen, bLen := h[0].ai, h[0].bi, 0, 0
		for _, e := range h {
			if e.op != '+' {
				aLen++
			}
			if e.op != '-' {
				bLen++
			}
		}
		fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		for _, e := range h {
			switch e.op {
			case ' ':
				w.WriteString(" " + a[e.ai])
			case '-':
				w.WriteString("-" + a[e.ai])
			case '+':
				w.WriteString("+" + b[e.bi])
			}
		}
		i = end
	}
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// boundedWriter keeps whole writes up to max bytes and drops the rest, so
// the diff is cut on a line boundary.
type boundedWriter struct {
	buf strings.Builder
	max int
	cut bool
}

func (w *boundedWriter) Write(p []byte) (int, error) {
	w.WriteString(string(p))
	return len(p), nil
}

func (w *boundedWriter) WriteString(s string) {
	if w.cut {
		return
	}
	if w.buf.Len()+len(s) > w.max {
		w.cut = true
		return
	}
	w.buf.WriteString(s)
}

func (w *boundedWriter) String() string { return w.buf.String() }
