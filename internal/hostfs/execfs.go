package hostfs

import (
	"bytes"
	"context"
	"io"
	"io/fs"

	"github.com/warden-mcp/warden/internal/remotefs"
)

// Exec is the FS of a remote host whose SSH server has no SFTP subsystem —
// a router with dropbear and BusyBox — reached over the exec channel of the
// host's pooled connection: each operation runs one fixed POSIX-sh command
// (stat -c, dd and head -c, a NUL-separated glob listing, cat into a
// temporary file then ln or mv), every path a single-quoted word, as
// remotefs.Exec describes. The path policy, the resolution of every symlink
// and the bounds are the file tools' own and apply unchanged; the remote
// login's permissions apply on top.
//
// It is weaker than SFTP where the remote tools are: it relies on the
// host's stat, dd, head, cat, readlink, mv, ln, chmod and rm (GNU or
// BusyBox); each check and the use that follows it are separate lookups,
// often separate commands, so a final symlink or FIFO swapped in between
// them on the remote host is followed (SFTP has the same gap, narrower);
// without overwrite, a file system without hard links falls back to
// check-then-rename, as OpenSSH's sftp-server does.
type Exec struct {
	FS *remotefs.Exec
}

var (
	_ FS       = Exec{}
	_ Streamer = Exec{}
)

// Transport names how the host's files are reached.
func (Exec) Transport() string { return string(remotefs.ExecTransport) }

// Lstat describes p without following it.
func (e Exec) Lstat(ctx context.Context, p string) (Info, error) {
	ri, err := e.FS.Lstat(ctx, p)
	if err != nil {
		return Info{}, err
	}
	return execInfo(ri), nil
}

// Readlink returns the target of the symlink p.
func (e Exec) Readlink(ctx context.Context, p string) (string, error) {
	return e.FS.Readlink(ctx, p)
}

// ReadAt reads at most max bytes of the regular file p from off.
func (e Exec) ReadAt(ctx context.Context, p string, off int64, max int) ([]byte, Info, error) {
	data, ri, err := e.FS.ReadAt(ctx, p, off, max)
	if err != nil {
		return nil, Info{}, err
	}
	return data, execInfo(ri), nil
}

// ReadDir returns at most limit entries of the directory p, sorted by name.
func (e Exec) ReadDir(ctx context.Context, p string, limit int) ([]Info, bool, error) {
	ris, more, err := e.FS.ReadDir(ctx, p, limit)
	if err != nil {
		return nil, false, err
	}
	out := make([]Info, len(ris))
	for i, ri := range ris {
		out[i] = execInfo(ri)
	}
	return out, more, nil
}

// WriteFile writes data to a temporary file in p's directory and commits
// it over p.
func (e Exec) WriteFile(ctx context.Context, p string, data []byte, o WriteOptions) (WriteInfo, error) {
	w, _, err := e.WriteFrom(ctx, p, bytes.NewReader(data), int64(len(data)), o)
	return w, err
}

// OpenRead opens the regular file p for streaming and describes it.
func (e Exec) OpenRead(ctx context.Context, p string) (io.ReadCloser, Info, error) {
	r, ri, err := e.FS.Open(ctx, p)
	if err != nil {
		return nil, Info{}, err
	}
	return r, execInfo(ri), nil
}

// WriteFrom replaces or creates p atomically from r, reading at most max
// bytes: a longer r fails the write and leaves p untouched.
func (e Exec) WriteFrom(ctx context.Context, p string, r io.Reader, max int64, o WriteOptions) (WriteInfo, int64, error) {
	w, err := e.FS.Write(ctx, p, &limitReader{r: r, left: max}, remotefs.WriteOptions{Overwrite: o.Overwrite, Mode: o.Mode})
	if err != nil {
		return WriteInfo{}, w.Bytes, err
	}
	return WriteInfo{Created: w.Created, Mode: w.Mode}, w.Bytes, nil
}

// execInfo maps a remote description to an Info.
func execInfo(ri remotefs.Info) Info {
	m := ri.Mode()
	return Info{Name: ri.Name(), Type: typeOf(m), Size: ri.Size(), Mode: m, ModTime: ri.ModTime(), UID: ri.UID(), GID: ri.GID()}
}

var _ Maker = Exec{}

// Mkdir creates the directory p with mode.
func (e Exec) Mkdir(ctx context.Context, p string, mode fs.FileMode) error {
	return e.FS.Mkdir(ctx, p, mode)
}

// Remove unlinks the non-directory p.
func (e Exec) Remove(ctx context.Context, p string) error { return e.FS.Remove(ctx, p) }
