package approvals

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"
)

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func request(cmd string) Request {
	return Request{Tool: "run_command", Host: "local", Identity: "agent", Tier: 3, Reason: "rm",
		Args: json.RawMessage(fmt.Sprintf(`{"command":%q}`, cmd)), Digest: sha256.Sum256([]byte(cmd))}
}

func TestFirstAnswerWins(t *testing.T) {
	q := New(Options{Wait: time.Minute})
	tk, err := q.Open(request("a"))
	if err != nil {
		t.Fatal(err)
	}
	defer tk.Close()
	errs := make(chan error, 10)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- q.Answer(tk.ID(), Decision{Approve: i%2 == 0, Approver: fmt.Sprint(i)})
		}()
	}
	wg.Wait()
	close(errs)
	ok := 0
	for err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, ErrUnknown):
			t.Errorf("answer: %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d answers accepted, want 1", ok)
	}
	a := tk.Wait(context.Background())
	if a.Verdict != Approved && a.Verdict != Denied {
		t.Errorf("verdict %s", a.Verdict)
	}
	if q.Len() != 0 {
		t.Errorf("%d left pending", q.Len())
	}
}

func TestAnswerAfterExpiryFailsClosed(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	q := New(Options{Wait: time.Hour, Now: c.Now})
	tk, err := q.Open(request("a"))
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Hour)
	if err := q.Answer(tk.ID(), Decision{Approve: true}); !errors.Is(err, ErrExpired) {
		t.Fatalf("late approval: %v, want ErrExpired", err)
	}
	if a := tk.Wait(context.Background()); a.Verdict != Expired {
		t.Fatalf("verdict %s, want expired", a.Verdict)
	}
}

func TestDigestMustMatch(t *testing.T) {
	q := New(Options{Wait: time.Minute})
	a, _ := q.Open(request("a"))
	b, _ := q.Open(request("b"))
	defer a.Close()
	defer b.Close()
	if err := q.Answer(b.ID(), Decision{Approve: true, Digest: a.Pending().Digest}); !errors.Is(err, ErrMismatch) {
		t.Fatalf("B with A's digest: %v, want ErrMismatch", err)
	}
	if _, ok := q.Get(b.ID()); !ok {
		t.Fatal("a mismatched answer removed B")
	}
	if err := q.Answer(b.ID(), Decision{Approve: true, Digest: b.Pending().Digest}); err != nil {
		t.Fatal(err)
	}
	if got := b.Wait(context.Background()); got.Verdict != Approved || got.Digest != sha256.Sum256([]byte("b")) {
		t.Errorf("B's answer = %+v", got)
	}
}

func TestBounded(t *testing.T) {
	q := New(Options{Wait: time.Minute, MaxPending: 2})
	a, _ := q.Open(request("a"))
	b, _ := q.Open(request("b"))
	if _, err := q.Open(request("c")); !errors.Is(err, ErrTooManyPending) {
		t.Fatalf("third: %v, want ErrTooManyPending", err)
	}
	a.Close()
	c, err := q.Open(request("c"))
	if err != nil {
		t.Fatalf("after a withdrawal: %v", err)
	}
	b.Close()
	c.Close()
}

// Two hundred calls wait at once: each costs a small, fixed amount and
// everything is given back when they are answered.
func TestTwoHundredPendingMemoryBounded(t *testing.T) {
	const n = 200
	q := New(Options{Wait: time.Minute, MaxPending: n})
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	var wg sync.WaitGroup
	results := make(chan Verdict, n)
	big := make([]byte, 4096) // arguments as large as the audit log keeps
	for i := range big {
		big[i] = 'x'
	}
	for i := range n {
		r := request(fmt.Sprintf("cmd %d", i))
		r.Args = json.RawMessage(fmt.Sprintf(`{"command":%q}`, big))
		tk, err := q.Open(r)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer tk.Close()
			results <- tk.Wait(context.Background()).Verdict
		}()
	}
	if q.Len() != n {
		t.Fatalf("%d pending, want %d", q.Len(), n)
	}
	during := heap()
	perCall := (int64(during) - int64(before)) / n
	t.Logf("heap: %d bytes before, %d with %d pending (%d per call)", before, during, n, perCall)
	if perCall > 32<<10 {
		t.Errorf("each pending call holds %d bytes, want under 32 KiB", perCall)
	}
	for _, p := range q.List("") {
		if err := q.Answer(p.ID, Decision{Approve: true}); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	close(results)
	for v := range results {
		if v != Approved {
			t.Fatalf("verdict %s", v)
		}
	}
	if q.Len() != 0 {
		t.Fatalf("%d left pending", q.Len())
	}
	after := heap()
	if int64(after)-int64(before) > 1<<20 {
		t.Errorf("heap grew by %d bytes after every call was answered", int64(after)-int64(before))
	}
}
