package snapshot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// copyGroup is what the fetch and restore tools share.
type copyGroup struct {
	group
	paths     *policy.PathPolicy
	hostPaths func(host string) *policy.PathPolicy
	resolve   hosts.Resolver
	limits    CopyLimits
	now       func() time.Time
	entered   bool
}

// errEntered refuses copies when "local" is PID 1's namespaces but no host
// seam was given to reach PID 1's tree.
var errEntered = errors.New("warden serves the host through host_namespace: pid1, and this server has no way to PID 1's files wired for copies; fetch and restore are refused rather than written into warden's own mount namespace (see docs/snapshots.md)")

// copyInput is what the policy evaluates for a fetch or restore: the copy
// as the equivalent cp, so operator deny rules over destination paths
// apply, and the dataset's pinned command, which finding the snapshot
// runs. The source names the snapshot, not a path on this machine.
func copyInput(ds *dataset, snapshot, p, dest string) policy.Input {
	cp := []string{"cp", "-R", "--", ds.name + "@" + snapshot + ":" + p, dest}
	if len(ds.input.Argv) == 0 {
		return policy.Input{Argv: cp}
	}
	return inputOf([][]string{cp, ds.input.Argv})
}

// destHost is the host a copy writes on, as resolved when the call is
// planned (no host is contacted before admission).
type destHost struct {
	name  string
	paths *policy.PathPolicy
	// h is the resolved host; nil for this machine when no resolver is
	// wired.
	h *hosts.Host
}

// seam reports whether the copy is written through the host's files
// rather than openat2 from descriptors in warden's own mount namespace:
// inventory hosts, and this machine entered through PID 1.
func (d destHost) seam() bool { return d.h != nil && d.h.Kind != hosts.KindLocal }

// destHostOf resolves where a copy writes and its path policy.
func (cg copyGroup) destHostOf(ctx context.Context, name string) (destHost, error) {
	if hosts.IsLocal(name) {
		name = "local"
	}
	if cg.resolve == nil {
		switch {
		case name != "local":
			return destHost{}, fmt.Errorf("this server has no host seam wired for copies onto host %s", name)
		case cg.entered:
			return destHost{}, errEntered
		}
		return destHost{name: "local", paths: cg.paths}, nil
	}
	h, err := cg.resolve(ctx, name)
	if err != nil {
		return destHost{}, err
	}
	d := destHost{name: h.Name, paths: cg.paths, h: h}
	if !h.Local() && cg.hostPaths != nil {
		if pp := cg.hostPaths(h.Name); pp != nil {
			d.paths = pp
		}
	}
	return d, nil
}

// opener returns how the call's destination directories are opened, once
// the call is admitted: openat2 here, or the host's files.
func (cg copyGroup) opener(ctx context.Context, d destHost) (destOpener, error) {
	if !d.seam() {
		return localOpen, nil
	}
	fsys, err := d.h.FS(ctx)
	if err != nil {
		return nil, fmt.Errorf("host %s: %w", d.name, err)
	}
	return hostOpener(ctx, fsys, d.name, cg.limits.Bytes.Max)
}

// registerCopyTools adds fetch_file, fetch_dir (tier 2) and restore_file,
// restore_dir (tier 3).
func registerCopyTools(g group, d Deps) {
	now := d.Now
	if now == nil {
		now = time.Now
	}
	cg := copyGroup{group: g, paths: d.Paths, hostPaths: d.HostPaths, resolve: d.Resolve, limits: d.Copy.withDefaults(), now: now, entered: d.LocalEntered}
	mutating := func(title string, destructive bool) *mcp.ToolAnnotations {
		return &mcp.ToolAnnotations{Title: title, DestructiveHint: ptr(destructive), OpenWorldHint: ptr(false)}
	}
	relay.Add[FetchFileArgs, FetchResult](g.r, relay.Spec{
		Name:  "fetch_file",
		Title: "Copy a file out of a snapshot",
		Description: "Copy one regular file as it was in a snapshot to destination, an absolute path on host: local (default, the machine warden runs on) or an inventory host; the snapshot is read wherever its dataset lives. " +
			"The destination must pass that host's path policy and no component of it may be a symlink; an existing file is refused unless overwrite. The result's manifest carries the SHA-256 of what was written. " +
			"Symlinks and special files in the snapshot are refused. Bounded by max_bytes." + g.tail,
		Tier:        policy.TierMutate,
		Annotations: mutating("Copy a file out of a snapshot", false),
	}, func(ctx context.Context, _ *relay.Call, in *FetchFileArgs) (*relay.Plan, error) {
		ds, dh, dest, err := cg.plan(ctx, in.Dataset, in.Snapshot, in.Host, in.Destination)
		if err != nil {
			return nil, err
		}
		a := *in
		return &relay.Plan{Host: dh.name, Input: copyInput(ds, a.Snapshot, a.Path, dest), Run: func(ctx context.Context) *relay.Outcome {
			ctx, cancel := context.WithTimeout(ctx, ds.engine.CallTimeout(a.TimeoutS))
			defer cancel()
			open, err := cg.opener(ctx, dh)
			if err != nil {
				return failure("fetch_file", g.log, err)
			}
			x, err := ds.engine.OpenExport(ctx, ds.name, a.Snapshot, a.Path)
			if err != nil {
				return failure("fetch_file", g.log, err)
			}
			defer x.Close()
			res, err := fetchFile(ctx, x, open, dest, a.Overwrite, cg.limits.Bytes.clamp(a.MaxBytes))
			res.Host = dh.name
			res.Dataset = ds.name
			return copyOutcome("fetch_file", g.log, res, err, nil)
		}}, nil
	})
	relay.Add[FetchDirArgs, FetchResult](g.r, relay.Spec{
		Name:  "fetch_dir",
		Title: "Copy a directory out of a snapshot",
		Description: "Copy a directory tree as it was in a snapshot into destination, an absolute directory on host (local by default, or an inventory host), created if missing (its parent must exist). " +
			"The destination must pass that host's path policy and no component may be a symlink. Regular files are copied with their modes; symlinks and special files are listed under skipped, never created; existing files are skipped unless overwrite. " +
			"Bounded by max_files and max_bytes: truncated and truncated_reason say where it stopped, and the manifest lists every file written with its SHA-256." + g.tail,
		Tier:        policy.TierMutate,
		Annotations: mutating("Copy a directory out of a snapshot", false),
	}, func(ctx context.Context, _ *relay.Call, in *FetchDirArgs) (*relay.Plan, error) {
		ds, dh, dest, err := cg.plan(ctx, in.Dataset, in.Snapshot, in.Host, in.Destination)
		if err != nil {
			return nil, err
		}
		a := *in
		return &relay.Plan{Host: dh.name, Input: copyInput(ds, a.Snapshot, a.Path, dest), Run: func(ctx context.Context) *relay.Outcome {
			ctx, cancel := context.WithTimeout(ctx, ds.engine.CallTimeout(a.TimeoutS))
			defer cancel()
			open, err := cg.opener(ctx, dh)
			if err != nil {
				return failure("fetch_dir", g.log, err)
			}
			x, err := ds.engine.OpenExport(ctx, ds.name, a.Snapshot, a.Path)
			if err != nil {
				return failure("fetch_dir", g.log, err)
			}
			defer x.Close()
			res, err := fetchDir(ctx, x, open, dest, a.Overwrite, cg.limits.Bytes.clamp(a.MaxBytes), cg.limits.Files.clamp(a.MaxFiles))
			res.Host = dh.name
			res.Dataset = ds.name
			return copyOutcome("fetch_dir", g.log, res, err, nil)
		}}, nil
	})
	relay.Add[RestoreFileArgs, RestoreResult](g.r, relay.Spec{
		Name:  "restore_file",
		Title: "Put a file back from a snapshot",
		Description: "Restore one regular file from a snapshot into the dataset's live data, on the dataset's host: to destination, or by default the same path. Only for datasets an operator opted in (restore.enabled in warden.yaml), and only inside the live data and the dataset's restore allowlist. " +
			"The version there now is kept aside first as <name>.warden-restore-<UTC time> (kept_aside), and the new content replaces it only once completely written, so a failure leaves it untouched. " +
			"No symlink is followed in the snapshot or the destination, and special files are refused. The result and the audit record carry the SHA-256 before and after." + g.tail,
		Tier:        policy.TierDestructive,
		Annotations: mutating("Put a file back from a snapshot", true),
	}, func(ctx context.Context, _ *relay.Call, in *RestoreFileArgs) (*relay.Plan, error) {
		a := *in
		ds, dh, live, dest, rel, err := cg.planRestore(ctx, a.Dataset, a.Snapshot, a.Path, a.Destination)
		if err != nil {
			return nil, err
		}
		return &relay.Plan{Host: dh.name, Input: copyInput(ds, a.Snapshot, a.Path, dest), Run: func(ctx context.Context) *relay.Outcome {
			ctx, cancel := context.WithTimeout(ctx, ds.engine.CallTimeout(a.TimeoutS))
			defer cancel()
			open, err := cg.opener(ctx, dh)
			if err != nil {
				return failure("restore_file", g.log, err)
			}
			x, err := ds.engine.OpenExport(ctx, ds.name, a.Snapshot, a.Path)
			if err != nil {
				return failure("restore_file", g.log, err)
			}
			defer x.Close()
			res, err := restoreFile(ctx, x, open, live, rel, cg.limits.Bytes.clamp(a.MaxBytes), cg.now())
			res.Host = dh.name
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
		ds, dh, live, dest, rel, err := cg.planRestore(ctx, a.Dataset, a.Snapshot, a.Path, a.Destination)
		if err != nil {
			return nil, err
		}
		return &relay.Plan{Host: dh.name, Input: copyInput(ds, a.Snapshot, a.Path, dest), Run: func(ctx context.Context) *relay.Outcome {
			ctx, cancel := context.WithTimeout(ctx, ds.engine.CallTimeout(a.TimeoutS))
			defer cancel()
			open, err := cg.opener(ctx, dh)
			if err != nil {
				return failure("restore_dir", g.log, err)
			}
			x, err := ds.engine.OpenExport(ctx, ds.name, a.Snapshot, a.Path)
			if err != nil {
				return failure("restore_dir", g.log, err)
			}
			defer x.Close()
			res, err := restoreDir(ctx, x, open, live, rel, cg.limits.Bytes.clamp(a.MaxBytes), cg.limits.Files.clamp(a.MaxFiles), cg.now())
			res.Host = dh.name
			res.Dataset = ds.name
			return copyOutcome("restore_dir", g.log, res, err, restoreAudit(res))
		}}, nil
	})
}

// plan checks a fetch's dataset, snapshot name, destination host and
// destination before anything runs; no host is contacted.
func (cg copyGroup) plan(ctx context.Context, dataset, snapshot, host, dest string) (*dataset, destHost, string, error) {
	ds, err := cg.c.lookup(dataset)
	if err != nil {
		return nil, destHost{}, "", err
	}
	if err := engine.ValidateSnapshotName(snapshot); err != nil {
		return nil, destHost{}, "", err
	}
	if snapshot == engine.LiveSnapshot {
		return nil, destHost{}, "", errors.New("snapshot must be a snapshot, not @live")
	}
	dh, err := cg.destHostOf(ctx, host)
	if err != nil {
		return nil, destHost{}, "", err
	}
	clean, err := checkDestination(dh.paths, dest)
	if err != nil {
		return nil, destHost{}, "", err
	}
	return ds, dh, clean, nil
}

// planRestore checks a restore's dataset, opt-in and destination before
// anything runs, and returns the host written on (the dataset's), the live
// root and the destination below it. On an inventory host the live root is
// the configured one, so the host is not contacted before admission.
func (cg copyGroup) planRestore(ctx context.Context, dataset, snapshot, p, dest string) (ds *dataset, dh destHost, live, abs, rel string, err error) {
	ds, err = cg.c.lookup(dataset)
	if err != nil {
		return nil, destHost{}, "", "", "", err
	}
	if err := engine.ValidateSnapshotName(snapshot); err != nil {
		return nil, destHost{}, "", "", "", err
	}
	if snapshot == engine.LiveSnapshot {
		return nil, destHost{}, "", "", "", errors.New("snapshot must be a snapshot, not @live")
	}
	snapPath, err := engine.CleanRel(p)
	if err != nil {
		return nil, destHost{}, "", "", "", err
	}
	if ds.restore.Enabled {
		if dh, err = cg.destHostOf(ctx, ds.host); err != nil {
			return nil, destHost{}, "", "", "", err
		}
		live = ds.live
		if live == "" && ds.host == "local" {
			if live, err = ds.engine.LiveRoot(ctx, ds.name); err != nil {
				return nil, destHost{}, "", "", "", err
			}
		}
	}
	abs, rel, err = restoreDestination(ds, dh.paths, live, snapPath, dest)
	if err != nil {
		return nil, destHost{}, "", "", "", err
	}
	return ds, dh, live, abs, rel, nil
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
	return map[string]any{"restored": files, "restore_snapshot": res.Snapshot, "restore_destination": res.Destination, "restore_host": res.Host}
}
