package snapshot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/warden-mcp/warden/internal/hostfs"
)

// FS is the filesystem seam: the engine reads snapshots only through it, so
// the same code serves local snapshots and, later, remote ones over SFTP.
//
// Names are slash-separated and relative to the FS root ("." is the root);
// the engine never passes "..", an absolute name, or a name whose parent
// components are symlinks. Implementations must not follow a symlink in the
// final component of Lstat, ReadLink or Open, and Open must refuse anything
// but a regular file.
type FS interface {
	Lstat(name string) (fs.FileInfo, error)
	// ReadDir returns the entries of a directory as Lstat would describe
	// them, in any order.
	ReadDir(name string) ([]fs.FileInfo, error)
	Open(name string) (io.ReadCloser, error)
	ReadLink(name string) (string, error)
}

// LocalFS is an FS over a local directory, confined by os.Root: no name can
// reach outside the root, even through a symlink the engine did not see.
type LocalFS struct {
	root *os.Root
}

var _ FS = (*LocalFS)(nil)

// OpenLocalFS opens dir as the root of a LocalFS. The caller closes it.
func OpenLocalFS(dir string) (*LocalFS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open snapshot root: %w", err)
	}
	return &LocalFS{root: r}, nil
}

// Close releases the root directory.
func (l *LocalFS) Close() error { return l.root.Close() }

// Lstat describes name without following a final symlink.
func (l *LocalFS) Lstat(name string) (fs.FileInfo, error) { return l.root.Lstat(name) }

// ReadLink returns the target of the symlink name, without following it.
func (l *LocalFS) ReadLink(name string) (string, error) { return l.root.Readlink(name) }

// ReadDir lists name's entries. A symlink named by name is refused.
func (l *LocalFS) ReadDir(name string) ([]fs.FileInfo, error) {
	f, err := l.openNoFollow(name, syscall.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdir(-1)
}

// Open opens the regular file name for reading. A symlink is refused, and
// so is anything else but a regular file, before it is opened: opening can
// act (a device node in a snapshot of a root file system is the live
// device; /dev/watchdog's open arms the watchdog), and O_NONBLOCK keeps a
// FIFO swapped in from blocking.
func (l *LocalFS) Open(name string) (io.ReadCloser, error) {
	before, err := l.root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !before.Mode().IsRegular() {
		msg := "not a regular file"
		if before.Mode()&fs.ModeSymlink != 0 {
			msg = "is a symlink; not followed"
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New(msg)}
	}
	f, err := hostfs.OpenRegularIn(l.root, name, before)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() || !os.SameFile(before, st) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("changed while opening")}
	}
	return f, nil
}

// openNoFollow opens name without following a final symlink. os.Root
// follows in-root symlinks even under O_NOFOLLOW, so the file is Lstat'ed
// first and the opened file must be that same file, which also catches a
// swap between the two calls.
func (l *LocalFS) openNoFollow(name string, flag int) (*os.File, error) {
	before, err := l.root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if before.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("is a symlink; not followed")}
	}
	f, err := l.root.OpenFile(name, os.O_RDONLY|flag, 0)
	if err != nil {
		return nil, err
	}
	after, err := f.Stat()
	if err != nil || !os.SameFile(before, after) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("changed while opening")}
	}
	return f, nil
}

// maxLinkHops bounds symlink resolution in parent components, like the
// kernel's ELOOP limit.
const maxLinkHops = 40

// errEscape is returned when a symlinked parent would leave the snapshot.
var errEscape = errors.New("symlink leads outside the snapshot root")

// errLoop is returned when resolving takes more than maxLinkHops links.
var errLoop = errors.New("too many levels of symlinks")

// resolve turns a clean relative path into one whose parent components are
// real directories inside the root, following symlinked parents only while
// they stay inside. The final component is never followed: info describes it
// as Lstat does (nil with fs.ErrNotExist wrapped in err when it is absent).
// This check is portable across FS implementations; LocalFS additionally
// enforces confinement in the kernel through os.Root.
func resolve(fsys FS, rel string) (string, fs.FileInfo, error) {
	if rel == "." {
		info, err := fsys.Lstat(".")
		return ".", info, err
	}
	todo := strings.Split(rel, "/")
	done := "."
	hops := 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		if name == "" || name == "." {
			continue
		}
		if name == ".." {
			if done == "." {
				return "", nil, fmt.Errorf("resolve %q: %w", rel, errEscape)
			}
			done = path.Dir(done)
			continue
		}
		cur := joinRel(done, name)
		info, err := fsys.Lstat(cur)
		if len(todo) == 0 {
			if err != nil {
				return cur, nil, err
			}
			return cur, info, nil
		}
		if err != nil {
			return "", nil, err
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			hops++
			if hops > maxLinkHops {
				return "", nil, fmt.Errorf("resolve %q: %w", rel, errLoop)
			}
			target, err := fsys.ReadLink(cur)
			if err != nil {
				return "", nil, err
			}
			if strings.HasPrefix(target, "/") {
				return "", nil, fmt.Errorf("resolve %q: %s is an absolute symlink to %q: %w", rel, cur, target, errEscape)
			}
			// Resolve the target relative to the link's directory; ".."
			// steps are checked against the root as they are consumed.
			todo = append(strings.Split(target, "/"), todo...)
		case info.IsDir():
			done = cur
		default:
			return "", nil, fmt.Errorf("resolve %q: %s is not a directory: %w", rel, cur, fs.ErrNotExist)
		}
	}
	info, err := fsys.Lstat(done)
	return done, info, err
}

// ReadDirBatches lists name n entries at a time, handing each batch to fn
// in directory order, so a huge directory is never held whole. A symlink
// named by name is refused.
func (l *LocalFS) ReadDirBatches(name string, n int, fn func([]fs.FileInfo) error) error {
	f, err := l.openNoFollow(name, syscall.O_DIRECTORY)
	if err != nil {
		return err
	}
	defer f.Close()
	for {
		infos, err := f.Readdir(n)
		if len(infos) > 0 {
			if ferr := fn(infos); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
