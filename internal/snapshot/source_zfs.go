package snapshot

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// zfsSnapDir is where a ZFS dataset exposes its snapshots, read-only.
const zfsSnapDir = ".zfs/snapshot"

// listZFS lists a ZFS dataset's snapshots. With Dataset set and a runner
// configured, names, creation times and space come from `zfs list`;
// otherwise (or if zfs list fails) from the .zfs/snapshot directory.
func (e *Engine) listZFS(ctx context.Context, src SourceConfig) ([]Snapshot, error) {
	dir := filepath.Join(src.Path, zfsSnapDir)
	if src.Dataset != "" && e.runner != nil {
		out, err := e.run(ctx, zfsListArgv(src.Dataset))
		if err == nil {
			var snaps []Snapshot
			snaps, err = parseZFSList(out, src.Dataset)
			if err == nil {
				for i := range snaps {
					snaps[i].Root = filepath.Join(dir, snaps[i].Name)
				}
				return snaps, nil
			}
		}
		e.log.Warn("snapshot: zfs list failed; reading .zfs/snapshot instead", "dataset", src.Name, "err", err)
	}
	dirs, err := e.subdirs(ctx, dir)
	if err != nil {
		return nil, err
	}
	snaps := make([]Snapshot, 0, len(dirs))
	for _, fi := range dirs {
		// ZFS reports a snapshot directory's creation time as its mtime.
		snaps = append(snaps, Snapshot{Name: fi.Name(), Time: fi.ModTime(), Root: filepath.Join(dir, fi.Name())})
	}
	return snaps, nil
}

// parseZFSList parses `zfs list -H -p -o name,creation,used,referenced -t
// snapshot` output: one tab-separated line per snapshot, creation in epoch
// seconds and sizes in bytes. Lines for other datasets are ignored; a
// malformed line or an unacceptable snapshot name fails the whole parse, so
// a format change is noticed rather than half-read.
func parseZFSList(out []byte, dataset string) ([]Snapshot, error) {
	var snaps []Snapshot
	for n, line := range bytes.Split(out, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		f := strings.Split(string(line), "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("parse zfs list line %d: %d fields, want 4", n+1, len(f))
		}
		ds, name, ok := strings.Cut(f[0], "@")
		if !ok {
			return nil, fmt.Errorf("parse zfs list line %d: %q is not a snapshot", n+1, f[0])
		}
		if ds != dataset {
			continue
		}
		if err := ValidateSnapshotName(name); err != nil || name == LiveSnapshot {
			return nil, fmt.Errorf("parse zfs list line %d: %w", n+1, err)
		}
		creation, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("parse zfs list line %d: creation: %w", n+1, err)
		}
		used, err := parseZFSNumber(f[2])
		if err != nil {
			return nil, fmt.Errorf("parse zfs list line %d: used: %w", n+1, err)
		}
		ref, err := parseZFSNumber(f[3])
		if err != nil {
			return nil, fmt.Errorf("parse zfs list line %d: referenced: %w", n+1, err)
		}
		snaps = append(snaps, Snapshot{Name: name, Time: time.Unix(creation, 0).UTC(), Used: used, Referenced: ref})
	}
	return snaps, nil
}

// parseZFSNumber parses a -p number; "-" (not applicable) is zero.
func parseZFSNumber(s string) (int64, error) {
	if s == "-" {
		return 0, nil
	}
	return strconv.ParseInt(s, 10, 64)
}
