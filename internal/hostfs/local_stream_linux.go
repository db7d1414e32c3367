//go:build linux

package hostfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// OpenRead opens the regular file p for streaming, never following a link,
// and describes it; anything else is refused before it is opened (see
// OpenRegularAt).
func (l Local) OpenRead(_ context.Context, p string) (io.ReadCloser, Info, error) {
	f, info, err := l.openRegular(p, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return nil, info, err
	}
	return f, info, nil
}

// WriteFrom replaces or creates p atomically from r, as WriteFile does,
// reading at most max bytes: a longer r fails the write and leaves p
// untouched.
func (l Local) WriteFrom(_ context.Context, p string, r io.Reader, max int64, o WriteOptions) (WriteInfo, int64, error) {
	dir, name, err := l.openParent(p, unix.O_RDONLY)
	if err != nil {
		return WriteInfo{}, 0, err
	}
	defer unix.Close(dir)
	if name == "." {
		return WriteInfo{}, 0, &fs.PathError{Op: "write", Path: p, Err: errors.New("is a directory")}
	}
	mode := fs.FileMode(0o644)
	var st unix.Stat_t
	err = unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, unix.ENOENT):
		return WriteInfo{}, 0, &fs.PathError{Op: "lstat", Path: p, Err: err}
	case exists && !o.Overwrite:
		return WriteInfo{}, 0, &fs.PathError{Op: "write", Path: p, Err: fs.ErrExist}
	case exists && infoOf(name, &st).Type != TypeFile:
		return WriteInfo{}, 0, &fs.PathError{Op: "write", Path: p, Err: fmt.Errorf("is a %s, not a regular file", infoOf(name, &st).Type)}
	case exists:
		mode = infoOf(name, &st).Mode.Perm()
	}
	if o.Mode != nil {
		mode = o.Mode.Perm()
	}
	tmp := tempName(name)
	fd, err := unix.Openat(dir, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return WriteInfo{}, 0, &fs.PathError{Op: "create", Path: path.Join(path.Dir(p), tmp), Err: err}
	}
	f := os.NewFile(uintptr(fd), tmp)
	committed := false
	defer func() {
		if !committed {
			_ = unix.Unlinkat(dir, tmp, 0)
		}
	}()
	n, err := io.Copy(f, &limitReader{r: r, left: max})
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return WriteInfo{}, n, &fs.PathError{Op: "write", Path: p, Err: err}
	}
	if err := rename(dir, tmp, name, o.Overwrite); err != nil {
		return WriteInfo{}, n, &fs.PathError{Op: "rename", Path: p, Err: err}
	}
	committed = true
	_ = unix.Fsync(dir)
	return WriteInfo{Created: !exists, Mode: mode}, n, nil
}
