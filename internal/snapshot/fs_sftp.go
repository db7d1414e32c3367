package snapshot

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/pkg/sftp"
)

// SFTPFS is an FS over an SFTP connection, rooted at a snapshot root on
// the remote host. SFTP has no openat: confinement rests on the engine's
// own component-by-component resolution (resolve), and SFTPFS refuses to
// list or open anything Lstat reports as a symlink.
type SFTPFS struct {
	client *sftp.Client
	root   string
}

var _ FS = (*SFTPFS)(nil)

// SFTPOpener returns an OpenFSFunc serving every snapshot root through
// client, which the caller owns and closes.
func SFTPOpener(client *sftp.Client) OpenFSFunc {
	return func(_ context.Context, root string) (FS, error) {
		return &SFTPFS{client: client, root: path.Clean(root)}, nil
	}
}

// abs maps a relative name to the remote path.
func (s *SFTPFS) abs(name string) (string, error) { return rootJoin(s.root, name) }

// rootJoin maps a name relative to a remote snapshot root to its path,
// refusing anything the engine would never pass.
func rootJoin(root, name string) (string, error) {
	if name == "." {
		return root, nil
	}
	if strings.HasPrefix(name, "/") || path.Clean(name) != name {
		return "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	for _, c := range strings.Split(name, "/") {
		if c == ".." {
			return "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
		}
	}
	return root + "/" + name, nil
}

// Lstat describes name without following a final symlink.
func (s *SFTPFS) Lstat(name string) (fs.FileInfo, error) {
	p, err := s.abs(name)
	if err != nil {
		return nil, err
	}
	return s.client.Lstat(p)
}

// ReadLink returns a symlink's target.
func (s *SFTPFS) ReadLink(name string) (string, error) {
	p, err := s.abs(name)
	if err != nil {
		return "", err
	}
	return s.client.ReadLink(p)
}

// ReadDir lists a directory that is not a symlink.
func (s *SFTPFS) ReadDir(name string) ([]fs.FileInfo, error) {
	p, err := s.abs(name)
	if err != nil {
		return nil, err
	}
	fi, err := s.client.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory (symlinks are not followed)")}
	}
	return s.client.ReadDir(p)
}

// Open opens a regular file that is not a symlink.
func (s *SFTPFS) Open(name string) (io.ReadCloser, error) {
	p, err := s.abs(name)
	if err != nil {
		return nil, err
	}
	fi, err := s.client.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("not a regular file (symlinks are not followed)")}
	}
	return s.client.Open(p)
}
