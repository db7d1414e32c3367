//go:build linux

package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
)

// TestDestNeverOpensSpecial: a restore keeps the current version aside by
// linking it and hashing the link; a FIFO (standing in for a device, whose
// open can act: /dev/watchdog arms the watchdog) swapped in after the
// restore's lstat must be refused without being opened.
func TestDestNeverOpensSpecial(t *testing.T) {
	dir := t.TempDir()
	d, err := openDestDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	os.WriteFile(filepath.Join(dir, "plain"), []byte("plain\n"), 0o644)
	if sum, n, ok, err := d.hashFile(context.Background(), "plain"); err != nil || !ok || n != 6 || sum == "" {
		t.Fatalf("hash of a regular file = %q %d %v %v", sum, n, ok, err)
	}
	if _, _, ok, err := d.hashFile(context.Background(), "missing"); ok || err != nil {
		t.Fatalf("hash of a missing file: ok=%v %v", ok, err)
	}
	ops := map[string]func(name string) error{
		"hash": func(name string) error {
			_, _, _, err := d.hashFile(context.Background(), name)
			return err
		},
		"keep_aside": func(name string) error {
			_, _, err := d.keepAside(context.Background(), name, name+".aside")
			return err
		},
	}
	released := map[string]func() bool{}
	for name := range ops {
		released[name] = hostfstest.BlockedFIFO(t, filepath.Join(dir, name))
	}
	time.Sleep(100 * time.Millisecond)
	for name, op := range ops {
		if err := op(name); err == nil {
			t.Errorf("%s of a FIFO succeeded", name)
		}
	}
	time.Sleep(200 * time.Millisecond)
	for name, rel := range released {
		if rel() {
			t.Errorf("%s opened the FIFO before refusing it", name)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "keep_aside.aside")); err == nil {
		t.Error("a refused keep-aside left its link")
	}
}
