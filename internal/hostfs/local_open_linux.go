//go:build linux

package hostfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"

	"golang.org/x/sys/unix"
)

// OpenRegularAt opens name, one component in the directory dir, with flags
// and describes it, never following a link and never opening anything but
// a regular file; p names the file in errors. Opening can act before a
// byte is read: /dev/watchdog arms the host's watchdog (closed without a
// 'V', the host reboots), a FIFO releases a writer blocked in its open, a
// tape rewinds. So name is first opened with O_PATH, which reaches the
// inode without calling any driver's open, its type is read from that
// descriptor, and only a regular file is opened for real, through
// /proc/self/fd: the same inode, whatever has been renamed into name
// meanwhile.
func OpenRegularAt(dir int, name, p string, flags int) (*os.File, Info, error) {
	pfd, err := unix.Openat(dir, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, Info{}, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	if err := unix.Fstat(pfd, &st); err != nil {
		return nil, Info{}, &fs.PathError{Op: "fstat", Path: p, Err: err}
	}
	info := infoOf(path.Base(p), &st)
	switch info.Type {
	case TypeFile:
	case TypeSymlink:
		return nil, info, &fs.PathError{Op: "open", Path: p, Err: fmt.Errorf("is a symlink (changed since it was checked?): %w", unix.ELOOP)}
	default:
		return nil, info, &fs.PathError{Op: "read", Path: p, Err: fmt.Errorf("is a %s, not a regular file", info.Type)}
	}
	// The magic link is followed by design: O_NOFOLLOW would refuse it.
	flags = (flags | unix.O_CLOEXEC) &^ (unix.O_NOFOLLOW | unix.O_CREAT | unix.O_EXCL | unix.O_TRUNC | unix.O_PATH)
	fd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(pfd), flags, 0)
	if errors.Is(err, unix.ENOENT) {
		// No /proc here: open the name again, no link followed, and keep
		// it only if it is the inode just checked. A device swapped in
		// between the two would be opened before being refused; without
		// /proc that window cannot be closed.
		fd, err = unix.Openat(dir, name, flags|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	}
	if err != nil {
		return nil, info, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	var again unix.Stat_t
	if err := unix.Fstat(fd, &again); err != nil || again.Dev != st.Dev || again.Ino != st.Ino {
		unix.Close(fd)
		return nil, info, &fs.PathError{Op: "open", Path: p, Err: errors.New("changed while it was opened")}
	}
	return os.NewFile(uintptr(fd), p), info, nil
}

// openRegular opens the regular file p with flags, as OpenRegularAt does,
// below a parent reached without following a link.
func (l Local) openRegular(p string, flags int) (*os.File, Info, error) {
	dir, name, err := l.openParent(p, unix.O_PATH)
	if err != nil {
		return nil, Info{}, err
	}
	defer unix.Close(dir)
	return OpenRegularAt(dir, name, p, flags)
}

// OpenRegularIn opens name below root for reading once an O_PATH
// descriptor shows it is the regular file before describes (an Lstat by
// the caller), so nothing else is ever opened, as OpenRegularAt explains.
// The caller still checks that the file opened is before.
func OpenRegularIn(root *os.Root, name string, before fs.FileInfo) (*os.File, error) {
	pf, err := root.OpenFile(name, unix.O_PATH, 0)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	st, err := pf.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || !os.SameFile(before, st) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("changed while it was opened")}
	}
	f, err := os.OpenFile("/proc/self/fd/"+strconv.Itoa(int(pf.Fd())), os.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, fs.ErrNotExist) {
		// No /proc: the window between the caller's Lstat and this open
		// stays.
		return root.OpenFile(name, os.O_RDONLY|unix.O_NONBLOCK, 0)
	}
	return f, err
}
