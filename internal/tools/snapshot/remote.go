package snapshot

import (
	"context"
	"fmt"

	"github.com/warden-mcp/warden/internal/runner"
	sshrunner "github.com/warden-mcp/warden/internal/runner/ssh"
	engine "github.com/warden-mcp/warden/internal/snapshot"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// SSHRemote returns the RemoteFunc that reaches inventory hosts through
// pool: the pinned metadata commands run on the SSH runner (argv quoted
// once, never a shell line of ours), and snapshot roots are read over the
// connection's shared SFTP session. Resolving a host does not dial; an
// unknown host is an error, so a misspelt source fails at startup.
func SSHRemote(pool *sshpool.Pool, inv *sshpool.Inventory, opts sshrunner.Options) RemoteFunc {
	return func(host string) (runner.Runner, engine.OpenFSFunc, error) {
		t, err := inv.Resolve(host)
		if err != nil {
			return nil, nil, err
		}
		open := func(ctx context.Context, root string) (engine.FS, error) {
			// Asked per call: the pool redials a dead connection and
			// starts a fresh SFTP session with it.
			c, err := pool.SFTP(ctx, t)
			if err != nil {
				return nil, fmt.Errorf("sftp to %s: %w", host, err)
			}
			return engine.SFTPOpener(c)(ctx, root)
		}
		return sshrunner.New(pool, t, opts), open, nil
	}
}
