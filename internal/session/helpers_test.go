//go:build linux

package session

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// testEnv is a small, fixed environment for shells under test.
func testEnv() []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp", "SHELL=/bin/sh", "PS1=$ ", "LANG=C.UTF-8"}
}

// newTestRegistry returns a registry that is shut down (and checked to leave
// nothing behind) when the test ends.
func newTestRegistry(t testing.TB, o Options) *Registry {
	t.Helper()
	if o.KillGrace == 0 {
		o.KillGrace = 300 * time.Millisecond
	}
	r := NewRegistry(o)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := r.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return r
}

// startShell starts an interactive sh in a PTY.
func startShell(t testing.TB, r *Registry) string {
	t.Helper()
	info, err := r.Start(context.Background(), Spec{Env: testEnv(), PTY: true, Owner: "tester"})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	readUntil(t, r, info.ID, "$ ", 5*time.Second)
	return info.ID
}

func send(t testing.TB, r *Registry, id, data string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.Send(ctx, id, []byte(data)); err != nil {
		t.Fatalf("Send(%q): %v", data, err)
	}
}

// readUntil reads until the output so far contains want, and returns it.
func readUntil(t testing.TB, r *Registry, id, want string, timeout time.Duration) string {
	t.Helper()
	var got strings.Builder
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		res, err := r.Read(context.Background(), id, ReadOptions{Wait: time.Until(deadline), Quiet: 20 * time.Millisecond})
		if err != nil {
			t.Fatalf("Read: %v (so far %q)", err, got.String())
		}
		got.WriteString(res.Data)
		if strings.Contains(got.String(), want) {
			return got.String()
		}
		if res.Exited {
			break
		}
	}
	t.Fatalf("output never contained %q; got %q", want, got.String())
	return ""
}

// readToExit reads until the program has exited and its output drained.
func readToExit(t testing.TB, r *Registry, id string, timeout time.Duration) (string, ReadResult) {
	t.Helper()
	var got strings.Builder
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		res, err := r.Read(context.Background(), id, ReadOptions{Wait: time.Until(deadline)})
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		got.WriteString(res.Data)
		if res.Exited && !res.More {
			return got.String(), res
		}
	}
	t.Fatalf("program did not exit; output %q", got.String())
	return "", ReadResult{}
}

// fakeClock is an injectable Now.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}
