package hostfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
)

var _ Maker = SFTP{}

// Mkdir creates the directory p and sets its bits once an lstat shows it
// is the directory just made (SFTP's setstat would follow a link swapped
// in meanwhile; the lstat narrows that, as for reads).
func (s SFTP) Mkdir(ctx context.Context, p string, mode fs.FileMode) error {
	c, err := s.client(ctx)
	if err != nil {
		return err
	}
	if _, err := c.Lstat(p); err == nil {
		return &fs.PathError{Op: "mkdir", Path: p, Err: fs.ErrExist}
	}
	if err := c.Mkdir(p); err != nil {
		if _, serr := c.Lstat(p); serr == nil {
			err = fs.ErrExist
		}
		return &fs.PathError{Op: "mkdir", Path: p, Err: err}
	}
	fi, err := c.Lstat(p)
	if err != nil {
		return &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	if !fi.IsDir() {
		return &fs.PathError{Op: "mkdir", Path: p, Err: fmt.Errorf("is a %s right after it was made", typeOf(fi.Mode()))}
	}
	if err := c.Chmod(p, mode.Perm()); err != nil {
		return &fs.PathError{Op: "chmod", Path: p, Err: err}
	}
	return nil
}

// Remove unlinks the non-directory p: SSH_FXP_REMOVE is unlink(2), which
// removes a symlink itself.
func (s SFTP) Remove(ctx context.Context, p string) error {
	c, err := s.client(ctx)
	if err != nil {
		return err
	}
	fi, err := c.Lstat(p)
	if err != nil {
		return &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	if fi.IsDir() {
		return &fs.PathError{Op: "remove", Path: p, Err: errors.New("is a directory")}
	}
	if err := c.Remove(p); err != nil {
		return &fs.PathError{Op: "remove", Path: p, Err: err}
	}
	return nil
}
