package hostfs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/pkg/sftp"
)

// SFTP is the FS of a remote host, reached over the SFTP subsystem of the
// host's pooled SSH connection. The remote login's permissions apply on top
// of warden's path policy.
//
// SFTP (version 3, what OpenSSH speaks) names files by path and has no
// openat, so the no-follow guarantee is weaker than Local's: every
// component is checked with lstat when the path is resolved, and a read or
// write lstats its final component again right before it opens it, but a
// directory swapped for a symlink on the remote host between that check
// and the server's open is followed; a write lstats every directory on the
// way again right before it creates its temporary file and before the
// rename, which narrows that gap for writes. Writes still go to a temporary file
// renamed into place, and without overwrite the rename refuses to replace
// anything (OpenSSH's rename is link+unlink).
type SFTP struct {
	// Client returns the host's SFTP client, dialling if needed.
	Client func(ctx context.Context) (*sftp.Client, error)
	// Retire ends the host's SFTP session, if it has one, so that the
	// next call starts another; nil does nothing.
	Retire func()
}

var (
	_ FS       = SFTP{}
	_ Streamer = SFTP{}
)

// Transport names how the host's files are reached.
func (SFTP) Transport() string { return "sftp" }

// Abandon is told that a call on the host's files did not answer in time.
// OpenSSH's sftp-server answers one request at a time, so a request that
// waits on a mount whose server does not answer would hold up every later
// call, whatever its path: the client is retired, and the next call starts
// a server of its own.
func (s SFTP) Abandon() {
	if s.Retire != nil {
		s.Retire()
	}
}

func (s SFTP) client(ctx context.Context) (*sftp.Client, error) {
	c, err := s.Client(ctx)
	if err != nil {
		return nil, fmt.Errorf("sftp: %w", err)
	}
	return c, nil
}

// Lstat describes p without following it.
func (s SFTP) Lstat(ctx context.Context, p string) (Info, error) {
	c, err := s.client(ctx)
	if err != nil {
		return Info{}, err
	}
	fi, err := c.Lstat(p)
	if err != nil {
		return Info{}, &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	return sftpInfo(path.Base(p), fi), nil
}

// Readlink returns the target of the symlink p.
func (s SFTP) Readlink(ctx context.Context, p string) (string, error) {
	c, err := s.client(ctx)
	if err != nil {
		return "", err
	}
	t, err := c.ReadLink(p)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: p, Err: err}
	}
	return t, nil
}

// openRegular lstats p, refuses anything but a regular file (so a FIFO
// cannot hang the remote server's open) and opens it for reading.
func (s SFTP) openRegular(ctx context.Context, p string) (*sftp.File, Info, error) {
	c, err := s.client(ctx)
	if err != nil {
		return nil, Info{}, err
	}
	fi, err := c.Lstat(p)
	if err != nil {
		return nil, Info{}, &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	info := sftpInfo(path.Base(p), fi)
	if info.Type != TypeFile {
		return nil, info, &fs.PathError{Op: "read", Path: p, Err: fmt.Errorf("is a %s, not a regular file", info.Type)}
	}
	f, err := c.OpenFile(p, os.O_RDONLY)
	if err != nil {
		return nil, info, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	return f, info, nil
}

// ReadAt reads at most max bytes of the regular file p from off.
func (s SFTP) ReadAt(ctx context.Context, p string, off int64, max int) ([]byte, Info, error) {
	f, info, err := s.openRegular(ctx, p)
	if err != nil {
		return nil, info, err
	}
	defer f.Close()
	buf := make([]byte, max)
	n, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, info, &fs.PathError{Op: "read", Path: p, Err: err}
	}
	return buf[:n], info, nil
}

// ReadDir returns at most limit entries of the directory p, sorted by name.
// p itself is lstat'ed first: SFTP's opendir would follow a symlink.
func (s SFTP) ReadDir(ctx context.Context, p string, limit int) ([]Info, bool, error) {
	c, err := s.client(ctx)
	if err != nil {
		return nil, false, err
	}
	fi, err := c.Lstat(p)
	if err != nil {
		return nil, false, &fs.PathError{Op: "lstat", Path: p, Err: err}
	}
	if !fi.IsDir() {
		return nil, false, &fs.PathError{Op: "readdir", Path: p, Err: fmt.Errorf("is a %s, not a directory (symlinks are not followed)", typeOf(fi.Mode()))}
	}
	fis, err := c.ReadDirContext(ctx, p)
	if err != nil {
		return nil, false, &fs.PathError{Op: "readdir", Path: p, Err: err}
	}
	out := make([]Info, 0, min(len(fis), limit))
	for _, fi := range fis {
		if fi.Name() == "." || fi.Name() == ".." {
			continue
		}
		out = append(out, sftpInfo(fi.Name(), fi))
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Name, b.Name) })
	more := len(out) > limit
	if more {
		out = out[:limit]
	}
	return out, more, nil
}

// WriteFile writes data to a temporary file in p's directory and renames it
// over p.
func (s SFTP) WriteFile(ctx context.Context, p string, data []byte, o WriteOptions) (WriteInfo, error) {
	w, _, err := s.WriteFrom(ctx, p, strings.NewReader(string(data)), int64(len(data)), o)
	return w, err
}

// OpenRead opens the regular file p for streaming and describes it.
func (s SFTP) OpenRead(ctx context.Context, p string) (io.ReadCloser, Info, error) {
	f, info, err := s.openRegular(ctx, p)
	if err != nil {
		return nil, info, err
	}
	return f, info, nil
}

// WriteFrom replaces or creates p atomically from r, reading at most max
// bytes: a longer r fails the write and leaves p untouched.
func (s SFTP) WriteFrom(ctx context.Context, p string, r io.Reader, max int64, o WriteOptions) (WriteInfo, int64, error) {
	c, err := s.client(ctx)
	if err != nil {
		return WriteInfo{}, 0, err
	}
	dir, name := path.Split(p)
	if name == "" {
		return WriteInfo{}, 0, &fs.PathError{Op: "write", Path: p, Err: errors.New("is a directory")}
	}
	mode := fs.FileMode(0o644)
	fi, err := c.Lstat(p)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return WriteInfo{}, 0, &fs.PathError{Op: "lstat", Path: p, Err: err}
	case exists && !o.Overwrite:
		return WriteInfo{}, 0, &fs.PathError{Op: "write", Path: p, Err: fs.ErrExist}
	case exists && !fi.Mode().IsRegular():
		return WriteInfo{}, 0, &fs.PathError{Op: "write", Path: p, Err: fmt.Errorf("is a %s, not a regular file", typeOf(fi.Mode()))}
	case exists:
		mode = fi.Mode().Perm()
	}
	if o.Mode != nil {
		mode = o.Mode.Perm()
	}
	if err := dirsOnly(c, dir); err != nil {
		return WriteInfo{}, 0, &fs.PathError{Op: "write", Path: p, Err: err}
	}
	tmp := path.Join(dir, tempName(name))
	f, err := c.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
	if err != nil {
		return WriteInfo{}, 0, &fs.PathError{Op: "create", Path: tmp, Err: err}
	}
	committed := false
	defer func() {
		if !committed {
			_ = c.Remove(tmp)
		}
	}()
	n, err := f.ReadFrom(&limitReader{r: r, left: max})
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return WriteInfo{}, n, &fs.PathError{Op: "write", Path: p, Err: err}
	}
	// Again right before the rename, which a write of a large file may
	// reach long after the first check.
	if err := dirsOnly(c, dir); err != nil {
		return WriteInfo{}, n, &fs.PathError{Op: "rename", Path: p, Err: err}
	}
	if o.Overwrite {
		err = c.PosixRename(tmp, p)
	} else {
		// OpenSSH implements SSH_FXP_RENAME with link(2) then unlink(2),
		// so it never replaces an existing file.
		err = c.Rename(tmp, p)
		if err != nil {
			if _, serr := c.Lstat(p); serr == nil {
				err = fs.ErrExist
			}
		}
	}
	if err != nil {
		return WriteInfo{}, n, &fs.PathError{Op: "rename", Path: p, Err: err}
	}
	committed = true
	return WriteInfo{Created: !exists, Mode: mode}, n, nil
}

// dirsOnly fails unless every component of the absolute directory dir is a
// directory, not a symlink: SFTP names files by path and the server would
// follow a directory swapped for a link after the path was resolved. It
// narrows that window for writes to the moments between its lstats and the
// create or rename that follows each. The lstats go out together, so the
// check costs one round trip whatever the depth.
func dirsOnly(c *sftp.Client, dir string) error {
	var dirs []string
	cur := "/"
	for _, name := range splitAbs(dir) {
		cur = path.Join(cur, name)
		dirs = append(dirs, cur)
	}
	errs := make([]error, len(dirs))
	var wg sync.WaitGroup
	for i, d := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fi, err := c.Lstat(d)
			switch {
			case err != nil:
				errs[i] = fmt.Errorf("lstat %s: %w", d, err)
			case !fi.IsDir():
				errs[i] = fmt.Errorf("%s is a %s, not a directory (changed since it was checked?)", d, typeOf(fi.Mode()))
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// ErrTooBig is returned by WriteFrom when the reader had more than max.
var ErrTooBig = errors.New("file is larger than the copy limit")

// limitReader reads at most left bytes and fails, rather than stopping
// quietly, if r has more: a cut-off copy must not look complete.
type limitReader struct {
	r    io.Reader
	left int64
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		var one [1]byte
		n, err := l.r.Read(one[:])
		if n > 0 {
			return 0, ErrTooBig
		}
		if err == nil {
			err = io.ErrNoProgress
		}
		return 0, err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// sftpInfo maps an SFTP file description to an Info.
func sftpInfo(name string, fi fs.FileInfo) Info {
	in := Info{Name: name, Type: typeOf(fi.Mode()), Size: fi.Size(), Mode: fi.Mode(), ModTime: fi.ModTime(), UID: -1, GID: -1}
	if st, ok := fi.Sys().(*sftp.FileStat); ok {
		in.UID, in.GID = int(st.UID), int(st.GID)
	}
	return in
}

// tempName is the name of the temporary file a write to name goes through:
// hidden, unique, and within NAME_MAX.
func tempName(name string) string {
	if len(name) > 200 {
		name = name[:200]
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "." + name + ".warden-" + hex.EncodeToString(b[:]) + ".tmp"
}
