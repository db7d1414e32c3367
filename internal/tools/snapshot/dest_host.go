package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"path"

	"github.com/warden-mcp/warden/internal/hostfs"
)

// hostDir is a destination on a host reached through its files
// (hostfs.FS): an inventory host over SFTP, the exec channel or the agent,
// or PID 1's tree under /proc/1/root. Every path is absolute, each name
// one component, and each operation is the host FS's own no-follow one:
// hostfs.Local walks every component with O_NOFOLLOW, SFTP and the exec
// channel lstat before they act (see their docs for the window that
// leaves). The directory itself was reached by a walk that refused a
// symlink in any component.
type hostDir struct {
	ctx  context.Context
	fsys hostfs.FS
	st   hostfs.Streamer
	// mk makes directories and removes files; nil where the host's
	// transport cannot, which then refuses only what needs it.
	mk   hostfs.Maker
	host string
	path string
	// asideMax bounds a version kept aside by copying.
	asideMax int64
}

var _ destination = (*hostDir)(nil)

// hostOpener opens destinations on host through fsys. Writing streams, so
// an FS without whole-file streams is refused.
func hostOpener(ctx context.Context, fsys hostfs.FS, host string, asideMax int64) (destOpener, error) {
	st, ok := fsys.(hostfs.Streamer)
	if !ok {
		return nil, fmt.Errorf("host %s: its file transport cannot stream whole files, which copies need", host)
	}
	mk, _ := fsys.(hostfs.Maker)
	return func(abs string) (destination, error) {
		res, err := hostfs.Resolve(ctx, fsys, abs, true)
		if err != nil {
			return nil, fmt.Errorf("open %s on %s: %w", abs, host, err)
		}
		switch {
		case res.Path != abs:
			return nil, &fs.PathError{Op: "open", Path: abs, Err: errors.New("a component is a symlink; destinations are never reached through one")}
		case !res.Exists:
			return nil, &fs.PathError{Op: "open", Path: abs, Err: fs.ErrNotExist}
		case res.Info.Type != hostfs.TypeDir:
			return nil, &fs.PathError{Op: "open", Path: abs, Err: fmt.Errorf("is a %s, not a directory", kindName(res.Info.Type))}
		}
		return &hostDir{ctx: ctx, fsys: fsys, st: st, mk: mk, host: host, path: abs, asideMax: asideMax}, nil
	}, nil
}

// kindName names a host file type for messages, as destDir does.
func kindName(t hostfs.Type) string {
	switch t {
	case hostfs.TypeFile:
		return "regular file"
	case hostfs.TypeDir:
		return "directory"
	}
	return string(t)
}

func (d *hostDir) child(name string) string { return path.Join(d.path, name) }

func (d *hostDir) Close() {}

func (d *hostDir) lstat(name string) (destStat, bool, error) {
	if err := checkName(name); err != nil {
		return destStat{}, false, err
	}
	info, err := d.fsys.Lstat(d.ctx, d.child(name))
	if errors.Is(err, fs.ErrNotExist) {
		return destStat{}, false, nil
	}
	if err != nil {
		return destStat{}, false, err
	}
	return destStat{regular: info.Type == hostfs.TypeFile, kind: kindName(info.Type)}, true, nil
}

func (d *hostDir) sub(name string, create bool, mode fs.FileMode) (destination, bool, error) {
	if err := checkName(name); err != nil {
		return nil, false, err
	}
	p := d.child(name)
	made := false
	st, ok, err := d.lstat(name)
	if err != nil {
		return nil, false, err
	}
	if !ok && create {
		if d.mk == nil {
			return nil, false, &fs.PathError{Op: "mkdir", Path: p, Err: fmt.Errorf("host %s's file transport cannot create directories; create it first", d.host)}
		}
		err := d.mk.Mkdir(d.ctx, p, mode.Perm()|0o700)
		switch {
		case err == nil:
			made = true
		case !errors.Is(err, fs.ErrExist):
			return nil, false, err
		}
		if st, ok, err = d.lstat(name); err != nil {
			return nil, false, err
		}
	}
	switch {
	case !ok:
		return nil, false, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	case st.kind == "symlink":
		return nil, false, &fs.PathError{Op: "open", Path: p, Err: errors.New("is a symlink; destinations are never reached through one")}
	case st.kind != "directory":
		return nil, false, &fs.PathError{Op: "open", Path: p, Err: fmt.Errorf("is a %s, not a directory", st.kind)}
	}
	return &hostDir{ctx: d.ctx, fsys: d.fsys, st: d.st, mk: d.mk, host: d.host, path: p, asideMax: d.asideMax}, made, nil
}

// hashingReader digests what passes through it.
type hashingReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

func (h *hashingReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.h.Write(p[:n])
	h.n += int64(n)
	return n, err
}

func (h *hashingReader) sum() string { return hex.EncodeToString(h.h.Sum(nil)) }

func (d *hostDir) writeFile(name string, r io.Reader, max int64, mode fs.FileMode, overwrite bool) (written, error) {
	if _, err := checkWrite(d, name, overwrite); err != nil {
		return written{}, err
	}
	hr := &hashingReader{r: r, h: sha256.New()}
	m := mode.Perm()
	w, n, err := d.st.WriteFrom(d.ctx, d.child(name), hr, max, hostfs.WriteOptions{Overwrite: overwrite, Mode: &m})
	switch {
	case errors.Is(err, hostfs.ErrTooBig):
		return written{}, errTooBig
	case err != nil:
		return written{}, err
	case n != hr.n:
		return written{}, fmt.Errorf("write %s: %d bytes read but %d written", d.child(name), hr.n, n)
	}
	return written{SHA256: hr.sum(), Bytes: n, Created: w.Created}, nil
}

// keepAside copies name to aside (a host FS has no link): the copy is made
// exclusively, from the file opened without following a link, and hashed
// as it passes, so the digest is of exactly what is kept. It costs the
// file's size in space; a full disk fails it before anything is replaced.
func (d *hostDir) keepAside(ctx context.Context, name, aside string) (string, int64, error) {
	if err := checkName(aside); err != nil {
		return "", 0, err
	}
	r, info, err := d.st.OpenRead(ctx, d.child(name))
	if err != nil {
		return "", 0, err
	}
	defer r.Close()
	hr := &hashingReader{r: ctxReader{ctx, r}, h: sha256.New()}
	m := info.Mode.Perm()
	_, n, err := d.st.WriteFrom(ctx, d.child(aside), hr, d.asideMax, hostfs.WriteOptions{Mode: &m})
	if errors.Is(err, hostfs.ErrTooBig) {
		return "", 0, fmt.Errorf("%s is over %d bytes, too large to keep aside by copying", d.child(name), d.asideMax)
	}
	if err != nil {
		return "", 0, err
	}
	return hr.sum(), n, nil
}

func (d *hostDir) remove(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	if d.mk == nil {
		return &fs.PathError{Op: "remove", Path: d.child(name), Err: fmt.Errorf("host %s's file transport cannot remove files", d.host)}
	}
	return d.mk.Remove(d.ctx, d.child(name))
}
