package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"
	"unicode/utf8"
)

// EntryType is the kind of a directory entry. Symlinks are reported as
// such and never followed.
type EntryType string

// Entry types.
const (
	TypeFile    EntryType = "file"
	TypeDir     EntryType = "dir"
	TypeSymlink EntryType = "symlink"
	TypeOther   EntryType = "other"
)

func entryType(m fs.FileMode) EntryType {
	switch {
	case m&fs.ModeSymlink != 0:
		return TypeSymlink
	case m.IsDir():
		return TypeDir
	case m.IsRegular():
		return TypeFile
	}
	return TypeOther
}

// Entry describes one file in a snapshot.
type Entry struct {
	Path       string    `json:"path" jsonschema:"path relative to the snapshot root"`
	Type       EntryType `json:"type" jsonschema:"file, dir, symlink or other (device, fifo, socket)"`
	Size       int64     `json:"size" jsonschema:"size in bytes"`
	Mode       string    `json:"mode" jsonschema:"permission bits as ls shows them"`
	ModTime    time.Time `json:"mtime" jsonschema:"modification time"`
	LinkTarget string    `json:"link_target,omitempty" jsonschema:"for symlinks, the target text; never followed"`
}

func makeEntry(rel string, fi fs.FileInfo) Entry {
	return Entry{Path: rel, Type: entryType(fi.Mode()), Size: fi.Size(), Mode: fi.Mode().String(), ModTime: fi.ModTime()}
}

// view is one snapshot opened for reading.
type view struct {
	src  SourceConfig
	snap Snapshot
	fsys FS
}

// open opens a dataset's snapshot by name.
func (e *Engine) open(ctx context.Context, dataset, snapshot string) (*view, error) {
	src, err := e.source(dataset)
	if err != nil {
		return nil, err
	}
	snap, err := e.snapshot(ctx, src, snapshot)
	if err != nil {
		return nil, err
	}
	return e.openSnap(ctx, src, snap)
}

func (e *Engine) openSnap(ctx context.Context, src SourceConfig, snap Snapshot) (*view, error) {
	fsys, err := e.openFS(ctx, snap.Root)
	if err != nil {
		return nil, fmt.Errorf("open snapshot %s: %w", snap.Name, err)
	}
	if denied := e.deniedBelow(src, snap); denied != nil {
		fsys = deniedFS{FS: fsys, denied: denied}
	}
	return &view{src: src, snap: snap, fsys: fsys}, nil
}

func (v *view) close() { closeFS(v.fsys) }

// lookup resolves an agent path inside the snapshot. A missing path wraps
// ErrNotFound; an escape wraps ErrInvalidArgument.
func (v *view) lookup(p string) (string, fs.FileInfo, error) {
	rel, err := cleanRel(p)
	if err != nil {
		return "", nil, err
	}
	res, info, err := resolve(v.fsys, rel)
	switch {
	case err == nil:
		return res, info, nil
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, notFoundf("%s does not exist in snapshot %s", rel, v.snap.Name)
	case errors.Is(err, errEscape), errors.Is(err, errLoop), errors.Is(err, errDeniedName):
		return "", nil, invalidf("%s: %v", rel, err)
	}
	return "", nil, fmt.Errorf("look up %s in snapshot %s: %w", rel, v.snap.Name, err)
}

// entry describes rel, reading a symlink's target without following it.
func (v *view) entry(rel string, fi fs.FileInfo) Entry {
	en := makeEntry(rel, fi)
	if en.Type == TypeSymlink {
		if t, err := v.fsys.ReadLink(rel); err == nil {
			en.LinkTarget = t
		}
	}
	return en
}

// ListDirArgs are the arguments of snapshot_list_dir.
type ListDirArgs struct {
	Dataset    string `json:"dataset" jsonschema:"dataset name, from snapshot_list"`
	Snapshot   string `json:"snapshot" jsonschema:"snapshot name, or @live for the live data"`
	Path       string `json:"path,omitempty" jsonschema:"directory relative to the snapshot root; empty for the root"`
	MaxEntries int    `json:"max_entries,omitempty" jsonschema:"most entries to return (clamped to the server cap)"`
}

// ListDirResult is the result of snapshot_list_dir.
type ListDirResult struct {
	Dataset   string  `json:"dataset"`
	Snapshot  string  `json:"snapshot"`
	Path      string  `json:"path" jsonschema:"the directory listed, relative to the snapshot root"`
	Entries   []Entry `json:"entries" jsonschema:"entries sorted by name; when path is not a directory, the one entry describing it"`
	Total     int     `json:"total" jsonschema:"entries in the directory, returned or not"`
	Truncated bool    `json:"truncated"`
}

// ListDir lists one directory of a snapshot (snapshot_list_dir).
func (e *Engine) ListDir(ctx context.Context, args ListDirArgs) (ListDirResult, error) {
	ctx, cancel := e.withTimeout(ctx, "snapshot_list_dir", 0)
	defer cancel()
	v, err := e.open(ctx, args.Dataset, args.Snapshot)
	if err != nil {
		return ListDirResult{}, err
	}
	defer v.close()
	rel, info, err := v.lookup(args.Path)
	if err != nil {
		return ListDirResult{}, err
	}
	res := ListDirResult{Dataset: args.Dataset, Snapshot: v.snap.Name, Path: rel, Entries: []Entry{}}
	if !info.IsDir() {
		res.Entries = append(res.Entries, v.entry(rel, info))
		res.Total = 1
		return res, nil
	}
	infos, err := v.fsys.ReadDir(rel)
	if err != nil {
		return ListDirResult{}, fmt.Errorf("snapshot_list_dir %s: %w", rel, err)
	}
	sortInfos(infos)
	max := e.limits.ListEntries.clamp(args.MaxEntries)
	res.Total = len(infos)
	if len(infos) > max {
		infos = infos[:max]
		res.Truncated = true
	}
	for _, fi := range infos {
		res.Entries = append(res.Entries, v.entry(joinRel(rel, fi.Name()), fi))
	}
	return res, nil
}

// ReadFileArgs are the arguments of snapshot_read_file.
type ReadFileArgs struct {
	Dataset  string `json:"dataset" jsonschema:"dataset name"`
	Snapshot string `json:"snapshot" jsonschema:"snapshot name, or @live"`
	Path     string `json:"path" jsonschema:"file relative to the snapshot root"`
	Offset   int64  `json:"offset,omitempty" jsonschema:"byte offset to start reading at"`
	MaxBytes int    `json:"max_bytes,omitempty" jsonschema:"most bytes to return (clamped to the server cap)"`
}

// ReadFileResult is the result of snapshot_read_file. A symlink is described
// (type symlink, link_target) and not read.
type ReadFileResult struct {
	Dataset    string    `json:"dataset"`
	Snapshot   string    `json:"snapshot"`
	Path       string    `json:"path"`
	Type       EntryType `json:"type"`
	LinkTarget string    `json:"link_target,omitempty" jsonschema:"when path is a symlink, its target; not followed"`
	Size       int64     `json:"size" jsonschema:"file size in bytes"`
	Offset     int64     `json:"offset"`
	Encoding   string    `json:"encoding,omitempty" jsonschema:"utf-8 or base64"`
	Content    string    `json:"content"`
	Truncated  bool      `json:"truncated" jsonschema:"true when the file continues past the returned bytes"`
}

// ReadFile reads part of a regular file in a snapshot (snapshot_read_file).
func (e *Engine) ReadFile(ctx context.Context, args ReadFileArgs) (ReadFileResult, error) {
	ctx, cancel := e.withTimeout(ctx, "snapshot_read_file", 0)
	defer cancel()
	if args.Offset < 0 {
		return ReadFileResult{}, invalidf("offset %d is negative", args.Offset)
	}
	v, err := e.open(ctx, args.Dataset, args.Snapshot)
	if err != nil {
		return ReadFileResult{}, err
	}
	defer v.close()
	rel, info, err := v.lookup(args.Path)
	if err != nil {
		return ReadFileResult{}, err
	}
	en := v.entry(rel, info)
	res := ReadFileResult{Dataset: args.Dataset, Snapshot: v.snap.Name, Path: rel, Type: en.Type, LinkTarget: en.LinkTarget, Size: info.Size(), Offset: args.Offset}
	switch en.Type {
	case TypeSymlink:
		return res, nil
	case TypeDir:
		return ReadFileResult{}, invalidf("%s is a directory; use snapshot_list_dir", rel)
	case TypeOther:
		return ReadFileResult{}, invalidf("%s is not a regular file (%s)", rel, info.Mode().Type())
	}
	max := e.limits.ReadBytes.clamp(args.MaxBytes)
	f, err := v.fsys.Open(rel)
	if err != nil {
		return ReadFileResult{}, fmt.Errorf("snapshot_read_file %s: %w", rel, err)
	}
	defer f.Close()
	if args.Offset > 0 {
		if _, err := io.CopyN(io.Discard, ctxReader{ctx, f}, args.Offset); err != nil {
			if errors.Is(err, io.EOF) {
				return res, nil
			}
			return ReadFileResult{}, fmt.Errorf("snapshot_read_file %s: %w", rel, err)
		}
	}
	buf := make([]byte, max+1)
	n, err := io.ReadFull(ctxReader{ctx, f}, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return ReadFileResult{}, fmt.Errorf("snapshot_read_file %s: %w", rel, err)
	}
	if n > max {
		n = max
		res.Truncated = true
	}
	b := buf[:n]
	if text, ok := utf8Prefix(b, res.Truncated); ok {
		res.Encoding, res.Content = "utf-8", string(text)
		if len(text) < len(b) {
			res.Truncated = true
		}
	} else {
		res.Encoding, res.Content = "base64", base64.StdEncoding.EncodeToString(b)
	}
	return res, nil
}

// utf8Prefix returns b as text when it is valid UTF-8, allowing a rune cut
// at the end when more bytes follow (the cut rune is dropped).
func utf8Prefix(b []byte, more bool) ([]byte, bool) {
	if utf8.Valid(b) {
		return b, true
	}
	if !more {
		return nil, false
	}
	for cut := 1; cut < utf8.UTFMax && cut <= len(b); cut++ {
		if utf8.Valid(b[:len(b)-cut]) {
			return b[:len(b)-cut], true
		}
	}
	return nil, false
}

// ctxReader stops reading when ctx ends, so a long read honours the
// call's wall-time bound.
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

// ChecksumArgs are the arguments of checksum_file.
type ChecksumArgs struct {
	Dataset   string `json:"dataset" jsonschema:"dataset name"`
	Snapshot  string `json:"snapshot" jsonschema:"snapshot name, or @live"`
	Path      string `json:"path" jsonschema:"file relative to the snapshot root"`
	Algorithm string `json:"algorithm,omitempty" jsonschema:"hash algorithm; only sha256 (the default)"`
}

// ChecksumResult is the result of checksum_file.
type ChecksumResult struct {
	Dataset   string `json:"dataset"`
	Snapshot  string `json:"snapshot"`
	Path      string `json:"path"`
	Algorithm string `json:"algorithm"`
	Digest    string `json:"digest" jsonschema:"lowercase hex digest"`
	Size      int64  `json:"size"`
}

// Checksum hashes a regular file in a snapshot (checksum_file). A file
// larger than Limits.ScanBytes, or one that cannot be hashed within the
// wall-time bound, is an error: a partial digest would be misleading.
func (e *Engine) Checksum(ctx context.Context, args ChecksumArgs) (ChecksumResult, error) {
	ctx, cancel := e.withTimeout(ctx, "checksum_file", e.limits.TimeoutS.Max)
	defer cancel()
	if args.Algorithm != "" && args.Algorithm != "sha256" {
		return ChecksumResult{}, invalidf("algorithm %q is not supported; use sha256", args.Algorithm)
	}
	v, err := e.open(ctx, args.Dataset, args.Snapshot)
	if err != nil {
		return ChecksumResult{}, err
	}
	defer v.close()
	rel, info, err := v.lookup(args.Path)
	if err != nil {
		return ChecksumResult{}, err
	}
	if !info.Mode().IsRegular() {
		return ChecksumResult{}, invalidf("%s is a %s, not a regular file", rel, entryType(info.Mode()))
	}
	if info.Size() > e.limits.ScanBytes {
		return ChecksumResult{}, invalidf("%s is %d bytes; checksum_file hashes at most %d", rel, info.Size(), e.limits.ScanBytes)
	}
	sum, n, err := v.hash(ctx, rel)
	if err != nil {
		return ChecksumResult{}, fmt.Errorf("checksum_file %s: %w", rel, err)
	}
	return ChecksumResult{Dataset: args.Dataset, Snapshot: v.snap.Name, Path: rel, Algorithm: "sha256", Digest: sum, Size: n}, nil
}

// hash returns the hex SHA-256 of a regular file and its length.
func (v *view) hash(ctx context.Context, rel string) (string, int64, error) {
	f, err := v.fsys.Open(rel)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, ctxReader{ctx, f})
	if err != nil {
		return "", n, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
