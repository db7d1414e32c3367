package hosts

import (
	"context"

	"github.com/warden-mcp/warden/internal/runner"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// Snapshots returns how snapshot sources on a host are read: the runner
// of the pinned metadata commands (zfs list, btrfs subvolume show) and
// the opener of snapshot roots. Both resolve the host again on every use,
// so an inventory reload reaches sources configured at startup; an unknown
// host is an error now, so a misspelt source fails at startup.
func (s *Set) Snapshots(name string) (runner.Runner, engine.OpenFSFunc, error) {
	h, err := s.Resolve(context.Background(), name)
	if err != nil {
		return nil, nil, err
	}
	run := resolvedRunner{set: s, name: name}
	if h.SnapshotFS == nil {
		return run, nil, nil // the engine's own local file system
	}
	return run, func(ctx context.Context, root string) (engine.FS, error) {
		h, err := s.Resolve(ctx, name)
		if err != nil {
			return nil, err
		}
		return h.SnapshotFS(ctx, root)
	}, nil
}

// resolvedRunner runs on a host's Inspect runner as the host resolves at
// the time of the run.
type resolvedRunner struct {
	set  *Set
	name string
}

func (r resolvedRunner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	h, err := r.set.Resolve(ctx, r.name)
	if err != nil {
		return runner.Result{}, err
	}
	return h.Inspect.Run(ctx, req)
}
