package hosts

import (
	"context"
	"fmt"
	"path"

	"github.com/warden-mcp/warden/internal/runner"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// Snapshots returns how snapshot sources on a host are read: the runner
// of the pinned metadata commands (zfs list, btrfs subvolume show) and
// the opener of snapshot roots. Both resolve the host again on every use,
// so an inventory reload reaches sources configured at startup; an unknown
// host is an error now, so a misspelt source fails at startup.
func (s *Set) Snapshots(name string) (runner.Runner, engine.OpenFSFunc, error) {
	if _, err := s.Resolve(context.Background(), name); err != nil {
		return nil, nil, err
	}
	run := resolvedRunner{set: s, name: name}
	if IsLocal(name) {
		if s.local.Kind == KindLocal {
			return run, nil, nil // the engine's own local file system
		}
		root := s.local.root
		return run, func(_ context.Context, dir string) (engine.FS, error) {
			return engine.OpenLocalFS(path.Join(root, dir))
		}, nil
	}
	open := func(ctx context.Context, root string) (engine.FS, error) {
		t, err := s.Target(name)
		if err != nil {
			return nil, fmt.Errorf("host %q: %w (see hosts_list)", name, err)
		}
		// Asked per call: the pool redials a dead connection and starts a
		// fresh SFTP session with it.
		f, err := s.files.Pick(ctx, t)
		if err != nil {
			return nil, fmt.Errorf("files on %s: %w", name, err)
		}
		if f.Exec != nil {
			return engine.ExecOpener(f.Exec)(ctx, root)
		}
		return engine.SFTPOpener(f.SFTP)(ctx, root)
	}
	return run, open, nil
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
