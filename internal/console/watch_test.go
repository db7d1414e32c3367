package console

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/session"
)

// fakeSessions lists one session whose state the test changes.
type fakeSessions struct {
	mu   sync.Mutex
	info session.Info
}

func (f *fakeSessions) List() []session.Info {
	f.mu.Lock()
	defer f.mu.Unlock()
	return []session.Info{f.info}
}

func (f *fakeSessions) set(drained bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.info.Drained = drained
}

// TestWatchWaitsForDrainedOutput: a session whose program has exited but
// whose output is still on its way to the recording (the terminal's echo
// of the exit typed to a shell) is not over for watch until that output
// has ended, so watch shows it.
func TestWatchWaitsForDrainedOutput(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "s.cast")
	if err := os.WriteFile(rec, []byte(`{"version":2}`+"\n"+`[0.1,"o","before\n"]`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ss := &fakeSessions{info: session.Info{ID: "s1", Exited: true}}
	var mu sync.Mutex
	var got bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- follow(context.Background(), f, ended(ss, "s1"), 5*time.Millisecond, func(b []byte) error {
			mu.Lock()
			defer mu.Unlock()
			got.Write(b)
			return nil
		}, func() {})
	}()
	// The first event is read while the program has exited and its
	// output has not ended; the late one arrives after.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		seen := bytes.Contains(got.Bytes(), []byte("before"))
		mu.Unlock()
		if seen || time.Now().After(deadline) {
			break
		}
	}
	late, err := os.OpenFile(rec, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	late.WriteString(`[0.2,"o","exit\r\n"]` + "\n")
	late.Close()
	ss.set(true)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("watch did not end once the output had drained")
	}
	if !bytes.Contains(got.Bytes(), []byte("exit")) {
		t.Errorf("watch ended before the session's last output: %q", got.String())
	}
}
