// Package agenthost is the host kind of inventory hosts that opt in to
// warden's agent (hosts[].agent: auto or required): warden uploads its
// own build for the host's OS and architecture to a per-build path in the
// remote user's cache over the pooled connection, verifies its SHA-256
// before every start, and runs it as `warden agent` on one exec channel.
// Commands, sessions, files and snapshot reads then go through the agent,
// which confines each program at the level the call was admitted at, as
// the local runner does; policy, approvals and audit stay here.
//
// Under auto, a host where the agent cannot run is served as an SSH host
// (package sshhost), and its confinement says why; under required, calls
// fail with the reason.
package agenthost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warden-mcp/warden/internal/agent"
	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/sshhost"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/session"
	engine "github.com/warden-mcp/warden/internal/snapshot"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// Modes of hosts[].agent.
const (
	Off      = "off"
	Auto     = "auto"
	Required = "required"
)

// RetryAfter is how long a host that fell back under auto is served over
// plain SSH before the agent is tried again.
const RetryAfter = time.Minute

// Options configure a Provider.
type Options struct {
	// SSH resolves the inventory and serves hosts the agent cannot.
	SSH *sshhost.Provider
	// Modes override the inventory's agent mode (hosts[].agent, carried
	// in each target, so a reload changes it) per host name.
	Modes map[string]string
	// Builds are warden binaries by "GOOS/GOARCH"; nil is this
	// executable for its own platform.
	Builds map[string]string
	// CacheDir is where agents are kept on remote hosts; empty is
	// ${XDG_CACHE_HOME:-$HOME/.cache}/warden/agent of the remote user.
	CacheDir string
	Logger   *slog.Logger
}

// Provider resolves the inventory hosts whose agent mode is not off.
type Provider struct {
	ssh    *sshhost.Provider
	modes  atomic.Pointer[map[string]string]
	builds *builds
	cache  string
	log    *slog.Logger

	mu    sync.Mutex
	links map[string]*link
}

// New returns a Provider.
func New(o Options) (*Provider, error) {
	if o.SSH == nil {
		return nil, errors.New("agenthost: the SSH provider is required")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Builds == nil {
		o.Builds = map[string]string{}
		if exe, err := os.Executable(); err == nil {
			o.Builds[runtime.GOOS+"/"+runtime.GOARCH] = exe
		}
	}
	p := &Provider{ssh: o.SSH, builds: &builds{bins: o.Builds, sums: map[string]build{}}, cache: o.CacheDir, log: o.Logger, links: map[string]*link{}}
	p.SetModes(o.Modes)
	return p, nil
}

// SetModes replaces the overrides of the hosts' agent modes.
func (p *Provider) SetModes(m map[string]string) {
	if m == nil {
		m = map[string]string{}
	}
	p.modes.Store(&m)
}

func (p *Provider) mode(t sshpool.Target) string {
	m, ok := (*p.modes.Load())[t.Name]
	if !ok {
		m = t.Agent
	}
	if m == Auto || m == Required {
		return m
	}
	return Off
}

// Resolve resolves an inventory host with an agent mode, without
// dialing: the agent starts on the first admitted call.
func (p *Provider) Resolve(ctx context.Context, name string) (*hosts.Host, bool, error) {
	if hosts.IsLocal(name) {
		return nil, false, nil
	}
	t, err := p.ssh.Target(name)
	if err != nil {
		return nil, false, nil // not an inventory host, or unusable: the SSH provider says why
	}
	mode := p.mode(t)
	if mode == Off {
		p.forget(name)
		return nil, false, nil
	}
	h, ok, err := p.ssh.Resolve(ctx, name)
	if err != nil || !ok {
		return nil, ok, err
	}
	return p.link(t, mode).host(h), true, nil
}

// Close ends every agent; the SSH provider closes the pool.
func (p *Provider) Close() error {
	p.mu.Lock()
	links := p.links
	p.links = map[string]*link{}
	p.mu.Unlock()
	for _, l := range links {
		l.close()
	}
	return nil
}

// link is the host's link, made anew when a reload changed the host's
// target or mode; the old one's agent is ended.
func (p *Provider) link(t sshpool.Target, mode string) *link {
	p.mu.Lock()
	defer p.mu.Unlock()
	key := t.Key() + "|" + mode
	l, ok := p.links[t.Name]
	if ok && l.key == key {
		return l
	}
	if ok {
		go l.close()
	}
	l = &link{p: p, t: t, mode: mode, key: key}
	p.links[t.Name] = l
	return l
}

// forget ends the agent of a host whose mode a reload turned off.
func (p *Provider) forget(name string) {
	p.mu.Lock()
	l, ok := p.links[name]
	delete(p.links, name)
	p.mu.Unlock()
	if ok {
		go l.close()
	}
}

// link is the agent of one host: started on first use, restarted after
// it dies, or the reason it cannot run.
type link struct {
	p    *Provider
	t    sshpool.Target
	mode string
	key  string // the target's key and the mode it was made for

	// starting serializes starts; mu guards the fields below only
	// briefly, so hosts_list never waits for an upload.
	starting sync.Mutex
	mu       sync.Mutex
	lease    *sshpool.Lease
	client   *agent.Client
	fallback error // why the agent is not in use, under auto
	failedAt time.Time
	// deadPID is the process ID of an agent that died: the next agent
	// kills what it left running.
	deadPID int
}

// errFallback marks a host served over plain SSH under auto.
type errFallback struct{ err error }

func (e *errFallback) Error() string { return "agent not in use: " + e.err.Error() }
func (e *errFallback) Unwrap() error { return e.err }

// get returns the host's running agent, starting it if need be.
func (l *link) get(ctx context.Context) (*agent.Client, error) {
	if c, err, ok := l.current(); ok {
		return c, err
	}
	l.starting.Lock()
	defer l.starting.Unlock()
	// Another call may have started it, or failed to, meanwhile.
	if c, err, ok := l.current(); ok {
		return c, err
	}
	c, err := l.start(ctx)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		err = fmt.Errorf("agent on %s: %w", l.t.Name, err)
		if l.mode == Auto {
			l.fallback, l.failedAt = err, time.Now()
			l.p.log.Warn("agent cannot run; serving the host over plain SSH", "host", l.t.Name, "reason", err)
			return nil, &errFallback{err}
		}
		return nil, err
	}
	l.client, l.fallback = c, nil
	if l.deadPID != 0 {
		n, err := c.Reap(ctx, l.deadPID)
		l.p.log.Info("reaped what the previous agent left running", "host", l.t.Name, "pid", l.deadPID, "killed", n, "err", err)
		if err == nil {
			l.deadPID = 0
		}
	}
	return c, nil
}

// current is the running agent, or the fallback still in force; ok false
// means one must be started. A dead agent is forgotten here, its process
// ID kept for the next one to reap after.
func (l *link) current() (*agent.Client, error, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.client != nil {
		if l.client.Err() == nil {
			return l.client, nil, true
		}
		l.deadPID = l.client.Hello().PID
		l.drop()
	}
	if l.fallback != nil && time.Since(l.failedAt) < RetryAfter {
		return nil, &errFallback{l.fallback}, true
	}
	return nil, nil, false
}

// drop forgets a dead agent.
func (l *link) drop() {
	l.client.Close()
	l.client = nil
	if l.lease != nil {
		l.lease.Release()
		l.lease = nil
	}
}

func (l *link) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.client != nil {
		l.drop()
	}
}

// start probes the host, starts the agent, and uploads the build first
// when the cache does not hold it (or holds something else). It runs
// under l.starting, not l.mu.
func (l *link) start(ctx context.Context) (*agent.Client, error) {
	lease, err := l.p.ssh.Pool().Acquire(ctx, l.t)
	if err != nil {
		return nil, err
	}
	pr, err := probeHost(ctx, lease, l.p.cache)
	if err != nil {
		lease.Release()
		return nil, err
	}
	bd, err := l.p.builds.get(pr.platform)
	if err != nil {
		lease.Release()
		return nil, err
	}
	path := remotePath(pr.cache, bd, pr.platform)
	for attempt := 0; ; attempt++ {
		st, code, stderr, err := startAgent(ctx, lease, path, bd.sum)
		if err == nil {
			l.mu.Lock()
			l.lease = lease
			l.mu.Unlock()
			h := st.client.Hello()
			l.p.log.Info("agent started", "host", l.t.Name, "path", path, "version", h.Version, "confinement", h.Confinement.Mechanism)
			return st.client, nil
		}
		if code == checksumExit && attempt == 0 {
			if uerr := upload(ctx, lease, bd, path); uerr != nil {
				lease.Release()
				return nil, uerr
			}
			continue
		}
		lease.Release()
		if stderr != "" {
			return nil, fmt.Errorf("starting %s: exit %d: %s", path, code, stderr)
		}
		return nil, fmt.Errorf("starting %s: %w", path, err)
	}
}

// state is what hosts_list and server_info say of the host's agent.
func (l *link) state() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.client != nil && l.client.Err() == nil:
		h := l.client.Hello()
		return fmt.Sprintf("agent %s (pid %d, %s/%s): %s", h.Version, h.PID, h.OS, h.Arch, h.Confinement.Mechanism)
	case l.fallback != nil:
		return "none: classifier only (plain SSH; " + l.fallback.Error() + ")"
	}
	return "agent " + l.mode + ": starts on the first admitted call"
}

// host is the SSH host h served through the agent, or over plain SSH
// where h's own parts serve under auto.
func (l *link) host(h *hosts.Host) *hosts.Host {
	a := *h
	a.Kind = hosts.KindAgent
	a.Confinement = l.state()
	a.Runner = agentRunner{l: l, ssh: h.Runner}
	a.Inspect = agentRunner{l: l, ssh: h.Inspect, inspect: true}
	a.Files = func(ctx context.Context) (hostfs.FS, error) {
		c, err := l.get(ctx)
		if err != nil {
			if fallback(err) {
				return h.Files(ctx)
			}
			return nil, err
		}
		return c.FS(), nil
	}
	a.Starter = agentStarter{l: l, ssh: h.Starter}
	a.Transport = func() string {
		l.mu.Lock()
		live := l.client != nil && l.client.Err() == nil
		l.mu.Unlock()
		if live {
			return "agent"
		}
		return h.FilesTransport()
	}
	a.SnapshotFS = func(ctx context.Context, root string) (engine.FS, error) {
		c, err := l.get(ctx)
		if err != nil {
			if fallback(err) {
				return h.SnapshotFS(ctx, root)
			}
			return nil, err
		}
		return c.OpenSnapshot(ctx, root)
	}
	return &a
}

func fallback(err error) bool {
	var f *errFallback
	return errors.As(err, &f)
}

type agentRunner struct {
	l       *link
	ssh     runner.Runner
	inspect bool
}

func (r agentRunner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	c, err := r.l.get(ctx)
	if err != nil {
		if fallback(err) {
			return r.ssh.Run(ctx, req)
		}
		return runner.Result{}, err
	}
	if r.inspect {
		return agent.Inspect{Client: c}.Run(ctx, req)
	}
	return c.Run(ctx, req)
}

type agentStarter struct {
	l   *link
	ssh session.Starter
}

func (s agentStarter) Start(ctx context.Context, spec session.Spec) (session.Process, error) {
	c, err := s.l.get(ctx)
	if err != nil {
		if fallback(err) {
			return s.ssh.Start(ctx, spec)
		}
		return nil, err
	}
	return c.Start(ctx, spec)
}
