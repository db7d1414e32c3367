//go:build !linux

package hostfs

import (
	"context"
	"errors"
	"io/fs"
)

// Local is the FS of the machine warden runs on. The no-follow openat walk
// it needs is implemented for Linux only; elsewhere every call fails.
type Local struct {
	Root string
}

var _ FS = Local{}

var errUnsupported = errors.New("local file tools are available on Linux only")

// Lstat fails: unsupported on this system.
func (Local) Lstat(context.Context, string) (Info, error) { return Info{}, errUnsupported }

// Readlink fails: unsupported on this system.
func (Local) Readlink(context.Context, string) (string, error) { return "", errUnsupported }

// ReadAt fails: unsupported on this system.
func (Local) ReadAt(context.Context, string, int64, int) ([]byte, Info, error) {
	return nil, Info{}, errUnsupported
}

// ReadDir fails: unsupported on this system.
func (Local) ReadDir(context.Context, string, int) ([]Info, bool, error) {
	return nil, false, errUnsupported
}

// WriteFile fails: unsupported on this system.
func (Local) WriteFile(context.Context, string, []byte, WriteOptions) (WriteInfo, error) {
	return WriteInfo{}, errUnsupported
}

// Mkdir fails: unsupported on this system.
func (Local) Mkdir(context.Context, string, fs.FileMode) error { return errUnsupported }

// Remove fails: unsupported on this system.
func (Local) Remove(context.Context, string) error { return errUnsupported }
