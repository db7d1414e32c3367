package audit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// forge rewrites a line's prev and recomputes its hash, as an attacker who
// knows the format (but not an HMAC key) would.
func forge(t *testing.T, line []byte, prev string) []byte {
	t.Helper()
	line = bytes.TrimSuffix(line, []byte("\n"))
	p, err := parseLine(line)
	if err != nil {
		t.Fatalf("forge: %v", err)
	}
	canon := append(bytes.Clone(p.canon[:len(p.canon)-prevTailLen]), `,"prev":"`+prev+`"`...)
	h := newChain(nil).hashLine(prev, canon)
	return append(canon, `,"hash":"`+h+"\"}\n"...)
}

func hashOf(t *testing.T, line []byte) string {
	t.Helper()
	p, err := parseLine(bytes.TrimSuffix(line, []byte("\n")))
	if err != nil {
		t.Fatal(err)
	}
	return p.hash
}

func TestVerifyFindsTampering(t *testing.T) {
	tests := []struct {
		name    string
		tamper  func(t *testing.T, lines [][]byte) [][]byte // lines[i] is line i+1 with its newline
		line    int
		kind    string
		records int
	}{
		{"edited field", func(t *testing.T, ls [][]byte) [][]byte {
			ls[4] = bytes.Replace(ls[4], []byte(`"tier":0`), []byte(`"tier":1`), 1)
			return ls
		}, 5, KindEdited, 4},
		{"edited one byte of args", func(t *testing.T, ls [][]byte) [][]byte {
			ls[6] = bytes.Replace(ls[6], []byte("journalctl"), []byte("journalctL"), 1)
			return ls
		}, 7, KindEdited, 6},
		{"edited hash", func(t *testing.T, ls [][]byte) [][]byte {
			// Swap in another hex digit, so the field stays well-formed
			// and only its value is wrong.
			i := bytes.LastIndex(ls[4], []byte(`"hash":"`)) + 9
			if ls[4][i] == '0' {
				ls[4][i] = '1'
			} else {
				ls[4][i] = '0'
			}
			return ls
		}, 5, KindEdited, 4},
		{"edited and re-hashed", func(t *testing.T, ls [][]byte) [][]byte {
			ed := bytes.Replace(ls[4], []byte(`"status":"ok"`), []byte(`"status":"error"`), 1)
			ls[4] = forge(t, ed, hashOf(t, ls[3]))
			return ls
		}, 5, KindEdited, 4},
		{"deleted record", func(t *testing.T, ls [][]byte) [][]byte {
			return append(ls[:4], ls[5:]...)
		}, 5, KindDeleted, 4},
		{"deleted first record", func(t *testing.T, ls [][]byte) [][]byte {
			return ls[1:]
		}, 1, KindDeleted, 0},
		{"inserted forged record that chains", func(t *testing.T, ls [][]byte) [][]byte {
			fake := bytes.Replace(ls[4], []byte("journalctl"), []byte("rm -rf /srv"), 1)
			fake = forge(t, fake, hashOf(t, ls[3]))
			return append(ls[:4], append([][]byte{fake}, ls[4:]...)...)
		}, 5, KindInserted, 4},
		{"inserted copy of an earlier record", func(t *testing.T, ls [][]byte) [][]byte {
			return append(ls[:6], append([][]byte{bytes.Clone(ls[2])}, ls[6:]...)...)
		}, 7, KindInserted, 6},
		{"inserted garbage line", func(t *testing.T, ls [][]byte) [][]byte {
			return append(ls[:3], append([][]byte{[]byte("hello\n")}, ls[3:]...)...)
		}, 4, KindMalformed, 3},
		{"inserted blank line", func(t *testing.T, ls [][]byte) [][]byte {
			return append(ls[:3], append([][]byte{[]byte("\n")}, ls[3:]...)...)
		}, 4, KindMalformed, 3},
		{"swapped records", func(t *testing.T, ls [][]byte) [][]byte {
			ls[4], ls[5] = ls[5], ls[4]
			return ls
		}, 5, KindReordered, 4},
		{"record moved to the end", func(t *testing.T, ls [][]byte) [][]byte {
			moved := ls[2]
			return append(append(ls[:2], ls[3:]...), moved)
		}, 3, KindReordered, 2},
		{"malformed JSON in the middle", func(t *testing.T, ls [][]byte) [][]byte {
			ls[4] = bytes.Replace(ls[4], []byte(`"tool":`), []byte(`"tool"`), 1)
			return ls
		}, 5, KindMalformed, 4},
		{"truncated final line", func(t *testing.T, ls [][]byte) [][]byte {
			ls[9] = ls[9][:len(ls[9])/2]
			return ls
		}, 10, KindTruncated, 9},
		{"final newline removed", func(t *testing.T, ls [][]byte) [][]byte {
			ls[9] = ls[9][:len(ls[9])-1]
			return ls
		}, 10, KindTruncated, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := openTest(t, Options{})
			appendN(t, l, 10)
			l.Close()
			lines := readLines(t, l.path)
			lines = lines[:len(lines)-1] // the empty tail after the last newline
			lines = tt.tamper(t, lines)
			if err := os.WriteFile(l.path, bytes.Join(lines, nil), 0o600); err != nil {
				t.Fatal(err)
			}
			rep := verifyPath(t, l.path, nil)
			p := rep.Problem
			if p == nil {
				t.Fatalf("Verify: chain intact, want %s at line %d", tt.kind, tt.line)
			}
			if p.File != l.path || p.Line != tt.line || p.Kind != tt.kind {
				t.Fatalf("Verify: got %v, want %s:%d %s", p, l.path, tt.line, tt.kind)
			}
			if rep.Records != tt.records {
				t.Fatalf("Verify: got %d records before the problem, want %d", rep.Records, tt.records)
			}
		})
	}
}

func TestVerifyKey(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	dir := t.TempDir()
	keyed := filepath.Join(dir, "keyed.jsonl")
	l := openTest(t, Options{Path: keyed, Key: key})
	appendN(t, l, 5)
	l.Close()
	plain := filepath.Join(dir, "plain.jsonl")
	l2 := openTest(t, Options{Path: plain})
	appendN(t, l2, 5)
	l2.Close()

	wantIntact(t, verifyPath(t, keyed, key), 5)
	for name, c := range map[string]struct {
		path string
		key  []byte
	}{
		"wrong key":           {keyed, []byte("another key, same length as key!")},
		"no key for keyed":    {keyed, nil},
		"key for unkeyed log": {plain, key},
	} {
		rep := verifyPath(t, c.path, c.key)
		if rep.Problem == nil || rep.Problem.Kind != KindBadKey || rep.Problem.Line != 1 {
			t.Errorf("%s: got %v, want bad-key at line 1", name, rep.Problem)
		}
	}

	// Without the key, an edit cannot be re-hashed into a valid keyed
	// record, even keeping key_id.
	lines := readLines(t, keyed)
	ed := bytes.Replace(lines[2], []byte(`"tier":2`), []byte(`"tier":0`), 1)
	lines[2] = forge(t, ed, hashOf(t, lines[1]))
	os.WriteFile(keyed, bytes.Join(lines, nil), 0o600)
	rep := verifyPath(t, keyed, key)
	if rep.Problem == nil || rep.Problem.Line != 3 || rep.Problem.Kind != KindEdited {
		t.Fatalf("forged keyed record: got %v, want edited at line 3", rep.Problem)
	}
}

func TestVerifyEmptyLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(path, nil, 0o600)
	rep, err := Verify([]string{path}, nil)
	if err != nil || rep.Problem != nil || rep.Records != 0 {
		t.Fatalf("empty log: got %+v, %v", rep, err)
	}
	if _, err := Verify([]string{path + ".missing"}, nil); err == nil {
		t.Fatal("Verify of a missing file: no error")
	}
}

func TestTornLineRecovery(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := openTest(t, Options{Path: path})
	recs := appendN(t, l, 5)
	l.Close()

	// A crash mid-write: half of what would have been line 6.
	lines := readLines(t, path)
	torn := lines[4][:len(lines[4])/2]
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.Write(torn)
	f.Close()

	rep := verifyPath(t, path, nil)
	if rep.Problem == nil || rep.Problem.Kind != KindTruncated || rep.Problem.Line != 6 || rep.Records != 5 {
		t.Fatalf("after crash: got %+v, want truncated at line 6 after 5 records", rep)
	}

	l2 := openTest(t, Options{Path: path})
	more := appendN(t, l2, 3)
	if more[0].Seq != 7 { // 6 is the recovery record
		t.Fatalf("first record after recovery: got seq %d, want 7", more[0].Seq)
	}
	l2.Close()

	got, _ := os.ReadFile(path)
	if !bytes.Contains(got, append(bytes.Clone(torn), '\n')) {
		t.Fatal("torn bytes were not left in place")
	}
	rep = verifyPath(t, path, nil)
	wantIntact(t, rep, 5+1+3)
	if len(rep.Recovered) != 1 || rep.Recovered[0].Line != 6 {
		t.Fatalf("Recovered: got %+v, want one torn line at line 6", rep.Recovered)
	}
	tail, err := Tail([]string{path}, 3, Filter{})
	if err != nil || len(tail) != 3 || tail[0].Seq != 7 {
		t.Fatalf("Tail after recovery: got %+v, %v", tail, err)
	}
	_ = recs

	// The attestation is chained: changing the torn bytes is an error.
	b, _ := os.ReadFile(path)
	i := bytes.LastIndex(b, append(bytes.Clone(torn), '\n'))
	b[i+len(torn)/2] ^= 1
	os.WriteFile(path, b, 0o600)
	rep = verifyPath(t, path, nil)
	if rep.Problem == nil || rep.Problem.Line != 6 {
		t.Fatalf("edited torn bytes: got %v, want a problem at line 6", rep.Problem)
	}
}

func TestJunkAfterLastRecordIsNotAttested(t *testing.T) {
	// Complete lines appended by someone else must not be laundered into
	// the chain by a restart.
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := openTest(t, Options{Path: path})
	appendN(t, l, 3)
	l.Close()
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	fmt.Fprintf(f, `{"tool":"run_command","args":{"command":"rm -rf /"}}`+"\n")
	f.Close()
	l2 := openTest(t, Options{Path: path})
	appendN(t, l2, 2)
	l2.Close()
	rep := verifyPath(t, path, nil)
	if rep.Problem == nil || rep.Problem.Line != 4 || rep.Problem.Kind != KindMalformed {
		t.Fatalf("got %v, want malformed at line 4", rep.Problem)
	}
}

func TestTornLineWithoutAnyRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	os.WriteFile(path, []byte(`{"ts":"2026-11-22T10:15:00Z","seq":1,"id":"ab`), 0o600)
	l := openTest(t, Options{Path: path})
	r := appendN(t, l, 1)
	if r[0].Seq != 2 || r[0].Prev == Genesis {
		t.Fatalf("got seq %d prev %s, want seq 2 after the recovery record", r[0].Seq, r[0].Prev)
	}
	l.Close()
	rep := verifyPath(t, path, nil)
	wantIntact(t, rep, 2)
	if len(rep.Recovered) != 1 || rep.Recovered[0].Line != 1 {
		t.Fatalf("Recovered: got %+v", rep.Recovered)
	}
}

func TestProblemString(t *testing.T) {
	p := &Problem{File: "a.jsonl", Line: 3, Kind: KindEdited, Detail: "x"}
	if got := p.String(); !strings.Contains(got, "a.jsonl:3: edited") {
		t.Fatalf("got %q", got)
	}
}

func TestAppendWithContextCancelledStillRecords(t *testing.T) {
	l := openTest(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Append(ctx, sample(0)); err != nil {
		t.Fatalf("Append with a cancelled context: %v", err)
	}
	wantIntact(t, verifyPath(t, l.path, nil), 1)
}

// FuzzVerify feeds arbitrary bytes as a log file, alone and spliced into a
// valid log: Verify must not panic, and must never call a changed valid log
// intact unless the change left every record's bytes in place.
func FuzzVerify(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "seed.jsonl")
	l, err := Open(Options{Path: path, Now: newClock().Now})
	if err != nil {
		f.Fatal(err)
	}
	appendN(f, l, 4)
	l.Close()
	valid, _ := os.ReadFile(path)
	f.Add([]byte("{}\n"), 0)
	f.Add(valid[:len(valid)/3], 10)
	f.Add([]byte(`{"seq":1,"prev":"`+Genesis+`","hash":"`+Genesis+`"}`+"\n"), 100)
	f.Fuzz(func(t *testing.T, junk []byte, at int) {
		p := filepath.Join(t.TempDir(), "a.jsonl")
		os.WriteFile(p, junk, 0o600)
		if _, err := Verify([]string{p}, nil); err != nil {
			t.Fatal(err)
		}
		if at < 0 {
			at = -at
		}
		at %= len(valid) + 1
		spliced := append(append(bytes.Clone(valid[:at]), junk...), valid[at:]...)
		os.WriteFile(p, spliced, 0o600)
		rep, err := Verify([]string{p}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Problem == nil && len(junk) > 0 && rep.Records <= 4 {
			t.Fatalf("spliced %q at %d: intact with %d records", junk, at, rep.Records)
		}
	})
}
