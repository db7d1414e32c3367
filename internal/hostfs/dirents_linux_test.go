package hostfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
	"github.com/warden-mcp/warden/internal/runner"
)

// TestReadDirents: the listing ReadDir reads gives every name but "." and
// "..", with the type the file system records, over several getdents
// buffers, and stops at n.
func TestReadDirents(t *testing.T) {
	d := t.TempDir()
	want := map[string]Type{"file": TypeFile, "dir": TypeDir, "link": TypeSymlink, "fifo": TypeFIFO, "sock": TypeSocket}
	os.WriteFile(filepath.Join(d, "file"), nil, 0o644)
	os.Mkdir(filepath.Join(d, "dir"), 0o755)
	os.Symlink("file", filepath.Join(d, "link"))
	syscall.Mkfifo(filepath.Join(d, "fifo"), 0o644)
	if l, err := net.Listen("unix", filepath.Join(d, "sock")); err == nil {
		defer l.Close()
	} else {
		delete(want, "sock")
	}
	// Long names, so the listing takes several 32 KiB reads.
	for i := range 2000 {
		name := fmt.Sprintf("%04d-%s", i, strings.Repeat("n", 100))
		os.WriteFile(filepath.Join(d, name), nil, 0o644)
		want[name] = TypeFile
	}
	f, err := os.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ents, err := readDirents(int(f.Fd()), 100000)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Type{}
	for _, e := range ents {
		got[e.name] = e.typ
	}
	if len(got) != len(want) || len(ents) != len(want) {
		t.Errorf("listed %d entries (%d names), want %d", len(ents), len(got), len(want))
	}
	for name, typ := range want {
		if got[name] != typ {
			t.Errorf("%s: type %q, want %q", name[:min(len(name), 8)], got[name], typ)
		}
	}
	if _, err := unix.Seek(int(f.Fd()), 0, 0); err != nil {
		t.Fatal(err)
	}
	if ents, err := readDirents(int(f.Fd()), 7); err != nil || len(ents) != 7 || slices.ContainsFunc(ents, func(e dirent) bool { return e.name == "." || e.name == ".." }) {
		t.Errorf("at most 7: %d entries, %v", len(ents), err)
	}
}

// TestReadDirUnanswered: a mount point whose daemon is stopped is listed as
// unanswered, with the type its directory entry gives, beside the entries
// that answered; a listing whose call ends first fails saying so.
func TestReadDirUnanswered(t *testing.T) {
	src := t.TempDir()
	hold, mnt := hostfstest.MountPoint(t)
	hostfstest.MountFUSE(t, src, mnt).Stop(t)
	infos, _, err := (Local{}).ReadDir(t.Context(), hold, 10)
	if err != nil || len(infos) != 2 || infos[0] != (Info{Name: "nas", Type: TypeDir, Unanswered: true}) ||
		infos[1].Name != "plain" || infos[1].Unanswered || infos[1].Mode&fs.ModeDir == 0 {
		t.Errorf("read dir with a stopped mount: %+v %v, want nas unanswered beside plain", infos, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if _, _, err := (Local{}).ReadDir(ctx, hold, 10); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("read dir whose call ended while a look waited: %v, want the deadline", err)
	}
	// With a bound of one waiting look, the look at nas takes it, and the
	// entries after it are refused another.
	bounded := Local{Looks: runner.NewLooks(1)}
	if _, _, err := bounded.ReadDir(t.Context(), hold, 10); !runner.Busy(err) {
		t.Errorf("read dir past the bound of waiting looks: %v, want it refused", err)
	}
}

// BenchmarkReadDir lists a directory of 5,000 files: the listing, and a
// look at each entry on a goroutine watched for progress.
func BenchmarkReadDir(b *testing.B) {
	d := b.TempDir()
	for i := range 5000 {
		os.WriteFile(filepath.Join(d, fmt.Sprint(i)), nil, 0o644)
	}
	for b.Loop() {
		if infos, _, err := (Local{}).ReadDir(b.Context(), d, 5000); err != nil || len(infos) != 5000 {
			b.Fatal(len(infos), err)
		}
	}
}
