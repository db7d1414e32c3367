package snapshot

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"sort"
	"strings"
)

// Reach levels of a tool on a source.
const (
	ReachFull        = "full"
	ReachPartial     = "partial"
	ReachUnavailable = "unavailable"
)

// ReachProbed is the Status of a report whose probes ran; a report that
// could not be made has Status "unknown: <reason>" (Unknown).
const ReachProbed = "probed"

// Unknown is the Status of a source that could not be probed, and why.
func Unknown(reason string) string { return "unknown: " + reason }

// readTools read snapshot contents; they need the snapshot directories.
var readTools = []string{"snapshot_list_dir", "snapshot_read_file", "snapshot_find_files", "snapshot_grep",
	"snapshot_diff", "file_diff", "versions_of", "first_appearance", "last_appearance", "find_deleted",
	"size_breakdown", "top_consumers", "bisect_change", "checksum_file", "file_history", "snapshots_containing",
	"fetch_file", "fetch_dir", "restore_file", "restore_dir"}

// Delegation is one line of `zfs allow <dataset>`: who holds which
// permissions, and where.
type Delegation struct {
	Dataset string   `json:"dataset" jsonschema:"the dataset the permissions are set on"`
	Scope   string   `json:"scope" jsonschema:"Local, Descendent or Local+Descendent (as zfs prints it), Create time or Permission sets"`
	Who     string   `json:"who" jsonschema:"user NAME, group NAME, everyone, or a set name"`
	Perms   []string `json:"perms"`
}

// ToolReach says how fully one tool can serve a source.
type ToolReach struct {
	Tool  string `json:"tool"`
	Reach string `json:"reach" jsonschema:"full, partial or unavailable"`
	Why   string `json:"why,omitempty"`
}

// Probe is one check behind a reach report.
type Probe struct {
	Check string `json:"check"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// Reach is what a source can serve with the permissions warden has there.
type Reach struct {
	Dataset string `json:"dataset"`
	Kind    string `json:"kind"`
	// Host is the inventory host the source lives on, "local" for this
	// machine.
	Host string `json:"host,omitempty"`
	// Status is ReachProbed, or "unknown: <reason>" when the source's host
	// did not answer in time or could not be reached: Probes and Tools
	// then say nothing about what the source can serve.
	Status string      `json:"status" jsonschema:"probed, or unknown: <reason> when the host did not answer in time or could not be reached (then tools says nothing)"`
	Probes []Probe     `json:"probes"`
	Tools  []ToolReach `json:"tools" jsonschema:"tools that are not fully served, and why; a tool not listed is fully served"`
	// Delegations are the `zfs allow` lines of the dataset, read for the
	// operator: warden's tools need no delegated permission.
	Delegations []Delegation `json:"zfs_delegations,omitempty"`
	// Excess names delegated permissions that change data; warden needs
	// none of them.
	Excess []string `json:"zfs_excess_permissions,omitempty" jsonschema:"delegated permissions that change data or snapshots: more than warden needs"`
}

// readOnlyZFSPerms are delegable permissions that change nothing.
var readOnlyZFSPerms = map[string]bool{"send": true, "hold": true, "diff": true, "userused": true, "groupused": true, "projectused": true,
	"userobjused": true, "groupobjused": true, "projectobjused": true}

// Reach probes what a source can serve: whether its snapshots can be
// listed and read, whether the metadata commands run, and for ZFS with a
// dataset what `zfs allow` shows. It runs only pinned read-only commands.
func (e *Engine) Reach(ctx context.Context, dataset string) (Reach, error) {
	ctx, cancel := e.withTimeout(ctx, "reach", 0)
	defer cancel()
	src, err := e.source(dataset)
	if err != nil {
		return Reach{}, err
	}
	r := Reach{Dataset: src.Name, Kind: src.Kind, Status: ReachProbed, Probes: []Probe{}, Tools: []ToolReach{}}
	probe := func(check string, err error) bool {
		p := Probe{Check: check, OK: err == nil}
		if err != nil {
			p.Error = err.Error()
		}
		r.Probes = append(r.Probes, p)
		return err == nil
	}
	gap := func(reach, why string, tools ...string) {
		for _, t := range tools {
			r.Tools = append(r.Tools, ToolReach{Tool: t, Reach: reach, Why: why})
		}
	}
	snaps, err := e.snapshots(ctx, src)
	if !probe("list snapshots", err) {
		gap(ReachUnavailable, "the snapshots cannot be listed", append([]string{"snapshot_list", "snapshot_cadence", "stale_snapshots", "size_delta"}, readTools...)...)
	} else if len(snaps) > 0 {
		v, err := e.openSnap(ctx, src, snaps[len(snaps)-1])
		if err == nil {
			_, err = v.fsys.ReadDir(".")
			v.close()
		}
		if !probe("read the newest snapshot's root", err) {
			gap(ReachUnavailable, "snapshot contents cannot be read (file permissions, or .zfs/snapshot not reachable)", readTools...)
		}
	}
	if src.Kind == KindZFS && src.Dataset != "" {
		e.zfsReach(ctx, src, &r, probe, gap)
	}
	if src.Kind == KindBtrfs && e.runner != nil {
		if _, err := e.run(ctx, []string{"btrfs", "subvolume", "list", src.Path}); !probe("btrfs subvolume list", err) {
			gap(ReachPartial, "btrfs subvolume list failed (it needs root or CAP_SYS_ADMIN): no subvolume listing", "snapshot_pools")
		}
	}
	sort.Slice(r.Tools, func(i, j int) bool { return r.Tools[i].Tool < r.Tools[j].Tool })
	return r, nil
}

// Contact reports whether the host a dataset lives on answers: its files
// open at the source's path and an lstat there is answered. A missing or
// unreadable path is an answer (Reach then says what it costs); a dial,
// handshake or session failure is not. It runs no command.
func (e *Engine) Contact(ctx context.Context, dataset string) error {
	src, err := e.source(dataset)
	if err != nil {
		return err
	}
	fsys, err := e.openFS(ctx, src.Path)
	if err == nil {
		_, err = fsys.Lstat(".")
		closeFS(fsys)
	}
	if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return nil
	}
	return err
}

func (e *Engine) zfsReach(ctx context.Context, src SourceConfig, r *Reach, probe func(string, error) bool, gap func(string, string, ...string)) {
	if e.runner == nil {
		gap(ReachPartial, "no command runner: times come from .zfs/snapshot, no space figures", "snapshot_list", "stale_snapshots", "size_delta")
		gap(ReachUnavailable, "no command runner", "snapshot_pools")
		return
	}
	if _, err := e.run(ctx, zfsListArgv(src.Dataset)); !probe("zfs list", err) {
		gap(ReachPartial, "zfs list fails (the user cannot open /dev/zfs?): times come from .zfs/snapshot, no used/referenced bytes", "snapshot_list", "stale_snapshots")
	}
	if _, err := e.run(ctx, []string{"zfs", "get", "-H", "-p", "-o", "name,property,value", "written", src.Dataset}); !probe("zfs get written", err) {
		gap(ReachPartial, "zfs get fails: size_delta reports the walk only, not written@", "size_delta")
	}
	pool, _, _ := strings.Cut(src.Dataset, "/")
	if _, err := e.run(ctx, zpoolListArgv(pool)); !probe("zpool list", err) {
		gap(ReachUnavailable, "zpool list fails", "snapshot_pools")
	}
	out, err := e.run(ctx, zfsAllowArgv(src.Dataset))
	if !probe("zfs allow (display)", err) {
		return
	}
	r.Delegations = parseZFSAllow(out)
	seen := map[string]bool{}
	for _, d := range r.Delegations {
		for _, p := range d.Perms {
			if !readOnlyZFSPerms[p] && !strings.HasPrefix(p, "@") && !seen[p] && d.Scope != "Create time" {
				seen[p] = true
				r.Excess = append(r.Excess, p)
			}
		}
	}
	sort.Strings(r.Excess)
}

// zfsAllowArgv displays the permissions delegated on a dataset. It is the
// only form of zfs allow the engine may run: one argument, a dataset name.
func zfsAllowArgv(dataset string) []string { return []string{"zfs", "allow", dataset} }

// parseZFSAllow reads `zfs allow <dataset>`: "---- Permissions on DS ----"
// headers, scope lines ending in ":" ("Local+Descendent permissions:"),
// and indented "user NAME perm,perm" / "everyone perm" lines. Lines it
// does not recognise are skipped.
func parseZFSAllow(out []byte) []Delegation {
	var (
		res   []Delegation
		ds    string
		scope string
	)
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		line := sc.Text()
		t := strings.TrimSpace(line)
		switch {
		case t == "":
		case strings.HasPrefix(t, "---- Permissions on "):
			ds = strings.TrimRight(strings.TrimPrefix(t, "---- Permissions on "), "- ")
			scope = ""
		case !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t") && strings.HasSuffix(t, ":"):
			scope = strings.TrimSuffix(strings.TrimSuffix(t, ":"), " permissions")
		case ds != "" && scope != "":
			f := strings.Fields(t)
			var who, perms string
			switch {
			case len(f) >= 3 && (f[0] == "user" || f[0] == "group"):
				who, perms = f[0]+" "+f[1], f[2]
			case len(f) >= 2:
				who, perms = f[0], f[1]
			default:
				continue
			}
			res = append(res, Delegation{Dataset: ds, Scope: scope, Who: who, Perms: strings.Split(perms, ",")})
		}
	}
	return res
}
