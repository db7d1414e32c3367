package server

import (
	"fmt"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/tools/files"
)

// snapshotPaths is the path policy fetch_* and restore_* destinations must
// pass: this machine's files policy, as the file tools apply it, warden's
// own paths always refused.
func snapshotPaths(cfg *config.Config, o Options) (*policy.PathPolicy, error) {
	pp, err := policy.NewPathPolicy(policy.PathRules{
		Allow:           cfg.Files.AllowRoots,
		Deny:            cfg.Files.Deny,
		ReplaceDefaults: cfg.Files.ReplaceDefaults,
		Home:            o.Getenv("HOME"),
		Protect:         enteredOwnPaths(cfg, o, files.ProtectPaths(fileOwnPaths(cfg, o)...)),
		ProtectPatterns: enteredOwnPatterns(cfg, o, ownPatterns(cfg, o.ConfigPath)),
	})
	if err != nil {
		return nil, fmt.Errorf("path policy: %w", err)
	}
	return pp, nil
}
