package snapshot

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/warden-mcp/warden/internal/policy"
)

// deniedFS hides from the engine the names a path policy refuses: warden's
// own files (its token, audit log, config), /proc/*/environ and the other
// files read_file refuses. A dataset's live data, or a snapshot of it, may
// hold them — a btrfs root's "@live" is /, a snapshot of /home holds the
// state dir under ~/.local/state — and every tool here reads as warden,
// with none of the confinement its children get, so without this a read
// tool would hand the agent warden's token in readonly mode. A denied name
// is absent from every listing and walk, and naming it is refused, however
// the agent spelled it: the engine passes only names it has resolved, so a
// symlinked parent or a walk from the root arrives here as the real name.
type deniedFS struct {
	FS
	denied *policy.DeniedBelow
}

// errDeniedName is what a denied name answers; it names no rule, so the
// refusal tells nothing of the file beyond its name being refused.
var errDeniedName = errors.New("refused: the files path policy denies this path (warden's own files, credentials, /proc, /dev, /sys)")

func (d deniedFS) refuse(op, name string) error {
	if d.denied.Rule(name) == "" {
		return nil
	}
	return &fs.PathError{Op: op, Path: name, Err: errDeniedName}
}

func (d deniedFS) Lstat(name string) (fs.FileInfo, error) {
	if err := d.refuse("lstat", name); err != nil {
		return nil, err
	}
	return d.FS.Lstat(name)
}

func (d deniedFS) ReadLink(name string) (string, error) {
	if err := d.refuse("readlink", name); err != nil {
		return "", err
	}
	return d.FS.ReadLink(name)
}

func (d deniedFS) Open(name string) (io.ReadCloser, error) {
	if err := d.refuse("open", name); err != nil {
		return nil, err
	}
	return d.FS.Open(name)
}

func (d deniedFS) ReadDir(name string) ([]fs.FileInfo, error) {
	if err := d.refuse("readdir", name); err != nil {
		return nil, err
	}
	infos, err := d.FS.ReadDir(name)
	return d.keep(name, infos), err
}

// ReadDirBatches keeps the inner file system's batched listing, which the
// export walk asks for by type.
func (d deniedFS) ReadDirBatches(name string, n int, fn func([]fs.FileInfo) error) error {
	if err := d.refuse("readdir", name); err != nil {
		return err
	}
	visit := func(infos []fs.FileInfo) error { return fn(d.keep(name, infos)) }
	if b, ok := d.FS.(batchReader); ok {
		return b.ReadDirBatches(name, n, visit)
	}
	infos, err := d.FS.ReadDir(name)
	if err != nil {
		return err
	}
	return visit(infos)
}

// Close closes the inner file system.
func (d deniedFS) Close() error {
	closeFS(d.FS)
	return nil
}

// keep drops the denied entries of dir's listing, in place.
func (d deniedFS) keep(dir string, infos []fs.FileInfo) []fs.FileInfo {
	out := infos[:0]
	for _, fi := range infos {
		if d.denied.Rule(joinRel(dir, fi.Name())) == "" {
			out = append(out, fi)
		}
	}
	return out
}

// deniedBelow is what the path policy denies in snap: the names below its
// root, and, for a snapshot, the names below the live data it is a copy
// of, since a snapshot of the state dir's file system holds the token
// under the same relative name.
func (e *Engine) deniedBelow(src SourceConfig, snap Snapshot) *policy.DeniedBelow {
	d := e.paths.Below(snap.Root)
	if live := copiedFrom(src, snap); live != "" && live != snap.Root {
		d = d.Join(e.paths.Below(live))
	}
	if snap.Live {
		// The live data may hold the dataset's snapshots, each a copy of
		// it: "@live" of a snapper root reaches the state dir again as
		// .snapshots/1/snapshot/var/lib/warden.
		if at := snapshotsWithin(src, snap.Root); at != nil {
			d = d.Join(d.Under(at))
		}
	}
	return d
}

// snapshotsWithin is where, relative to the live data live, the roots of
// src's snapshots lie, as path components ("*" for a snapshot's name), or
// nil when they lie outside it.
func snapshotsWithin(src SourceConfig, live string) []string {
	switch src.Kind {
	case KindZFS:
		// Reachable by name even with snapdir=hidden.
		return []string{".zfs", "snapshot", "*"}
	case KindBtrfs:
		if src.Path == live {
			return []string{".snapshots", "*", "snapshot"}
		}
		if at := relWithin(src.Path, live); at != nil {
			if at[len(at)-1] == ".snapshots" {
				return append(at, "*", "snapshot")
			}
			return append(at, "*")
		}
	case KindDir:
		if at := relWithin(src.Path, live); at != nil {
			return append(at, "*")
		}
	}
	return nil
}

// relWithin returns p's components below dir, escaped as literal
// patterns, or nil when p is not strictly below dir.
func relWithin(p, dir string) []string {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil
	}
	parts := strings.Split(rel, "/")
	for i, c := range parts {
		parts[i] = policy.EscapeGlob(c)
	}
	return parts
}

// copiedFrom is the live data a snapshot is a copy of, where the layout
// says so without any I/O: live: when configured, a ZFS dataset's path,
// snapper's <live>/.snapshots/N/snapshot. "" when unknown.
func copiedFrom(src SourceConfig, snap Snapshot) string {
	switch {
	case snap.Live:
		return ""
	case src.Live != "":
		return src.Live
	case src.Kind == KindZFS:
		return src.Path
	case src.Kind == KindBtrfs && filepath.Base(snap.Root) == "snapshot" &&
		filepath.Base(filepath.Dir(filepath.Dir(snap.Root))) == ".snapshots":
		return filepath.Dir(filepath.Dir(filepath.Dir(snap.Root)))
	}
	return ""
}
