//go:build linux

package snapshot

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"

	"golang.org/x/sys/unix"

	"github.com/warden-mcp/warden/internal/hostfs"
)

// noLinks is the openat2 resolution every destination walk uses: no
// symlink in any component (the kernel refuses with ELOOP), no magic
// /proc links, and no crossing above the directory walked from.
const noLinks = unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// destDir is a directory on this machine opened for writing copies into.
// It was reached without following a symlink in any component, and every
// name below it is created or opened relative to its descriptor with
// O_NOFOLLOW and RESOLVE_BENEATH, so a link swapped in later cannot lead a
// write elsewhere.
type destDir struct {
	fd   int
	path string
}

var _ destination = (*destDir)(nil)

// localOpen opens destinations on this machine, in warden's own mount
// namespace.
func localOpen(abs string) (destination, error) {
	d, err := openDestDir(abs)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// openDestDir opens the clean absolute directory abs with no symlink
// followed anywhere in it.
func openDestDir(abs string) (*destDir, error) {
	fd, err := unix.Openat2(unix.AT_FDCWD, abs, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: noLinks,
	})
	if err != nil {
		return nil, destErr("open", abs, err)
	}
	return &destDir{fd: fd, path: abs}, nil
}

// destErr names what ELOOP and ENOSYS mean here.
func destErr(op, p string, err error) error {
	switch {
	case errors.Is(err, unix.ELOOP):
		err = errors.New("a component is a symlink; destinations are never reached through one")
	case errors.Is(err, unix.ENOSYS):
		err = errors.New("this kernel has no openat2 (Linux 5.6 or later is needed to write without following symlinks)")
	case errors.Is(err, unix.EXDEV):
		err = errors.New("the path leaves the directory it must stay beneath")
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}

// Close releases the directory.
func (d *destDir) Close() { _ = unix.Close(d.fd) }

func (d *destDir) child(name string) string { return path.Join(d.path, name) }

// sub opens the directory name below d, creating it with mode when it is
// missing and create is set. An existing non-directory is refused.
func (d *destDir) sub(name string, create bool, mode fs.FileMode) (destination, bool, error) {
	if err := checkName(name); err != nil {
		return nil, false, err
	}
	made := false
	if create {
		err := unix.Mkdirat(d.fd, name, uint32(mode.Perm()|0o700))
		switch {
		case err == nil:
			made = true
		case !errors.Is(err, unix.EEXIST):
			return nil, false, destErr("mkdir", d.child(name), err)
		}
	}
	fd, err := unix.Openat2(d.fd, name, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: noLinks | unix.RESOLVE_BENEATH,
	})
	if err != nil {
		if errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) {
			what := "is not a directory"
			if st, ok, _ := d.lstat(name); ok {
				what = "is a " + st.kind + ", not a directory"
				if st.kind == "symlink" {
					what = "is a symlink; destinations are never reached through one"
				}
			}
			return nil, false, &fs.PathError{Op: "open", Path: d.child(name), Err: errors.New(what)}
		}
		return nil, false, destErr("open", d.child(name), err)
	}
	return &destDir{fd: fd, path: d.child(name)}, made, nil
}

// lstat describes name below d without following it; ok is false when it
// does not exist.
func (d *destDir) lstat(name string) (destStat, bool, error) {
	var st unix.Stat_t
	err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	if errors.Is(err, unix.ENOENT) {
		return destStat{}, false, nil
	}
	if err != nil {
		return destStat{}, false, destErr("lstat", d.child(name), err)
	}
	return destStat{regular: st.Mode&unix.S_IFMT == unix.S_IFREG, kind: kindOf(st)}, true, nil
}

// kindOf names the type in st for messages.
func kindOf(st unix.Stat_t) string {
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		return "regular file"
	case unix.S_IFDIR:
		return "directory"
	case unix.S_IFLNK:
		return "symlink"
	case unix.S_IFIFO:
		return "fifo"
	case unix.S_IFSOCK:
		return "socket"
	case unix.S_IFBLK, unix.S_IFCHR:
		return "device"
	}
	return "special file"
}

// writeFile copies r into a new temporary file below d and renames it to
// name: readers see the old file or the new one, never a part. Without
// overwrite an existing name is refused (RENAME_NOREPLACE closes the race
// with one appearing meanwhile); with it only a regular file is replaced.
// More than max bytes fails with errTooBig and leaves name untouched, as
// does any write error (a full disk): the temporary file is removed.
func (d *destDir) writeFile(name string, r io.Reader, max int64, mode fs.FileMode, overwrite bool) (written, error) {
	exists, err := checkWrite(d, name, overwrite)
	if err != nil {
		return written{}, err
	}
	tmp := "." + truncName(name) + ".warden-" + randHex() + ".tmp"
	fd, err := unix.Openat2(d.fd, tmp, &unix.OpenHow{
		Flags:   unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Mode:    0o600,
		Resolve: noLinks | unix.RESOLVE_BENEATH,
	})
	if err != nil {
		return written{}, destErr("create", d.child(tmp), err)
	}
	f := os.NewFile(uintptr(fd), d.child(tmp))
	committed := false
	defer func() {
		if !committed {
			_ = unix.Unlinkat(d.fd, tmp, 0)
		}
	}()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(r, max+1))
	if err == nil && n > max {
		err = errTooBig
	}
	if err == nil {
		err = f.Chmod(mode.Perm())
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return written{}, &fs.PathError{Op: "write", Path: d.child(name), Err: err}
	}
	if err := d.rename(tmp, name, overwrite); err != nil {
		return written{}, &fs.PathError{Op: "rename", Path: d.child(name), Err: err}
	}
	committed = true
	_ = unix.Fsync(d.fd)
	return written{SHA256: hex.EncodeToString(h.Sum(nil)), Bytes: n, Created: !exists}, nil
}

// rename moves tmp to name below d; without overwrite it never replaces.
func (d *destDir) rename(tmp, name string, overwrite bool) error {
	if overwrite {
		return unix.Renameat(d.fd, tmp, d.fd, name)
	}
	err := unix.Renameat2(d.fd, tmp, d.fd, name, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EEXIST) {
		return fs.ErrExist
	}
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) {
		return err
	}
	if err := unix.Linkat(d.fd, tmp, d.fd, name, 0); err != nil {
		if errors.Is(err, unix.EEXIST) {
			return fs.ErrExist
		}
		return err
	}
	return unix.Unlinkat(d.fd, tmp, 0)
}

// keepAside links the regular file name to aside in the same directory,
// before anything is written over it: the current version stays at name
// until the new one is complete, and stays at aside afterwards. A link
// costs no space, so a full disk cannot stop it half-way; linkat without
// AT_SYMLINK_FOLLOW never follows a link swapped in at name.
// The digest is of the linked file, read through the new name.
func (d *destDir) keepAside(ctx context.Context, name, aside string) (string, int64, error) {
	if err := checkName(aside); err != nil {
		return "", 0, err
	}
	if err := unix.Linkat(d.fd, name, d.fd, aside, 0); err != nil {
		return "", 0, destErr("link", d.child(aside), err)
	}
	sum, n, _, err := d.hashFile(ctx, aside)
	if err != nil {
		_ = d.remove(aside)
		return "", 0, err
	}
	return sum, n, nil
}

// remove unlinks the file name below d.
func (d *destDir) remove(name string) error {
	if err := unix.Unlinkat(d.fd, name, 0); err != nil {
		return destErr("unlink", d.child(name), err)
	}
	return nil
}

// hashFile returns the SHA-256 and size of the regular file name below d,
// read without following a link and opened only once it is known to be a
// regular file (hostfs.OpenRegularAt: opening a device can act); ok is
// false when name does not exist.
func (d *destDir) hashFile(ctx context.Context, name string) (sum string, n int64, ok bool, err error) {
	if err := checkName(name); err != nil {
		return "", 0, false, err
	}
	f, _, err := hostfs.OpenRegularAt(d.fd, name, d.child(name), unix.O_RDONLY|unix.O_NONBLOCK)
	if errors.Is(err, unix.ENOENT) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, true, err
	}
	defer f.Close()
	h := sha256.New()
	n, err = io.Copy(h, ctxReader{ctx, f})
	if err != nil {
		return "", n, true, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, true, nil
}

func randHex() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
