package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"time"
)

// Change markers of file_history: how a revision differs from the path in
// the snapshot just before it.
const (
	ChangeFirst     = "first"     // present in the first snapshot checked
	ChangeAppeared  = "appeared"  // absent in the snapshot before
	ChangeModified  = "modified"  // content, type or link target differ
	ChangeMetadata  = "metadata"  // same content, new mtime or mode
	ChangeUnchanged = "unchanged" // same content, mtime and mode
)

// FileHistoryArgs are the arguments of file_history.
type FileHistoryArgs struct {
	Dataset    string `json:"dataset" jsonschema:"dataset name"`
	Path       string `json:"path" jsonschema:"path relative to the snapshot root"`
	After      string `json:"after,omitempty" jsonschema:"only snapshots at or after this time"`
	Before     string `json:"before,omitempty" jsonschema:"only snapshots at or before this time"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"most revisions to return (clamped to the server cap)"`
	TimeoutS   int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// Revision is a path as one snapshot holds it.
type Revision struct {
	Snapshot   string    `json:"snapshot"`
	Time       time.Time `json:"time" jsonschema:"when the snapshot was taken"`
	Type       EntryType `json:"type"`
	Size       int64     `json:"size"`
	Mode       string    `json:"mode"`
	ModTime    time.Time `json:"mtime"`
	SHA256     string    `json:"sha256,omitempty" jsonschema:"sha256 of the file (of the target text for a symlink)"`
	LinkTarget string    `json:"link_target,omitempty"`
	Change     string    `json:"change" jsonschema:"against the snapshot before: first, appeared, modified, metadata (same content, new mtime or mode) or unchanged"`
}

// FileHistoryResult is the result of file_history.
type FileHistoryResult struct {
	Dataset         string     `json:"dataset"`
	Path            string     `json:"path"`
	Revisions       []Revision `json:"revisions" jsonschema:"every snapshot holding the path, oldest first"`
	AbsentIn        []string   `json:"absent_in" jsonschema:"snapshots where the path does not exist"`
	Changes         int        `json:"changes" jsonschema:"revisions marked appeared or modified"`
	Checked         int        `json:"snapshots_checked"`
	Snapshots       int        `json:"snapshots_in_range"`
	Truncated       bool       `json:"truncated"`
	TruncatedReason string     `json:"truncated_reason,omitempty"`
}

// FileHistory lists every snapshot holding a path with its size, mtime and
// digest, marking each revision against the snapshot before it
// (file_history). Content is hashed in full, never inferred from size or
// mtime; memory grows with the revisions returned, not with the
// snapshots visited.
func (e *Engine) FileHistory(ctx context.Context, args FileHistoryArgs) (FileHistoryResult, error) {
	ctx, cancel := e.withTimeout(ctx, "file_history", args.TimeoutS)
	defer cancel()
	src, err := e.source(args.Dataset)
	if err != nil {
		return FileHistoryResult{}, err
	}
	rel, err := cleanRel(args.Path)
	if err != nil {
		return FileHistoryResult{}, err
	}
	snaps, err := e.snapshotsInRange(ctx, src, args.After, args.Before)
	if err != nil {
		return FileHistoryResult{}, err
	}
	max := e.limits.Results.clamp(args.MaxResults)
	res := FileHistoryResult{Dataset: src.Name, Path: rel, Revisions: []Revision{}, AbsentIn: []string{}, Snapshots: len(snaps)}
	var (
		scanned int64
		prev    *Revision
	)
	for i, s := range snaps {
		if ctx.Err() != nil {
			res.TruncatedReason = reasonTimeout
			break
		}
		rev, ok, reason, err := e.revisionAt(ctx, src, s, rel, &scanned)
		if err != nil {
			return FileHistoryResult{}, err
		}
		if reason != "" {
			res.TruncatedReason = reason
			break
		}
		res.Checked++
		if !ok {
			prev = nil
			if len(res.AbsentIn) < e.limits.ListEntries.Max {
				res.AbsentIn = append(res.AbsentIn, s.Name)
			}
			continue
		}
		switch {
		case i == 0:
			rev.Change = ChangeFirst
		case prev == nil:
			rev.Change = ChangeAppeared
		case prev.Type != rev.Type || prev.SHA256 != rev.SHA256 || prev.Size != rev.Size:
			rev.Change = ChangeModified
		case !prev.ModTime.Equal(rev.ModTime) || prev.Mode != rev.Mode:
			rev.Change = ChangeMetadata
		default:
			rev.Change = ChangeUnchanged
		}
		if rev.Change == ChangeAppeared || rev.Change == ChangeModified {
			res.Changes++
		}
		if len(res.Revisions) >= max {
			res.TruncatedReason = reasonResults
			break
		}
		res.Revisions = append(res.Revisions, rev)
		prev = &res.Revisions[len(res.Revisions)-1]
	}
	res.Truncated = res.TruncatedReason != ""
	return res, nil
}

// revisionAt describes rel in snapshot s, hashing a regular file or a
// symlink's target text; ok is false when rel is absent. reason is set when
// a bound stopped the work. An escape is the caller's error.
func (e *Engine) revisionAt(ctx context.Context, src SourceConfig, s Snapshot, rel string, scanned *int64) (rev Revision, ok bool, reason string, err error) {
	v, err := e.openSnap(ctx, src, s)
	if err != nil {
		// A snapshot that cannot be opened holds nothing we can show.
		return Revision{}, false, "", nil
	}
	defer v.close()
	r, info, err := v.lookup(rel)
	if err != nil {
		if isInvalid(err) {
			return Revision{}, false, "", err
		}
		return Revision{}, false, "", nil
	}
	rev, reason = e.describe(ctx, v, r, info, scanned)
	if reason != "" {
		return Revision{}, false, reason, nil
	}
	rev.Snapshot, rev.Time = s.Name, s.Time
	return rev, true, "", nil
}

// describe is one path's revision without its snapshot fields.
func (e *Engine) describe(ctx context.Context, v *view, r string, info fs.FileInfo, scanned *int64) (Revision, string) {
	rev := Revision{Type: entryType(info.Mode()), Size: info.Size(), Mode: info.Mode().String(), ModTime: info.ModTime()}
	switch rev.Type {
	case TypeFile:
		*scanned += info.Size()
		if *scanned > e.limits.ScanBytes {
			return Revision{}, reasonScan
		}
		sum, n, err := v.hash(ctx, r)
		if err != nil {
			if ctx.Err() != nil {
				return Revision{}, reasonTimeout
			}
			// Unreadable: described by metadata alone.
			return rev, ""
		}
		rev.SHA256, rev.Size = sum, n
	case TypeSymlink:
		if t, err := v.fsys.ReadLink(r); err == nil {
			h := sha256.Sum256([]byte(t))
			rev.SHA256, rev.LinkTarget = hex.EncodeToString(h[:]), t
		}
	}
	return rev, ""
}

// ContainingArgs are the arguments of snapshots_containing.
type ContainingArgs struct {
	Dataset    string `json:"dataset" jsonschema:"dataset name"`
	Path       string `json:"path" jsonschema:"path relative to the snapshot root"`
	SHA256     string `json:"sha256,omitempty" jsonschema:"match only where the file has this lowercase hex digest"`
	Size       *int64 `json:"size,omitempty" jsonschema:"match only where the file has exactly this many bytes"`
	After      string `json:"after,omitempty" jsonschema:"only snapshots at or after this time"`
	Before     string `json:"before,omitempty" jsonschema:"only snapshots at or before this time"`
	MaxResults int    `json:"max_results,omitempty" jsonschema:"most snapshots to return (clamped to the server cap)"`
	TimeoutS   int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// Containing is one snapshot where the path matched.
type Containing struct {
	Snapshot string    `json:"snapshot"`
	Time     time.Time `json:"time"`
	Type     EntryType `json:"type"`
	Size     int64     `json:"size"`
	SHA256   string    `json:"sha256,omitempty"`
}

// ContainingResult is the result of snapshots_containing.
type ContainingResult struct {
	Dataset         string       `json:"dataset"`
	Path            string       `json:"path"`
	Match           string       `json:"match" jsonschema:"what was matched: exists, size or sha256"`
	Snapshots       []Containing `json:"snapshots" jsonschema:"matching snapshots, oldest first"`
	Matched         int          `json:"matched" jsonschema:"matching snapshots, returned or not"`
	Checked         int          `json:"snapshots_checked"`
	InRange         int          `json:"snapshots_in_range"`
	Truncated       bool         `json:"truncated"`
	TruncatedReason string       `json:"truncated_reason,omitempty"`
}

// SnapshotsContaining lists the snapshots where a path exists, has a given
// size, or has a given SHA-256 (snapshots_containing). Only the sha256
// match reads file contents.
func (e *Engine) SnapshotsContaining(ctx context.Context, args ContainingArgs) (ContainingResult, error) {
	ctx, cancel := e.withTimeout(ctx, "snapshots_containing", args.TimeoutS)
	defer cancel()
	match := "exists"
	switch {
	case args.SHA256 != "" && args.Size != nil:
		return ContainingResult{}, invalidf("give sha256 or size, not both")
	case args.SHA256 != "":
		if !sha256HexRE.MatchString(args.SHA256) {
			return ContainingResult{}, invalidf("sha256 %q is not 64 lowercase hex digits", args.SHA256)
		}
		match = "sha256"
	case args.Size != nil:
		if *args.Size < 0 {
			return ContainingResult{}, invalidf("size %d is negative", *args.Size)
		}
		match = "size"
	}
	src, err := e.source(args.Dataset)
	if err != nil {
		return ContainingResult{}, err
	}
	rel, err := cleanRel(args.Path)
	if err != nil {
		return ContainingResult{}, err
	}
	snaps, err := e.snapshotsInRange(ctx, src, args.After, args.Before)
	if err != nil {
		return ContainingResult{}, err
	}
	max := e.limits.Results.clamp(args.MaxResults)
	res := ContainingResult{Dataset: src.Name, Path: rel, Match: match, Snapshots: []Containing{}, InRange: len(snaps)}
	var scanned int64
	for _, s := range snaps {
		if ctx.Err() != nil {
			res.TruncatedReason = reasonTimeout
			break
		}
		c, ok, reason, err := e.containsAt(ctx, src, s, rel, match, args, &scanned)
		if err != nil {
			return ContainingResult{}, err
		}
		if reason != "" {
			res.TruncatedReason = reason
			break
		}
		res.Checked++
		if !ok {
			continue
		}
		res.Matched++
		if len(res.Snapshots) >= max {
			res.TruncatedReason = reasonResults
			continue
		}
		res.Snapshots = append(res.Snapshots, c)
	}
	res.Truncated = res.TruncatedReason != ""
	return res, nil
}

func (e *Engine) containsAt(ctx context.Context, src SourceConfig, s Snapshot, rel, match string, args ContainingArgs, scanned *int64) (Containing, bool, string, error) {
	v, err := e.openSnap(ctx, src, s)
	if err != nil {
		return Containing{}, false, "", nil
	}
	defer v.close()
	r, info, err := v.lookup(rel)
	if err != nil {
		if isInvalid(err) {
			return Containing{}, false, "", err
		}
		return Containing{}, false, "", nil
	}
	c := Containing{Snapshot: s.Name, Time: s.Time, Type: entryType(info.Mode()), Size: info.Size()}
	switch match {
	case "size":
		return c, c.Type == TypeFile && c.Size == *args.Size, "", nil
	case "sha256":
		if c.Type != TypeFile && c.Type != TypeSymlink {
			return c, false, "", nil
		}
		rev, reason := e.describe(ctx, v, r, info, scanned)
		if reason != "" {
			return Containing{}, false, reason, nil
		}
		c.SHA256, c.Size = rev.SHA256, rev.Size
		return c, c.SHA256 == args.SHA256, "", nil
	}
	return c, true, "", nil
}

// isInvalid reports whether err is the caller's mistake (an escape).
func isInvalid(err error) bool { return errors.Is(err, ErrInvalidArgument) }
