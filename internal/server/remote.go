package server

import (
	"context"
	"fmt"

	"github.com/pkg/sftp"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/remotefs"
	"github.com/warden-mcp/warden/internal/session"
	"github.com/warden-mcp/warden/internal/session/sshstart"
	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/tools/exec"
	"github.com/warden-mcp/warden/internal/tools/files"
	"github.com/warden-mcp/warden/internal/tools/fleet"
)

// This file wires remote hosts into the tools that take host: the exec
// target, the file system (SFTP or the exec channel) and per-host path
// policy, the SSH session starter and the fleet tools.

// execTarget is where run_command, run_script and fanout run on a remote
// host.
func (h *hosts) execTarget(name string, env []string) (exec.Target, error) {
	t, err := h.remote(name)
	if err != nil {
		return exec.Target{}, err
	}
	shell := t.Shell
	if shell == "" {
		shell = sshpool.DefaultShell
	}
	return exec.Target{Runner: h.runner(t), Shell: shell, Addrs: targetAddrs(t), Env: remoteEnv(env)}, nil
}

// targetAddrs lists a target's address and its jump hops', for host deny
// rules: a host reached through a denied hop is denied too.
func targetAddrs(t sshpool.Target) []string {
	addrs := []string{t.Host}
	for _, j := range t.Jump {
		addrs = append(addrs, j.Host)
	}
	return addrs
}

// addrs returns the addresses of an inventory host; none for one that does
// not resolve (the call fails on resolving it anyway).
func (h *hosts) addrs(name string) []string {
	t, err := h.Resolve(name)
	if err != nil {
		return nil
	}
	return targetAddrs(t)
}

// fileFS is the files.Deps.FS of every host: local, or over the pool SFTP
// when the server offers it and the exec channel when it does not (or as
// the host's files_transport says). It runs once the call is admitted, so
// a denied host is never probed.
func (h *hosts) fileFS(ctx context.Context, name string) (files.FS, error) {
	if isLocal(name) {
		return files.Local{}, nil
	}
	t, err := h.remote(name)
	if err != nil {
		return nil, err
	}
	f, err := h.files.Pick(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("files on %s: %w", name, err)
	}
	if f.Exec != nil {
		return files.Exec{FS: f.Exec}, nil
	}
	return files.SFTP{Client: func(ctx context.Context) (*sftp.Client, error) { return h.pool.SFTP(ctx, t) }}, nil
}

// filesTransport is what hosts_list reports of how a host's files are
// reached: sftp or exec, or "" before a file call has found out.
func (h *hosts) filesTransport(name string) string {
	if tr := h.files.Chosen(name); tr != remotefs.Auto {
		return string(tr)
	}
	return ""
}

// remotePaths builds each remote host's path policy: its own files: rules
// from warden.yaml, else the top-level ones — never warden's local
// protected paths, which do not exist there.
func remotePaths(cfg *config.Config) (byHost map[string]*policy.PathPolicy, def *policy.PathPolicy, err error) {
	def, err = policy.NewPathPolicy(policy.PathRules{Allow: cfg.Files.AllowRoots, Deny: cfg.Files.Deny, ReplaceDefaults: cfg.Files.ReplaceDefaults})
	if err != nil {
		return nil, nil, fmt.Errorf("path policy: %w", err)
	}
	byHost = map[string]*policy.PathPolicy{}
	for _, hc := range cfg.Hosts {
		if hc.Files == nil {
			continue
		}
		pp, err := policy.NewPathPolicy(policy.PathRules{Allow: hc.Files.AllowRoots, Deny: hc.Files.Deny, ReplaceDefaults: hc.Files.ReplaceDefaults})
		if err != nil {
			return nil, nil, fmt.Errorf("hosts.%s.files: %w", hc.Name, err)
		}
		byHost[hc.Name] = pp
	}
	return byHost, def, nil
}

// starter is the sessions.Deps.Starter of remote hosts.
func (h *hosts) starter(ctx context.Context, name string) (session.Starter, string, error) {
	t, err := h.remote(name)
	if err != nil {
		return nil, "", err
	}
	shell := t.Shell
	if shell == "" {
		shell = sshpool.DefaultShell
	}
	return &sshstart.Starter{Pool: h.pool, Target: t, LoginHome: true, Logger: h.logger}, shell, nil
}

// registerFleet adds the fleet tools; the caller closes the result.
func registerFleet(r *relay.Relay, cfg *config.Config, o Options, h *hosts, limits exec.Limits, localConfinement string) (*fleet.Fleet, error) {
	groups := map[string][]string{}
	for _, g := range cfg.Groups {
		groups[g.Name] = g.Hosts
	}
	if err := fleet.ValidateGroups(h, groups); err != nil {
		return nil, err
	}
	env := baseEnv(cfg, o.Getenv)
	return fleet.Register(r, fleet.Deps{
		Inventory: h,
		Pool:      h.pool,
		Groups:    groups,
		Exec: func(ctx context.Context, name string) (exec.Target, error) {
			return h.execTarget(name, env)
		},
		Limits:                   limits,
		MaxForwards:              cfg.SSH.Forwards.Max,
		AllowNonLoopbackForwards: cfg.SSH.Forwards.AllowNonLoopback,
		LocalConfinement:         localConfinement,
		FilesTransport:           h.filesTransport,
		Now:                      o.Now,
		Logger:                   o.Logger,
	}), nil
}
