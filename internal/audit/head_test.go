package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// truncateLines keeps the first n lines of path.
func truncateLines(t *testing.T, path string, n int) {
	t.Helper()
	lines := readLines(t, path)
	if err := os.WriteFile(path, bytes.Join(lines[:n], nil), 0o600); err != nil {
		t.Fatal(err)
	}
}

func headOf(t *testing.T, path string) Anchor {
	t.Helper()
	a, err := ReadHead(HeadPath(path))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestHeadFollowsEveryAppend(t *testing.T) {
	l := openTest(t, Options{})
	for i := 0; i < 5; i++ {
		recs := appendN(t, l, 1)
		if a := headOf(t, l.path); a.Seq != recs[0].Seq || a.Hash != recs[0].Hash {
			t.Fatalf("after seq %d: head %+v", recs[0].Seq, a)
		}
	}
	if fi, err := os.Stat(HeadPath(l.path)); err != nil || fi.Size() != headSize || fi.Mode().Perm() != 0o600 {
		t.Fatalf("head file: %v %v", fi, err)
	}
}

// TestTailTruncation covers what the head file finds and what only an
// external anchor finds.
func TestTailTruncation(t *testing.T) {
	setup := func(t *testing.T) (string, []Record) {
		l := openTest(t, Options{})
		recs := appendN(t, l, 20)
		l.Close()
		return l.path, recs
	}
	t.Run("truncated", func(t *testing.T) {
		path, _ := setup(t)
		truncateLines(t, path, 17)
		rep := verifyPath(t, path, nil)
		wantIntact(t, rep, 17) // the chain itself cannot tell
		p, _ := CheckHead(rep, headOf(t, path))
		if p == nil || p.Kind != KindMissing || p.Detail != "3 records missing after seq 17: the anchor names seq 20" {
			t.Fatalf("CheckHead: got %v, want 3 records missing after seq 17", p)
		}
	})
	t.Run("truncated and head rewritten", func(t *testing.T) {
		path, recs := setup(t)
		truncateLines(t, path, 17)
		h := encodeHead(nil, headLine{Seq: 17, Hash: recs[16].Hash})
		if err := os.WriteFile(HeadPath(path), h, 0o600); err != nil {
			t.Fatal(err)
		}
		rep := verifyPath(t, path, nil)
		wantIntact(t, rep, 17)
		// Not detectable on the host: log and head agree.
		if p, note := CheckHead(rep, headOf(t, path)); p != nil || note != "" {
			t.Fatalf("CheckHead after a consistent rewrite: %v %q", p, note)
		}
		// An anchor kept elsewhere (an exported record) finds it.
		for _, a := range []Anchor{{recs[19].Seq, recs[19].Hash}, {recs[18].Seq, recs[18].Hash}} {
			p, _, err := CheckAnchor(rep, a)
			if err != nil {
				t.Fatal(err)
			}
			if p == nil || p.Kind != KindMissing || !strings.Contains(p.Detail, "missing after seq 17") {
				t.Fatalf("CheckAnchor(%d): got %v, want records missing after seq 17", a.Seq, p)
			}
		}
		// An older anchor still matches: the chain up to it is unchanged.
		if p, _, err := CheckAnchor(rep, Anchor{recs[9].Seq, recs[9].Hash}); p != nil || err != nil {
			t.Fatalf("CheckAnchor(10): %v %v", p, err)
		}
	})
	t.Run("chain rewritten after an anchor", func(t *testing.T) {
		path, recs := setup(t)
		lines := readLines(t, path)
		lines = lines[:len(lines)-1]
		for i := 9; i < len(lines); i++ {
			ed := bytes.Replace(lines[i], []byte(`"status":"ok"`), []byte(`"status":"error"`), 1)
			lines[i] = forge(t, ed, hashOf(t, lines[i-1]))
		}
		os.WriteFile(path, bytes.Join(lines, nil), 0o600)
		rep := verifyPath(t, path, nil)
		wantIntact(t, rep, 20)
		p, _, err := CheckAnchor(rep, Anchor{recs[12].Seq, recs[12].Hash})
		if err != nil || p == nil || p.Kind != KindForked || p.Line != 13 {
			t.Fatalf("CheckAnchor: got %v %v, want forked at line 13", p, err)
		}
		if p, _ := CheckHead(rep, headOf(t, path)); p == nil || p.Kind != KindForked {
			t.Fatalf("CheckHead: got %v, want forked", p)
		}
	})
	t.Run("middle rotated file deleted", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "audit.jsonl")
		l := openTest(t, Options{Path: path, RotateBytes: 2000})
		appendN(t, l, 40)
		l.Close()
		files, _ := Files(path)
		os.Remove(files[1])
		files, _ = Files(path)
		rep, err := Verify(files, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p := rep.Problem; p == nil || p.Kind != KindDeleted || p.File != files[1] || !strings.Contains(p.Detail, "a rotated file or records are missing") {
			t.Fatalf("got %v, want deleted at the start of %s", p, files[1])
		}
	})
	t.Run("head behind the log", func(t *testing.T) {
		path, recs := setup(t)
		os.WriteFile(HeadPath(path), encodeHead(nil, headLine{Seq: 19, Hash: recs[18].Hash}), 0o600)
		rep := verifyPath(t, path, nil)
		if p, note := CheckHead(rep, headOf(t, path)); p != nil || !strings.Contains(note, "behind") {
			t.Fatalf("CheckHead: %v %q, want a note that the head lags", p, note)
		}
	})
}

func TestReadHeadRejectsJunk(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl.head")
	for _, junk := range []string{"", "garbage", `{"seq":3,"hash":"xyz"}`} {
		os.WriteFile(path, []byte(junk), 0o600)
		if _, err := ReadHead(path); err == nil {
			t.Errorf("ReadHead(%q) succeeded", junk)
		}
	}
}

func TestParseAnchor(t *testing.T) {
	h := strings.Repeat("ab", 32)
	if a, err := ParseAnchor("42:" + h); err != nil || a.Seq != 42 || a.Hash != h {
		t.Fatalf("ParseAnchor: %+v %v", a, err)
	}
	for _, bad := range []string{"", "42", "0:" + h, "x:" + h, "42:abc", "42:" + strings.ToUpper(h)} {
		if _, err := ParseAnchor(bad); err == nil {
			t.Errorf("ParseAnchor(%q) succeeded", bad)
		}
	}
}

// TestWriterContinuesAfterTruncation: a writer that finds records gone
// from the end continues the chain after them (from its own head and the
// head file), so the gap stays in the chain for verify to report, even if
// the head file is later rewritten.
func TestWriterContinuesAfterTruncation(t *testing.T) {
	for _, reopen := range []bool{false, true} {
		t.Run(fmt.Sprintf("reopen=%v", reopen), func(t *testing.T) {
			l := openTest(t, Options{})
			appendN(t, l, 10)
			if reopen {
				l.Close()
			}
			truncateLines(t, l.path, 7)
			if reopen {
				l = openTest(t, Options{Path: l.path})
			}
			r := appendN(t, l, 1)[0]
			if r.Seq != 11 {
				t.Fatalf("after truncation: got seq %d, want 11 (the chain continues after the removed records)", r.Seq)
			}
			rep := verifyPath(t, l.path, nil)
			if p := rep.Problem; p == nil || p.Kind != KindDeleted || !strings.Contains(p.Detail, "seq jumps from 7 to 11") {
				t.Fatalf("Verify: got %v, want the gap reported", p)
			}
		})
	}
}
