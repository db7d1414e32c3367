// Package snapshot owns the snapshot forensics tools: it exposes the
// read-only engine of internal/snapshot (ZFS, btrfs and directory-copy
// snapshots) as read-only tier-0 MCP tools through the relay, routing each call
// to the engine of the host its dataset lives on.
//
// It also owns the only snapshot tools that write: fetch_file and fetch_dir
// (tier 2) copy an old version to a destination the host's path policy
// allows, on this machine or an inventory host, and restore_file and
// restore_dir (tier 3, off unless a dataset opts in) put one back into the
// dataset's live data on its host, the current version kept aside first.
// The engine reads; the writing is here, through a destination seam: on
// this machine directories opened with openat2 so that no symlink is ever
// followed, elsewhere (an inventory host, or PID 1's tree under
// host_namespace: pid1) the host's files, reached through the host seam and
// walked without following a symlink in any component.
//
// The tools are registered even when no snapshot source is configured, so an
// agent can discover them; every call then answers invalid_argument with a
// pointer to docs/snapshots.md instead of failing at startup.
package snapshot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/shellword"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// Source is one configured dataset and the host it lives on.
type Source struct {
	engine.SourceConfig
	// Host is "" or "local" for this machine, otherwise an inventory name
	// reached through Deps.Remote.
	Host string
	// Restore opts the dataset in to restore_file and restore_dir.
	Restore Restore
}

// RemoteFunc resolves an inventory host for its snapshot sources: the runner
// for the pinned metadata commands and the opener for snapshot roots (over
// SFTP, or the exec channel of a server without it). It is called once per
// host while the tools are registered and must not dial; connecting
// happens on the first call that needs the host.
type RemoteFunc func(host string) (runner.Runner, engine.OpenFSFunc, error)

// Deps is what the snapshot tools need.
type Deps struct {
	Sources []Source
	// Runner runs the pinned read-only commands (zfs list, btrfs subvolume
	// show) for local sources; nil means metadata comes from the
	// filesystem alone.
	Runner runner.Runner
	// Remote reaches sources on SSH hosts; nil makes any remote source a
	// startup error.
	Remote RemoteFunc
	// Hosts, when set, reaches the sources of every host, this machine
	// included (whose files may be another mount namespace's), in place of
	// Runner and Remote.
	Hosts RemoteFunc
	// Limits bounds every tool; zero fields take engine.DefaultLimits.
	Limits engine.Limits
	// Paths is the path policy of this machine: fetch and restore
	// destinations must pass it. Nil refuses every fetch and restore.
	Paths *policy.PathPolicy
	// Copy bounds fetch and restore calls; zero fields take
	// DefaultCopyLimits.
	Copy CopyLimits
	// Reach, when set, is filled so that server_info can report what each
	// local dataset can serve.
	Reach *Reacher
	// Resolve resolves the host a fetch or restore writes on (the
	// destination host of a fetch, the dataset's host for a restore);
	// copies onto an inventory host, or onto this machine entered through
	// PID 1, are written through its files (Host.Files). Nil allows only
	// copies onto this machine, written with openat2 here.
	Resolve hosts.Resolver
	// HostPaths is the path policy of an inventory host for copies
	// written there; nil, or a nil result, means Paths.
	HostPaths func(host string) *policy.PathPolicy
	// LocalEntered says "local" is another mount namespace's host (warden
	// runs with host_namespace: pid1). With Resolve, copies onto "local"
	// go through the entered host's files under /proc/1/root; without
	// it they are refused rather than written to the wrong tree.
	LocalEntered bool
	// Looks bounds the calls that wait on a file system at once, and
	// the directory readers of each past its first (see runner.Looks);
	// nil bounds nothing.
	Looks *runner.Looks
	// Workers is how many directories each engine reads in parallel; 0
	// means the engine's default.
	Workers int
	Now     func() time.Time
	Logger  *slog.Logger
}

// errNoSources is what every tool answers on a server without snapshots.
var errNoSources = errors.New("no snapshot sources configured; add a snapshots: list to warden.yaml (see docs/snapshots.md)")

// dataset is one configured dataset as the tools route it.
type dataset struct {
	name   string
	kind   string
	host   string
	engine *engine.Engine
	// input is what the policy evaluates for a call on this dataset: the
	// pinned command the engine may run, or nothing at all.
	input policy.Input
	// restore is the dataset's opt-in to the restore tools.
	restore Restore
	// live is the live data as configured ("" when only the snapshot
	// layout tells, as for snapper).
	live string
	// src and runner give the commands a call may run (callInput).
	src    engine.SourceConfig
	runner runner.Runner
}

// catalog maps dataset names to their engines. It is read-only after
// newCatalog.
type catalog struct {
	byName map[string]*dataset
	names  []string
}

// newCatalog builds one engine per host, so that each engine's runner and
// filesystem reach the host its datasets live on.
func newCatalog(d Deps) (*catalog, error) {
	c := &catalog{byName: map[string]*dataset{}}
	byHost := map[string][]Source{}
	var hosts []string
	for _, s := range d.Sources {
		h := s.Host
		if h == "" {
			h = "local"
		}
		if _, dup := c.byName[s.Name]; dup {
			return nil, fmt.Errorf("snapshots: dataset %q configured twice", s.Name)
		}
		if err := s.Restore.validate(h, s.Kind, configuredLive(s.SourceConfig)); err != nil {
			return nil, fmt.Errorf("snapshots: dataset %q: %w", s.Name, err)
		}
		c.byName[s.Name] = nil
		if _, seen := byHost[h]; !seen {
			hosts = append(hosts, h)
		}
		byHost[h] = append(byHost[h], s)
	}
	for _, h := range hosts {
		cfg := engine.Config{Limits: d.Limits, Workers: d.Workers, Looks: d.Looks, Now: d.Now, Logger: d.Logger, Paths: d.readPaths(h)}
		switch {
		case d.Hosts != nil:
			run, open, err := d.Hosts(h)
			if err != nil {
				return nil, fmt.Errorf("snapshots: dataset %q: host %q: %w", byHost[h][0].Name, h, err)
			}
			cfg.Runner, cfg.OpenFS = run, open
		case h == "local":
			cfg.Runner = d.Runner
		default:
			if d.Remote == nil {
				return nil, fmt.Errorf("snapshots: dataset %q is on host %q, but this server has no SSH inventory wired for snapshot sources; use a local source or see docs/snapshots.md", byHost[h][0].Name, h)
			}
			run, open, err := d.Remote(h)
			if err != nil {
				return nil, fmt.Errorf("snapshots: dataset %q: host %q: %w", byHost[h][0].Name, h, err)
			}
			cfg.Runner, cfg.OpenFS = run, open
		}
		for _, s := range byHost[h] {
			cfg.Sources = append(cfg.Sources, s.SourceConfig)
		}
		e, err := engine.New(cfg)
		if err != nil {
			return nil, fmt.Errorf("snapshots: %w", err)
		}
		for _, s := range byHost[h] {
			c.byName[s.Name] = &dataset{name: s.Name, kind: s.Kind, host: h, engine: e, input: pinnedInput(s.SourceConfig, cfg.Runner), restore: s.Restore, live: configuredLive(s.SourceConfig),
				src: s.SourceConfig, runner: cfg.Runner}
		}
	}
	for n := range c.byName {
		c.names = append(c.names, n)
	}
	sort.Strings(c.names)
	return c, nil
}

// readPaths is the path policy whose denied names the read tools hide on
// host: what read_file refuses there, warden's own files included. A
// dataset is the operator's grant of its tree, so the policy's allowed
// roots do not narrow it; its deny rules do.
func (d Deps) readPaths(host string) *policy.PathPolicy {
	if host != "local" && d.HostPaths != nil {
		if pp := d.HostPaths(host); pp != nil {
			return pp
		}
	}
	return d.Paths
}

// pinnedInput is the command the engine may run for src on every call,
// for the policy to see; empty when the engine runs nothing for it (no
// runner, or a source whose metadata is read from the filesystem).
func pinnedInput(src engine.SourceConfig, run runner.Runner) policy.Input {
	return probeInput(src, run, "", "", "")
}

// probeInput is every command the engine may run for one call of tool on
// src (engine.Probes), for the policy to evaluate before anything runs:
// one argv as itself, several as lines, as the host tools give theirs.
func probeInput(src engine.SourceConfig, run runner.Runner, tool, from, to string) policy.Input {
	if run == nil {
		return policy.Input{}
	}
	return inputOf(engine.Probes(src, tool, from, to))
}

// inputOf describes argvs for the policy.
func inputOf(argvs [][]string) policy.Input {
	switch len(argvs) {
	case 0:
		return policy.Input{}
	case 1:
		return policy.Input{Argv: argvs[0]}
	}
	lines := make([]string, 0, len(argvs))
	for _, a := range argvs {
		lines = append(lines, shellword.Join(a))
	}
	return policy.Input{Command: strings.Join(lines, "\n")}
}

// callInput is what the policy evaluates for one call of tool: the
// dataset's pinned command, and what size_delta and snapshot_pools run
// beyond it.
func (d *dataset) callInput(tool string, args any) policy.Input {
	switch a := args.(type) {
	case *engine.SizeDeltaArgs:
		return probeInput(d.src, d.runner, tool, a.From, a.To)
	case *engine.PoolsArgs:
		return probeInput(d.src, d.runner, tool, "", "")
	}
	return d.input
}

// lookup returns the dataset a call names, or an error for the agent.
func (c *catalog) lookup(name string) (*dataset, error) {
	if len(c.names) == 0 {
		return nil, errNoSources
	}
	if name == "" {
		return nil, fmt.Errorf("dataset is required; configured datasets: %s", strings.Join(c.names, ", "))
	}
	if err := engine.ValidateDatasetName(name); err != nil {
		return nil, err
	}
	d, ok := c.byName[name]
	if !ok {
		return nil, fmt.Errorf("unknown dataset %q; configured datasets: %s", name, strings.Join(c.names, ", "))
	}
	return d, nil
}

// summary describes the configured datasets for tool descriptions.
func (c *catalog) summary() string {
	if len(c.names) == 0 {
		return "No snapshot sources are configured on this server, so calls answer invalid_argument."
	}
	parts := make([]string, 0, len(c.names))
	for _, n := range c.names {
		d := c.byName[n]
		p := n + " (" + d.kind
		if d.host != "local" {
			p += " on " + d.host
		}
		parts = append(parts, p+")")
	}
	return "Datasets: " + strings.Join(parts, ", ") + "."
}

// outcome maps an engine answer to a relay outcome. The audit record gets
// the SHA-256 and length of the JSON the agent receives, never its body.
func outcome(tool string, log *slog.Logger, res any, err error) *relay.Outcome {
	if err != nil {
		return failure(tool, log, err)
	}
	body, merr := json.Marshal(res)
	if merr != nil {
		return relay.Fail(relay.StatusError, "%s: encode result: %v", tool, merr)
	}
	return &relay.Outcome{Result: res, Output: body}
}

// failure classifies an engine error for the agent: its own mistakes are
// invalid_argument, a missing dataset, snapshot or path too (with the
// engine's explanation), and anything else is an error, logged in full.
func failure(tool string, log *slog.Logger, err error) *relay.Outcome {
	switch {
	case errors.Is(err, engine.ErrInvalidArgument):
		return relay.Fail(relay.StatusInvalid, "%v", err)
	case errors.Is(err, engine.ErrNotFound):
		return relay.Fail(relay.StatusInvalid, "%v (snapshot_list shows the snapshots, snapshot_list_dir the paths)", err)
	case errors.Is(err, context.DeadlineExceeded):
		return relay.Fail(relay.StatusTimeout, "%s: timed out: %v", tool, err)
	}
	log.Warn("snapshot tool failed", "tool", tool, "err", err)
	return relay.Fail(relay.StatusError, "%s: %v", tool, err)
}

func ptr[T any](v T) *T { return &v }

// SourcesFrom turns the snapshots: list of warden.yaml into Sources.
func SourcesFrom(list []config.Snapshot) []Source {
	out := make([]Source, 0, len(list))
	for _, s := range list {
		out = append(out, Source{Host: s.Host, Restore: Restore{Enabled: s.Restore.Enabled, Allow: s.Restore.Allow}, SourceConfig: engine.SourceConfig{
			Name:       s.Name,
			Kind:       s.Kind,
			Path:       s.Path,
			Pattern:    s.Pattern,
			TimeFormat: s.TimeFormat,
			Dataset:    s.Dataset,
			Live:       s.Live,
		}})
	}
	return out
}
