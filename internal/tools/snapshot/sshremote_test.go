package snapshot

import (
	"context"
	"fmt"

	"github.com/warden-mcp/warden/internal/remotefs"
	"github.com/warden-mcp/warden/internal/runner"
	sshrunner "github.com/warden-mcp/warden/internal/runner/ssh"
	engine "github.com/warden-mcp/warden/internal/snapshot"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// SSHRemote, for these tests, returns the RemoteFunc that reaches inventory hosts through
// pool: the pinned metadata commands run on the SSH runner (argv quoted
// once, never a shell line of ours), and snapshot roots are read as files
// picks for the host — over the connection's shared SFTP session, or, on a
// server without SFTP (a dropbear router), over its exec channel. A nil
// files probes every host. Resolving a host does not dial; an unknown host
// is an error, so a misspelt source fails at startup.
func SSHRemote(pool *sshpool.Pool, inv *sshpool.Inventory, files *remotefs.Picker, opts sshrunner.Options) RemoteFunc {
	if files == nil {
		files = remotefs.NewPicker(pool, nil, opts.Logger)
	}
	return func(host string) (runner.Runner, engine.OpenFSFunc, error) {
		t, err := inv.Resolve(host)
		if err != nil {
			return nil, nil, err
		}
		open := func(ctx context.Context, root string) (engine.FS, error) {
			// Asked per call: the pool redials a dead connection and
			// starts a fresh SFTP session with it.
			f, err := files.Pick(ctx, t)
			if err != nil {
				return nil, fmt.Errorf("files on %s: %w", host, err)
			}
			if f.Exec != nil {
				return engine.ExecOpener(f.Exec)(ctx, root)
			}
			return engine.SFTPOpener(f.SFTP)(ctx, root)
		}
		return sshrunner.New(pool, t, opts), open, nil
	}
}
