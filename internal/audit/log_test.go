package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// clock is a deterministic Now that advances 1ms per call.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 22, 10, 15, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

func openTest(t testing.TB, o Options) *Log {
	t.Helper()
	if o.Path == "" {
		o.Path = filepath.Join(t.TempDir(), "state", "audit.jsonl")
	}
	if o.Now == nil {
		o.Now = newClock().Now
	}
	if o.Node == "" {
		o.Node = "nas1"
	}
	l, err := Open(o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// sample is a realistic record: a run_command call with redacted args.
func sample(i int) Record {
	code := i % 3
	return Record{
		Identity:     "alice@example.com",
		Client:       "claude-code/2.1.0",
		Tool:         []string{"run_command", "read_file", "session_send"}[i%3],
		Host:         "nas1",
		Tier:         i % 4,
		Decision:     []string{"allow", "denied", "approval_required", "approved"}[i%4],
		Reason:       "matched rule allow-read-logs",
		Args:         json.RawMessage(`{"command":"journalctl -u smbd --since '1 hour ago' | tail -n 200","timeout_s":30}`),
		ExitCode:     &code,
		Status:       "ok",
		DurationMS:   int64(40 + i%100),
		OutputSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		OutputLen:    int64(4096 + i),
	}
}

func appendN(t testing.TB, l *Log, n int) []Record {
	t.Helper()
	var out []Record
	for i := 0; i < n; i++ {
		r, err := l.Append(context.Background(), sample(i))
		if err != nil {
			t.Fatalf("Append %d: %v", i, err)
		}
		out = append(out, r)
	}
	return out
}

func verifyPath(t *testing.T, path string, key []byte) Report {
	t.Helper()
	files, err := Files(path)
	if err != nil {
		t.Fatalf("Files: %v", err)
	}
	rep, err := Verify(files, key)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return rep
}

func wantIntact(t *testing.T, rep Report, records int) {
	t.Helper()
	if rep.Problem != nil {
		t.Fatalf("Verify: got problem %v, want intact", rep.Problem)
	}
	if rep.Records != records {
		t.Fatalf("Verify: got %d records, want %d", rep.Records, records)
	}
}

func readLines(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.SplitAfter(b, []byte("\n"))
}

func TestAppendChainsAndVerifies(t *testing.T) {
	l := openTest(t, Options{})
	recs := appendN(t, l, 200)
	for i, r := range recs {
		if r.Seq != uint64(i+1) {
			t.Fatalf("record %d: got seq %d, want %d", i, r.Seq, i+1)
		}
		want := Genesis
		if i > 0 {
			want = recs[i-1].Hash
		}
		if r.Prev != want {
			t.Fatalf("record %d: got prev %s, want %s", i, r.Prev, want)
		}
		if r.ID == "" || r.Node != "nas1" || r.TS.IsZero() {
			t.Fatalf("record %d: id, node or ts not filled: %+v", i, r)
		}
	}
	wantIntact(t, verifyPath(t, l.path, nil), 200)

	// The line on disk is the returned record, field for field.
	lines := readLines(t, l.path)
	var got Record
	if err := json.Unmarshal(lines[41], &got); err != nil {
		t.Fatal(err)
	}
	want := recs[41]
	gotJ, _ := json.Marshal(got)
	wantJ, _ := json.Marshal(want)
	if !bytes.Equal(gotJ, wantJ) {
		t.Fatalf("line 42:\n got %s\nwant %s", gotJ, wantJ)
	}
	// The documented hash: sha256(prev || line without its hash field).
	line := bytes.TrimSuffix(lines[41], []byte("\n"))
	canon := append(bytes.Clone(line[:bytes.LastIndex(line, []byte(`,"hash":"`))]), '}')
	if h := newChain(nil).hashLine(want.Prev, canon[:len(canon)-1]); h != want.Hash {
		t.Fatalf("documented hash: got %s, want %s", h, want.Hash)
	}

	for path, perm := range map[string]os.FileMode{l.path: 0o600, filepath.Dir(l.path): 0o700} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != perm {
			t.Errorf("%s: got mode %v, want %v", path, fi.Mode().Perm(), perm)
		}
	}
}

func TestFutureFieldsStillVerify(t *testing.T) {
	// A later version may add fields; verification works on raw bytes.
	l := openTest(t, Options{})
	r := sample(1)
	r.Extra = map[string]any{"recording": map[string]any{"path": "/var/lib/warden/rec/1.cast", "size": 1234}}
	appendN(t, l, 2)
	if _, err := l.Append(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	wantIntact(t, verifyPath(t, l.path, nil), 3)
}

func TestReopenResumesChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := openTest(t, Options{Path: path})
	first := appendN(t, l, 5)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l2 := openTest(t, Options{Path: path})
	if seq, h := l2.Head(); seq != 5 || h != first[4].Hash {
		t.Fatalf("Head after reopen: got %d %s, want 5 %s", seq, h, first[4].Hash)
	}
	next := appendN(t, l2, 5)
	if next[0].Seq != 6 || next[0].Prev != first[4].Hash {
		t.Fatalf("first record after reopen: got seq %d prev %s", next[0].Seq, next[0].Prev)
	}
	wantIntact(t, verifyPath(t, path, nil), 10)
}

func TestTwoLogsShareOnePath(t *testing.T) {
	a := openTest(t, Options{RotateBytes: 8 << 10})
	b := openTest(t, Options{Path: a.path, RotateBytes: 8 << 10})
	var want []Record
	for i := 0; i < 60; i++ {
		l := a
		if i%3 != 0 {
			l = b
		}
		r, err := l.Append(context.Background(), sample(i))
		if err != nil {
			t.Fatal(err)
		}
		if r.Seq != uint64(i+1) {
			t.Fatalf("record %d: got seq %d, want %d: the writers forked the chain", i, r.Seq, i+1)
		}
		want = append(want, r)
	}
	rep := verifyPath(t, a.path, nil)
	wantIntact(t, rep, 60)
	if len(rep.Files) < 2 {
		t.Fatalf("want rotation by both writers, got files %v", rep.Files)
	}
	if rep.LastHash != want[59].Hash {
		t.Fatalf("last hash: got %s, want %s", rep.LastHash, want[59].Hash)
	}
}

func TestOpenRejectsBadOptions(t *testing.T) {
	dir := t.TempDir()
	for name, o := range map[string]Options{
		"no path":    {},
		"bad sync":   {Path: filepath.Join(dir, "a.jsonl"), Sync: "sometimes"},
		"neg rotate": {Path: filepath.Join(dir, "b.jsonl"), RotateBytes: -1},
	} {
		if l, err := Open(o); err == nil {
			l.Close()
			t.Errorf("%s: Open succeeded", name)
		}
	}
}

func TestAppendAfterCloseFails(t *testing.T) {
	l := openTest(t, Options{})
	l.Close()
	if _, err := l.Append(context.Background(), sample(0)); err == nil {
		t.Fatal("Append after Close succeeded")
	}
}

func TestConcurrentAppendsKeepSeqDense(t *testing.T) {
	for _, mode := range []SyncMode{SyncNone, SyncGroup} {
		t.Run(string(mode), func(t *testing.T) {
			l := openTest(t, Options{Sync: mode, RotateBytes: 64 << 10})
			const workers, each = 8, 150
			seqs := make(chan uint64, workers*each)
			var wg sync.WaitGroup
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < each; i++ {
						r, err := l.Append(context.Background(), sample(i))
						if err != nil {
							t.Error(err)
							return
						}
						seqs <- r.Seq
					}
				}()
			}
			wg.Wait()
			close(seqs)
			var got []uint64
			for s := range seqs {
				got = append(got, s)
			}
			slices.Sort(got)
			for i, s := range got {
				if s != uint64(i+1) {
					t.Fatalf("seq %d at position %d: not dense", s, i)
				}
			}
			rep := verifyPath(t, l.path, nil)
			wantIntact(t, rep, workers*each)
			if len(rep.Files) < 2 {
				t.Fatalf("expected rotation under concurrency, got files %v", rep.Files)
			}
		})
	}
}

func TestGroupCommitSharesFsync(t *testing.T) {
	l := openTest(t, Options{Sync: SyncGroup})
	var syncs atomic.Int64
	l.fsync = func(f *os.File) error {
		syncs.Add(1)
		time.Sleep(2 * time.Millisecond) // a disk: appenders pile up meanwhile
		return f.Sync()
	}
	const workers, each = 32, 10
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				r, err := l.Append(context.Background(), sample(i))
				if err != nil {
					t.Error(err)
					return
				}
				l.mu.Lock()
				synced := l.synced
				l.mu.Unlock()
				if synced < r.Seq {
					t.Errorf("Append of seq %d returned before it was synced (synced %d)", r.Seq, synced)
				}
			}
		}()
	}
	wg.Wait()
	if n := syncs.Load(); n == 0 || n > workers*each/4 {
		t.Fatalf("group commit: %d fsyncs for %d records, want far fewer", n, workers*each)
	}
	wantIntact(t, verifyPath(t, l.path, nil), workers*each)
}

func TestSyncAlwaysSyncsEachRecord(t *testing.T) {
	l := openTest(t, Options{Sync: SyncAlways})
	var syncs atomic.Int64
	l.fsync = func(f *os.File) error { syncs.Add(1); return f.Sync() }
	appendN(t, l, 7)
	if n := syncs.Load(); n != 7 {
		t.Fatalf("got %d fsyncs for 7 records, want 7", n)
	}
}

func TestHealthyAfterClosedFD(t *testing.T) {
	l := openTest(t, Options{})
	appendN(t, l, 3)
	l.mu.Lock()
	l.f.Close() // the fd dies under the log
	l.mu.Unlock()
	if _, err := l.Append(context.Background(), sample(3)); err == nil {
		t.Fatal("Append on a closed fd succeeded")
	}
	if ok, reason := l.Healthy(); ok || reason == "" {
		t.Fatalf("Healthy after a failed write: got %v %q, want false with a reason", ok, reason)
	}
	// The next append reopens the file and succeeds; the failed record
	// consumed no seq, and a record attesting it takes seq 4.
	r, err := l.Append(context.Background(), sample(4))
	if err != nil {
		t.Fatalf("Append after reopen: %v", err)
	}
	if r.Seq != 5 {
		t.Fatalf("got seq %d after a failed write, want 5 (4 attests the lost record)", r.Seq)
	}
	if ok, _ := l.Healthy(); !ok {
		t.Fatal("Healthy still false after a successful write")
	}
	wantIntact(t, verifyPath(t, l.path, nil), 5)
}

func TestHealthyWhenPathBecomesDirectory(t *testing.T) {
	l := openTest(t, Options{})
	appendN(t, l, 2)
	moved := l.path + ".moved"
	if err := os.Rename(l.path, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(l.path, 0o700); err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.f.Close()
	l.mu.Unlock()
	for i := 0; i < 2; i++ {
		if _, err := l.Append(context.Background(), sample(i)); err == nil {
			t.Fatal("Append succeeded with a directory at the log path")
		}
		if ok, reason := l.Healthy(); ok || !strings.Contains(reason, "audit") {
			t.Fatalf("Healthy: got %v %q, want false", ok, reason)
		}
	}
	os.Remove(l.path)
	if err := os.Rename(moved, l.path); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(context.Background(), sample(9)); err != nil {
		t.Fatalf("Append after the path was restored: %v", err)
	}
	if ok, _ := l.Healthy(); !ok {
		t.Fatal("Healthy still false after a successful write")
	}
	wantIntact(t, verifyPath(t, l.path, nil), 4) // 2, the record of the 2 lost, 1
}

func TestAppendNeverDropsUnencodableRecords(t *testing.T) {
	l := openTest(t, Options{})
	bad := sample(0)
	bad.Args = json.RawMessage(`{"command": "ls", password=hunter2`)
	bad.Extra = map[string]any{"c": make(chan int)}
	r, err := l.Append(context.Background(), bad)
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	if strings.Contains(string(r.Args), "hunter2") || !json.Valid(r.Args) || r.Extra["omitted"] == nil {
		t.Fatalf("got args %s extra %v", r.Args, r.Extra)
	}
	huge := sample(1)
	huge.Args = json.RawMessage(`"` + strings.Repeat("a", 2<<20) + `"`)
	if r, err = l.Append(context.Background(), huge); err != nil || len(r.Args) > 100 {
		t.Fatalf("oversized args: %v, %d bytes", err, len(r.Args))
	}
	wantIntact(t, verifyPath(t, l.path, nil), 2)
}

// TestGroupLeaderSyncsAFileReplacedMeanwhile: a group-commit leader syncs
// with the mutex released; another appender that finds the file replaced
// by another process (which rotated it) moves to the new file, and the
// leader's fsync of the old one still succeeds: the old fd is closed by
// the leader once its fsync returns, not under it. Before, the second
// appender closed it first and the leader failed with "file already
// closed", marking the log unhealthy (seen under load in
// TestManyProcessesShareOneLog).
func TestGroupLeaderSyncsAFileReplacedMeanwhile(t *testing.T) {
	l := openTest(t, Options{Sync: SyncGroup})
	if _, err := l.Append(context.Background(), sample(0)); err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	l.fsync = func(f *os.File) error {
		if first.CompareAndSwap(false, true) {
			close(entered)
			<-release
		}
		return f.Sync()
	}
	errs := make(chan error, 2)
	go func() { _, err := l.Append(context.Background(), sample(1)); errs <- err }()
	<-entered
	// Another process rotates the file while the leader syncs it.
	if err := os.Rename(l.path, l.path+".old"); err != nil {
		t.Fatal(err)
	}
	go func() { _, err := l.Append(context.Background(), sample(2)); errs <- err }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if fi, err := os.Stat(l.path); err == nil && fi.Size() > 0 {
			break // the second appender wrote to the new file
		}
		if time.Now().After(deadline) {
			t.Fatal("the second append never reached the new file")
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(release)
	for i := 0; i < 2; i++ {
		if err := <-errs; err != nil {
			t.Fatalf("append: %v", err)
		}
	}
	if ok, why := l.Healthy(); !ok {
		t.Fatalf("log unhealthy after a replaced file was synced: %s", why)
	}
}
