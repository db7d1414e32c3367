package runner

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestAnswers: a look that returns gives its own error; one that waits
// past the bound is given up on, saying what did not answer; one whose
// context ends first reports why it ended. The abandoned looks are left
// running, as a system call on a mount that does not answer would be.
func TestAnswers(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	wait := func() error { <-stuck; return nil }

	want := errors.New("not a directory")
	if err := Answers(t.Context(), nil, "dir", time.Minute, func() error { return want }); err != want {
		t.Errorf("a look that returned: %v, want its own error", err)
	}
	err := Answers(t.Context(), nil, "working directory /mnt/nas", 50*time.Millisecond, wait)
	if err == nil || !strings.Contains(err.Error(), "working directory /mnt/nas did not answer within 50ms") {
		t.Errorf("a look past the bound: %v", err)
	}
	ctx, cancel := context.WithCancelCause(t.Context())
	cause := errors.New("client went away")
	time.AfterFunc(20*time.Millisecond, func() { cancel(cause) })
	if err := Answers(ctx, nil, "dir", time.Minute, wait); err != cause {
		t.Errorf("a look whose call ended: %v, want the cause %v", err, cause)
	}
}

// TestAwaitMoving: work that keeps moving is waited for past many stall
// periods; work that stops moving, or whose call ends, is given up on.
func TestAwaitMoving(t *testing.T) {
	var n atomic.Int64
	moving := func() int {
		for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end); {
			n.Add(1)
			time.Sleep(time.Millisecond)
		}
		return 7
	}
	if v, err := AwaitMoving(t.Context(), nil, 500*time.Millisecond, n.Load, moving); err != nil || v != 7 {
		t.Errorf("a transfer that kept moving for three stall periods: %v %v, want 7 nil", v, err)
	}
	stuck := make(chan struct{})
	defer close(stuck)
	stalled := func() int {
		for range 10 {
			n.Add(1)
		}
		<-stuck
		return 7
	}
	if _, err := AwaitMoving(t.Context(), nil, 50*time.Millisecond, n.Load, stalled); !errors.Is(err, ErrWaited) {
		t.Errorf("a transfer that stopped moving: %v, want ErrWaited", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	if _, err := AwaitMoving(ctx, nil, time.Hour, n.Load, func() int { <-stuck; return 7 }); !errors.Is(err, context.Canceled) {
		t.Errorf("a transfer whose call ended: %v, want context.Canceled", err)
	}
}

// TestAwaitLate: what f returns after AwaitLate gave up — its wait passed
// or its call ended — goes to late, on f's look, which stays counted
// until late returns; what it returns in time does not.
func TestAwaitLate(t *testing.T) {
	looks := NewLooks(4)
	release := make(chan struct{})
	lateGot := make(chan int, 1)
	_, err := AwaitLate(context.Background(), looks, 50*time.Millisecond, func() int { <-release; return 7 }, func(v int) { lateGot <- v })
	if !errors.Is(err, ErrWaited) {
		t.Fatalf("AwaitLate on work that does not end: %v; want ErrWaited", err)
	}
	if looks.Waiting() != 1 {
		t.Errorf("%d looks waiting; want the one left running", looks.Waiting())
	}
	close(release)
	select {
	case v := <-lateGot:
		if v != 7 {
			t.Errorf("late got %d; want 7", v)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("late was never called")
	}
	// A call that ends before f does hands f's result to late as well.
	ctx, cancel := context.WithCancel(context.Background())
	release = make(chan struct{})
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if _, err := AwaitLate(ctx, looks, time.Hour, func() int { <-release; return 9 }, func(v int) { lateGot <- v }); !errors.Is(err, context.Canceled) {
		t.Fatalf("AwaitLate whose call ended: %v; want context.Canceled", err)
	}
	close(release)
	select {
	case v := <-lateGot:
		if v != 9 {
			t.Errorf("late got %d; want 9", v)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("late was never called after the call ended")
	}
	v, err := AwaitLate(context.Background(), looks, 30*time.Second, func() int { return 8 }, func(int) { t.Error("late called for a result in time") })
	if err != nil || v != 8 {
		t.Errorf("AwaitLate in time: %d, %v", v, err)
	}
}
