package server

import (
	"fmt"
	"os/user"
	"path/filepath"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/agenthost"
	"github.com/warden-mcp/warden/internal/hosts/localhost"
	"github.com/warden-mcp/warden/internal/hosts/sshhost"
	"github.com/warden-mcp/warden/internal/remotefs"
	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/tools/operator"
)

// newHosts builds the host set every tool group resolves hosts through:
// this machine (entered into PID 1's namespaces with host_namespace: pid1),
// the inventory hosts that opt in to warden's agent (hosts[].agent), and
// the inventory (warden.yaml hosts over ~/.ssh/config) reached through
// one shared connection pool. The SSH provider is returned too, for the
// fleet tools and reloads, and server_info's account of the agents.
func newHosts(cfg *config.Config, o Options, local localhost.Options) (*hosts.Set, *sshhost.Provider, func() []operator.Agent, error) {
	if cfg.HostNamespace == "pid1" {
		local.EnterPID = 1
	}
	lp, err := localhost.New(local)
	if err != nil {
		return nil, nil, nil, err
	}
	inv, err := newInventory(cfg, o)
	if err != nil {
		return nil, nil, nil, err
	}
	pool := sshpool.New(sshpool.Options{
		AgentSocket:    o.Getenv("SSH_AUTH_SOCK"),
		KeepAlive:      cfg.SSH.Keepalive.D(),
		IdleTimeout:    cfg.SSH.IdleTimeout.D(),
		MaxConns:       cfg.SSH.MaxConns,
		ConnectTimeout: cfg.SSH.ConnectTimeout.D(),
		Logger:         o.Logger,
		Now:            o.Now,
	})
	sp, err := sshhost.New(sshhost.Options{
		Inventory:  inv,
		Transports: transports(cfg),
		Pool:       pool,
		Env:        remoteEnv(baseEnv(cfg, o.Getenv)),
		Prestart:   cfg.SSH.Prestart.D(),
		Logger:     o.Logger,
	})
	if err != nil {
		pool.Close()
		return nil, nil, nil, err
	}
	ap, err := agenthost.New(agenthost.Options{SSH: sp, BuildDir: cfg.Agent.Builds, Logger: o.Logger})
	if err != nil {
		pool.Close()
		return nil, nil, nil, err
	}
	return hosts.New(lp, ap, sp), sp, agentReports(ap), nil
}

// agentReports is server_info's account of the agents ap runs.
func agentReports(ap *agenthost.Provider) func() []operator.Agent {
	return func() []operator.Agent {
		var out []operator.Agent
		for _, r := range ap.Reports() {
			out = append(out, operator.Agent(r))
		}
		return out
	}
}

// transports are each host's files_transport from cfg.
func transports(cfg *config.Config) map[string]remotefs.Transport {
	m := map[string]remotefs.Transport{}
	for _, hc := range cfg.Hosts {
		if tr, err := remotefs.ParseTransport(hc.FilesTransport); err == nil {
			m[hc.Name] = tr
		}
	}
	return m
}

// newInventory reads warden.yaml's hosts over the user's ssh_config.
func newInventory(cfg *config.Config, o Options) (*sshpool.Inventory, error) {
	home := o.Getenv("HOME")
	sshConfig := cfg.SSH.Config
	switch sshConfig {
	case "none":
		sshConfig = ""
	case "":
		if home != "" {
			sshConfig = filepath.Join(home, ".ssh", "config")
		}
	}
	// ssh.known_hosts replaces the user's known_hosts, it does not add to it.
	var known []string
	if cfg.SSH.KnownHosts != "" {
		known = []string{cfg.SSH.KnownHosts}
	}
	entries := make([]sshpool.HostEntry, 0, len(cfg.Hosts))
	for _, h := range cfg.Hosts {
		entries = append(entries, sshpool.HostEntry{
			Name: h.Name, Address: h.Address, Port: h.Port, User: h.User,
			IdentityFiles: h.IdentityFiles, ProxyJump: h.ProxyJump, KnownHostsFile: h.KnownHosts,
			Groups: h.Groups, Tags: h.Tags, Mode: h.Mode, Shell: h.Shell, HostKeyPolicy: h.HostKeyPolicy, Agent: h.Agent, AgentPath: h.AgentPath,
		})
	}
	// USER is often unset (systemd units, containers): fall back to the
	// account warden runs as, the login ssh itself would use.
	localUser := o.Getenv("USER")
	if localUser == "" {
		if u, err := user.Current(); err == nil {
			localUser = u.Username
		}
	}
	inv, err := sshpool.NewInventory(sshpool.InventoryOptions{
		SSHConfig:  sshConfig,
		HomeDir:    home,
		LocalUser:  localUser,
		Hosts:      entries,
		KnownHosts: known,
	})
	if err != nil {
		return nil, fmt.Errorf("inventory: %w", err)
	}
	return inv, nil
}
