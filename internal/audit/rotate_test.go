package audit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestRotationContinuesChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	// A clock stuck in one millisecond: rotated names must still sort in
	// chain order.
	stuck := func() time.Time { return time.Date(2026, 11, 22, 10, 15, 0, 123e6, time.UTC) }
	l := openTest(t, Options{Path: path, RotateBytes: 2000, Now: stuck})
	recs := appendN(t, l, 40)
	l.Close()

	files, err := Files(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 4 || files[len(files)-1] != path {
		t.Fatalf("Files: got %v, want several rotated files then %s", files, path)
	}
	if got := filepath.Base(files[0]); got != "audit-20261122T101500.123Z.jsonl" {
		t.Fatalf("first rotated name: got %s", got)
	}
	if !slices.IsSorted(files[:len(files)-1]) {
		t.Fatalf("rotated files not in name order: %v", files)
	}
	var seen []uint64
	for i, f := range files {
		fi, _ := os.Stat(f)
		if fi.Size() > 2000 {
			t.Errorf("%s: %d bytes, over RotateBytes", f, fi.Size())
		}
		lines := readLines(t, f)
		p, err := parseLine(bytes.TrimSuffix(lines[0], []byte("\n")))
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, p.meta.Seq)
		if i > 0 && p.prev != recs[p.meta.Seq-2].Hash {
			t.Fatalf("%s: first record's prev is not the last hash of the previous file", f)
		}
	}
	if !slices.IsSorted(seen) {
		t.Fatalf("files out of chain order: first seqs %v", seen)
	}
	wantIntact(t, verifyPath(t, path, nil), 40)

	// Reopening picks up the newest rotated name and keeps order.
	l2 := openTest(t, Options{Path: path, RotateBytes: 2000, Now: stuck})
	appendN(t, l2, 20)
	l2.Close()
	wantIntact(t, verifyPath(t, path, nil), 60)
}

func TestVerifyDetectsDeletedRotatedFile(t *testing.T) {
	for _, which := range []string{"middle", "first"} {
		t.Run(which, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			l := openTest(t, Options{Path: path, RotateBytes: 2000})
			appendN(t, l, 40)
			l.Close()
			files, _ := Files(path)
			victim := 1
			if which == "first" {
				victim = 0
			}
			os.Remove(files[victim])
			files, _ = Files(path)
			rep, err := Verify(files, nil)
			if err != nil {
				t.Fatal(err)
			}
			p := rep.Problem
			if p == nil || p.Kind != KindDeleted || p.Line != 1 || p.File != files[victim] {
				t.Fatalf("got %v, want deleted at %s:1", p, files[victim])
			}
		})
	}
}

func TestRotationFailureKeepsAppending(t *testing.T) {
	// The rotated name is taken by a directory, so rename fails; records
	// must still be written to the current file.
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	stuck := func() time.Time { return time.Date(2026, 11, 22, 10, 15, 0, 0, time.UTC) }
	os.MkdirAll(filepath.Join(filepath.Dir(path), "audit-20261122T101500.000Z.jsonl", "x"), 0o700)
	l := openTest(t, Options{Path: path, RotateBytes: 1000, Now: stuck})
	// The directory is not a rotated file, so the first name is free...
	// unless rename onto a non-empty directory fails, which it does.
	if _, err := l.Append(context.Background(), sample(0)); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 10; i++ {
		if _, err := l.Append(context.Background(), sample(i)); err != nil {
			t.Fatalf("Append with rotation failing: %v", err)
		}
	}
	if ok, _ := l.Healthy(); !ok {
		t.Fatal("rotation failure made the log unhealthy; writes succeed")
	}
	l.Close()
	rep := verifyPath(t, path, nil)
	wantIntact(t, rep, 10)
}

func TestFilesIgnoresOtherNames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	for _, n := range []string{"audit.jsonl", "audit-20261122T101500.123Z.jsonl", "audit-x.jsonl",
		"audit.jsonl.lock", "other-20261122T101500.123Z.jsonl", "audit-20261122T101500.123Z.jsonl.gz"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o600)
	}
	got, err := Files(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "audit-20261122T101500.123Z.jsonl"), path}
	if !slices.Equal(got, want) {
		t.Fatalf("Files: got %v, want %v", got, want)
	}
	if _, err := Files(filepath.Join(dir, "none.jsonl")); err == nil {
		t.Fatal("Files of a missing log: no error")
	}
}
