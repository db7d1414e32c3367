package server

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/warden-mcp/warden/internal/command"
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/sshhost"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/tools/files"
	"github.com/warden-mcp/warden/internal/tools/fleet"
)

// This file wires what is per inventory host beyond the host set: each
// host's path policy and the fleet tools.

// remotePaths builds each remote host's path policy: its own files: rules
// from warden.yaml, else the top-level ones — and warden's own files,
// refused there too: an inventory host may be this machine under another
// name (localhost, its LAN address, a DNS name), where SFTP as the same or
// a stronger user reaches warden's state, keys and executable, by their
// names or through a link planted there; on any other host the paths
// rarely exist.
func remotePaths(cfg *config.Config, o Options) (byHost map[string]*policy.PathPolicy, def *policy.PathPolicy, err error) {
	protect, patterns := files.ProtectPaths(fileOwnPaths(cfg, o)...), ownPatterns(cfg, o.ConfigPath)
	def, err = policy.NewPathPolicy(policy.PathRules{Allow: cfg.Files.AllowRoots, Deny: cfg.Files.Deny, ReplaceDefaults: cfg.Files.ReplaceDefaults,
		Protect: protect, ProtectPatterns: patterns})
	if err != nil {
		return nil, nil, fmt.Errorf("path policy: %w", err)
	}
	byHost = map[string]*policy.PathPolicy{}
	for _, hc := range cfg.Hosts {
		if hc.Files == nil {
			continue
		}
		pp, err := policy.NewPathPolicy(policy.PathRules{Allow: hc.Files.AllowRoots, Deny: hc.Files.Deny, ReplaceDefaults: hc.Files.ReplaceDefaults,
			Protect: protect, ProtectPatterns: patterns})
		if err != nil {
			return nil, nil, fmt.Errorf("hosts.%s.files: %w", hc.Name, err)
		}
		byHost[hc.Name] = pp
	}
	return byHost, def, nil
}

// registerFleet adds the fleet tools; the caller closes the result.
func registerFleet(r *relay.Relay, cfg *config.Config, o Options, h *hosts.Set, ssh *sshhost.Provider, limits command.Limits, packs func(string) []string) (*fleet.Fleet, *fleetGroups, error) {
	local, err := h.Resolve(context.Background(), "local")
	if err != nil {
		return nil, nil, err
	}
	groups := groupsOf(cfg)
	if err := fleet.ValidateGroups(ssh.Target, groups); err != nil {
		return nil, nil, err
	}
	fg := &fleetGroups{}
	fg.set(groups)
	fl := fleet.Register(r, fleet.Deps{
		Inventory:                inventory{ssh},
		Pool:                     ssh.Pool(),
		Groups:                   fg.get,
		Hosts:                    h.Resolve,
		Limits:                   limits,
		MaxForwards:              cfg.SSH.Forwards.Max,
		AllowNonLoopbackForwards: cfg.SSH.Forwards.AllowNonLoopback,
		LocalConfinement:         local.Confinement,
		FilesTransport:           h.FilesTransport,
		Packs:                    packs,
		Now:                      o.Now,
		Logger:                   o.Logger,
	})
	return fl, fg, nil
}

// groupsOf is warden.yaml's groups: name to members.
func groupsOf(cfg *config.Config) map[string][]string {
	groups := map[string][]string{}
	for _, g := range cfg.Groups {
		groups[g.Name] = g.Hosts
	}
	return groups
}

// fleetGroups are warden.yaml's groups as the fleet tools read them,
// swapped whole on reload.
type fleetGroups struct {
	p atomic.Pointer[map[string][]string]
}

func (g *fleetGroups) get() map[string][]string  { return *g.p.Load() }
func (g *fleetGroups) set(m map[string][]string) { g.p.Store(&m) }

// inventory is the fleet tools' view of the current inventory: listings,
// groups and SSH targets.
type inventory struct{ *sshhost.Provider }

func (i inventory) Resolve(name string) (sshpool.Target, error) { return i.Target(name) }
