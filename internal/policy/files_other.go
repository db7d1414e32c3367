//go:build !linux

package policy

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"time"
)

// changed returns the file's modification time: on this system its
// change time is not read.
func changed(fi fs.FileInfo) time.Time { return fi.ModTime() }

// openRegular opens the file p for reading only if it is a regular file,
// as far as this system lets that be checked before opening.
func openRegular(p string) (*os.File, fs.FileInfo, error) {
	if strings.HasPrefix(p, "/proc/") || strings.HasPrefix(p, "/sys/") || strings.HasPrefix(p, "/dev/") {
		return nil, nil, errors.New(p + ": not read")
	}
	before, err := os.Stat(p)
	if err != nil {
		return nil, nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, nil, errors.New(p + ": not a regular file")
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil || !os.SameFile(before, fi) {
		f.Close()
		return nil, nil, errors.New(p + ": changed while it was opened")
	}
	return f, fi, nil
}
