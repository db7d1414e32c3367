package snapshot

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
)

// TestLocalFSNeverOpensSpecial: a snapshot of a root file system holds
// device nodes, and opening one opens the live device (/dev/watchdog's
// open arms the watchdog). A FIFO with a writer blocked in its open stands
// in: every read path of the engine goes through FS.Open, which must
// refuse it without opening it.
func TestLocalFSNeverOpensSpecial(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755)
	os.WriteFile(filepath.Join(dir, "plain"), []byte("plain\n"), 0o644)
	l, err := OpenLocalFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f, err := l.Open("plain")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(f); err != nil || string(b) != "plain\n" {
		t.Errorf("read plain = %q, %v", b, err)
	}
	f.Close()
	names := []string{"fifo", "sub/fifo", "sub/deeper/fifo", "sub/-fifo", "sub/fifo with space", "sub/.fifo"}
	released := map[string]func() bool{}
	for _, n := range names {
		released[n] = hostfstest.BlockedFIFO(t, filepath.Join(dir, n))
	}
	time.Sleep(100 * time.Millisecond)
	for _, n := range names {
		if f, err := l.Open(n); err == nil {
			f.Close()
			t.Errorf("open %s succeeded", n)
		}
	}
	time.Sleep(200 * time.Millisecond)
	for _, n := range names {
		if released[n]() {
			t.Errorf("open %s opened the FIFO before refusing it", n)
		}
	}
}
