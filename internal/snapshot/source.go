package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"time"
)

// snapshots lists a source's snapshots, oldest first (ties by name).
func (e *Engine) snapshots(ctx context.Context, src SourceConfig) ([]Snapshot, error) {
	var (
		snaps []Snapshot
		err   error
	)
	switch src.Kind {
	case KindZFS:
		snaps, err = e.listZFS(ctx, src)
	case KindBtrfs:
		snaps, err = e.listBtrfs(ctx, src)
	case KindDir:
		snaps, err = e.listDir(ctx, src)
	default:
		err = fmt.Errorf("dataset %q: unknown kind %q", src.Name, src.Kind)
	}
	if err != nil {
		return nil, err
	}
	sort.SliceStable(snaps, func(i, j int) bool {
		if !snaps[i].Time.Equal(snaps[j].Time) {
			return snaps[i].Time.Before(snaps[j].Time)
		}
		return snaps[i].Name < snaps[j].Name
	})
	return snaps, nil
}

// liveRoot returns the live data path of a source, or "" when unknown.
func (e *Engine) liveRoot(ctx context.Context, src SourceConfig) string {
	if src.Live != "" {
		return src.Live
	}
	switch src.Kind {
	case KindZFS:
		return src.Path
	case KindBtrfs:
		if dir, live := e.snapperDir(ctx, src); dir != "" {
			return live
		}
	}
	return ""
}

// snapshot finds one snapshot (or the live data) by name.
func (e *Engine) snapshot(ctx context.Context, src SourceConfig, name string) (Snapshot, error) {
	if err := ValidateSnapshotName(name); err != nil {
		return Snapshot{}, err
	}
	if name == LiveSnapshot {
		root := e.liveRoot(ctx, src)
		if root == "" {
			return Snapshot{}, invalidf("dataset %q has no live path configured", src.Name)
		}
		return Snapshot{Name: LiveSnapshot, Time: e.now(), Root: root, Live: true}, nil
	}
	snaps, err := e.snapshots(ctx, src)
	if err != nil {
		return Snapshot{}, err
	}
	for _, s := range snaps {
		if s.Name == name {
			return s, nil
		}
	}
	return Snapshot{}, notFoundf("dataset %q has no snapshot %q", src.Name, name)
}

// subdirs lists the plain (non-symlink) subdirectories of dir whose names
// are valid snapshot names. Symlinked entries are skipped: a snapshot root
// reached through a link could be anywhere on the host.
func (e *Engine) subdirs(ctx context.Context, dir string) ([]fs.FileInfo, error) {
	fsys, err := e.openFS(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer closeFS(fsys)
	infos, err := fsys.ReadDir(".")
	if err != nil {
		return nil, fmt.Errorf("list snapshots in %s: %w", dir, err)
	}
	out := infos[:0]
	for _, fi := range infos {
		if !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0 {
			continue
		}
		if ValidateSnapshotName(fi.Name()) != nil {
			e.log.Debug("snapshot: skipping directory with an unacceptable name", "dir", dir, "name", fi.Name())
			continue
		}
		out = append(out, fi)
	}
	return out, nil
}

// statDir describes dir on the dataset's host, or reports absence.
func (e *Engine) statDir(ctx context.Context, dir string) (fs.FileInfo, error) {
	fsys, err := e.openFS(ctx, filepath.Dir(dir))
	if err != nil {
		return nil, err
	}
	defer closeFS(fsys)
	info, err := fsys.Lstat(filepath.Base(dir))
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s: %w", dir, errors.New("not a directory"))
	}
	return info, nil
}

// inRange reports whether t lies in [after, before]; zero bounds are open.
func inRange(t, after, before time.Time) bool {
	if !after.IsZero() && t.Before(after) {
		return false
	}
	if !before.IsZero() && t.After(before) {
		return false
	}
	return true
}

// parseTimeArg accepts RFC 3339, a date, or a date and minute, in UTC
// unless a zone is given. Empty means no bound.
func parseTimeArg(field, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, nil
		}
	}
	return time.Time{}, invalidf("%s %q is not a time; use RFC 3339 (2026-11-20T03:00:00Z) or a date (2026-11-20)", field, s)
}

// snapshotsInRange lists the snapshots between after and before.
func (e *Engine) snapshotsInRange(ctx context.Context, src SourceConfig, after, before string) ([]Snapshot, error) {
	a, err := parseTimeArg("after", after)
	if err != nil {
		return nil, err
	}
	b, err := parseTimeArg("before", before)
	if err != nil {
		return nil, err
	}
	if !a.IsZero() && !b.IsZero() && b.Before(a) {
		return nil, invalidf("before %s is earlier than after %s", before, after)
	}
	all, err := e.snapshots(ctx, src)
	if err != nil {
		return nil, err
	}
	var out []Snapshot
	for _, s := range all {
		if inRange(s.Time, a, b) {
			out = append(out, s)
		}
	}
	return out, nil
}
