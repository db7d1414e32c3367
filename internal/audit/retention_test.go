package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func prunedRecords(t *testing.T, path string) []Record {
	t.Helper()
	files, _ := Files(path)
	recs, err := Tail(files, 1000, Filter{Tool: recoveryTool, Decision: prunedDecision})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestKeepFilesPrunesAndVerifies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := openTest(t, Options{Path: path, RotateBytes: 2000, Keep: Keep{Files: 2}})
	appendN(t, l, 60)
	l.Close()
	files, _ := Files(path)
	if len(files) != 3 {
		t.Fatalf("files: got %v, want 2 rotated and the current one", files)
	}
	rep := verifyPath(t, path, nil)
	if rep.Problem != nil || rep.PrunedBefore <= 1 {
		t.Fatalf("Verify after pruning: problem %v, pruned before %d", rep.Problem, rep.PrunedBefore)
	}
	first, ok, err := firstRecord(files[0])
	if err != nil || !ok || first.Seq != rep.PrunedBefore {
		t.Fatalf("oldest kept file starts at %+v, report says %d", first, rep.PrunedBefore)
	}
	pr := prunedRecords(t, path)
	if len(pr) == 0 {
		t.Fatal("no pruning record")
	}
	var x prunedExtra
	b, _ := json.Marshal(pr[len(pr)-1].Extra)
	json.Unmarshal(b, &x)
	if len(x.Files) == 0 || x.KeptFromSeq != first.Seq || x.KeptFromPrev != first.Hash {
		t.Fatalf("pruning record %+v, want it to name the oldest kept start %+v", x, first)
	}
	for _, f := range x.Files {
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), f)); !os.IsNotExist(err) {
			t.Fatalf("%s named as pruned but still there", f)
		}
	}
	// Deleting the oldest kept file is not pruning: no record attests it.
	os.Remove(files[0])
	rep = verifyPath(t, path, nil)
	if p := rep.Problem; p == nil || p.Kind != KindDeleted || p.Line != 1 {
		t.Fatalf("after deleting the oldest kept file: got %v, want deleted", p)
	}
}

func TestKeepMaxAge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { now = now.Add(time.Minute); return now }
	l := openTest(t, Options{Path: path, RotateBytes: 2000, Now: clock})
	appendN(t, l, 30)
	l.Close()
	before, _ := Files(path)
	// Reopen much later with a one-hour age limit: every rotated file is
	// older, so all go; the pruning record attests the current file's start.
	now = now.Add(48 * time.Hour)
	l2 := openTest(t, Options{Path: path, RotateBytes: 2000, Now: clock, Keep: Keep{MaxAge: time.Hour}})
	l2.Close()
	after, _ := Files(path)
	if len(before) < 3 || len(after) != 1 {
		t.Fatalf("files before %d, after %v", len(before), after)
	}
	rep := verifyPath(t, path, nil)
	if rep.Problem != nil || rep.PrunedBefore == 0 {
		t.Fatalf("Verify: %v, pruned before %d", rep.Problem, rep.PrunedBefore)
	}
	if pr := prunedRecords(t, path); len(pr) != 1 || pr[0].Node != "nas1" {
		t.Fatalf("pruning records: %+v", pr)
	}
}

func TestKeepRejectsNegative(t *testing.T) {
	for _, k := range []Keep{{Files: -1}, {MaxAge: -time.Second}} {
		if l, err := Open(Options{Path: filepath.Join(t.TempDir(), "a.jsonl"), Keep: k}); err == nil {
			l.Close()
			t.Errorf("Open with keep %+v succeeded", k)
		}
	}
}
