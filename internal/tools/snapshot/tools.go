package snapshot

import (
	"context"
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// Register adds the snapshot tools to the relay. It fails, and the server
// does not start, when a source is invalid or sits on a host that cannot be
// reached; with no sources at all it still registers every tool.
func Register(r *relay.Relay, d Deps) error {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	c, err := newCatalog(d)
	if err != nil {
		return err
	}
	g := group{r: r, c: c, log: d.Logger, tail: " " + c.summary(), resolve: d.Resolve, looks: d.Looks}

	add(g, "snapshot_list", "List snapshots",
		"List the snapshots of a dataset, oldest first, with the time each was taken, its root path and (for ZFS with zfs list) the bytes it holds. Filter with after/before (RFC 3339 or a date such as 2026-11-20). has_live says whether \"@live\" (the data on disk now) can be named as a snapshot in the other tools. Start here: every other snapshot tool takes the dataset and snapshot names this returns.",
		func(a *engine.ListArgs) string { return a.Dataset }, (*engine.Engine).List)
	add(g, "snapshot_list_dir", "List a directory in a snapshot",
		"List one directory of a snapshot (or \"@live\"): names, types, sizes, modes and mtimes, sorted by name and capped at max_entries (total gives the full count). path is relative to the snapshot root; \"..\" and absolute paths are refused. Symlinks are listed as links with their target text and never followed.",
		func(a *engine.ListDirArgs) string { return a.Dataset }, (*engine.Engine).ListDir)
	add(g, "snapshot_read_file", "Read a file from a snapshot",
		"Read part of a regular file as it was in a snapshot (or \"@live\"), from offset up to max_bytes; truncated says the file continues, so page with offset. Text comes back as UTF-8, binary as base64 (see encoding). A symlink is described (link_target), never followed or read. Use this to see what a config said last week.",
		func(a *engine.ReadFileArgs) string { return a.Dataset }, (*engine.Engine).ReadFile)
	add(g, "snapshot_find_files", "Find files in snapshots",
		"Find files whose base name matches a glob (e.g. *.conf, id_rsa*) in one snapshot, or in every snapshot newest first when snapshot is empty. Optionally below path. Bounded by max_results, a walk budget and timeout_s; truncated and truncated_reason say when the search stopped early.",
		func(a *engine.FindFilesArgs) string { return a.Dataset }, (*engine.Engine).FindFiles)
	add(g, "snapshot_grep", "Search file contents in a snapshot",
		"Search the files of a snapshot (or \"@live\") below path for an RE2 regular expression, line by line, and return path, line, column and the matching line (an excerpt for very long lines). Binary files are skipped and counted. Bounded by max_matches, bytes scanned and timeout_s; truncated says the search stopped early.",
		func(a *engine.GrepArgs) string { return a.Dataset }, (*engine.Engine).Grep)
	add(g, "snapshot_diff", "Compare two snapshots",
		"List what changed between snapshot a (older) and b (newer, or \"@live\"), optionally below path: added, removed and modified paths (reason: size, content, link_target or mode) and files renamed with identical content. Directory metadata is compared before contents, so unchanged trees are skipped quickly. Counts are exact even when the lists are cut at max_results.",
		func(a *engine.DiffArgs) string { return a.Dataset }, (*engine.Engine).Diff)
	add(g, "file_diff", "Diff one file between snapshots",
		"Show a unified diff (3 lines of context) of one file between snapshot a and b (or \"@live\"), with both sizes and SHA-256 digests. identical is true when the bytes are equal; binary files are compared by digest only. The diff text is capped at max_bytes; very large inputs are reported rather than read.",
		func(a *engine.FileDiffArgs) string { return a.Dataset }, (*engine.Engine).FileDiff)
	add(g, "versions_of", "Distinct versions of a file",
		"List the distinct contents a path has had across the snapshots (optionally between after and before): each version's SHA-256, size and the snapshots holding it, in order of first appearance, plus the snapshots where the path did not exist. Every version is hashed in full, never guessed from size or mtime. Follow up with file_diff or snapshot_read_file.",
		func(a *engine.VersionsArgs) string { return a.Dataset }, (*engine.Engine).VersionsOf)
	add(g, "file_history", "History of one file across snapshots",
		"List every snapshot (optionally between after and before) that holds a path, oldest first, with its type, size, mode, mtime and SHA-256, and a change marker against the snapshot before: first, appeared, modified, metadata (same bytes, new mtime or mode) or unchanged. absent_in lists the snapshots without it. Every revision is hashed in full. Bounded by max_results and timeout_s; truncated says it stopped early.",
		func(a *engine.FileHistoryArgs) string { return a.Dataset }, (*engine.Engine).FileHistory)
	add(g, "snapshots_containing", "Snapshots holding a file or version",
		"List the snapshots where a path exists, or, with size, where it is a file of exactly that many bytes, or, with sha256, where its content has that digest (from checksum_file or file_history). Oldest first; matched counts them all when the list is cut at max_results.",
		func(a *engine.ContainingArgs) string { return a.Dataset }, (*engine.Engine).SnapshotsContaining)
	add(g, "snapshot_cadence", "Are snapshots taken on schedule",
		"Report how regularly a dataset's snapshots are taken, per naming scheme: frequent, hourly, daily, weekly, monthly or yearly when the names say so (zfs-auto-snap, sanoid, rsnapshot), observed for unlabelled snapshots at a steady interval, manual otherwise. For each: the expected and observed intervals, gaps longer than 1.5 intervals with the snapshots around them, the newest snapshot's age and a verdict (late, gaps, ok, manual); verdict overall is the worst. Reads no file.",
		func(a *engine.CadenceArgs) string { return a.Dataset }, (*engine.Engine).Cadence)
	add(g, "size_delta", "How much a tree grew between snapshots",
		"Compare the apparent size of a tree (path, default the root) in snapshot from and snapshot to (or \"@live\"): total bytes and files in each, bytes added, removed, grown and shrunk, and the n files and n entries directly below path whose size changed most. Both trees are walked together; bounded by a walk budget and timeout_s (truncated then says the totals cover only what was visited). For ZFS with dataset: configured, zfs also reports written@from of to: the space written in between that to still holds.",
		func(a *engine.SizeDeltaArgs) string { return a.Dataset }, (*engine.Engine).SizeDelta)
	add(g, "snapshot_pools", "Pool health and datasets",
		"Report the storage a dataset lives on: for ZFS (with dataset: configured) the pool's health, state, errors line, size, allocation, free space and fragmentation (zpool list, zpool status) and the pool's filesystems with used, available and referenced bytes and snapshot counts; for btrfs the filesystem's size, used and free bytes, devices and every subvolume, snapshots marked. commands lists the read-only commands run. Directory sources have no pool (available: false with the reason).",
		func(a *engine.PoolsArgs) string { return a.Dataset }, (*engine.Engine).Pools)
	add(g, "first_appearance", "When a path first appeared",
		"Find the oldest snapshot that holds a path, and the snapshot just before it that does not (neighbor): when a file was created, to the resolution of the snapshot schedule.",
		func(a *engine.AppearanceArgs) string { return a.Dataset }, (*engine.Engine).FirstAppearance)
	add(g, "last_appearance", "When a path was last seen",
		"Find the newest snapshot that holds a path, and the snapshot just after it that does not (neighbor): when a file was deleted or renamed, to the resolution of the snapshot schedule.",
		func(a *engine.AppearanceArgs) string { return a.Dataset }, (*engine.Engine).LastAppearance)
	add(g, "find_deleted", "Find deleted files",
		"List files and directories present in the earliest snapshot of a range (after/before) and gone in the latest (or in the live data with against_live), optionally below path. Each deletion is bracketed by last_seen and gone_in; files that merely moved with the same content are reported under moved, not deleted. Bounded by max_results and timeout_s.",
		func(a *engine.FindDeletedArgs) string { return a.Dataset }, (*engine.Engine).FindDeleted)
	add(g, "size_breakdown", "Where the space is in a snapshot",
		"Report the apparent size and file count of a directory tree in a snapshot (or \"@live\"), and of its subdirectories down to depth, largest kept up to max_entries. Use it to see which part of a dataset grew; compare two snapshots by calling it on each.",
		func(a *engine.SizeArgs) string { return a.Dataset }, (*engine.Engine).SizeBreakdown)
	add(g, "top_consumers", "Largest files and directories",
		"Find the n largest files and the n largest directories (by total size below them) of a snapshot (or \"@live\"), optionally below path. Bounded by a walk budget and timeout_s; truncated says the walk stopped early.",
		func(a *engine.TopArgs) string { return a.Dataset }, (*engine.Engine).TopConsumers)
	add(g, "stale_snapshots", "Snapshots older than an age",
		"List the snapshots of a dataset older than older_than (30d, 2w, 720h, 90m) and, for ZFS with zfs list, the bytes they hold. It only reports: nothing is ever destroyed, and no tool in warden can destroy a snapshot.",
		func(a *engine.StaleArgs) string { return a.Dataset }, (*engine.Engine).Stale)
	add(g, "bisect_change", "Find when something changed",
		"Binary-search the snapshots (optionally between after and before) for the first one where a predicate on path flips: exists, contains (value is text), sha256_equals (value is a hex digest) or size_at_least (value is a byte count). Visits about log2(N) snapshots, listed in visited; last_unchanged and first_changed bracket the change. Assumes the predicate flips once in the range.",
		func(a *engine.BisectArgs) string { return a.Dataset }, (*engine.Engine).Bisect)
	add(g, "checksum_file", "Checksum a file in a snapshot",
		"Return the SHA-256 digest and size of a regular file in a snapshot (or \"@live\"), read in full within the server's scan bound. Use it to check a file against a known-good digest or to compare it across snapshots.",
		func(a *engine.ChecksumArgs) string { return a.Dataset }, (*engine.Engine).Checksum)
	registerCopyTools(g, d)
	if d.Reach != nil {
		now := d.Now
		if now == nil {
			now = time.Now
		}
		d.Reach.set(c, now)
	}
	return nil
}

// group is what every registration shares.
type group struct {
	r    *relay.Relay
	c    *catalog
	log  *slog.Logger
	tail string
	// resolve, when set, reaches a dataset's host to tell its files that
	// a call on them was given up on.
	resolve hosts.Resolver
	looks   *runner.Looks
}

// add registers one read-only tool that routes a call to its dataset's
// engine. The plan refuses an unknown dataset before anything runs and
// names every command the engine may run for the call, so the policy
// sees each one.
func add[In, Out any](g group, name, title, desc string, datasetOf func(*In) string, call func(*engine.Engine, context.Context, In) (Out, error)) {
	relay.Add[In, Out](g.r, relay.Spec{
		Name:        name,
		Title:       title,
		Description: desc + g.tail,
		Tier:        policy.TierRead,
		Annotations: &mcp.ToolAnnotations{
			Title:           title,
			ReadOnlyHint:    true,
			IdempotentHint:  true,
			DestructiveHint: ptr(false),
			OpenWorldHint:   ptr(false),
		},
	}, func(ctx context.Context, _ *relay.Call, in *In) (*relay.Plan, error) {
		ds, err := g.c.lookup(datasetOf(in))
		if err != nil {
			return nil, err
		}
		args := *in
		return &relay.Plan{Host: ds.host, Input: ds.callInput(name, in), Run: func(ctx context.Context) *relay.Outcome {
			// The engine ends a call at its timeout, unless a look at a
			// file waits on a mount that does not answer; then the call
			// ends, when it is cancelled or a little past the longest
			// timeout any call may have.
			wait := ds.engine.MaxWall() + 10*time.Second
			out, err := runner.Await(ctx, g.looks, wait, func() *relay.Outcome {
				res, err := call(ds.engine, ctx, args)
				return outcome(name, g.log, res, err)
			})
			switch {
			case runner.Busy(err):
				return relay.Fail(relay.StatusError, "%s: %v", name, err)
			case err != nil && g.resolve != nil && !hosts.IsLocal(ds.host):
				if h, err := g.resolve(context.WithoutCancel(ctx), ds.host); err == nil {
					h.AbandonFiles(ctx)
				}
			}
			if err != nil && ctx.Err() != nil {
				return relay.Fail(relay.StatusError, "%s: ended while it waited on the file system of dataset %s: %v", name, datasetOf(in), context.Cause(ctx))
			}
			if err != nil {
				return relay.Fail(relay.StatusError, "%s: the file system of dataset %s did not answer within %s (a mount whose server does not answer?)", name, datasetOf(in), wait)
			}
			return out
		}}, nil
	})
}
