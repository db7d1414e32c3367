package confine

import (
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// serveOnThread serves h on a locked thread and returns that thread's id
// and a channel closed when serve returns.
func serveOnThread(h *handoff) (int, chan struct{}) {
	tid := make(chan int)
	ended := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		tid <- unix.Gettid()
		h.serve()
		close(ended)
	}()
	return <-tid, ended
}

// TestHandoffRunsOnServingThread hands jobs from many goroutines at once:
// each runs on the serving thread, alone, and its caller gets its own
// error back; stop ends serve and closes the descriptors.
func TestHandoffRunsOnServingThread(t *testing.T) {
	h, err := newHandoff()
	if err != nil {
		t.Fatal(err)
	}
	tid, ended := serveOnThread(h)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		running int
	)
	for i := range 16 {
		wg.Go(func() {
			for j := range 50 {
				want := errors.New("job")
				if (i+j)%2 == 0 {
					want = nil
				}
				var on, overlap int
				got := h.run(func() error {
					mu.Lock()
					running++
					overlap = running
					mu.Unlock()
					on = unix.Gettid()
					mu.Lock()
					running--
					mu.Unlock()
					return want
				})
				if got != want || on != tid || overlap != 1 {
					t.Errorf("job returned %v (want %v) on thread %d (serving %d), %d at once", got, want, on, tid, overlap)
					return
				}
			}
		})
	}
	wg.Wait()
	h.stop()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after stop")
	}
	if _, err := unix.FcntlInt(uintptr(h.wake), unix.F_GETFD, 0); !errors.Is(err, unix.EBADF) {
		t.Errorf("wake descriptor still open after stop: %v", err)
	}
}

// BenchmarkHandoff is the round trip of an empty job to a locked thread,
// through the eventfd pair and, for comparison, through a Go channel, each
// after the serving thread has slept (as it has between two commands).
func BenchmarkHandoff(b *testing.B) {
	report := func(b *testing.B, d []time.Duration) {
		slices.Sort(d)
		b.ReportMetric(float64(d[len(d)/2].Nanoseconds()), "p50-ns")
	}
	b.Run("eventfd", func(b *testing.B) {
		h, err := newHandoff()
		if err != nil {
			b.Fatal(err)
		}
		_, ended := serveOnThread(h)
		var d []time.Duration
		for b.Loop() {
			time.Sleep(200 * time.Microsecond)
			start := time.Now()
			h.run(func() error { return nil })
			d = append(d, time.Since(start))
		}
		h.stop()
		<-ended
		report(b, d)
	})
	b.Run("channel", func(b *testing.B) {
		jobs := make(chan func())
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for j := range jobs {
				j()
			}
		}()
		var d []time.Duration
		for b.Loop() {
			time.Sleep(200 * time.Microsecond)
			start := time.Now()
			done := make(chan error, 1)
			jobs <- func() { done <- nil }
			<-done
			d = append(d, time.Since(start))
		}
		close(jobs)
		report(b, d)
	})
}
