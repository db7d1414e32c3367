package snapshot

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// copyGroup is what the fetch and restore tools share.
type copyGroup struct {
	group
	paths   *policy.PathPolicy
	limits  CopyLimits
	now     func() time.Time
	entered bool
}

// errEntered refuses copies when "local" is PID 1's namespaces.
var errEntered = errors.New("warden serves the host through host_namespace: pid1, and fetch and restore write in warden's own mount namespace, not the host's; they are refused there (see docs/snapshots.md)")

// copyInput is what the policy evaluates for a fetch or restore: the copy
// as the equivalent cp, so operator deny rules over destination paths
// apply. The source names the snapshot, not a path on this machine.
func copyInput(ds *dataset, snapshot, p, dest string) policy.Input {
	return policy.Input{Argv: []string{"cp", "-R", "--", ds.name + "@" + snapshot + ":" + p, dest}}
}

// registerCopyTools adds fetch_file, fetch_dir (tier 2) and restore_file,
// restore_dir (tier 3).
func registerCopyTools(g group, d Deps) {
	now := d.Now
	if now == nil {
		now = time.Now
	}
	cg := copyGroup{group: g, paths: d.Paths, limits: d.Copy.withDefaults(), now: now, entered: d.LocalEntered}
	mutating := func(title string, destructive bool) *mcp.ToolAnnotations {
		return &mcp.ToolAnnotations{Title: title, DestructiveHint: ptr(destructive), OpenWorldHint: ptr(false)}
	}
	relay.Add[FetchFileArgs, FetchResult](g.r, relay.Spec{
		Name:  "fetch_file",
		Title: "Copy a file out of a snapshot",
		Description: "Copy one regular file as it was in a snapshot to destination, an absolute path on the machine warden runs on (for a dataset on an SSH host, the file is read over SSH and written here). " +
			"The destination must pass the path policy and no component of it may be a symlink; an existing file is refused unless overwrite. The result's manifest carries the SHA-256 of what was written. " +
			"Symlinks and special files in the snapshot are refused. Bounded by max_bytes." + g.tail,
		Tier:        policy.TierMutate,
		Annotations: mutating("Copy a file out of a snapshot", false),
	}, func(ctx context.Context, _ *relay.Call, in *FetchFileArgs) (*relay.Plan, error) {
		ds, dest, err := cg.plan(in.Dataset, in.Snapshot, in.Destination)
		if err != nil {
			return nil, err
		}
		a := *in
		return &relay.Plan{Host: "local", Input: copyInput(ds, a.Snapshot, a.Path, dest), Run: func(ctx context.Context) *relay.Outcome {
			ctx, cancel := context.WithTimeout(ctx, ds.engine.CallTimeout(a.TimeoutS))
			defer cancel()
			x, err := ds.engine.OpenExport(ctx, ds.name, a.Snapshot, a.Path)
			if err != nil {
				return failure("fetch_file", g.log, err)
			}
			defer x.Close()
			res, err := fetchFile(ctx, x, dest, a.Overwrite, cg.limits.Bytes.clamp(a.MaxBytes))
			res.Dataset = ds.name
			return copyOutcome("fetch_file", g.log, res, err, nil)
		}}, nil
	})
	relay.Add[FetchDirArgs, FetchResult](g.r, relay.Spec{
		Name:  "fetch_dir",
		Title: "Copy a directory out of a snapshot",
		Description: "Copy a directory tree as it was in a snapshot into destination, an absolute directory on the machine warden runs on, created if missing (its parent must exist). " +
			"The destination must pass the path policy and no component may be a symlink. Regular files are copied with their modes; symlinks and special files are listed under skipped, never created; existing files are skipped unless overwrite. " +
			"Bounded by max_files and max_bytes: truncated and truncated_reason say where it stopped, and the manifest lists every file written with its SHA-256." + g.tail,
		Tier:        policy.TierMutate,
		Annotations: mutating("Copy a directory out of a snapshot", false),
	}, func(ctx context.Context, _ *relay.Call, in *FetchDirArgs) (*relay.Plan, error) {
		ds, dest, err := cg.plan(in.Dataset, in.Snapshot, in.Destination)
		if err != nil {
			return nil, err
		}
		a := *in
		return &relay.Plan{Host: "local", Input: copyInput(ds, a.Snapshot, a.Path, dest), Run: func(ctx context.Context) *relay.Outcome {
			ctx, cancel := context.WithTimeout(ctx, ds.engine.CallTimeout(a.TimeoutS))
			defer cancel()
			x, err := ds.engine.OpenExport(ctx, ds.name, a.Snapshot, a.Path)
			if err != nil {
				return failure("fetch_dir", g.log, err)
			}
			defer x.Close()
			res, err := fetchDir(ctx, x, dest, a.Overwrite, cg.limits.Bytes.clamp(a.MaxBytes), cg.limits.Files.clamp(a.MaxFiles))
			res.Dataset = ds.name
			return copyOutcome("fetch_dir", g.log, res, err, nil)
		}}, nil
	})
	relay.Add[RestoreFileArgs, RestoreResult](g.r, relay.Spec{
		Name:  "restore_file",
		Title: "Put a file back from a snapshot",
		Description: "Restore one regular file from a snapshot into the dataset's live data: to destination, or by default the same path. Only for datasets an operator opted in (restore.enabled in warden.yaml), and only inside the live data and the dataset's restore allowlist. " +
			"The version there now is kept aside first as <name>.warden-restore-<UTC time> (kept_aside), and the new content replaces it only once completely written, so a failure leaves it untouched. " +
			"No symlink is followed in the snapshot or the destination, and special files are refused. The result and the audit record carry the SHA-256 before and after." + g.tail,
		Tier:        policy.TierDestructive,
		Annotations: mutating("Put a file back from a snapshot", true),
	}, func(ctx context.Context, _ *relay.Call, in *RestoreFileArgs) (*relay.Plan, error) {
		a := *in
		ds, live, dest, rel, err := cg.planRestore(ctx, a.Dataset, a.Snapshot, a.Path, a.Destination)
		if err != nil {
			return nil, err
		}
		return &relay.Plan{Host: "local", Input: copyInput(ds, a.Snapshot, a.Path, dest), Run: func(ctx context.Context) *relay.Outcome {
			ctx, cancel := context.WithTimeout(ctx, ds.engine.CallTimeout(a.TimeoutS))
			defer cancel()
			x, err := ds.engine.OpenExport(ctx, ds.name, a.Snapshot, a.Path)
			if err != nil {
				return failure("restore_file", g.log, err)
			}
			defer x.Close()
			res, err := restoreFile(ctx, x, live, rel, cg.limits.Bytes.clamp(a.MaxBytes), cg.now())
			res.Dataset = ds.name
			return copyOutcome("restore_file", g.log, res, err, restoreAudit(res))
		}}, nil
	})
	relay.Add[RestoreDirArgs, RestoreResult](g.r, relay.Spec{
		Name:  "restore_dir",
		Title: "Put a directory back from a snapshot",
		Description: "Restore a directory tree from a snapshot into the dataset's live data, file by file as restore_file does (each replaced file kept aside as <name>.warden-restore-<UTC time>). Only for datasets an operator opted in, only inside the live data and its restore allowlist. " +
			"Symlinks and special files in the snapshot are listed under skipped and never created; a destination that is not a regular file is never replaced; a symlink where a directory should be stops the restore. " +
			"Bounded by max_files and max_bytes (truncated); the result and the audit record carry each file's SHA-256 before and after." + g.tail,
		Tier:        policy.TierDestructive,
		Annotations: mutating("Put a directory back from a snapshot", true),
	}, func(ctx context.Context, _ *relay.Call, in *RestoreDirArgs) (*relay.Plan, error) {
		a := *in
		ds, live, dest, rel, err := cg.planRestore(ctx, a.Dataset, a.Snapshot, a.Path, a.Destination)
		if err != nil {
			return nil, err
		}
		return &relay.Plan{Host: "local", Input: copyInput(ds, a.Snapshot, a.Path, dest), Run: func(ctx context.Context) *relay.Outcome {
			ctx, cancel := context.WithTimeout(ctx, ds.engine.CallTimeout(a.TimeoutS))
			defer cancel()
			x, err := ds.engine.OpenExport(ctx, ds.name, a.Snapshot, a.Path)
			if err != nil {
				return failure("restore_dir", g.log, err)
			}
			defer x.Close()
			res, err := restoreDir(ctx, x, live, rel, cg.limits.Bytes.clamp(a.MaxBytes), cg.limits.Files.clamp(a.MaxFiles), cg.now())
			res.Dataset = ds.name
			return copyOutcome("restore_dir", g.log, res, err, restoreAudit(res))
		}}, nil
	})
}

// plan checks a fetch's dataset, snapshot name and destination before
// anything runs.
func (cg copyGroup) plan(dataset, snapshot, dest string) (*dataset, string, error) {
	if cg.entered {
		return nil, "", errEntered
	}
	ds, err := cg.c.lookup(dataset)
	if err != nil {
		return nil, "", err
	}
	if err := engine.ValidateSnapshotName(snapshot); err != nil {
		return nil, "", err
	}
	if snapshot == engine.LiveSnapshot {
		return nil, "", errors.New("snapshot must be a snapshot, not @live")
	}
	clean, err := checkDestination(cg.paths, dest)
	if err != nil {
		return nil, "", err
	}
	return ds, clean, nil
}

// planRestore checks a restore's dataset, opt-in and destination before
// anything runs, and returns the live root and the destination below it.
func (cg copyGroup) planRestore(ctx context.Context, dataset, snapshot, p, dest string) (ds *dataset, live, abs, rel string, err error) {
	if cg.entered {
		return nil, "", "", "", errEntered
	}
	ds, err = cg.c.lookup(dataset)
	if err != nil {
		return nil, "", "", "", err
	}
	if err := engine.ValidateSnapshotName(snapshot); err != nil {
		return nil, "", "", "", err
	}
	if snapshot == engine.LiveSnapshot {
		return nil, "", "", "", errors.New("snapshot must be a snapshot, not @live")
	}
	snapPath, err := engine.CleanRel(p)
	if err != nil {
		return nil, "", "", "", err
	}
	if ds.restore.Enabled && ds.host == "local" {
		if live, err = ds.engine.LiveRoot(ctx, ds.name); err != nil {
			return nil, "", "", "", err
		}
	}
	abs, rel, err = restoreDestination(ds, cg.paths, live, snapPath, dest)
	if err != nil {
		return nil, "", "", "", err
	}
	return ds, live, abs, rel, nil
}

// copyOutcome maps a fetch or restore answer to a relay outcome, with
// extra audit fields (kept also when the call failed part-way).
func copyOutcome(tool string, log *slog.Logger, res any, err error, extra map[string]any) *relay.Outcome {
	return withExtra(outcome(tool, log, res, err), extra)
}

func withExtra(o *relay.Outcome, extra map[string]any) *relay.Outcome {
	if len(extra) > 0 {
		o.Extra = extra
	}
	return o
}

// restoreAudit is what the audit record of a restore carries: every file
// written with its digest before and after, and where the old one is.
func restoreAudit(res RestoreResult) map[string]any {
	files := make([]map[string]any, 0, len(res.Files))
	for _, f := range res.Files {
		files = append(files, map[string]any{
			"destination":    f.Destination,
			"sha256_before":  f.PreviousSHA256,
			"sha256_after":   f.SHA256,
			"kept_aside":     f.KeptAside,
			"created":        f.Created,
			"bytes_restored": f.Size,
			"bytes_before":   f.PreviousSize,
		})
	}
	return map[string]any{"restored": files, "restore_snapshot": res.Snapshot, "restore_destination": res.Destination}
}
