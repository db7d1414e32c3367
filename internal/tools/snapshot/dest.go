package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// errTooBig is returned by writeFile when r holds more than max bytes.
var errTooBig = errors.New("larger than the byte bound")

// written is one completed file write.
type written struct {
	SHA256  string
	Bytes   int64
	Created bool
}

// destStat is what a copy needs to know of an existing destination name.
type destStat struct {
	regular bool
	kind    string
}

// destination is one directory copies are written into, reached without
// following a symlink in any component; every name below it is one plain
// component, created or opened without following a link. destDir is this
// machine's (openat2 from a descriptor); hostDir is any host's files
// through the host seam (an inventory host, or PID 1's tree when warden
// runs with host_namespace: pid1).
type destination interface {
	// child is the absolute path of name below the directory.
	child(name string) string
	// sub opens the directory name, creating it with mode when it is
	// missing and create is set; made says it was created.
	sub(name string, create bool, mode fs.FileMode) (destination, bool, error)
	// lstat describes name without following it; ok is false when it
	// does not exist.
	lstat(name string) (destStat, bool, error)
	// writeFile copies r into a temporary file renamed to name once
	// complete; more than max bytes is errTooBig, an existing name without
	// overwrite fs.ErrExist, and either leaves name untouched.
	writeFile(name string, r io.Reader, max int64, mode fs.FileMode, overwrite bool) (written, error)
	// keepAside makes aside hold the current version of the regular file
	// name, never following a link, and returns the digest and size of
	// what it holds; an aside name already taken is fs.ErrExist.
	keepAside(ctx context.Context, name, aside string) (string, int64, error)
	// remove unlinks the non-directory name.
	remove(name string) error
	Close()
}

// destOpener opens the directory at a clean absolute path as a
// destination.
type destOpener func(abs string) (destination, error)

// truncName keeps temporary names within NAME_MAX.
func truncName(name string) string {
	if len(name) > 200 {
		return name[:200]
	}
	return name
}

// checkWrite is writeFile's precondition in any destination: name is one
// plain component and, if it exists, overwrite is set and it is a regular
// file. It reports whether name exists.
func checkWrite(d destination, name string, overwrite bool) (bool, error) {
	if err := checkName(name); err != nil {
		return false, err
	}
	st, exists, err := d.lstat(name)
	switch {
	case err != nil:
		return false, err
	case exists && !overwrite:
		return true, &fs.PathError{Op: "write", Path: d.child(name), Err: fs.ErrExist}
	case exists && !st.regular:
		return true, &fs.PathError{Op: "write", Path: d.child(name), Err: fmt.Errorf("is a %s; only a regular file is replaced", st.kind)}
	}
	return exists, nil
}

// checkName refuses anything but one plain path component.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') || strings.ContainsRune(name, 0) {
		return fmt.Errorf("%q is not a single file name", name)
	}
	return nil
}
