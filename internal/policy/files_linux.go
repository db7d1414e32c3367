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

// unreadFS are the file systems whose files the classifier never reads:
// the kernel's, where a "regular" file's read waits or takes what it
// returns (/proc/kmsg), and those over a network or a user program (NFS,
// FUSE), where a read may wait on another machine.
var unreadFS = map[uint32]bool{
	unix.PROC_SUPER_MAGIC: true, unix.SYSFS_MAGIC: true, unix.DEBUGFS_MAGIC: true, unix.TRACEFS_MAGIC: true,
	unix.SECURITYFS_MAGIC: true, unix.CGROUP_SUPER_MAGIC: true, unix.CGROUP2_SUPER_MAGIC: true,
	unix.DEVPTS_SUPER_MAGIC: true, unix.PSTOREFS_MAGIC: true, unix.EFIVARFS_MAGIC: true, unix.BPF_FS_MAGIC: true,
	unix.BINFMTFS_MAGIC: true, unix.SELINUX_MAGIC: true, unix.SMACK_MAGIC: true, unix.XENFS_SUPER_MAGIC: true,
	unix.OPENPROM_SUPER_MAGIC: true, unix.RDTGROUP_SUPER_MAGIC: true, unix.USBDEVICE_SUPER_MAGIC: true,
	unix.NSFS_MAGIC: true, unix.AUTOFS_SUPER_MAGIC: true, unix.FUSE_SUPER_MAGIC: true,
	unix.NFS_SUPER_MAGIC: true, unix.CIFS_SUPER_MAGIC: true, unix.SMB_SUPER_MAGIC: true, unix.SMB2_SUPER_MAGIC: true,
	unix.AFS_SUPER_MAGIC: true, unix.AFS_FS_MAGIC: true, unix.CEPH_SUPER_MAGIC: true, unix.V9FS_MAGIC: true,
	unix.CODA_SUPER_MAGIC: true, unix.NCP_SUPER_MAGIC: true,
}

// openRegular opens the file p (links followed) for reading only if it is
// a regular file. Opening can act before a byte is read: /dev/watchdog
// arms the host's watchdog, a FIFO releases a writer blocked in its open.
// So p is reached with O_PATH, which calls no driver's open, its type is
// read from that descriptor, and only a regular file is opened, through
// /proc/self/fd: the same inode, whatever is renamed into p meanwhile.
// Without /proc nothing is opened, nor is a file of unreadFS.
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
	var sfs unix.Statfs_t
	if err := unix.Fstatfs(pfd, &sfs); err != nil || unreadFS[uint32(sfs.Type)] {
		return nil, nil, errors.New(p + ": on a file system whose files are not read")
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
