package server

import (
	"fmt"
	"log/slog"
	"os/user"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/remotefs"
	"github.com/warden-mcp/warden/internal/runner"
	sshrunner "github.com/warden-mcp/warden/internal/runner/ssh"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// hosts resolves the host argument of every tool: "local" or an inventory
// name (warden.yaml hosts over ~/.ssh/config) reached through one shared
// connection pool.
type hosts struct {
	// inv is swapped whole on reload; calls see the old inventory or the
	// new one, never a mixture.
	inv      atomic.Pointer[sshpool.Inventory]
	pool     *sshpool.Pool
	logger   *slog.Logger
	prestart time.Duration
	// files picks SFTP or the exec channel for each host's files, as
	// transports (hosts[].files_transport, swapped on reload) allow.
	files      *remotefs.Picker
	transports atomic.Pointer[map[string]remotefs.Transport]

	mu      sync.Mutex
	runners map[string]*sshrunner.Runner
}

func newHosts(cfg *config.Config, o Options) (*hosts, error) {
	inv, err := newInventory(cfg, o)
	if err != nil {
		return nil, err
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
	h := &hosts{pool: pool, logger: o.Logger, prestart: cfg.SSH.Prestart.D(), runners: map[string]*sshrunner.Runner{}}
	h.inv.Store(inv)
	h.setTransports(cfg)
	h.files = remotefs.NewPicker(pool, h.transport, o.Logger)
	return h, nil
}

// setTransports takes each host's files_transport from cfg.
func (h *hosts) setTransports(cfg *config.Config) {
	m := map[string]remotefs.Transport{}
	for _, hc := range cfg.Hosts {
		if tr, err := remotefs.ParseTransport(hc.FilesTransport); err == nil {
			m[hc.Name] = tr
		}
	}
	h.transports.Store(&m)
}

// transport is a host's configured files_transport; Auto when it has none.
func (h *hosts) transport(name string) remotefs.Transport {
	if tr, ok := (*h.transports.Load())[name]; ok {
		return tr
	}
	return remotefs.Auto
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
			Groups: h.Groups, Tags: h.Tags, Mode: h.Mode, Shell: h.Shell, HostKeyPolicy: h.HostKeyPolicy,
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

// Resolve, List and Group read the current inventory (fleet.Inventory).
func (h *hosts) Resolve(name string) (sshpool.Target, error) { return h.inv.Load().Resolve(name) }

// List lists the current inventory.
func (h *hosts) List() []sshpool.Listing { return h.inv.Load().List() }

// Group lists the members of a group in the current inventory.
func (h *hosts) Group(group string) []string { return h.inv.Load().Group(group) }

// remote resolves an inventory name; "local" and "" are not remote.
func (h *hosts) remote(name string) (sshpool.Target, error) {
	t, err := h.Resolve(name)
	if err != nil {
		return sshpool.Target{}, fmt.Errorf("host %q: %w (see hosts_list)", name, err)
	}
	return t, nil
}

// runner returns the SSH runner of a target, one per target.
func (h *hosts) runner(t sshpool.Target) runner.Runner {
	h.mu.Lock()
	defer h.mu.Unlock()
	key := t.Name + "|" + t.Key()
	r, ok := h.runners[key]
	if !ok {
		r = sshrunner.New(h.pool, t, sshrunner.Options{Logger: h.logger, KeepHome: true, Prestart: h.prestart})
		h.runners[key] = r
	}
	return r
}

// mode is a host's own policy mode, which narrows the global one.
func (h *hosts) mode(name string) policy.Mode {
	if name == "" || name == "local" {
		return ""
	}
	t, err := h.Resolve(name)
	if err != nil {
		return ""
	}
	m, _ := policy.ParseMode(t.Mode)
	return m
}

func (h *hosts) close() error { return h.pool.Close() }

// isLocal reports whether a host argument means this machine.
func isLocal(host string) bool { return host == "" || host == "local" }
