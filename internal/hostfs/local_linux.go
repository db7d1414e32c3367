//go:build linux

package hostfs

import (
	"bytes"
	"context"
	"crypto/rand"
	endian "encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/warden-mcp/warden/internal/runner"
)

// Local is the FS of the machine warden runs on, or of the tree under Root.
// Every call walks the path from the root one component at a time with
// openat(O_NOFOLLOW), so a symlink swapped into the tree after the policy
// check makes the call fail instead of leading it elsewhere: the object
// opened is always the one at the checked path.
type Local struct {
	// Root is the directory paths are resolved under; empty means "/".
	// /proc/1/root is the root of PID 1's mount namespace: a path walked
	// from it is the path as the host sees it, and since no component is
	// followed, an absolute symlink there is resolved (by Resolve, which
	// restarts at "/") inside the host's tree, not warden's.
	Root string
	// Looks bounds the looks at a directory's entries that wait at once
	// (see runner.Looks); nil bounds nothing.
	Looks *runner.Looks
}

var _ FS = Local{}

// dirFlags open an intermediate directory without following a link.
const dirFlags = unix.O_PATH | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC

func (l Local) root() string {
	if l.Root == "" {
		return "/"
	}
	return l.Root
}

// openParent returns a descriptor for p's parent directory and p's final
// component. For "/" it returns "/" itself and ".".
func (l Local) openParent(p string, parentFlags int) (int, string, error) {
	parts := splitAbs(p)
	if len(parts) == 0 {
		fd, err := unix.Open(l.root(), parentFlags|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return -1, "", &fs.PathError{Op: "open", Path: "/", Err: err}
		}
		return fd, ".", nil
	}
	flags := dirFlags
	if len(parts) == 1 {
		flags = parentFlags | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	}
	fd, err := unix.Open(l.root(), flags&^unix.O_NOFOLLOW, 0)
	if err != nil {
		return -1, "", &fs.PathError{Op: "open", Path: "/", Err: err}
	}
	for i, name := range parts[:len(parts)-1] {
		if i == len(parts)-2 {
			flags = parentFlags | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		}
		next, err := unix.Openat(fd, name, flags, 0)
		unix.Close(fd)
		if err != nil {
			return -1, "", &fs.PathError{Op: "open", Path: "/" + path.Join(parts[:i+1]...), Err: walkErr(err)}
		}
		fd = next
	}
	return fd, parts[len(parts)-1], nil
}

// walkErr names what ELOOP and ENOTDIR mean during a no-follow walk.
func walkErr(err error) error {
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return fmt.Errorf("not a directory or a symlink (changed since it was checked?): %w", err)
	}
	return err
}

// openDir opens the directory p itself for reading, never following a
// link. O_DIRECTORY makes the kernel refuse anything else with ENOTDIR
// before any driver's open runs, so a device or FIFO at p is not acted on;
// every other object is opened through openRegular.
func (l Local) openDir(p string) (*os.File, error) {
	dir, name, err := l.openParent(p, unix.O_PATH)
	if err != nil {
		return nil, err
	}
	defer unix.Close(dir)
	fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			err = fmt.Errorf("is a symlink (changed since it was checked?): %w", err)
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	return os.NewFile(uintptr(fd), p), nil
}

// Lstat describes p without following it.
func (l Local) Lstat(_ context.Context, p string) (Info, error) {
	dir, name, err := l.openParent(p, unix.O_PATH)
	if err != nil {
		return Info{}, err
	}
	defer unix.Close(dir)
	var st unix.Stat_t
	if err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return Info{}, &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	return infoOf(path.Base(p), &st), nil
}

// Readlink returns the target of the symlink p.
func (l Local) Readlink(_ context.Context, p string) (string, error) {
	dir, name, err := l.openParent(p, unix.O_PATH)
	if err != nil {
		return "", err
	}
	defer unix.Close(dir)
	buf := make([]byte, 4096)
	n, err := unix.Readlinkat(dir, name, buf)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: p, Err: err}
	}
	if n == len(buf) {
		return "", &fs.PathError{Op: "readlink", Path: p, Err: errors.New("link target too long")}
	}
	return string(buf[:n]), nil
}

// ReadAt reads at most max bytes of the regular file p from off; anything
// else is refused before it is opened (see OpenRegularAt).
func (l Local) ReadAt(_ context.Context, p string, off int64, max int) ([]byte, Info, error) {
	f, info, err := l.openRegular(p, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return nil, info, err
	}
	defer f.Close()
	// Files in /proc report size 0, so read until EOF or max, not Size.
	buf := make([]byte, max)
	n := 0
	for n < max {
		m, err := unix.Pread(int(f.Fd()), buf[n:], off+int64(n))
		if m > 0 {
			n += m
		}
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, info, &fs.PathError{Op: "read", Path: p, Err: err}
		}
		if m == 0 {
			break
		}
	}
	return buf[:n], info, nil
}

// maxScan bounds how many names ReadDir reads to sort.
const maxScan = 100000

// ReadDir returns at most limit entries of the directory p, sorted by name.
// An entry whose look does not answer within 1–2 s (a mount point whose
// server is gone) is listed as Unanswered, with the type its directory
// entry gives, rather than holding the listing up.
func (l Local) ReadDir(ctx context.Context, p string, limit int) ([]Info, bool, error) {
	f, err := l.openDir(p)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	// Read up to maxScan entries so the sort covers the whole directory in
	// all but huge ones; the first limit names by order are returned. The
	// types come from the listing: nothing is asked of an entry yet.
	ents, err := readDirents(int(f.Fd()), max(limit+1, maxScan))
	if err != nil {
		return nil, false, &fs.PathError{Op: "readdir", Path: p, Err: err}
	}
	more := len(ents) > limit
	slices.SortFunc(ents, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	if more {
		ents = ents[:limit]
	}
	looks, err := lookEntries(ctx, l.Looks, int(f.Fd()), ents)
	if err != nil {
		return nil, false, &fs.PathError{Op: "readdir", Path: p, Err: err}
	}
	out := make([]Info, 0, len(ents))
	for i, e := range ents {
		switch r := looks[i]; {
		case r.unanswered:
			out = append(out, Info{Name: e.name, Type: e.typ, Unanswered: true})
		case r.err != nil:
			// Removed between the listing and the stat.
		default:
			out = append(out, infoOf(e.name, &r.st))
		}
	}
	return out, more, nil
}

// dirent is a directory entry as the listing gives it.
type dirent struct {
	name string
	typ  Type // TypeOther where the file system does not say
}

// readDirents lists at most n entries of the open directory dir, but for
// "." and "..", with the types the listing gives (d_type): no entry is
// asked for its attributes, as os.File.ReadDir asks for those of a file
// system that gives no types.
func readDirents(dir, n int) ([]dirent, error) {
	var out []dirent
	buf := make([]byte, 32<<10)
	for len(out) < n {
		m, err := unix.Getdents(dir, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if m <= 0 {
			break
		}
		// struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
		for b := buf[:m]; len(b) >= 19 && len(out) < n; {
			reclen := int(endian.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return nil, errors.New("malformed directory entry")
			}
			name := b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if s := string(name); s != "." && s != ".." {
				out = append(out, dirent{s, direntType(b[18])})
			}
			b = b[reclen:]
		}
	}
	return out, nil
}

func direntType(t uint8) Type {
	switch t {
	case unix.DT_REG:
		return TypeFile
	case unix.DT_DIR:
		return TypeDir
	case unix.DT_LNK:
		return TypeSymlink
	case unix.DT_FIFO:
		return TypeFIFO
	case unix.DT_SOCK:
		return TypeSocket
	case unix.DT_BLK, unix.DT_CHR:
		return TypeDevice
	}
	return TypeOther
}

// entryTick is how often a directory's looks are checked for progress: a
// look that has not ended by the second tick after it began (1–2 s) does
// not answer.
const entryTick = time.Second

type entryLook struct {
	st         unix.Stat_t
	err        error
	unanswered bool
}

// lookEntries lstats the entries of dir in order, on a goroutine that
// reports its progress. A look on a mount whose server does not answer
// waits in the kernel, where nothing reaches it: that entry is marked
// unanswered, its goroutine is left to end when the mount answers, and
// the entries after it get a new one. It fails when ctx ends, no
// goroutine can be given a descriptor of dir, or bound refuses one.
func lookEntries(ctx context.Context, bound *runner.Looks, dir int, ents []dirent) ([]entryLook, error) {
	looks := make([]entryLook, len(ents))
	tick := time.NewTicker(entryTick)
	defer tick.Stop()
	for from := 0; from < len(ents); {
		fd, err := unix.FcntlInt(uintptr(dir), unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return nil, err
		}
		// Each goroutine writes a slice of its own, which the caller
		// reads up to the count it has published.
		todo := ents[from:]
		part := make([]entryLook, len(todo))
		var n atomic.Int64
		finished := make(chan struct{})
		err = bound.Go(func() {
			defer close(finished)
			defer unix.Close(fd)
			for i, e := range todo {
				part[i].err = unix.Fstatat(fd, e.name, &part[i].st, unix.AT_SYMLINK_NOFOLLOW)
				n.Store(int64(i + 1))
			}
		})
		if err != nil {
			unix.Close(fd)
			return nil, err
		}
		last := int64(-1)
	wait:
		for {
			select {
			case <-finished:
				copy(looks[from:], part)
				return looks, nil
			case <-ctx.Done():
				return nil, context.Cause(ctx)
			case <-tick.C:
				if got := n.Load(); got != last {
					last = got
					continue
				}
				break wait
			}
		}
		// part[:last] are done; the look at the next entry did not end.
		copy(looks[from:], part[:last])
		from += int(last)
		looks[from].unanswered = true
		from++
	}
	return looks, nil
}

// WriteFile writes data to a temporary file in p's directory and renames it
// over p: readers see the old content or the new, never a mix. Without
// Overwrite the rename refuses to replace anything (RENAME_NOREPLACE, or
// link+unlink where the file system lacks it).
func (l Local) WriteFile(_ context.Context, p string, data []byte, o WriteOptions) (WriteInfo, error) {
	dir, name, err := l.openParent(p, unix.O_RDONLY)
	if err != nil {
		return WriteInfo{}, err
	}
	defer unix.Close(dir)
	if name == "." {
		return WriteInfo{}, &fs.PathError{Op: "write", Path: p, Err: errors.New("is a directory")}
	}
	mode := fs.FileMode(0o644)
	uid, gid := -1, -1
	var st unix.Stat_t
	err = unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, unix.ENOENT):
		return WriteInfo{}, &fs.PathError{Op: "lstat", Path: p, Err: err}
	case exists && !o.Overwrite:
		return WriteInfo{}, &fs.PathError{Op: "write", Path: p, Err: fs.ErrExist}
	case exists && typeOf(infoOf(name, &st).Mode) != TypeFile:
		return WriteInfo{}, &fs.PathError{Op: "write", Path: p, Err: fmt.Errorf("is a %s, not a regular file", typeOf(infoOf(name, &st).Mode))}
	case exists:
		mode = infoOf(name, &st).Mode.Perm()
		uid, gid = int(st.Uid), int(st.Gid)
	}
	if o.Mode != nil {
		mode = o.Mode.Perm()
	}
	tmp := "." + truncName(name) + ".warden-" + randHex() + ".tmp"
	fd, err := unix.Openat(dir, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return WriteInfo{}, &fs.PathError{Op: "create", Path: path.Join(path.Dir(p), tmp), Err: err}
	}
	f := os.NewFile(uintptr(fd), tmp)
	committed := false
	defer func() {
		if !committed {
			_ = unix.Unlinkat(dir, tmp, 0)
		}
	}()
	if err := writeAll(f, data, mode, uid, gid); err != nil {
		f.Close()
		return WriteInfo{}, &fs.PathError{Op: "write", Path: p, Err: err}
	}
	if err := f.Close(); err != nil {
		return WriteInfo{}, &fs.PathError{Op: "write", Path: p, Err: err}
	}
	if err := rename(dir, tmp, name, o.Overwrite); err != nil {
		return WriteInfo{}, &fs.PathError{Op: "rename", Path: p, Err: err}
	}
	committed = true
	_ = unix.Fsync(dir)
	return WriteInfo{Created: !exists, Mode: mode}, nil
}

func writeAll(f *os.File, data []byte, mode fs.FileMode, uid, gid int) error {
	if _, err := f.Write(data); err != nil {
		return err
	}
	if uid >= 0 && os.Geteuid() == 0 {
		if err := f.Chown(uid, gid); err != nil {
			return err
		}
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	return f.Sync()
}

// rename moves tmp over name in dir; without overwrite it never replaces.
func rename(dir int, tmp, name string, overwrite bool) error {
	if overwrite {
		return unix.Renameat(dir, tmp, dir, name)
	}
	err := unix.Renameat2(dir, tmp, dir, name, unix.RENAME_NOREPLACE)
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) {
		if errors.Is(err, unix.EEXIST) {
			return fs.ErrExist
		}
		return err
	}
	if err := unix.Linkat(dir, tmp, dir, name, 0); err != nil {
		if errors.Is(err, unix.EEXIST) {
			return fs.ErrExist
		}
		return err
	}
	return unix.Unlinkat(dir, tmp, 0)
}

func infoOf(name string, st *unix.Stat_t) Info {
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	}
	if st.Mode&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if st.Mode&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if st.Mode&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return Info{
		Name:    name,
		Type:    typeOf(mode),
		Size:    st.Size,
		Mode:    mode,
		ModTime: time.Unix(st.Mtim.Unix()),
		UID:     int(st.Uid),
		GID:     int(st.Gid),
	}
}

// truncName keeps temporary names within NAME_MAX.
func truncName(name string) string {
	if len(name) > 200 {
		return name[:200]
	}
	return name
}

func randHex() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
