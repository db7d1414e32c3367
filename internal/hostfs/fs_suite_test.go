package hostfs

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pkg/sftp"

	"github.com/warden-mcp/warden/internal/remotefs"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
)

// suiteUser logs in to the suite's servers and owns its fixtures, so that
// a remote login is an unprivileged user, as on a real host.
const suiteUser = "wardentest"

// TestFSConformance runs one table of cases against every FS: this
// machine's, SFTP on OpenSSH, and the exec channel on OpenSSH without SFTP
// (GNU userland) and on dropbear with BusyBox (a router). The servers run
// here, so each sees the same fixture directory.
func TestFSConformance(t *testing.T) {
	impls := []struct {
		name string
		fs   func(t *testing.T) FS
	}{
		{"local", func(*testing.T) FS { return Local{} }},
		{"sftp", func(t *testing.T) FS {
			pool, target := remoteTarget(t, sshd.Start(t, sshd.Options{User: suiteUser}))
			return SFTP{Client: func(ctx context.Context) (*sftp.Client, error) { return pool.SFTP(ctx, target) }}
		}},
		{"exec_openssh", func(t *testing.T) FS {
			pool, target := remoteTarget(t, sshd.Start(t, sshd.Options{User: suiteUser, NoSFTP: true}))
			return Exec{FS: remotefs.NewExec(remotefs.SSH(pool, target))}
		}},
		{"exec_dropbear", func(t *testing.T) FS {
			pool, target := remoteTarget(t, sshd.StartDropbear(t, sshd.DropbearOptions{User: suiteUser}))
			return Exec{FS: remotefs.NewExec(remotefs.SSH(pool, target))}
		}},
	}
	for _, impl := range impls {
		t.Run(impl.name, func(t *testing.T) {
			fsys := impl.fs(t)
			runFSSuite(t, fsys, impl.name == "local")
		})
	}
}

// remoteTarget returns a pool and the inventory target of srv.
func remoteTarget(t *testing.T, srv *sshd.Server) (*sshpool.Pool, sshpool.Target) {
	t.Helper()
	pool, _, target := sshpooltest.Server(t, srv, "box")
	return pool, target
}

// Fixture names that a shell would split, glob, expand or take for an
// option.
const (
	oddName  = "a b\nc.txt"
	metaName = "it's \"q\" $x `y` \\z;|&*.txt"
	dashName = "-n"
)

var (
	fixtureTime = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	binary      = func() []byte {
		b := make([]byte, 70000)
		for i := range b {
			b[i] = byte(i * 7)
		}
		return b
	}()
)

// fixture builds the tree every case reads, owned by suiteUser, and
// returns its root and the user's ids.
func fixture(t *testing.T) (root string, uid, gid int) {
	t.Helper()
	u, err := user.Lookup(suiteUser)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	root, err = os.MkdirTemp("", "warden-fs-suite-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	mk := func(name string, data []byte, perm fs.FileMode) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, perm); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, perm); err != nil {
			t.Fatal(err)
		}
	}
	mk("plain.txt", []byte("hello\nworld\n"), 0o640)
	mk("bin.dat", binary, 0o644)
	mk(oddName, []byte("odd\n"), 0o644)
	mk(metaName, []byte("meta\n"), 0o644)
	mk(dashName, []byte("dash\n"), 0o644)
	mk(".hidden", []byte("h"), 0o644)
	mk("..dots", []byte("d"), 0o644)
	mk("sub/inner.txt", []byte("inner\n"), 0o644)
	mk("noperm/secret.txt", []byte("secret\n"), 0o644)
	for _, d := range []string{"empty", "w"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for at, to := range map[string]string{"link": "plain.txt", "dangling": "nowhere", "sub-link": "sub"} {
		if err := os.Symlink(to, filepath.Join(root, at)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := os.Lchown(p, uid, gid); err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return os.Chtimes(p, fixtureTime, fixtureTime)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "noperm"), 0); err != nil {
		t.Fatal(err)
	}
	return root, uid, gid
}

// fixtureNames is the root's listing, sorted by name.
var fixtureNames = []string{dashName, "..dots", ".hidden", oddName, "bin.dat", "dangling", "empty", "fifo", metaName, "link", "noperm", "plain.txt", "sub", "sub-link", "w"}

// suiteEnv is what a case gets.
type suiteEnv struct {
	fs       FS
	root     string
	uid, gid int
	// root reports whether the FS acts as root, which no permission stops.
	asRoot bool
}

func (e *suiteEnv) p(name string) string { return e.root + "/" + name }

// content reads a file the FS wrote, from this machine.
func (e *suiteEnv) content(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(e.p(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTemps fails if a write left a temporary file in dir.
func (e *suiteEnv) noTemps(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(e.p(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ents {
		if strings.Contains(d.Name(), ".warden-") {
			t.Errorf("temporary file %q left in %s", d.Name(), dir)
		}
	}
}

func runFSSuite(t *testing.T, fsys FS, asRoot bool) {
	root, uid, gid := fixture(t)
	env := &suiteEnv{fs: fsys, root: root, uid: uid, gid: gid, asRoot: asRoot}
	for _, c := range fsCases {
		t.Run(c.name, func(t *testing.T) { c.run(t, env) })
	}
}

// fsCases is the conformance table: what every FS must do.
var fsCases = []struct {
	name string
	run  func(t *testing.T, e *suiteEnv)
}{
	{"lstat_file", func(t *testing.T, e *suiteEnv) {
		in, err := e.fs.Lstat(context.Background(), e.p("plain.txt"))
		if err != nil {
			t.Fatal(err)
		}
		want := Info{Name: "plain.txt", Type: TypeFile, Size: 12, Mode: 0o640, ModTime: fixtureTime, UID: e.uid, GID: e.gid}
		if in.Name != want.Name || in.Type != want.Type || in.Size != want.Size || in.Mode != want.Mode || !in.ModTime.Equal(want.ModTime) || in.UID != want.UID || in.GID != want.GID {
			t.Errorf("got %+v, want %+v", in, want)
		}
	}},
	{"lstat_types", func(t *testing.T, e *suiteEnv) {
		for name, want := range map[string]Type{"sub": TypeDir, "link": TypeSymlink, "dangling": TypeSymlink, "fifo": TypeFIFO, "sub-link": TypeSymlink, oddName: TypeFile, metaName: TypeFile, dashName: TypeFile, "/dev/null": TypeDevice} {
			p := e.p(name)
			if strings.HasPrefix(name, "/") {
				p = name
			}
			in, err := e.fs.Lstat(context.Background(), p)
			if err != nil || in.Type != want || in.Name != filepath.Base(p) {
				t.Errorf("lstat %q = %+v, %v; want type %s", name, in, err, want)
			}
		}
	}},
	{"lstat_missing", func(t *testing.T, e *suiteEnv) {
		for _, p := range []string{e.p("missing"), e.p("missing/deeper"), e.p("sub/missing")} {
			if _, err := e.fs.Lstat(context.Background(), p); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("lstat %s: %v, want not exist", p, err)
			}
		}
	}},
	{"readlink", func(t *testing.T, e *suiteEnv) {
		if got, err := e.fs.Readlink(context.Background(), e.p("link")); err != nil || got != "plain.txt" {
			t.Errorf("readlink link = %q, %v", got, err)
		}
		if got, err := e.fs.Readlink(context.Background(), e.p("dangling")); err != nil || got != "nowhere" {
			t.Errorf("readlink dangling = %q, %v", got, err)
		}
		if got, err := e.fs.Readlink(context.Background(), e.p("plain.txt")); err == nil {
			t.Errorf("readlink of a file = %q", got)
		}
	}},
	{"read_bounds", func(t *testing.T, e *suiteEnv) {
		for _, c := range []struct {
			off  int64
			max  int
			want string
		}{{0, 100, "hello\nworld\n"}, {6, 3, "wor"}, {6, 100, "world\n"}, {0, 0, ""}, {12, 10, ""}, {500, 10, ""}} {
			got, in, err := e.fs.ReadAt(context.Background(), e.p("plain.txt"), c.off, c.max)
			if err != nil || string(got) != c.want || in.Size != 12 || in.Type != TypeFile {
				t.Errorf("read off=%d max=%d = %q, %+v, %v; want %q", c.off, c.max, got, in, err, c.want)
			}
		}
	}},
	{"read_binary", func(t *testing.T, e *suiteEnv) {
		got, _, err := e.fs.ReadAt(context.Background(), e.p("bin.dat"), 0, len(binary)+1)
		if err != nil || !bytes.Equal(got, binary) {
			t.Errorf("read bin.dat: %d bytes, %v; want %d exact", len(got), err, len(binary))
		}
		got, _, err = e.fs.ReadAt(context.Background(), e.p("bin.dat"), 65537, 5)
		if err != nil || !bytes.Equal(got, binary[65537:65542]) {
			t.Errorf("read bin.dat at 65537: %v, %v", got, err)
		}
	}},
	{"read_odd_names", func(t *testing.T, e *suiteEnv) {
		for name, want := range map[string]string{oddName: "odd\n", metaName: "meta\n", dashName: "dash\n"} {
			if got, _, err := e.fs.ReadAt(context.Background(), e.p(name), 0, 100); err != nil || string(got) != want {
				t.Errorf("read %q = %q, %v", name, got, err)
			}
		}
	}},
	{"read_refuses", func(t *testing.T, e *suiteEnv) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		for _, name := range []string{"link", "dangling", "fifo", "sub", "sub-link"} {
			if got, _, err := e.fs.ReadAt(ctx, e.p(name), 0, 100); err == nil {
				t.Errorf("read %s = %q; want a refusal", name, got)
			}
		}
		if ctx.Err() != nil {
			t.Error("a refusal waited for the deadline (opened the FIFO?)")
		}
		if _, _, err := e.fs.ReadAt(ctx, e.p("missing"), 0, 100); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("read missing: %v, want not exist", err)
		}
	}},
	{"never_opens_special", func(t *testing.T, e *suiteEnv) {
		// Opening acts before a byte is read (/dev/watchdog arms the
		// watchdog); a FIFO with a writer blocked in its open stands in
		// for a device: any open of it for reading releases the writer.
		// Every operation must refuse without opening, not open and then
		// refuse. Each gets its own FIFO, all are checked after one wait.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		ops := map[string]func(p string) error{
			"read":           func(p string) error { _, _, err := e.fs.ReadAt(ctx, p, 0, 10); return err },
			"read_at_offset": func(p string) error { _, _, err := e.fs.ReadAt(ctx, p, 5, 10); return err },
			"read_empty":     func(p string) error { _, _, err := e.fs.ReadAt(ctx, p, 0, 0); return err },
			"readdir":        func(p string) error { _, _, err := e.fs.ReadDir(ctx, p, 10); return err },
			"overwrite": func(p string) error {
				_, err := e.fs.WriteFile(ctx, p, []byte("x"), WriteOptions{Overwrite: true})
				return err
			},
			"write": func(p string) error { _, err := e.fs.WriteFile(ctx, p, []byte("x"), WriteOptions{}); return err },
		}
		if st, ok := e.fs.(Streamer); ok {
			ops["stream"] = func(p string) error {
				r, _, err := st.OpenRead(ctx, p)
				if err == nil {
					r.Close()
				}
				return err
			}
			ops["stream_write"] = func(p string) error {
				_, _, err := st.WriteFrom(ctx, p, strings.NewReader("x"), 1, WriteOptions{Overwrite: true})
				return err
			}
		}
		released := map[string]func() bool{}
		for name := range ops {
			released[name] = hostfstest.BlockedFIFO(t, e.p("w/fifo-"+name))
			os.Lchown(e.p("w/fifo-"+name), e.uid, e.gid)
		}
		// Let every writer reach its blocking open.
		time.Sleep(100 * time.Millisecond)
		for name, op := range ops {
			if err := op(e.p("w/fifo-" + name)); err == nil {
				t.Errorf("%s of a FIFO succeeded", name)
			}
		}
		time.Sleep(200 * time.Millisecond)
		for name, rel := range released {
			if rel() {
				t.Errorf("%s opened the FIFO before refusing it", name)
			}
		}
	}},
	{"read_permission", func(t *testing.T, e *suiteEnv) {
		if e.asRoot {
			t.Skip("root reads anything")
		}
		if _, _, err := e.fs.ReadAt(context.Background(), e.p("noperm/secret.txt"), 0, 100); !errors.Is(err, fs.ErrPermission) {
			t.Errorf("read under a 0000 directory: %v, want permission denied", err)
		}
		if _, _, err := e.fs.ReadDir(context.Background(), e.p("noperm"), 10); err == nil {
			t.Error("listed a 0000 directory")
		}
	}},
	{"readdir", func(t *testing.T, e *suiteEnv) {
		infos, more, err := e.fs.ReadDir(context.Background(), e.root, 100)
		if err != nil || more {
			t.Fatalf("readdir: more=%v, %v", more, err)
		}
		var names []string
		types := map[string]Type{}
		for _, in := range infos {
			names = append(names, in.Name)
			types[in.Name] = in.Type
		}
		if !slices.Equal(names, fixtureNames) {
			t.Errorf("names\n got %q\nwant %q", names, fixtureNames)
		}
		for name, want := range map[string]Type{"sub": TypeDir, "link": TypeSymlink, "sub-link": TypeSymlink, "fifo": TypeFIFO, oddName: TypeFile, "noperm": TypeDir} {
			if types[name] != want {
				t.Errorf("%q is %s, want %s", name, types[name], want)
			}
		}
		for _, in := range infos {
			if in.Name == "plain.txt" && (in.Size != 12 || in.Mode != 0o640 || !in.ModTime.Equal(fixtureTime)) {
				t.Errorf("plain.txt listed as %+v", in)
			}
		}
	}},
	{"readdir_limit", func(t *testing.T, e *suiteEnv) {
		infos, more, err := e.fs.ReadDir(context.Background(), e.root, 3)
		if err != nil || !more || len(infos) != 3 || infos[0].Name != fixtureNames[0] || infos[2].Name != fixtureNames[2] {
			t.Errorf("readdir limit 3 = %+v, more=%v, %v", infos, more, err)
		}
		infos, more, err = e.fs.ReadDir(context.Background(), e.p("empty"), 10)
		if err != nil || more || len(infos) != 0 {
			t.Errorf("readdir empty = %+v, more=%v, %v", infos, more, err)
		}
	}},
	{"readdir_refuses", func(t *testing.T, e *suiteEnv) {
		for _, name := range []string{"sub-link", "plain.txt", "fifo"} {
			if infos, _, err := e.fs.ReadDir(context.Background(), e.p(name), 10); err == nil {
				t.Errorf("readdir %s = %+v; want a refusal", name, infos)
			}
		}
		if _, _, err := e.fs.ReadDir(context.Background(), e.p("missing"), 10); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("readdir missing: %v, want not exist", err)
		}
	}},
	{"write_new", func(t *testing.T, e *suiteEnv) {
		w, err := e.fs.WriteFile(context.Background(), e.p("w/new.txt"), []byte("new\n"), WriteOptions{})
		if err != nil || !w.Created || w.Mode != 0o644 {
			t.Fatalf("write new = %+v, %v", w, err)
		}
		if got := e.content(t, "w/new.txt"); got != "new\n" {
			t.Errorf("content %q", got)
		}
		if st, _ := os.Stat(e.p("w/new.txt")); st.Mode().Perm() != 0o644 {
			t.Errorf("mode %v", st.Mode())
		}
		mode := fs.FileMode(0o750)
		w, err = e.fs.WriteFile(context.Background(), e.p("w/"+oddName), binary, WriteOptions{Mode: &mode})
		if err != nil || !w.Created || w.Mode != 0o750 {
			t.Fatalf("write odd = %+v, %v", w, err)
		}
		if got := e.content(t, "w/"+oddName); got != string(binary) {
			t.Errorf("binary content: %d bytes", len(got))
		}
		if st, _ := os.Stat(e.p("w/" + oddName)); st.Mode().Perm() != 0o750 {
			t.Errorf("mode %v", st.Mode())
		}
		e.noTemps(t, "w")
	}},
	{"write_exists", func(t *testing.T, e *suiteEnv) {
		p := e.p("w/exists.txt")
		if _, err := e.fs.WriteFile(context.Background(), p, []byte("one"), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o600)
		if _, err := e.fs.WriteFile(context.Background(), p, []byte("two"), WriteOptions{}); !errors.Is(err, fs.ErrExist) {
			t.Errorf("write over an existing file without overwrite: %v, want exists", err)
		}
		if got := e.content(t, "w/exists.txt"); got != "one" {
			t.Errorf("refused write changed the file: %q", got)
		}
		w, err := e.fs.WriteFile(context.Background(), p, []byte("three"), WriteOptions{Overwrite: true})
		if err != nil || w.Created || w.Mode != 0o600 {
			t.Errorf("overwrite = %+v, %v; want the existing mode kept", w, err)
		}
		mode := fs.FileMode(0o640)
		w, err = e.fs.WriteFile(context.Background(), p, []byte("four"), WriteOptions{Overwrite: true, Mode: &mode})
		if err != nil || w.Mode != 0o640 {
			t.Errorf("overwrite with mode = %+v, %v", w, err)
		}
		if st, _ := os.Stat(p); st.Mode().Perm() != 0o640 || e.content(t, "w/exists.txt") != "four" {
			t.Errorf("after overwrite: %v %q", st.Mode(), e.content(t, "w/exists.txt"))
		}
		e.noTemps(t, "w")
	}},
	{"write_refuses", func(t *testing.T, e *suiteEnv) {
		os.Symlink("../plain.txt", e.p("w/to-plain"))
		for _, name := range []string{"w/to-plain", "sub", "fifo", "missing/x.txt"} {
			if _, err := e.fs.WriteFile(context.Background(), e.p(name), []byte("x"), WriteOptions{Overwrite: true}); err == nil {
				t.Errorf("write %s succeeded", name)
			}
		}
		if got := e.content(t, "plain.txt"); got != "hello\nworld\n" {
			t.Errorf("a write through a symlink changed its target: %q", got)
		}
		if fi, err := os.Lstat(e.p("w/to-plain")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the symlink was replaced: %v %v", fi, err)
		}
		e.noTemps(t, "w")
		e.noTemps(t, "")
	}},
	{"write_parent_link", func(t *testing.T, e *suiteEnv) {
		// A directory on the way that is a symlink (one swapped in after
		// the path was resolved) is not followed, at any depth, for a new
		// file or over an existing one.
		os.Symlink("../sub", e.p("w/via"))
		os.Symlink(e.p("sub"), e.p("w/abs"))
		os.MkdirAll(e.p("w/real/deeper"), 0o755)
		os.Chown(e.p("w/real"), e.uid, e.gid)
		os.Chown(e.p("w/real/deeper"), e.uid, e.gid)
		for _, name := range []string{"sub-link/new.txt", "sub-link/inner.txt", "w/via/new.txt", "w/via/inner.txt", "w/abs/new.txt", "w/abs/inner.txt"} {
			if _, err := e.fs.WriteFile(context.Background(), e.p(name), []byte("x"), WriteOptions{Overwrite: true}); err == nil {
				t.Errorf("write %s through a linked directory succeeded", name)
			}
		}
		if _, err := os.Lstat(e.p("sub/new.txt")); err == nil {
			t.Error("a write through a linked directory created sub/new.txt")
		}
		if got := e.content(t, "sub/inner.txt"); got != "inner\n" {
			t.Errorf("a write through a linked directory changed sub/inner.txt: %q", got)
		}
		e.noTemps(t, "sub")
		if _, err := e.fs.WriteFile(context.Background(), e.p("w/real/deeper/ok.txt"), []byte("ok"), WriteOptions{}); err != nil {
			t.Errorf("write below real directories: %v", err)
		}
	}},
	{"write_permission", func(t *testing.T, e *suiteEnv) {
		if e.asRoot {
			t.Skip("root writes anything")
		}
		if _, err := e.fs.WriteFile(context.Background(), "/etc/warden-suite-must-not-exist", []byte("x"), WriteOptions{}); !errors.Is(err, fs.ErrPermission) {
			t.Errorf("write in /etc as a user: %v, want permission denied", err)
		}
	}},
	{"stream_copy", func(t *testing.T, e *suiteEnv) {
		s := e.fs.(Streamer)
		big := bytes.Repeat(binary, 50) // 3.5 MB
		if err := os.WriteFile(e.p("w/big.bin"), big, 0o644); err != nil {
			t.Fatal(err)
		}
		r, in, err := s.OpenRead(context.Background(), e.p("w/big.bin"))
		if err != nil || in.Size != int64(len(big)) {
			t.Fatalf("open: %+v, %v", in, err)
		}
		w, n, err := s.WriteFrom(context.Background(), e.p("w/big.copy"), r, int64(len(big)), WriteOptions{})
		r.Close()
		if err != nil || n != int64(len(big)) || !w.Created {
			t.Fatalf("copy: %+v, %d, %v", w, n, err)
		}
		if got := e.content(t, "w/big.copy"); got != string(big) {
			t.Errorf("copy differs: %d bytes", len(got))
		}
		// A source longer than the limit fails and writes nothing.
		_, _, err = s.WriteFrom(context.Background(), e.p("w/cut.copy"), bytes.NewReader(big), 1000, WriteOptions{})
		if !errors.Is(err, ErrTooBig) {
			t.Errorf("over the limit: %v, want ErrTooBig", err)
		}
		if _, err := os.Lstat(e.p("w/cut.copy")); err == nil {
			t.Error("a cut-off copy was committed")
		}
		// A stream closed early ends the remote reader.
		r, _, err = s.OpenRead(context.Background(), e.p("w/big.bin"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(r, make([]byte, 10)); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if _, _, err := s.OpenRead(context.Background(), e.p("link")); err == nil {
			t.Error("opened a symlink for streaming")
		}
		e.noTemps(t, "w")
	}},
	{"mkdir_remove", func(t *testing.T, e *suiteEnv) {
		mk, ok := e.fs.(Maker)
		if !ok {
			t.Fatal("not a Maker")
		}
		ctx := context.Background()
		if err := mk.Mkdir(ctx, e.p("w/made"), 0o750); err != nil {
			t.Fatal(err)
		}
		if in, err := e.fs.Lstat(ctx, e.p("w/made")); err != nil || in.Type != TypeDir || in.Mode.Perm() != 0o750 {
			t.Errorf("made %+v, %v; want a directory with mode 0750", in, err)
		}
		// Never through an existing name, a symlink's included.
		for _, p := range []string{e.p("w/made"), e.p("link"), e.p("dangling")} {
			if err := mk.Mkdir(ctx, p, 0o755); !errors.Is(err, fs.ErrExist) {
				t.Errorf("mkdir %s: %v, want exists", p, err)
			}
		}
		if _, err := os.Lstat(e.p("nowhere")); err == nil {
			t.Error("mkdir followed the dangling symlink")
		}
		// Remove unlinks a file and a symlink itself, never a directory.
		if _, err := e.fs.WriteFile(ctx, e.p("w/made/gone.txt"), []byte("x"), WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := mk.Remove(ctx, e.p("w/made/gone.txt")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../../plain.txt", e.p("w/made/ln")); err != nil {
			t.Fatal(err)
		}
		if err := mk.Remove(ctx, e.p("w/made/ln")); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(e.p("plain.txt")); err != nil {
			t.Error("removing a symlink removed its target")
		}
		if err := mk.Remove(ctx, e.p("w/made")); err == nil {
			t.Error("removed a directory")
		}
		if ents, err := os.ReadDir(e.p("w/made")); err != nil || len(ents) != 0 {
			t.Errorf("w/made holds %v, %v; want it empty and still there", ents, err)
		}
	}},
}
