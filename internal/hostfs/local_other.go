//go:build !linux

package hostfs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"syscall"

	"github.com/warden-mcp/warden/internal/runner"
)

// Local is the FS of the machine warden runs on. The no-follow openat walk
// it needs is implemented for Linux only; elsewhere every call fails.
type Local struct {
	Root  string
	Looks *runner.Looks
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

// OpenRegularIn opens name below root for reading; the caller has Lstat'ed
// it as before and checks the file opened is the same. Without O_PATH a
// device swapped in between that Lstat and this open is opened.
func OpenRegularIn(root *os.Root, name string, _ fs.FileInfo) (*os.File, error) {
	return root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
