package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"time"
)

// maxExportDepth bounds how deep an export descends: each level holds one
// open directory while its children are read.
const maxExportDepth = 256

// ErrExportDepth is returned by Export.Walk below maxExportDepth levels.
var ErrExportDepth = errors.New("directory tree deeper than 256 levels")

// ExportItem is one object of an exported tree as the snapshot holds it.
// Symlinks and special files are described, never followed or opened.
type ExportItem struct {
	// Rel is slash-separated and relative to the exported path; "." is
	// the exported path itself.
	Rel        string
	Type       EntryType
	Size       int64
	Mode       fs.FileMode
	ModTime    time.Time
	LinkTarget string
}

// Export is one path of one snapshot opened for copying out (fetch_file,
// fetch_dir, restore_file, restore_dir). It reads only: what is written,
// and where, is the caller's business.
type Export struct {
	// Snapshot is the snapshot read (never @live).
	Snapshot Snapshot
	// Path is the exported path, relative to the snapshot root.
	Path string
	// Item describes Path itself.
	Item ExportItem
	v    *view
	root string // Path resolved inside the snapshot
}

// OpenExport opens path in a snapshot for copying out. @live is refused:
// copying the live data onto itself is not a recovery.
func (e *Engine) OpenExport(ctx context.Context, dataset, snapshot, p string) (*Export, error) {
	if snapshot == LiveSnapshot {
		return nil, invalidf("snapshot must be a snapshot, not @live")
	}
	v, err := e.open(ctx, dataset, snapshot)
	if err != nil {
		return nil, err
	}
	rel, info, err := v.lookup(p)
	if err != nil {
		v.close()
		return nil, err
	}
	x := &Export{Snapshot: v.snap, Path: rel, v: v, root: rel}
	x.Item = x.item(".", rel, info)
	return x, nil
}

// Close releases the snapshot.
func (x *Export) Close() { x.v.close() }

func (x *Export) item(rel, resolved string, info fs.FileInfo) ExportItem {
	it := ExportItem{Rel: rel, Type: entryType(info.Mode()), Size: info.Size(), Mode: info.Mode(), ModTime: info.ModTime()}
	if it.Type == TypeSymlink {
		if t, err := x.v.fsys.ReadLink(resolved); err == nil {
			it.LinkTarget = t
		}
	}
	return it
}

// Open opens the regular file rel (relative to the exported path) for
// reading. A symlink or special file is refused, also when one was
// swapped in after the walk saw a file.
func (x *Export) Open(rel string) (io.ReadCloser, error) {
	name := x.root
	if rel != "." {
		if c, err := cleanRel(rel); err != nil || c != rel {
			return nil, invalidf("export path %q is not clean", rel)
		}
		name = joinRel(x.root, rel)
	}
	return x.v.fsys.Open(name)
}

// Hash returns the SHA-256 and size of the regular file rel.
func (x *Export) Hash(ctx context.Context, rel string) (string, int64, error) {
	name := x.root
	if rel != "." {
		name = joinRel(x.root, rel)
	}
	return x.v.hash(ctx, name)
}

// batchReader is implemented by file systems that can list a directory a
// batch at a time, so a walk over a huge directory holds one batch, not
// the whole listing.
type batchReader interface {
	ReadDirBatches(name string, n int, fn func([]fs.FileInfo) error) error
}

// exportBatch is how many entries a walk reads at once where it can.
const exportBatch = 512

// Walk hands fn every object below the exported directory, depth first,
// a directory before its contents; directories are visited in the order
// the file system lists them. Nothing is followed. fn returning an error
// stops the walk with that error. Memory holds one batch per open level.
func (x *Export) Walk(ctx context.Context, fn func(ExportItem) error) error {
	if x.Item.Type != TypeDir {
		return invalidf("%s is a %s, not a directory", x.Path, x.Item.Type)
	}
	return x.walk(ctx, ".", 0, fn)
}

func (x *Export) walk(ctx context.Context, rel string, depth int, fn func(ExportItem) error) error {
	if depth >= maxExportDepth {
		return ErrExportDepth
	}
	dir := x.root
	if rel != "." {
		dir = joinRel(x.root, rel)
	}
	visit := func(infos []fs.FileInfo) error {
		for _, fi := range infos {
			if err := ctx.Err(); err != nil {
				return err
			}
			child := fi.Name()
			if rel != "." {
				child = path.Join(rel, fi.Name())
			}
			it := x.item(child, joinRel(x.root, child), fi)
			if err := fn(it); err != nil {
				return err
			}
			if it.Type == TypeDir {
				if err := x.walk(ctx, child, depth+1, fn); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if b, ok := x.v.fsys.(batchReader); ok {
		return b.ReadDirBatches(dir, exportBatch, visit)
	}
	infos, err := x.v.fsys.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("list %s: %w", dir, err)
	}
	sortInfos(infos)
	return visit(infos)
}

// LiveRoot returns the absolute path of a dataset's live data on its host,
// or "" when the dataset has none configured.
func (e *Engine) LiveRoot(ctx context.Context, dataset string) (string, error) {
	src, err := e.source(dataset)
	if err != nil {
		return "", err
	}
	return e.liveRoot(ctx, src), nil
}

// CallTimeout is the wall-time bound of one call asking for requestedS
// seconds (0 for the default), never beyond the cap.
func (e *Engine) CallTimeout(requestedS int) time.Duration {
	return e.limits.timeout("", requestedS)
}
