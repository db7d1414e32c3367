// Package snapshot owns read-only forensics over filesystem snapshots: it
// lists ZFS, btrfs and directory-copy snapshots of a configured dataset and
// answers questions about them (what a file said, what changed, what vanished,
// where the space went) without any code path that could modify a pool.
//
// Every exported tool method takes one typed argument struct and returns one
// typed result struct, so that an MCP tool is a single call. Agent paths are
// always relative to a snapshot root and are resolved inside it; every read is
// bounded by Limits and reports truncated rather than failing.
package snapshot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/runner"
)

// Source kinds accepted in SourceConfig.Kind.
const (
	KindZFS   = "zfs"
	KindBtrfs = "btrfs"
	KindDir   = "dir"
)

// LiveSnapshot is the reserved snapshot name for the live data of a dataset
// (the ZFS mountpoint, the snapper subvolume, or SourceConfig.Live), so that
// any snapshot can be compared against what is on disk now.
const LiveSnapshot = "@live"

// ErrInvalidArgument marks errors caused by the caller's arguments: the tool
// layer reports them with status invalid_argument.
var ErrInvalidArgument = errors.New("invalid argument")

// ErrNotFound marks a dataset, snapshot or path that does not exist.
var ErrNotFound = errors.New("not found")

func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidArgument, fmt.Sprintf(format, args...))
}

func notFoundf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNotFound, fmt.Sprintf(format, args...))
}

// SourceConfig describes where one dataset's snapshots live.
type SourceConfig struct {
	// Name is the dataset name exposed to tools.
	Name string `json:"name" yaml:"name"`
	// Kind is "zfs", "btrfs" or "dir".
	Kind string `json:"kind" yaml:"kind"`
	// Path is, for zfs, the dataset mountpoint (snapshots under
	// .zfs/snapshot); for btrfs, a directory holding snapper's
	// .snapshots/N/snapshot (or that .snapshots directory itself), or a
	// directory of read-only snapshot subvolumes; for dir, the parent
	// directory of the snapshot copies.
	Path string `json:"path" yaml:"path"`
	// Pattern is, for dir, a glob of snapshot directory names such as
	// "daily.*" or "backup-*". Empty means every directory.
	Pattern string `json:"pattern,omitempty" yaml:"pattern,omitempty"`
	// TimeFormat is, for dir, a Go time layout parsed from the name after
	// the literal prefix of Pattern, or "" to use the directory's mtime.
	TimeFormat string `json:"time_format,omitempty" yaml:"time_format,omitempty"`
	// Dataset is, for zfs, the dataset name given to `zfs list`; empty
	// means snapshot times come from the .zfs/snapshot directory.
	Dataset string `json:"dataset,omitempty" yaml:"dataset,omitempty"`
	// Live is the path of the live data compared as LiveSnapshot. It
	// defaults to Path for zfs and for btrfs with snapper's layout.
	Live string `json:"live,omitempty" yaml:"live,omitempty"`
}

// Snapshot is one snapshot of a dataset.
type Snapshot struct {
	Name string    `json:"name" jsonschema:"snapshot name, as accepted by the other snapshot tools"`
	Time time.Time `json:"time" jsonschema:"when the snapshot was taken"`
	// Root is the absolute path of the snapshot root on its host.
	Root string `json:"root" jsonschema:"absolute path of the snapshot root on its host"`
	// Used and Referenced come from zfs list; zero when unknown.
	Used       int64 `json:"used_bytes,omitempty" jsonschema:"bytes only this snapshot holds (zfs), freed if it were destroyed"`
	Referenced int64 `json:"referenced_bytes,omitempty" jsonschema:"bytes the snapshot references (zfs)"`
	// Live reports whether this is the live data rather than a snapshot.
	Live bool `json:"live,omitempty" jsonschema:"true for the live data of the dataset rather than a snapshot"`
}

// OpenFSFunc opens a filesystem confined to root, an absolute path on the
// host the dataset lives on.
type OpenFSFunc func(ctx context.Context, root string) (FS, error)

// Config configures an Engine.
type Config struct {
	Sources []SourceConfig
	// Runner runs the pinned read-only commands (zfs list, btrfs subvolume
	// show). Nil means no command is ever run and metadata comes from the
	// filesystem alone.
	Runner runner.Runner
	// OpenFS opens snapshot roots; nil means LocalFS.
	OpenFS OpenFSFunc
	// Limits bounds every tool; zero fields take DefaultLimits.
	Limits Limits
	// Workers is how many directories are read in parallel; 0 means 8.
	Workers int
	// Looks counts each reader past a call's first (see parallel and
	// runner.Looks); nil counts nothing.
	Looks *runner.Looks
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Paths is the files path policy of the sources' host: a name it
	// denies is hidden from every tool, in the live data and in every
	// snapshot of it (deniedFS). Nil hides nothing.
	Paths *policy.PathPolicy
}

// Engine answers snapshot questions for a fixed set of sources. It is safe
// for concurrent use and holds no state beyond its configuration.
type Engine struct {
	sources map[string]SourceConfig
	names   []string
	runner  runner.Runner
	openFS  OpenFSFunc
	limits  Limits
	workers int
	looks   *runner.Looks
	now     func() time.Time
	log     *slog.Logger
	paths   *policy.PathPolicy
}

// New validates cfg and returns an Engine.
func New(cfg Config) (*Engine, error) {
	e := &Engine{
		sources: make(map[string]SourceConfig, len(cfg.Sources)),
		runner:  cfg.Runner,
		openFS:  cfg.OpenFS,
		limits:  cfg.Limits.withDefaults(),
		workers: cfg.Workers,
		looks:   cfg.Looks,
		now:     cfg.Now,
		log:     cfg.Logger,
		paths:   cfg.Paths,
	}
	if e.openFS == nil {
		e.openFS = func(_ context.Context, root string) (FS, error) { return OpenLocalFS(root) }
	}
	if e.workers <= 0 {
		e.workers = 8
	}
	if e.workers > 64 {
		e.workers = 64
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.log == nil {
		e.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	for _, s := range cfg.Sources {
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("snapshot config: %w", err)
		}
		if _, dup := e.sources[s.Name]; dup {
			return nil, fmt.Errorf("snapshot config: dataset %q configured twice", s.Name)
		}
		e.sources[s.Name] = s
		e.names = append(e.names, s.Name)
	}
	sort.Strings(e.names)
	return e, nil
}

// Datasets returns the configured dataset names, sorted.
func (e *Engine) Datasets() []string { return append([]string(nil), e.names...) }

// source returns the configured source for a tool's dataset argument.
func (e *Engine) source(name string) (SourceConfig, error) {
	if err := ValidateDatasetName(name); err != nil {
		return SourceConfig{}, err
	}
	s, ok := e.sources[name]
	if !ok {
		return SourceConfig{}, notFoundf("unknown dataset %q (configured: %v)", name, e.names)
	}
	return s, nil
}

// MaxWall is the longest any call may run by its timeout.
func (e *Engine) MaxWall() time.Duration {
	return e.limits.timeout("", e.limits.TimeoutS.Max)
}

// withTimeout bounds one tool call by the per-tool default or the caller's
// request, never beyond the hard cap.
func (e *Engine) withTimeout(ctx context.Context, tool string, requestedS int) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, e.limits.timeout(tool, requestedS))
}

// closeFS releases fsys if it holds resources.
func closeFS(fsys FS) {
	if c, ok := fsys.(io.Closer); ok {
		_ = c.Close()
	}
}
