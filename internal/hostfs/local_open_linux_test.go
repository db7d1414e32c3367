//go:build linux

package hostfs

import (
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
)

// TestOpenRegularAt: every kind of object but a regular file is refused by
// its type, before it is opened (a FIFO with a blocked writer shows it,
// standing in for a device whose open acts), and a regular file opens with
// the flags asked, as the same inode.
func TestOpenRegularAt(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "plain"), []byte("plain\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink("plain", filepath.Join(dir, "link"))
	os.Symlink("fifo", filepath.Join(dir, "fifo-link"))
	os.Symlink("nowhere", filepath.Join(dir, "dangling"))
	released := hostfstest.BlockedFIFO(t, filepath.Join(dir, "fifo"))
	l, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	want := map[string]string{
		"sub":       "is a dir, not a regular file",
		"link":      "is a symlink",
		"fifo-link": "is a symlink",
		"dangling":  "is a symlink",
		"fifo":      "is a fifo, not a regular file",
		"sock":      "is a socket, not a regular file",
		"missing":   "no such file",
	}
	// A device node opens the live device: one for /dev/null's device
	// (harmless, but refused all the same), where mknod is allowed.
	if err := unix.Mknod(filepath.Join(dir, "null"), unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err == nil {
		want["null"] = "is a device, not a regular file"
	}
	time.Sleep(100 * time.Millisecond)
	d, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(d)
	for name, msg := range want {
		for _, flags := range []int{unix.O_RDONLY, unix.O_RDONLY | unix.O_NONBLOCK, unix.O_WRONLY, unix.O_RDWR} {
			f, _, err := OpenRegularAt(d, name, filepath.Join(dir, name), flags)
			if err == nil {
				f.Close()
				t.Errorf("open %s (flags %#x) succeeded", name, flags)
			} else if !strings.Contains(err.Error(), msg) {
				t.Errorf("open %s: %v, want %q", name, err, msg)
			}
		}
	}
	if _, _, err := OpenRegularAt(d, "missing", filepath.Join(dir, "missing"), unix.O_RDONLY); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("open missing: %v, want not exist", err)
	}
	time.Sleep(200 * time.Millisecond)
	if released() {
		t.Error("a FIFO was opened before it was refused")
	}
	f, info, err := OpenRegularAt(d, "plain", filepath.Join(dir, "plain"), unix.O_RDONLY|unix.O_NOFOLLOW)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if b, err := io.ReadAll(f); err != nil || string(b) != "plain\n" || info.Type != TypeFile || info.Size != 6 || info.Name != "plain" {
		t.Errorf("read plain = %q, %v; info %+v", b, err, info)
	}
	if _, err := f.Write([]byte("x")); err == nil {
		t.Error("a read-only open could write")
	}
}
