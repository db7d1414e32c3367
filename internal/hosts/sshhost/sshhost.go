// Package sshhost is the host kind of inventory hosts: warden.yaml hosts
// over ~/.ssh/config, reached through one shared SSH connection pool;
// commands on the SSH runner, files over SFTP or, on servers without it
// (dropbear routers), the exec channel, sessions on the pool.
package sshhost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pkg/sftp"

	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/remotefs"
	sshrunner "github.com/warden-mcp/warden/internal/runner/ssh"
	"github.com/warden-mcp/warden/internal/session/sshstart"
	engine "github.com/warden-mcp/warden/internal/snapshot"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// noConfinement is what holds a program on a host warden does not run on.
const noConfinement = "none: classifier only"

// Options configure a Provider.
type Options struct {
	// Inventory is the SSH inventory; Reload replaces it.
	Inventory *sshpool.Inventory
	// Transports are each inventory host's files_transport; Reload
	// replaces them.
	Transports map[string]remotefs.Transport
	// Pool reaches inventory hosts; Close closes it.
	Pool *sshpool.Pool
	// Env is the base environment of programs on remote hosts (warden's
	// own HOME left out: it means nothing there).
	Env []string
	// Prestart is how long a remote command's start may be prepared ahead
	// (ssh.prestart).
	Prestart time.Duration
	Logger   *slog.Logger
}

// Provider resolves inventory names. A reload swaps the inventory whole,
// so a call sees the old hosts or the new ones, never a mixture.
type Provider struct {
	inv        atomic.Pointer[sshpool.Inventory]
	transports atomic.Pointer[map[string]remotefs.Transport]
	pool       *sshpool.Pool
	files      *remotefs.Picker
	env        []string
	prestart   time.Duration
	log        *slog.Logger

	mu      sync.Mutex
	runners map[string]*sshrunner.Runner
}

// New returns a Provider.
func New(o Options) (*Provider, error) {
	if o.Inventory == nil || o.Pool == nil {
		return nil, errors.New("sshhost: an inventory and a pool are required")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	p := &Provider{pool: o.Pool, env: o.Env, prestart: o.Prestart, log: o.Logger, runners: map[string]*sshrunner.Runner{}}
	p.inv.Store(o.Inventory)
	p.setTransports(o.Transports)
	p.files = remotefs.NewPicker(o.Pool, p.transport, o.Logger)
	return p, nil
}

// Resolve resolves an inventory name without dialing, in time independent
// of the inventory's size. "local" is never an inventory name.
func (p *Provider) Resolve(_ context.Context, name string) (*hosts.Host, bool, error) {
	if hosts.IsLocal(name) {
		return nil, false, nil
	}
	t, err := p.inv.Load().Resolve(name)
	if err != nil {
		return nil, false, err
	}
	return p.host(t), true, nil
}

// Reload swaps in a new inventory and files transports, already validated.
func (p *Provider) Reload(inv *sshpool.Inventory, transports map[string]remotefs.Transport) {
	p.inv.Store(inv)
	p.setTransports(transports)
}

// List lists the current inventory.
func (p *Provider) List() []sshpool.Listing { return p.inv.Load().List() }

// Group lists the members of a group in the current inventory.
func (p *Provider) Group(group string) []string { return p.inv.Load().Group(group) }

// Target is an inventory host's SSH target, for the tools that manage
// connections themselves (checks, key scans, forwards).
func (p *Provider) Target(name string) (sshpool.Target, error) { return p.inv.Load().Resolve(name) }

// Pool is the shared SSH pool.
func (p *Provider) Pool() *sshpool.Pool { return p.pool }

// Close closes the pool and with it every connection.
func (p *Provider) Close() error { return p.pool.Close() }

// host is the Host of an inventory target.
func (p *Provider) host(t sshpool.Target) *hosts.Host {
	shell := t.Shell
	if shell == "" {
		shell = sshpool.DefaultShell
	}
	mode, _ := policy.ParseMode(t.Mode)
	run := p.runner(t)
	return &hosts.Host{
		Name: t.Name, Kind: hosts.KindSSH, Runner: run, Inspect: run, Shell: shell,
		Env: p.env, Addrs: targetAddrs(t), Mode: mode, Confinement: noConfinement, Root: t.User == "root",
		Files:      func(ctx context.Context) (hostfs.FS, error) { return p.fs(ctx, t) },
		Starter:    &sshstart.Starter{Pool: p.pool, Target: t, LoginHome: true, Logger: p.log},
		Transport:  func() string { return p.transportOf(t.Name) },
		SnapshotFS: func(ctx context.Context, root string) (engine.FS, error) { return p.snapshotFS(ctx, t, root) },
	}
}

// fs picks a target's file transport: the pool's SFTP session when the
// server offers it, the exec channel when it does not (or as the host's
// files_transport says).
func (p *Provider) fs(ctx context.Context, t sshpool.Target) (hostfs.FS, error) {
	f, err := p.files.Pick(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("files on %s: %w", t.Name, err)
	}
	if f.Exec != nil {
		return hostfs.Exec{FS: f.Exec}, nil
	}
	return hostfs.SFTP{Client: func(ctx context.Context) (*sftp.Client, error) { return p.pool.SFTP(ctx, t) }, Retire: func() { p.pool.RetireSFTP(t) }}, nil
}

// snapshotFS opens a snapshot root over the transport picked for the
// host, asked per call: the pool redials a dead connection and starts a
// fresh SFTP session with it.
func (p *Provider) snapshotFS(ctx context.Context, t sshpool.Target, root string) (engine.FS, error) {
	f, err := p.files.Pick(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("files on %s: %w", t.Name, err)
	}
	if f.Exec != nil {
		return engine.ExecOpener(f.Exec)(ctx, root)
	}
	return engine.SFTPOpener(f.SFTP)(ctx, root)
}

// transportOf is sftp or exec for a host whose transport is configured or
// has been picked, else "".
func (p *Provider) transportOf(name string) string {
	if tr := p.files.Chosen(name); tr != remotefs.Auto {
		return string(tr)
	}
	return ""
}

func (p *Provider) setTransports(m map[string]remotefs.Transport) {
	if m == nil {
		m = map[string]remotefs.Transport{}
	}
	p.transports.Store(&m)
}

// transport is a host's configured files_transport; Auto when it has none.
func (p *Provider) transport(name string) remotefs.Transport {
	if tr, ok := (*p.transports.Load())[name]; ok {
		return tr
	}
	return remotefs.Auto
}

// runner returns the SSH runner of a target, one per target.
func (p *Provider) runner(t sshpool.Target) *sshrunner.Runner {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := t.Name + "|" + t.Key()
	r, ok := p.runners[key]
	if !ok {
		r = sshrunner.New(p.pool, t, sshrunner.Options{Logger: p.log, KeepHome: true, Prestart: p.prestart})
		p.runners[key] = r
	}
	return r
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
