// Package hostfs owns reaching one host's files: the FS seam the file
// tools, snapshot fetches and host kinds share, with its implementations
// for this machine (or a root inside it, such as another mount
// namespace's /proc/PID/root), SFTP and the SSH exec channel. Every
// implementation walks paths without following a symlink in any component.
package hostfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// FS is the seam through which the file tools reach one host's files: the
// local implementation walks openat with O_NOFOLLOW; the SFTP and exec
// channel ones implement the same methods for remote hosts.
//
// Every path passed in is clean and absolute and has already been resolved
// and checked by the caller. Implementations must not follow a symlink in
// any component of it: a link found where the caller saw a directory or a
// file means the tree changed after the check, and the call must fail.
type FS interface {
	// Lstat describes p without following it.
	Lstat(ctx context.Context, p string) (Info, error)
	// Readlink returns the target of the symlink p.
	Readlink(ctx context.Context, p string) (string, error)
	// ReadAt reads at most max bytes of the regular file p from off, and
	// describes the file it read.
	ReadAt(ctx context.Context, p string, off int64, max int) ([]byte, Info, error)
	// ReadDir returns at most limit entries of the directory p, sorted by
	// name, and reports whether there were more.
	ReadDir(ctx context.Context, p string, limit int) ([]Info, bool, error)
	// WriteFile replaces or creates the regular file p atomically (a
	// temporary file in the same directory renamed over it).
	WriteFile(ctx context.Context, p string, data []byte, o WriteOptions) (WriteInfo, error)
}

// WriteOptions say how WriteFile may treat an existing file.
type WriteOptions struct {
	// Overwrite allows replacing an existing regular file; without it an
	// existing file is ErrExist and is left untouched.
	Overwrite bool
	// Mode is the new file's permission bits; nil keeps an existing
	// file's bits, or 0644 for a new file.
	Mode *fs.FileMode
}

// WriteInfo describes a completed write.
type WriteInfo struct {
	Created bool
	Mode    fs.FileMode
}

// Type is the kind of a file system object.
type Type string

// Types of file system objects.
const (
	TypeFile    Type = "file"
	TypeDir     Type = "dir"
	TypeSymlink Type = "symlink"
	TypeFIFO    Type = "fifo"
	TypeSocket  Type = "socket"
	TypeDevice  Type = "device"
	TypeOther   Type = "other"
)

// Info describes one file system object as Lstat sees it.
type Info struct {
	Name    string
	Type    Type
	Size    int64
	Mode    fs.FileMode
	ModTime time.Time
	UID     int
	GID     int
	// Unanswered is a directory entry whose look did not answer (a mount
	// point whose server is gone): only its name and type are known. (The
	// agent's protocol carries Info as JSON.)
	Unanswered bool `json:",omitempty"`
}

// typeOf maps a mode to a Type.
func typeOf(m fs.FileMode) Type {
	switch {
	case m.IsRegular():
		return TypeFile
	case m.IsDir():
		return TypeDir
	case m&fs.ModeSymlink != 0:
		return TypeSymlink
	case m&fs.ModeNamedPipe != 0:
		return TypeFIFO
	case m&fs.ModeSocket != 0:
		return TypeSocket
	case m&fs.ModeDevice != 0:
		return TypeDevice
	}
	return TypeOther
}

// maxLinkHops bounds symlink resolution, like the kernel's ELOOP limit.
const maxLinkHops = 40

var errLoop = errors.New("too many levels of symbolic links")

// Resolved is a path with every symlink in it followed.
type Resolved struct {
	// Path is clean, absolute and has no symlink in any parent component
	// (nor in the final one when it was followed).
	Path string
	// Exists reports whether Path exists; when it does not, its parent did
	// not either or the final component is missing.
	Exists bool
	// Info describes Path as Lstat does, when it exists.
	Info Info
}

// Resolve follows every symlink in the clean absolute path p through fsys
// — the final component too when followFinal — and returns the path with
// none left. It reads links itself instead of letting the kernel follow
// them, so the result is a plain path the caller can check against policy
// and then open with O_NOFOLLOW in every component. A missing component
// ends the walk: the rest is joined lexically, and a ".." after a missing
// component is refused since the kernel would refuse it too.
func Resolve(ctx context.Context, fsys FS, p string, followFinal bool) (Resolved, error) {
	todo := splitAbs(p)
	done := "/"
	hops := 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			done = path.Dir(done)
			continue
		}
		cur := path.Join(done, name)
		info, err := fsys.Lstat(ctx, cur)
		if errors.Is(err, fs.ErrNotExist) {
			if slices.Contains(todo, "..") {
				return Resolved{}, fmt.Errorf("resolve %s: %s does not exist: %w", p, cur, fs.ErrNotExist)
			}
			return Resolved{Path: path.Join(append([]string{cur}, todo...)...)}, nil
		}
		if err != nil {
			return Resolved{}, err
		}
		last := len(todo) == 0
		switch {
		case info.Type == TypeSymlink && (!last || followFinal):
			hops++
			if hops > maxLinkHops {
				return Resolved{}, fmt.Errorf("resolve %s: %w", p, errLoop)
			}
			target, err := fsys.Readlink(ctx, cur)
			if err != nil {
				return Resolved{}, err
			}
			if target == "" || strings.ContainsRune(target, 0) {
				return Resolved{}, fmt.Errorf("resolve %s: %s is a symlink with an unusable target", p, cur)
			}
			if strings.HasPrefix(target, "/") {
				done = "/"
			}
			todo = append(strings.Split(target, "/"), todo...)
		case last:
			return Resolved{Path: cur, Exists: true, Info: info}, nil
		case info.Type != TypeDir:
			return Resolved{}, fmt.Errorf("resolve %s: %s is not a directory: %w", p, cur, fs.ErrNotExist)
		default:
			done = cur
		}
	}
	info, err := fsys.Lstat(ctx, done)
	if err != nil {
		return Resolved{}, err
	}
	return Resolved{Path: done, Exists: true, Info: info}, nil
}

// splitAbs returns the components of an absolute path.
func splitAbs(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// Streamer is an FS that can stream whole files, which copies need so that
// memory stays flat however large the file.
type Streamer interface {
	OpenRead(ctx context.Context, p string) (io.ReadCloser, Info, error)
	WriteFrom(ctx context.Context, p string, r io.Reader, max int64, o WriteOptions) (WriteInfo, int64, error)
}
