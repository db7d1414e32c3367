package snapshot

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"sync"

	"github.com/warden-mcp/warden/internal/remotefs"
)

// ExecFS is an FS over a remote host's exec channel (remotefs.Exec), for
// hosts whose SSH server has no SFTP — a router with dropbear and BusyBox.
// Like SFTPFS it has no openat: confinement rests on the engine's own
// component-by-component resolution, and ExecFS refuses to list or open
// anything that is a symlink. remotefs describes where the exec channel is
// weaker than SFTP. Every command runs under the context of the call that
// opened the FS.
//
// Each operation is a command on the remote host, so within one call (one
// ExecFS) descriptions are kept: what Lstat or ReadDir saw of a name is
// what Lstat answers for it again. Snapshots do not change; for live data
// a call sees each name as it first saw it, as a walk over SFTP sees each
// directory as it listed it.
type ExecFS struct {
	ctx  context.Context
	fsys *remotefs.Exec
	root string

	mu    sync.Mutex
	known map[string]lstat // by name relative to root
}

type lstat struct {
	info fs.FileInfo
	err  error
}

var _ FS = (*ExecFS)(nil)

// ExecOpener returns an OpenFSFunc serving every snapshot root through
// fsys.
func ExecOpener(fsys *remotefs.Exec) OpenFSFunc {
	return func(ctx context.Context, root string) (FS, error) {
		return &ExecFS{ctx: ctx, fsys: fsys, root: path.Clean(root), known: map[string]lstat{}}, nil
	}
}

// Lstat describes name without following a final symlink.
func (e *ExecFS) Lstat(name string) (fs.FileInfo, error) {
	p, err := rootJoin(e.root, name)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	k, ok := e.known[name]
	e.mu.Unlock()
	if ok {
		return k.info, k.err
	}
	in, err := e.fsys.Lstat(e.ctx, p)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var info fs.FileInfo
	if err == nil {
		info = in
	}
	e.mu.Lock()
	e.known[name] = lstat{info, err}
	e.mu.Unlock()
	return info, err
}

// ReadLink returns a symlink's target.
func (e *ExecFS) ReadLink(name string) (string, error) {
	p, err := rootJoin(e.root, name)
	if err != nil {
		return "", err
	}
	return e.fsys.Readlink(e.ctx, p)
}

// ReadDir lists a directory that is not a symlink.
func (e *ExecFS) ReadDir(name string) ([]fs.FileInfo, error) {
	p, err := rootJoin(e.root, name)
	if err != nil {
		return nil, err
	}
	infos, _, err := e.fsys.ReadDir(e.ctx, p, 0)
	if err != nil {
		return nil, err
	}
	out := make([]fs.FileInfo, len(infos))
	e.mu.Lock()
	for i, in := range infos {
		out[i] = in
		e.known[joinRel(name, in.Name())] = lstat{info: in}
	}
	e.mu.Unlock()
	return out, nil
}

// Open opens a regular file that is not a symlink.
func (e *ExecFS) Open(name string) (io.ReadCloser, error) {
	p, err := rootJoin(e.root, name)
	if err != nil {
		return nil, err
	}
	r, _, err := e.fsys.Open(e.ctx, p)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: pe.Err}
		}
		return nil, err
	}
	return r, nil
}
