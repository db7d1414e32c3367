package runner

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestLooksBound: looks left waiting count against the bound until they
// end; past it a look is refused at once, without running, saying why,
// and once the waiting ones end looks start again.
func TestLooksBound(t *testing.T) {
	looks := NewLooks(2)
	stuck := make(chan struct{})
	wait := func() error { <-stuck; return nil }
	for range 2 {
		if err := Answers(t.Context(), looks, "dir", 10*time.Millisecond, wait); err == nil || Busy(err) {
			t.Fatalf("a look within the bound: %v, want it given up on", err)
		}
	}
	if n := looks.Waiting(); n != 2 {
		t.Fatalf("waiting looks: %d, want 2", n)
	}
	ran := false
	err := Answers(t.Context(), looks, "dir", time.Minute, func() error { ran = true; return nil })
	if !Busy(err) || ran || !strings.Contains(err.Error(), "2 earlier looks at files are still waiting") {
		t.Fatalf("a look past the bound: %v (ran %v), want it refused unrun", err, ran)
	}
	var b *BusyError
	if !errors.As(err, &b) || b.Max != 2 {
		t.Errorf("refusal %#v, want a *BusyError naming the bound", err)
	}
	if _, err := Await(t.Context(), looks, time.Minute, func() int { return 1 }); !Busy(err) {
		t.Errorf("Await past the bound: %v, want refused", err)
	}
	if _, err := AwaitMoving(t.Context(), looks, time.Minute, func() int64 { return 0 }, func() int { return 1 }); !Busy(err) {
		t.Errorf("AwaitMoving past the bound: %v, want refused", err)
	}
	close(stuck)
	deadline := time.Now().Add(time.Minute)
	for looks.Waiting() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := looks.Waiting(); n != 0 {
		t.Fatalf("waiting looks once they ended: %d, want 0", n)
	}
	if v, err := Await(t.Context(), looks, time.Minute, func() int { return 7 }); err != nil || v != 7 {
		t.Errorf("a look once the others ended: %v %v, want 7 nil", v, err)
	}
	// Its goroutine ends just after it hands its result over.
	for looks.Waiting() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := looks.Waiting(); n != 0 {
		t.Errorf("waiting looks after one that returned: %d, want 0", n)
	}
}

// TestLooksNil: a nil bound bounds nothing.
func TestLooksNil(t *testing.T) {
	var looks *Looks
	stuck := make(chan struct{})
	defer close(stuck)
	for range 3 {
		if err := looks.Go(func() { <-stuck }); err != nil {
			t.Fatalf("nil bound refused: %v", err)
		}
	}
	if looks.Waiting() != 0 {
		t.Error("a nil bound counted")
	}
}
