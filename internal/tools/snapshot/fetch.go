package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"

	"github.com/warden-mcp/warden/internal/policy"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// Bound is a per-call bound: the value used when a call names none, and
// the most any call may ask for.
type Bound struct {
	Default int64
	Max     int64
}

// clamp returns the bound for a request: Default for <= 0, at most Max.
func (b Bound) clamp(req int64) int64 {
	if req <= 0 {
		return b.Default
	}
	return min(req, b.Max)
}

// CopyLimits bound fetch_* and restore_* calls; a call may narrow them,
// never raise them past Max.
type CopyLimits struct {
	// Bytes bounds the bytes one call writes.
	Bytes Bound
	// Files bounds the files one call writes, and so its manifest.
	Files Bound
}

// DefaultCopyLimits are used for zero fields of Deps.Copy.
func DefaultCopyLimits() CopyLimits {
	return CopyLimits{Bytes: Bound{Default: 256 << 20, Max: 4 << 30}, Files: Bound{Default: 1000, Max: 10000}}
}

func (l CopyLimits) withDefaults() CopyLimits {
	d := DefaultCopyLimits()
	if l.Bytes.Max <= 0 {
		l.Bytes.Max = d.Bytes.Max
	}
	if l.Bytes.Default <= 0 || l.Bytes.Default > l.Bytes.Max {
		l.Bytes.Default = min(d.Bytes.Default, l.Bytes.Max)
	}
	if l.Files.Max <= 0 {
		l.Files.Max = d.Files.Max
	}
	if l.Files.Default <= 0 || l.Files.Default > l.Files.Max {
		l.Files.Default = min(d.Files.Default, l.Files.Max)
	}
	return l
}

// FetchFileArgs are the arguments of fetch_file.
type FetchFileArgs struct {
	Dataset     string `json:"dataset" jsonschema:"dataset name"`
	Snapshot    string `json:"snapshot" jsonschema:"snapshot to copy from (not @live)"`
	Path        string `json:"path" jsonschema:"regular file relative to the snapshot root"`
	Host        string `json:"host,omitempty" jsonschema:"host to write the copy on: local (default, the machine warden runs on) or an inventory host"`
	Destination string `json:"destination" jsonschema:"absolute path on host to write the copy to; no component may be a symlink, and the host's path policy must allow it"`
	Overwrite   bool   `json:"overwrite,omitempty" jsonschema:"replace an existing regular file at destination; without it an existing file is refused"`
	MaxBytes    int64  `json:"max_bytes,omitempty" jsonschema:"most bytes to write (clamped to the server cap); a larger file is refused"`
	TimeoutS    int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// FetchDirArgs are the arguments of fetch_dir.
type FetchDirArgs struct {
	Dataset     string `json:"dataset" jsonschema:"dataset name"`
	Snapshot    string `json:"snapshot" jsonschema:"snapshot to copy from (not @live)"`
	Path        string `json:"path,omitempty" jsonschema:"directory relative to the snapshot root; empty for the root"`
	Host        string `json:"host,omitempty" jsonschema:"host to write the copy on: local (default, the machine warden runs on) or an inventory host"`
	Destination string `json:"destination" jsonschema:"absolute directory on host to copy into, created if missing (its parent must exist); no component may be a symlink, and the host's path policy must allow it"`
	Overwrite   bool   `json:"overwrite,omitempty" jsonschema:"replace existing regular files; without it they are skipped and listed"`
	MaxBytes    int64  `json:"max_bytes,omitempty" jsonschema:"most bytes to write (clamped to the server cap)"`
	MaxFiles    int64  `json:"max_files,omitempty" jsonschema:"most files to write (clamped to the server cap)"`
	TimeoutS    int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// ManifestEntry is one file written.
type ManifestEntry struct {
	Path   string `json:"path" jsonschema:"relative to the fetched path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256" jsonschema:"digest of the bytes written"`
	Mode   string `json:"mode"`
}

// Skipped is one object not copied, and why.
type Skipped struct {
	Path   string `json:"path"`
	Type   string `json:"type"`
	Reason string `json:"reason"`
}

// FetchResult is the result of fetch_file and fetch_dir.
type FetchResult struct {
	Dataset      string          `json:"dataset"`
	Host         string          `json:"host" jsonschema:"the host the copy was written on"`
	Snapshot     string          `json:"snapshot"`
	Path         string          `json:"path"`
	Destination  string          `json:"destination"`
	Manifest     []ManifestEntry `json:"manifest" jsonschema:"every file written, with the SHA-256 of what was written"`
	Skipped      []Skipped       `json:"skipped" jsonschema:"symlinks, special files and existing files not copied (listed up to the file cap)"`
	SkippedCount int             `json:"skipped_count"`
	FilesWritten int             `json:"files_written"`
	DirsCreated  int             `json:"dirs_created"`
	Bytes        int64           `json:"bytes"`
	Truncated    bool            `json:"truncated" jsonschema:"true when a bound stopped the copy; what is in the manifest was written in full"`
	// TruncatedReason is max_files, max_bytes or timeout.
	TruncatedReason string `json:"truncated_reason,omitempty"`
}

// Truncation reasons of the copy tools.
const (
	reasonFiles   = "max_files"
	reasonBytes   = "max_bytes"
	reasonTimeout = "timeout"
)

// errStopCopy ends a copy walk at a bound; it is not a failure.
var errStopCopy = errors.New("copy bound reached")

// checkDestination cleans an agent's destination and checks it against
// the path policy. Destinations are opened with no symlink followed in any
// component, so the path as spelled is the path written.
func checkDestination(paths *policy.PathPolicy, dest string) (string, error) {
	if paths == nil {
		return "", errors.New("no path policy is configured for snapshot copies")
	}
	clean, err := policy.CleanPath(dest)
	if err != nil {
		return "", fmt.Errorf("destination: %w", err)
	}
	if clean == "/" {
		return "", errors.New("destination must not be /")
	}
	if err := paths.Check(clean); err != nil {
		return "", err
	}
	return clean, nil
}

// fetchFile copies one regular file out of a snapshot to dest.
func fetchFile(ctx context.Context, x *engine.Export, open destOpener, dest string, overwrite bool, maxBytes int64) (FetchResult, error) {
	res := FetchResult{Snapshot: x.Snapshot.Name, Path: x.Path, Destination: dest, Manifest: []ManifestEntry{}, Skipped: []Skipped{}}
	switch x.Item.Type {
	case engine.TypeFile:
	case engine.TypeSymlink:
		return res, userErrorf("%s is a symlink to %q in %s; it is never followed: fetch the path it names", x.Path, x.Item.LinkTarget, x.Snapshot.Name)
	case engine.TypeDir:
		return res, userErrorf("%s is a directory; use fetch_dir", x.Path)
	default:
		return res, userErrorf("%s is a special file (%s); only regular files are copied", x.Path, x.Item.Mode.Type())
	}
	if x.Item.Size > maxBytes {
		return res, userErrorf("%s is %d bytes, more than max_bytes %d", x.Path, x.Item.Size, maxBytes)
	}
	dir, err := open(path.Dir(dest))
	if err != nil {
		return res, err
	}
	defer dir.Close()
	r, err := x.Open(".")
	if err != nil {
		return res, fmt.Errorf("open %s in %s: %w", x.Path, x.Snapshot.Name, err)
	}
	defer r.Close()
	w, err := dir.writeFile(path.Base(dest), ctxReader{ctx, r}, maxBytes, x.Item.Mode, overwrite)
	switch {
	case errors.Is(err, fs.ErrExist):
		return res, userErrorf("%s exists; pass overwrite to replace it", dest)
	case errors.Is(err, errTooBig):
		return res, userErrorf("%s grew past max_bytes %d while it was copied", x.Path, maxBytes)
	case err != nil:
		return res, err
	}
	res.Manifest = append(res.Manifest, ManifestEntry{Path: ".", Size: w.Bytes, SHA256: w.SHA256, Mode: x.Item.Mode.Perm().String()})
	res.FilesWritten, res.Bytes = 1, w.Bytes
	return res, nil
}

// fetchDir copies a directory tree out of a snapshot into dest, created if
// missing. Symlinks and special files are listed, never created; existing
// files are skipped unless overwrite. It stops at maxFiles or maxBytes
// with truncated set, holding one listing batch per open level and the
// manifest, never the tree.
func fetchDir(ctx context.Context, x *engine.Export, open destOpener, dest string, overwrite bool, maxBytes, maxFiles int64) (FetchResult, error) {
	res := FetchResult{Snapshot: x.Snapshot.Name, Path: x.Path, Destination: dest, Manifest: []ManifestEntry{}, Skipped: []Skipped{}}
	if x.Item.Type != engine.TypeDir {
		return res, userErrorf("%s is a %s; use fetch_file for a single file", x.Path, x.Item.Type)
	}
	parent, err := open(path.Dir(dest))
	if err != nil {
		return res, err
	}
	top, made, err := parent.sub(path.Base(dest), true, x.Item.Mode)
	parent.Close()
	if err != nil {
		return res, err
	}
	if made {
		res.DirsCreated++
	}
	c := copier{ctx: ctx, x: x, res: &res, maxBytes: maxBytes, maxFiles: maxFiles, stack: dirStack{{rel: ".", d: top}}}
	defer c.stack.closeAll()
	err = x.Walk(ctx, func(it engine.ExportItem) error { return c.fetch(it, overwrite) })
	switch {
	case errors.Is(err, errStopCopy):
	case ctx.Err() != nil:
		res.TruncatedReason = reasonTimeout
	case err != nil:
		return res, err
	}
	res.Truncated = res.TruncatedReason != ""
	return res, nil
}

// openDir is one open destination directory on the walk's current path.
type openDir struct {
	rel string
	d   destination
}

// dirStack is the chain of open destination directories from the top of
// a copy to the directory being filled.
type dirStack []openDir

func (s *dirStack) closeAll() {
	for _, o := range *s {
		o.d.Close()
	}
	*s = nil
}

// parentOf returns the open destination directory of rel's parent. The
// walk is depth first with a directory before its contents, so the parent
// is on the stack: anything deeper is finished and closed.
func (s *dirStack) parentOf(rel string) (destination, error) {
	parent := path.Dir(rel)
	for len(*s) > 0 && (*s)[len(*s)-1].rel != parent {
		(*s)[len(*s)-1].d.Close()
		*s = (*s)[:len(*s)-1]
	}
	if len(*s) == 0 {
		return nil, fmt.Errorf("copy walk: %s arrived without its directory", rel)
	}
	return (*s)[len(*s)-1].d, nil
}

// copier carries one fetch walk and its running totals.
type copier struct {
	ctx      context.Context
	x        *engine.Export
	res      *FetchResult
	maxBytes int64
	maxFiles int64
	stack    dirStack
}

func (c *copier) skip(it engine.ExportItem, reason string) {
	c.res.SkippedCount++
	if int64(len(c.res.Skipped)) < c.maxFiles {
		c.res.Skipped = append(c.res.Skipped, Skipped{Path: it.Rel, Type: string(it.Type), Reason: reason})
	}
}

func (c *copier) fetch(it engine.ExportItem, overwrite bool) error {
	dir, err := c.stack.parentOf(it.Rel)
	if err != nil {
		return err
	}
	name := path.Base(it.Rel)
	switch it.Type {
	case engine.TypeDir:
		sub, made, err := dir.sub(name, true, it.Mode)
		if err != nil {
			return err
		}
		if made {
			c.res.DirsCreated++
		}
		c.stack = append(c.stack, openDir{rel: it.Rel, d: sub})
		return nil
	case engine.TypeSymlink:
		c.skip(it, "symlink to "+it.LinkTarget+"; never created or followed")
		return nil
	case engine.TypeOther:
		c.skip(it, "special file ("+it.Mode.Type().String()+"); never created or opened")
		return nil
	}
	if int64(c.res.FilesWritten) >= c.maxFiles {
		c.res.TruncatedReason = reasonFiles
		return errStopCopy
	}
	if c.res.Bytes+it.Size > c.maxBytes {
		c.res.TruncatedReason = reasonBytes
		return errStopCopy
	}
	r, err := c.x.Open(it.Rel)
	if err != nil {
		c.skip(it, "unreadable in the snapshot: "+err.Error())
		return nil
	}
	w, err := dir.writeFile(name, ctxReader{c.ctx, r}, c.maxBytes-c.res.Bytes, it.Mode, overwrite)
	r.Close()
	switch {
	case errors.Is(err, fs.ErrExist):
		c.skip(it, "exists at the destination; pass overwrite to replace it")
		return nil
	case errors.Is(err, errTooBig):
		c.res.TruncatedReason = reasonBytes
		return errStopCopy
	case err != nil:
		return err
	}
	c.res.FilesWritten++
	c.res.Bytes += w.Bytes
	c.res.Manifest = append(c.res.Manifest, ManifestEntry{Path: it.Rel, Size: w.Bytes, SHA256: w.SHA256, Mode: it.Mode.Perm().String()})
	return nil
}

// userErrorf is an error the agent caused: reported as invalid_argument.
func userErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", engine.ErrInvalidArgument, fmt.Sprintf(format, args...))
}

// ctxReader stops a copy when the call's context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
