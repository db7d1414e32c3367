//go:build linux

package hostfs

import (
	"context"
	"errors"
	"io/fs"

	"golang.org/x/sys/unix"
)

var _ Maker = Local{}

// Mkdir creates p below a parent reached without following a link.
func (l Local) Mkdir(_ context.Context, p string, mode fs.FileMode) error {
	dir, name, err := l.openParent(p, unix.O_PATH)
	if err != nil {
		return err
	}
	defer unix.Close(dir)
	if name == "." {
		return &fs.PathError{Op: "mkdir", Path: p, Err: fs.ErrExist}
	}
	if err := unix.Mkdirat(dir, name, uint32(mode.Perm())); err != nil {
		if errors.Is(err, unix.EEXIST) {
			err = fs.ErrExist
		}
		return &fs.PathError{Op: "mkdir", Path: p, Err: err}
	}
	return nil
}

// Remove unlinks the non-directory p below a parent reached without
// following a link; unlinkat never follows the final component.
func (l Local) Remove(_ context.Context, p string) error {
	dir, name, err := l.openParent(p, unix.O_PATH)
	if err != nil {
		return err
	}
	defer unix.Close(dir)
	if name == "." {
		return &fs.PathError{Op: "remove", Path: p, Err: errors.New("is a directory")}
	}
	if err := unix.Unlinkat(dir, name, 0); err != nil {
		if errors.Is(err, unix.EISDIR) {
			err = errors.New("is a directory")
		}
		return &fs.PathError{Op: "remove", Path: p, Err: err}
	}
	return nil
}
