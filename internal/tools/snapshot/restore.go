package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// Restore is a dataset's opt-in to restore_file and restore_dir. It is off
// unless Enabled; Allow lists the directories (absolute, inside the
// dataset's live data) a restore may write below.
type Restore struct {
	Enabled bool
	Allow   []string
}

// validate checks a restore opt-in once, at startup. live is the
// dataset's live data where the configuration alone says it ("" when only
// the snapshot layout can tell, as for snapper).
func (r Restore) validate(host, kind, live string) error {
	if !r.Enabled {
		if len(r.Allow) > 0 {
			return errors.New("restore.allow is set but restore.enabled is not; set enabled: true to allow restores")
		}
		return nil
	}
	if len(r.Allow) == 0 {
		return errors.New("restore is enabled with an empty allow list; name the directories restores may write below")
	}
	if live == "" && kind == engine.KindDir {
		return errors.New("restore is enabled, but a dir source has no live: to restore into")
	}
	if live == "" && host != "local" {
		return fmt.Errorf("restore is enabled on host %s, but the live data is not configured; set live: (it is read from the snapshot layout only on this machine)", host)
	}
	for _, a := range r.Allow {
		c, err := policy.CleanPath(a)
		if err != nil || c != a || a == "/" {
			return fmt.Errorf("restore.allow entry %q must be a clean absolute path other than /", a)
		}
		if live != "" && !policy.Within(a, live) {
			return fmt.Errorf("restore.allow entry %q is outside the live data %s; restores only write inside it", a, live)
		}
	}
	return nil
}

// configuredLive is a source's live data as its configuration says it:
// live:, or the mountpoint of a zfs source; "" when unknown until the
// snapshot layout is read (btrfs) or absent (dir without live:).
func configuredLive(s engine.SourceConfig) string {
	switch {
	case s.Live != "":
		return s.Live
	case s.Kind == engine.KindZFS:
		return s.Path
	}
	return ""
}

// asideSuffix marks the current version of a file kept aside by a restore:
// <name>.warden-restore-<UTC time>.
const asideSuffix = ".warden-restore-"

// RestoreFileArgs are the arguments of restore_file.
type RestoreFileArgs struct {
	Dataset     string `json:"dataset" jsonschema:"dataset name; restore must be enabled for it in warden.yaml"`
	Snapshot    string `json:"snapshot" jsonschema:"snapshot to restore from (not @live)"`
	Path        string `json:"path" jsonschema:"regular file relative to the snapshot root"`
	Destination string `json:"destination,omitempty" jsonschema:"absolute path inside the dataset's live data and its restore allowlist; default: the same path in the live data"`
	MaxBytes    int64  `json:"max_bytes,omitempty" jsonschema:"most bytes to write (clamped to the server cap); a larger file is refused"`
	TimeoutS    int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// RestoreDirArgs are the arguments of restore_dir.
type RestoreDirArgs struct {
	Dataset     string `json:"dataset" jsonschema:"dataset name; restore must be enabled for it in warden.yaml"`
	Snapshot    string `json:"snapshot" jsonschema:"snapshot to restore from (not @live)"`
	Path        string `json:"path" jsonschema:"directory relative to the snapshot root"`
	Destination string `json:"destination,omitempty" jsonschema:"absolute directory inside the dataset's live data and its restore allowlist; default: the same path in the live data"`
	MaxBytes    int64  `json:"max_bytes,omitempty" jsonschema:"most bytes to write (clamped to the server cap)"`
	MaxFiles    int64  `json:"max_files,omitempty" jsonschema:"most files to write (clamped to the server cap)"`
	TimeoutS    int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// RestoredFile is one file put back.
type RestoredFile struct {
	Path           string `json:"path" jsonschema:"relative to the restored path"`
	Destination    string `json:"destination"`
	SHA256         string `json:"sha256" jsonschema:"digest of the restored content"`
	Size           int64  `json:"size"`
	PreviousSHA256 string `json:"previous_sha256,omitempty" jsonschema:"digest of the version that was there before"`
	PreviousSize   int64  `json:"previous_size,omitempty"`
	KeptAside      string `json:"kept_aside,omitempty" jsonschema:"where the previous version is kept: <name>.warden-restore-<UTC time>"`
	Created        bool   `json:"created" jsonschema:"true when nothing was there before"`
}

// RestoreResult is the result of restore_file and restore_dir.
type RestoreResult struct {
	Dataset         string         `json:"dataset"`
	Host            string         `json:"host" jsonschema:"the host written on: local or the dataset's inventory host"`
	Snapshot        string         `json:"snapshot"`
	Path            string         `json:"path"`
	Destination     string         `json:"destination"`
	Files           []RestoredFile `json:"files"`
	Skipped         []Skipped      `json:"skipped" jsonschema:"symlinks and special files in the snapshot, never created; destinations that are not regular files, never replaced"`
	SkippedCount    int            `json:"skipped_count"`
	FilesWritten    int            `json:"files_written"`
	DirsCreated     int            `json:"dirs_created"`
	Bytes           int64          `json:"bytes"`
	Truncated       bool           `json:"truncated"`
	TruncatedReason string         `json:"truncated_reason,omitempty"`
}

// restoreDestination checks where a restore may write: the dataset opted
// in, the destination is inside its live data and inside an allowed
// directory, and the path policy allows it. It returns the live root and
// the destination relative to it.
func restoreDestination(ds *dataset, paths *policy.PathPolicy, live, snapPath, dest string) (abs, rel string, err error) {
	if !ds.restore.Enabled {
		return "", "", userErrorf("restore is not enabled for dataset %q; an operator can allow it with restore: {enabled: true, allow: [...]} on the source in warden.yaml (see docs/snapshots.md)", ds.name)
	}
	if live == "" {
		return "", "", userErrorf("dataset %q has no live data configured (live:), so there is nowhere to restore to", ds.name)
	}
	if dest == "" {
		if snapPath == "." {
			dest = live
		} else {
			dest = path.Join(live, snapPath)
		}
	}
	abs, err = checkDestination(paths, dest)
	if err != nil {
		return "", "", err
	}
	if !policy.Within(abs, live) {
		return "", "", userErrorf("destination %s is outside the live data of %q (%s)", abs, ds.name, live)
	}
	allowed := false
	for _, a := range ds.restore.Allow {
		if policy.Within(abs, a) {
			allowed = true
		}
	}
	if !allowed {
		return "", "", userErrorf("destination %s is outside the restore allowlist of %q (%s)", abs, ds.name, strings.Join(ds.restore.Allow, ", "))
	}
	rel = strings.TrimPrefix(strings.TrimPrefix(abs, live), "/")
	if rel == "" {
		rel = "."
	}
	return abs, rel, nil
}

// openRestoreParent opens, below the live root, the directory that will
// hold rel's last component, creating missing directories on the way.
// No component is followed if it is a symlink.
func openRestoreParent(open destOpener, live, rel string, created *int) (destination, error) {
	if rel == "." {
		return nil, userErrorf("cannot restore over the live root itself; name a path below it")
	}
	d, err := open(live)
	if err != nil {
		return nil, err
	}
	parts := strings.Split(rel, "/")
	for _, p := range parts[:len(parts)-1] {
		sub, made, err := d.sub(p, true, 0o755)
		d.Close()
		if err != nil {
			return nil, err
		}
		if made {
			*created++
		}
		d = sub
	}
	return d, nil
}

// restorer carries one restore: the time stamp of the versions kept aside
// and the bounds.
type restorer struct {
	ctx      context.Context
	x        *engine.Export
	res      *RestoreResult
	stamp    string
	maxBytes int64
	maxFiles int64
	stack    dirStack
}

func (r *restorer) skip(rel, typ, reason string) {
	r.res.SkippedCount++
	if int64(len(r.res.Skipped)) < r.maxFiles {
		r.res.Skipped = append(r.res.Skipped, Skipped{Path: rel, Type: typ, Reason: reason})
	}
}

// one restores the snapshot file rel to name below dir. The version there
// now, if any, is linked aside first; the new content goes to a temporary
// file renamed over name only once complete, so a failure (a full disk)
// leaves the current version in place and the aside link is removed.
func (r *restorer) one(dir destination, name, rel string, it engine.ExportItem) (RestoredFile, error) {
	rf := RestoredFile{Path: rel, Destination: dir.child(name)}
	st, exists, err := dir.lstat(name)
	if err != nil {
		return rf, err
	}
	aside := ""
	if exists {
		if !st.regular {
			return rf, userErrorf("%s is a %s; a restore only replaces regular files", dir.child(name), st.kind)
		}
		var sum string
		var n int64
		if aside, sum, n, err = r.keepAside(dir, name); err != nil {
			return rf, err
		}
		rf.PreviousSHA256, rf.PreviousSize = sum, n
		rf.KeptAside = dir.child(aside)
	}
	src, err := r.x.Open(rel)
	if err != nil {
		r.undoAside(dir, aside)
		return rf, fmt.Errorf("open %s in %s: %w", rel, r.x.Snapshot.Name, err)
	}
	w, err := dir.writeFile(name, ctxReader{r.ctx, src}, r.maxBytes-r.res.Bytes, it.Mode, true)
	src.Close()
	if err != nil {
		r.undoAside(dir, aside)
		if errors.Is(err, errTooBig) {
			return rf, err
		}
		return rf, fmt.Errorf("restore %s (the version there is untouched): %w", dir.child(name), err)
	}
	rf.SHA256, rf.Size, rf.Created = w.SHA256, w.Bytes, !exists
	return rf, nil
}

// keepAside links name to <name>.warden-restore-<stamp>, with a counter
// when a restore in the same second already took that name.
func (r *restorer) keepAside(dir destination, name string) (aside, sum string, n int64, err error) {
	base := truncName(name) + asideSuffix + r.stamp
	for i := 0; i < 100; i++ {
		aside := base
		if i > 0 {
			aside += "-" + strconv.Itoa(i)
		}
		sum, n, err := dir.keepAside(r.ctx, name, aside)
		if err == nil {
			return aside, sum, n, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", "", 0, fmt.Errorf("keep the current version aside: %w", err)
		}
	}
	return "", "", 0, fmt.Errorf("keep the current version aside: %s taken 100 times", base)
}

// undoAside removes the aside link of a restore that did not happen: the
// current version never left its name.
func (r *restorer) undoAside(dir destination, aside string) {
	if aside != "" {
		_ = dir.remove(aside)
	}
}

// restoreFile puts one regular file back.
func restoreFile(ctx context.Context, x *engine.Export, open destOpener, live, rel string, maxBytes int64, now time.Time) (RestoreResult, error) {
	res := RestoreResult{Snapshot: x.Snapshot.Name, Path: x.Path, Destination: path.Join(live, rel), Files: []RestoredFile{}, Skipped: []Skipped{}}
	switch x.Item.Type {
	case engine.TypeFile:
	case engine.TypeSymlink:
		return res, userErrorf("%s is a symlink in %s; a restore never creates or follows one", x.Path, x.Snapshot.Name)
	case engine.TypeDir:
		return res, userErrorf("%s is a directory; use restore_dir", x.Path)
	default:
		return res, userErrorf("%s is a special file (%s) in %s; only regular files are restored", x.Path, x.Item.Mode.Type(), x.Snapshot.Name)
	}
	if x.Item.Size > maxBytes {
		return res, userErrorf("%s is %d bytes, more than max_bytes %d", x.Path, x.Item.Size, maxBytes)
	}
	dir, err := openRestoreParent(open, live, rel, &res.DirsCreated)
	if err != nil {
		return res, err
	}
	defer dir.Close()
	r := &restorer{ctx: ctx, x: x, res: &res, stamp: asideStamp(now), maxBytes: maxBytes, maxFiles: 1}
	rf, err := r.one(dir, path.Base(rel), ".", x.Item)
	if errors.Is(err, errTooBig) {
		return res, userErrorf("%s grew past max_bytes %d while it was restored; nothing was replaced", x.Path, maxBytes)
	}
	if err != nil {
		return res, err
	}
	res.Files = append(res.Files, rf)
	res.FilesWritten, res.Bytes = 1, rf.Size
	return res, nil
}

// restoreDir puts a directory tree back, file by file, each as
// restoreFile does. Symlinks and special files in the snapshot are listed,
// never created; a destination that is not a regular file is listed, never
// replaced; a symlink where a directory should be stops the restore.
func restoreDir(ctx context.Context, x *engine.Export, open destOpener, live, rel string, maxBytes, maxFiles int64, now time.Time) (RestoreResult, error) {
	res := RestoreResult{Snapshot: x.Snapshot.Name, Path: x.Path, Destination: path.Join(live, rel), Files: []RestoredFile{}, Skipped: []Skipped{}}
	if x.Item.Type != engine.TypeDir {
		return res, userErrorf("%s is a %s; use restore_file for a single file", x.Path, x.Item.Type)
	}
	parent, err := openRestoreParent(open, live, rel, &res.DirsCreated)
	if err != nil {
		return res, err
	}
	top, made, err := parent.sub(path.Base(rel), true, x.Item.Mode)
	parent.Close()
	if err != nil {
		return res, err
	}
	if made {
		res.DirsCreated++
	}
	r := &restorer{ctx: ctx, x: x, res: &res, stamp: asideStamp(now), maxBytes: maxBytes, maxFiles: maxFiles, stack: dirStack{{rel: ".", d: top}}}
	defer r.stack.closeAll()
	err = x.Walk(ctx, r.visit)
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

func (r *restorer) visit(it engine.ExportItem) error {
	dir, err := r.stack.parentOf(it.Rel)
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
			r.res.DirsCreated++
		}
		r.stack = append(r.stack, openDir{rel: it.Rel, d: sub})
		return nil
	case engine.TypeSymlink:
		r.skip(it.Rel, string(it.Type), "symlink to "+it.LinkTarget+" in the snapshot; never created or followed")
		return nil
	case engine.TypeOther:
		r.skip(it.Rel, string(it.Type), "special file ("+it.Mode.Type().String()+") in the snapshot; never created or opened")
		return nil
	}
	if int64(r.res.FilesWritten) >= r.maxFiles {
		r.res.TruncatedReason = reasonFiles
		return errStopCopy
	}
	if r.res.Bytes+it.Size > r.maxBytes {
		r.res.TruncatedReason = reasonBytes
		return errStopCopy
	}
	rf, err := r.one(dir, name, it.Rel, it)
	switch {
	case errors.Is(err, errTooBig):
		r.res.TruncatedReason = reasonBytes
		return errStopCopy
	case errors.Is(err, engine.ErrInvalidArgument):
		r.skip(it.Rel, string(it.Type), err.Error())
		return nil
	case err != nil:
		return err
	}
	r.res.FilesWritten++
	r.res.Bytes += rf.Size
	r.res.Files = append(r.res.Files, rf)
	return nil
}

// asideStamp is the UTC time in the names of versions kept aside.
func asideStamp(now time.Time) string { return now.UTC().Format("20060102T150405Z") }
