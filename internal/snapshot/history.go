package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// VersionsArgs are the arguments of versions_of.
type VersionsArgs struct {
	Dataset  string `json:"dataset" jsonschema:"dataset name"`
	Path     string `json:"path" jsonschema:"path relative to the snapshot root"`
	After    string `json:"after,omitempty" jsonschema:"only snapshots at or after this time"`
	Before   string `json:"before,omitempty" jsonschema:"only snapshots at or before this time"`
	TimeoutS int    `json:"timeout_s,omitempty" jsonschema:"wall-time bound in seconds (clamped to the server cap)"`
}

// Version is one distinct content of a path and the snapshots holding it.
type Version struct {
	// SHA256 is the digest of the file's bytes, or of a symlink's target
	// text; empty for directories and other types.
	SHA256     string    `json:"sha256,omitempty" jsonschema:"sha256 of the file (of the target text for a symlink)"`
	Type       EntryType `json:"type"`
	Size       int64     `json:"size"`
	LinkTarget string    `json:"link_target,omitempty"`
	Snapshots  []string  `json:"snapshots" jsonschema:"snapshots holding this version, oldest first"`
	FirstTime  time.Time `json:"first_time"`
	LastTime   time.Time `json:"last_time"`
}

// VersionsResult is the result of versions_of.
type VersionsResult struct {
	Dataset         string    `json:"dataset"`
	Path            string    `json:"path"`
	Versions        []Version `json:"versions" jsonschema:"distinct contents in order of first appearance"`
	AbsentIn        []string  `json:"absent_in" jsonschema:"snapshots where the path does not exist"`
	Checked         int       `json:"snapshots_checked"`
	Snapshots       int       `json:"snapshots_in_range"`
	Truncated       bool      `json:"truncated"`
	TruncatedReason string    `json:"truncated_reason,omitempty"`
}

// VersionsOf lists the distinct contents of a path across snapshots
// (versions_of). Every version is hashed in full, never guessed from size
// and mtime: a forger can reset an mtime.
func (e *Engine) VersionsOf(ctx context.Context, args VersionsArgs) (VersionsResult, error) {
	ctx, cancel := e.withTimeout(ctx, "versions_of", args.TimeoutS)
	defer cancel()
	src, err := e.source(args.Dataset)
	if err != nil {
		return VersionsResult{}, err
	}
	rel, err := cleanRel(args.Path)
	if err != nil {
		return VersionsResult{}, err
	}
	snaps, err := e.snapshotsInRange(ctx, src, args.After, args.Before)
	if err != nil {
		return VersionsResult{}, err
	}
	res := VersionsResult{Dataset: src.Name, Path: rel, Versions: []Version{}, AbsentIn: []string{}, Snapshots: len(snaps)}
	index := map[string]int{}
	var scanned int64
	for _, s := range snaps {
		if ctx.Err() != nil {
			res.TruncatedReason = reasonTimeout
			break
		}
		key, ver, ok, reason := e.versionAt(ctx, src, s, rel, &scanned)
		if reason != "" {
			res.TruncatedReason = reason
			break
		}
		res.Checked++
		if !ok {
			if len(res.AbsentIn) < e.limits.ListEntries.Max {
				res.AbsentIn = append(res.AbsentIn, s.Name)
			}
			continue
		}
		i, seen := index[key]
		if !seen {
			if len(res.Versions) >= e.limits.Results.Max {
				res.TruncatedReason = reasonResults
				break
			}
			ver.FirstTime = s.Time
			index[key] = len(res.Versions)
			res.Versions = append(res.Versions, ver)
			i = len(res.Versions) - 1
		}
		v := &res.Versions[i]
		v.Snapshots = append(v.Snapshots, s.Name)
		v.LastTime = s.Time
	}
	res.Truncated = res.TruncatedReason != ""
	return res, nil
}

// versionAt describes rel in snapshot s: a grouping key and the version, or
// ok=false when absent. reason is set when a bound stopped the work.
func (e *Engine) versionAt(ctx context.Context, src SourceConfig, s Snapshot, rel string, scanned *int64) (key string, ver Version, ok bool, reason string) {
	v, err := e.openSnap(ctx, src, s)
	if err != nil {
		return "", Version{}, false, ""
	}
	defer v.close()
	res, info, err := v.lookup(rel)
	if err != nil {
		return "", Version{}, false, ""
	}
	ver = Version{Type: entryType(info.Mode()), Size: info.Size()}
	switch ver.Type {
	case TypeFile:
		*scanned += info.Size()
		if *scanned > e.limits.ScanBytes {
			return "", Version{}, false, reasonScan
		}
		sum, n, err := v.hash(ctx, res)
		if err != nil {
			if ctx.Err() != nil {
				return "", Version{}, false, reasonTimeout
			}
			return "", Version{}, false, ""
		}
		ver.SHA256, ver.Size = sum, n
	case TypeSymlink:
		t, err := v.fsys.ReadLink(res)
		if err != nil {
			return "", Version{}, false, ""
		}
		h := sha256.Sum256([]byte(t))
		ver.SHA256, ver.LinkTarget = hex.EncodeToString(h[:]), t
	}
	return string(ver.Type) + ":" + ver.SHA256, ver, true, ""
}

// AppearanceArgs are the arguments of first_appearance and last_appearance.
type AppearanceArgs struct {
	Dataset string `json:"dataset" jsonschema:"dataset name"`
	Path    string `json:"path" jsonschema:"path relative to the snapshot root"`
}

// AppearanceResult is the result of first_appearance and last_appearance.
type AppearanceResult struct {
	Dataset string `json:"dataset"`
	Path    string `json:"path"`
	Found   bool   `json:"found" jsonschema:"whether any snapshot holds the path"`
	// Snapshot is the first (or last) snapshot holding the path.
	Snapshot string    `json:"snapshot,omitempty"`
	Time     time.Time `json:"time,omitzero"`
	Entry    *Entry    `json:"entry,omitempty" jsonschema:"the path as it was in that snapshot"`
	// Neighbor is the snapshot just before (first_appearance) or just after
	// (last_appearance), which does not hold the path; empty at the ends.
	Neighbor  string `json:"neighbor,omitempty" jsonschema:"adjacent snapshot without the path: the one before for first_appearance, after for last_appearance"`
	Checked   int    `json:"snapshots_checked"`
	Snapshots int    `json:"snapshots"`
	Truncated bool   `json:"truncated"`
}

// FirstAppearance finds the oldest snapshot holding a path
// (first_appearance).
func (e *Engine) FirstAppearance(ctx context.Context, args AppearanceArgs) (AppearanceResult, error) {
	return e.appearance(ctx, "first_appearance", args, false)
}

// LastAppearance finds the newest snapshot holding a path
// (last_appearance).
func (e *Engine) LastAppearance(ctx context.Context, args AppearanceArgs) (AppearanceResult, error) {
	return e.appearance(ctx, "last_appearance", args, true)
}

func (e *Engine) appearance(ctx context.Context, tool string, args AppearanceArgs, newest bool) (AppearanceResult, error) {
	ctx, cancel := e.withTimeout(ctx, tool, 0)
	defer cancel()
	src, err := e.source(args.Dataset)
	if err != nil {
		return AppearanceResult{}, err
	}
	rel, err := cleanRel(args.Path)
	if err != nil {
		return AppearanceResult{}, err
	}
	snaps, err := e.snapshots(ctx, src)
	if err != nil {
		return AppearanceResult{}, err
	}
	res := AppearanceResult{Dataset: src.Name, Path: rel, Snapshots: len(snaps)}
	for n := range snaps {
		if ctx.Err() != nil {
			res.Truncated = true
			break
		}
		i, prev := n, n-1
		if newest {
			i, prev = len(snaps)-1-n, len(snaps)-n
		}
		res.Checked++
		v, err := e.openSnap(ctx, src, snaps[i])
		if err != nil {
			continue
		}
		r, info, err := v.lookup(rel)
		if err == nil {
			en := v.entry(r, info)
			en.Path = rel
			res.Found, res.Snapshot, res.Time, res.Entry = true, snaps[i].Name, snaps[i].Time, &en
			if prev >= 0 && prev < len(snaps) {
				res.Neighbor = snaps[prev].Name
			}
		}
		v.close()
		if res.Found {
			break
		}
	}
	return res, nil
}
