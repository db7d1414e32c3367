package snapshot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// applyUnified applies a unified diff to a, failing the test on any
// context or count mismatch.
func applyUnified(t *testing.T, a, diff string) string {
	t.Helper()
	src := strings.SplitAfter(a, "\n")
	if src[len(src)-1] == "" {
		src = src[:len(src)-1]
	}
	lines := strings.SplitAfter(diff, "\n")
	var out []string
	pos := 0
	for i := 2; i < len(lines) && lines[i] != ""; {
		h := lines[i]
		if !strings.HasPrefix(h, "@@ -") {
			t.Fatalf("bad hunk header %q", h)
		}
		f := strings.Fields(h)
		start, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(f[1], "-"), ",", 2)[0])
		if strings.HasSuffix(f[1], ",0") {
			start++
		}
		for pos < start-1 {
			out = append(out, src[pos])
			pos++
		}
		i++
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			switch l[0] {
			case ' ':
				if src[pos] != l[1:] {
					t.Fatalf("context mismatch at %d: %q vs %q", pos, src[pos], l[1:])
				}
				out = append(out, src[pos])
				pos++
			case '-':
				if src[pos] != l[1:] {
					t.Fatalf("delete mismatch at %d: %q vs %q", pos, src[pos], l[1:])
				}
				pos++
			case '+':
				out = append(out, l[1:])
			}
			i++
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, "")
}

func changed(diff string) int {
	n := 0
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++")) || (strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---")) {
			n++
		}
	}
	return n
}

// TestFileDiffAgainstGNUDiff diffs random edits: our patch must turn A
// into B, and change no more lines than GNU diff -u does.
func TestFileDiffAgainstGNUDiff(t *testing.T) {
	if _, err := exec.LookPath("diff"); err != nil {
		t.Skip("diff not installed")
	}
	r := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	for round := range 40 {
		var a []string
		for range r.IntN(60) {
			a = append(a, fmt.Sprintf("line %d\n", r.IntN(15)))
		}
		b := append([]string(nil), a...)
		for range r.IntN(8) + 1 {
			switch i := r.IntN(len(b) + 1); r.IntN(3) {
			case 0:
				b = append(b[:i], append([]string{fmt.Sprintf("new %d\n", r.IntN(5))}, b[i:]...)...)
			case 1:
				if i < len(b) {
					b = append(b[:i], b[i+1:]...)
				}
			default:
				if i < len(b) {
					b[i] = fmt.Sprintf("changed %d\n", r.IntN(5))
				}
			}
		}
		ta, tb := strings.Join(a, ""), strings.Join(b, "")
		if round%5 == 0 && len(tb) > 0 {
			tb = strings.TrimSuffix(tb, "\n")
		}
		root := filepath.Join(dir, fmt.Sprint(round))
		writeFile(t, root+"/a", "f", ta, time.Time{})
		writeFile(t, root+"/b", "f", tb, time.Time{})
		e := newEngine(t, Config{Sources: []SourceConfig{{Name: "d", Kind: KindDir, Path: root}}})
		res, err := e.FileDiff(context.Background(), FileDiffArgs{Dataset: "d", A: "a", B: "b", Path: "f"})
		if err != nil {
			t.Fatal(err)
		}
		if ta == tb {
			if !res.Identical {
				t.Errorf("round %d: identical files not reported identical", round)
			}
			continue
		}
		gnu, _ := exec.Command("diff", "-u", root+"/a/f", root+"/b/f").Output()
		if got := applyUnified(t, ta, strings.ReplaceAll(res.Diff, "\n\\ No newline at end of file\n", "\x00")); strings.ReplaceAll(got, "\x00", "") != tb {
			t.Errorf("round %d: patch does not reproduce B\n%s", round, res.Diff)
		}
		if changed(res.Diff) > changed(string(gnu)) {
			t.Errorf("round %d: %d changed lines, GNU diff %d\nours:\n%s\ngnu:\n%s", round, changed(res.Diff), changed(string(gnu)), res.Diff, gnu)
		}
	}
}

func TestFileDiffCases(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/a", "bin", "a\x00b", time.Time{})
	writeFile(t, dir+"/b", "bin", "a\x00c", time.Time{})
	writeFile(t, dir+"/b", "added.txt", "one\ntwo\n", time.Time{})
	writeFile(t, dir+"/a", "big.txt", strings.Repeat("x\n", 600), time.Time{})
	writeFile(t, dir+"/b", "big.txt", strings.Repeat("y\n", 600), time.Time{})
	e := newEngine(t, Config{Limits: Limits{DiffInputBytes: 1000}, Sources: []SourceConfig{{Name: "d", Kind: KindDir, Path: dir}}})
	ctx := context.Background()
	res, err := e.FileDiff(ctx, FileDiffArgs{Dataset: "d", A: "a", B: "b", Path: "bin"})
	if err != nil || !res.Binary || res.Diff != "" || res.SHA256A == res.SHA256B {
		t.Errorf("binary: %+v %v", res, err)
	}
	res, err = e.FileDiff(ctx, FileDiffArgs{Dataset: "d", A: "a", B: "b", Path: "added.txt"})
	if want := "--- /dev/null\ta\n+++ b/added.txt\tb\n@@ -0,0 +1,2 @@\n+one\n+two\n"; err != nil || res.Diff != want {
		t.Errorf("added: %q %v, want %q", res.Diff, err, want)
	}
	res, err = e.FileDiff(ctx, FileDiffArgs{Dataset: "d", A: "a", B: "b", Path: "big.txt"})
	if err != nil || !res.Truncated || res.TruncatedReason != "input_too_large" || res.Diff != "" {
		t.Errorf("too large: %+v %v", res, err)
	}
	if _, err := e.FileDiff(ctx, FileDiffArgs{Dataset: "d", A: "a", B: "b", Path: "missing"}); err == nil {
		t.Error("missing on both sides: no error")
	}

	// Past the edit bound the diff is a whole replacement, still correct.
	var a, b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	edits, exact := lineDiff(splitLines([]byte(a.String())), splitLines([]byte(b.String())), 100)
	if exact || len(edits) != 6000 {
		t.Errorf("bounded diff: exact=%v edits=%d", exact, len(edits))
	}
}
