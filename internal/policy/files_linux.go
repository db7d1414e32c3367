package policy

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// changed returns when the file's inode last changed: its content, mode
// or name. Unlike its modification time (touch -d, cp -p), no program
// can set it back.
func changed(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec)) // int32 on 32-bit systems
	}
	return fi.ModTime()
}

// openRegular opens the file p (links followed) for reading only if it is
// a regular file. Opening can act before a byte is read: /dev/watchdog
// arms the host's watchdog, a FIFO releases a writer blocked in its open.
// So p is reached with O_PATH, which calls no driver's open, its type is
// read from that descriptor, and only a regular file is opened, through
// /proc/self/fd: the same inode, whatever is renamed into p meanwhile.
// Without /proc nothing is opened.
func openRegular(p string) (*os.File, fs.FileInfo, error) {
	pfd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	if err := unix.Fstat(pfd, &st); err != nil {
		return nil, nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, nil, errors.New(p + ": not a regular file")
	}
	fd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(pfd), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	f := os.NewFile(uintptr(fd), p)
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, errors.New(p + ": changed while it was opened")
	}
	return f, fi, nil
}
