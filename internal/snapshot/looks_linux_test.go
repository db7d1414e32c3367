package snapshot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
	"github.com/warden-mcp/warden/internal/runner"
)

// TestParallelReadersAreLooks: a walk's readers each hold a thread while
// a directory they read does not answer (a bindfs mount whose daemon is
// stopped), so each past the call's first is a look of the bound. With a
// bound of 3 and 8 workers, 4 readers start — the call's own and three
// counted — and the walk ends once the mount answers, giving back every
// look.
func TestParallelReadersAreLooks(t *testing.T) {
	src := t.TempDir()
	var seed []string
	_, mnt := hostfstest.MountPoint(t)
	for i := range 8 {
		if err := os.Mkdir(filepath.Join(src, fmt.Sprint(i)), 0o755); err != nil {
			t.Fatal(err)
		}
		seed = append(seed, filepath.Join(mnt, fmt.Sprint(i)))
	}
	fuse := hostfstest.MountFUSE(t, src, mnt)
	resume := fuse.Stop(t)
	looks := runner.NewLooks(3)
	var reading atomic.Int64
	done := make(chan error, 1)
	go func() {
		done <- parallel(context.Background(), 8, looks, seed, func(_ context.Context, dir string) ([]string, error) {
			reading.Add(1)
			_, err := os.ReadDir(dir)
			return nil, err
		})
	}()
	for deadline := time.Now().Add(20 * time.Second); reading.Load() < 4; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d readers reached the mount; want 4", reading.Load())
		}
	}
	time.Sleep(300 * time.Millisecond) // time for any reader past the bound to start
	if n, w := reading.Load(), looks.Waiting(); n != 4 || w != 3 {
		t.Errorf("%d readers wait on the mount, %d of them counted; want 4 and 3", n, w)
	}
	resume()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the walk once the mount answers: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the walk did not end once the mount answered")
	}
	if w := looks.Waiting(); w != 0 {
		t.Errorf("%d looks still counted after the walk", w)
	}
	if n := reading.Load(); n != 8 {
		t.Errorf("the walk read %d directories; want 8", n)
	}
}
