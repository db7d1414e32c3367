package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/config"
)

// TestIdleExitLeavesActivityFile: a warden serving with an idle exit
// keeps last_activity in the state dir, and leaves it saying stopped, with
// the last activity as its modification time, once it has exited idle.
func TestIdleExitLeavesActivityFile(t *testing.T) {
	c, err := config.Parse("test", []byte("idle_exit: 1s\n"))
	if err != nil {
		t.Fatal(err)
	}
	c.StateDir = t.TempDir()
	if err := c.Finish("/root", ""); err != nil {
		t.Fatal(err)
	}
	in, stdin := io.Pipe()
	defer stdin.Close()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), ServeOptions{
			Options: Options{Config: c, Version: "test", Logger: slog.New(slog.DiscardHandler)},
			Stdin:   in, Stdout: io.Discard, Stderr: io.Discard,
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("warden did not exit idle")
	}
	path := filepath.Join(c.StateDir, ActivityFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no activity file: %v", err)
	}
	var r activityRecord
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if r.State != "stopped" || r.PID != os.Getpid() || r.IdleExitS != 1 || r.LastActivity.IsZero() || r.LastActivity.After(time.Now()) {
		t.Errorf("activity file %s", b)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(r.LastActivity) {
		t.Errorf("modification time %v, want the last activity %v", fi.ModTime(), r.LastActivity)
	}
}

// TestNoActivityFileWithoutIdleExit: without an idle exit nothing is
// written.
func TestNoActivityFileWithoutIdleExit(t *testing.T) {
	c, err := config.Parse("test", []byte("mode: guarded\n"))
	if err != nil {
		t.Fatal(err)
	}
	c.StateDir = t.TempDir()
	if err := c.Finish("/root", ""); err != nil {
		t.Fatal(err)
	}
	in, stdin := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ServeOptions{
			Options: Options{Config: c, Version: "test", Logger: slog.New(slog.DiscardHandler)},
			Stdin:   in, Stdout: io.Discard, Stderr: io.Discard,
		})
	}()
	cancel()
	stdin.Close()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("warden did not stop")
	}
	if _, err := os.Stat(filepath.Join(c.StateDir, ActivityFile)); !os.IsNotExist(err) {
		t.Errorf("activity file without an idle exit: %v", err)
	}
}
