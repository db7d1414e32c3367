package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/warden-mcp/warden/internal/hostfs"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// FS is the agent host's files, walked on the far side with the same
// no-follow openat walk as hostfs.Local.
func (c *Client) FS() hostfs.FS { return agentFS{c} }

type agentFS struct{ c *Client }

var _ hostfs.FS = agentFS{}

func (a agentFS) Lstat(ctx context.Context, p string) (hostfs.Info, error) {
	r, err := a.c.do(ctx, call{Op: opLstat, Path: p})
	if err != nil {
		return hostfs.Info{}, err
	}
	if r.Info == nil {
		return hostfs.Info{}, errors.New("agent lstat: no answer")
	}
	return *r.Info, nil
}

func (a agentFS) Readlink(ctx context.Context, p string) (string, error) {
	r, err := a.c.do(ctx, call{Op: opReadlink, Path: p})
	return r.Link, err
}

func (a agentFS) ReadAt(ctx context.Context, p string, off int64, max int) ([]byte, hostfs.Info, error) {
	if max > MaxPayload/2 {
		return nil, hostfs.Info{}, fmt.Errorf("read %s: %d bytes is over the agent's limit of %d per read", p, max, MaxPayload/2)
	}
	r, err := a.c.do(ctx, call{Op: opReadAt, Path: p, Off: off, Max: max})
	if err != nil {
		return nil, hostfs.Info{}, err
	}
	if r.Info == nil {
		return nil, hostfs.Info{}, errors.New("agent read: no answer")
	}
	return r.Data, *r.Info, nil
}

func (a agentFS) ReadDir(ctx context.Context, p string, limit int) ([]hostfs.Info, bool, error) {
	r, err := a.c.do(ctx, call{Op: opReadDir, Path: p, Limit: limit})
	return r.Infos, r.More, err
}

func (a agentFS) WriteFile(ctx context.Context, p string, data []byte, o hostfs.WriteOptions) (hostfs.WriteInfo, error) {
	if len(data) > MaxPayload/2 {
		return hostfs.WriteInfo{}, fmt.Errorf("write %s: %d bytes is over the agent's limit of %d per write", p, len(data), MaxPayload/2)
	}
	cl := call{Op: opWriteFile, Path: p, Data: data, Overwrite: o.Overwrite}
	if o.Mode != nil {
		m := uint32(*o.Mode)
		cl.Mode = &m
	}
	r, err := a.c.do(ctx, cl)
	if err != nil {
		return hostfs.WriteInfo{}, err
	}
	if r.Write == nil {
		return hostfs.WriteInfo{}, errors.New("agent write: no answer")
	}
	return *r.Write, nil
}

var _ hostfs.Maker = agentFS{}

// Mkdir creates the directory p on the agent's host, walked there without
// following a link as hostfs.Local does.
func (a agentFS) Mkdir(ctx context.Context, p string, mode fs.FileMode) error {
	m := uint32(mode.Perm())
	_, err := a.c.do(ctx, call{Op: opMkdir, Path: p, Mode: &m})
	return err
}

// Remove unlinks the non-directory p on the agent's host.
func (a agentFS) Remove(ctx context.Context, p string) error {
	_, err := a.c.do(ctx, call{Op: opRemove, Path: p})
	return err
}

// OpenSnapshot opens a snapshot root on the agent's host for the
// snapshot engine; every name is resolved there under os.Root.
func (c *Client) OpenSnapshot(ctx context.Context, root string) (engine.FS, error) {
	if _, err := c.do(ctx, call{Op: opSnapLstat, Root: root, Path: "."}); err != nil {
		return nil, err
	}
	return &snapFS{c: c, root: root}, nil
}

// snapFS is engine.FS over the agent. The engine's FS has no context:
// each call is bounded by the stream's life.
type snapFS struct {
	c    *Client
	root string
}

var _ engine.FS = (*snapFS)(nil)

func (s *snapFS) Lstat(name string) (fs.FileInfo, error) {
	r, err := s.c.do(context.Background(), call{Op: opSnapLstat, Root: s.root, Path: name})
	if err != nil {
		return nil, err
	}
	if len(r.Snap) != 1 {
		return nil, errors.New("agent snapshot lstat: no answer")
	}
	return fileInfo{r.Snap[0]}, nil
}

func (s *snapFS) ReadLink(name string) (string, error) {
	r, err := s.c.do(context.Background(), call{Op: opSnapReadlink, Root: s.root, Path: name})
	return r.Link, err
}

func (s *snapFS) ReadDir(name string) ([]fs.FileInfo, error) {
	r, err := s.c.do(context.Background(), call{Op: opSnapReadDir, Root: s.root, Path: name})
	if err != nil {
		return nil, err
	}
	out := make([]fs.FileInfo, 0, len(r.Snap))
	for _, si := range r.Snap {
		out = append(out, fileInfo{si})
	}
	return out, nil
}

// Open checks name is a regular file now and streams it in chunks.
func (s *snapFS) Open(name string) (io.ReadCloser, error) {
	fi, err := s.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("not a regular file")}
	}
	return &snapReader{s: s, name: name}, nil
}

// snapChunk is how much of a snapshot file one call reads.
const snapChunk = 1 << 20

type snapReader struct {
	s    *snapFS
	name string
	off  int64
	buf  []byte
	eof  bool
}

func (r *snapReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		rep, err := r.s.c.do(context.Background(), call{Op: opSnapRead, Root: r.s.root, Path: r.name, Off: r.off, Max: snapChunk})
		if err != nil {
			return 0, err
		}
		r.buf, r.eof = rep.Data, rep.EOF
		r.off += int64(len(rep.Data))
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

func (r *snapReader) Close() error { return nil }
