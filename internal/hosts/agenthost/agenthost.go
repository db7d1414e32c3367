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
	// BuildDir is the release artifact set (agent.builds): a directory
	// of warden-<os>-<arch> binaries made by scripts/release and their
	// SHA256SUMS manifest. Each build is checked against the manifest
	// before it is uploaded. Empty means Builds.
	BuildDir string
	// Builds are warden binaries by platform ("linux/arm64", see
	// Platforms), unchecked; nil is this executable for its own platform.
	Builds map[string]string
	// Paths override the inventory's operator-installed agent path
	// (hosts[].agent_path) per host name.
	Paths map[string]string
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
	paths  map[string]string
	cache  string
	log    *slog.Logger

	mu    sync.Mutex
	links map[string]*link
	// native counts the probes answered by reading a file on the far
	// side instead of running cat there.
	native atomic.Int64
}

// NativeReads is how many typed probes the agents answered by reading
// their file on the far side (see nativeFiles) rather than running a
// program there.
func (p *Provider) NativeReads() int64 { return p.native.Load() }

// New returns a Provider.
func New(o Options) (*Provider, error) {
	if o.SSH == nil {
		return nil, errors.New("agenthost: the SSH provider is required")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	p := &Provider{ssh: o.SSH, builds: newBuilds(o.BuildDir, o.Builds), cache: o.CacheDir, log: o.Logger, links: map[string]*link{}, paths: o.Paths}
	if p.builds.err != nil {
		// Hosts with an agent_path and the fallback still work; each
		// start that needs a build says why there is none.
		p.log.Warn("the agent build set is unusable", "err", p.builds.err)
	}
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

// agentPath is the host's operator-installed agent, if any.
func (p *Provider) agentPath(t sshpool.Target) string {
	if a, ok := p.paths[t.Name]; ok {
		return a
	}
	return t.AgentPath
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
	key := t.Key() + "|" + mode + "|" + p.agentPath(t)
	l, ok := p.links[t.Name]
	if ok && l.key == key {
		return l
	}
	if ok {
		go l.close()
	}
	l = &link{p: p, t: t, mode: mode, key: key, agentPath: p.agentPath(t)}
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
	// agentPath is the operator-installed agent on the host, if any.
	agentPath string

	// starting serializes starts; mu guards the fields below only
	// briefly, so hosts_list never waits for an upload.
	starting sync.Mutex
	mu       sync.Mutex
	lease    *sshpool.Lease
	client   *agent.Client
	fallback error // why the agent is not in use, under auto
	failedAt time.Time
	// failure is why the last start failed under required.
	failure error
	// deadPID is the process ID of an agent that died: the next agent
	// kills what it left running.
	deadPID int
	// chosen is the agent the last start ran, and why that one.
	chosen choice
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
		l.failure = err
		return nil, err
	}
	l.client, l.fallback, l.failure = c, nil, nil
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

// start probes the host, chooses its agent, starts it, and uploads the
// build first when the cache does not hold it (or holds something else).
// It runs under l.starting, not l.mu.
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
	ch, err := choose(l.p.builds, pr, l.agentPath)
	if err != nil {
		lease.Release()
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		st, code, stderr, err := startAgent(ctx, lease, ch.remote, ch.sum)
		if err == nil {
			h := st.client.Hello()
			l.mu.Lock()
			l.lease, l.chosen = lease, ch
			l.mu.Unlock()
			l.p.log.Info("agent started", "host", l.t.Name, "path", ch.remote, "why", ch.why, "version", h.Version, "confinement", h.Confinement.Mechanism)
			return st.client, nil
		}
		if code == checksumExit && attempt == 0 && ch.upload {
			// Checked against the manifest again right before it goes.
			bd, berr := l.p.builds.get(ch.platform, true)
			if berr == nil && bd.sum != ch.sum {
				berr = fmt.Errorf("the build for %s changed since it was chosen", ch.platform)
			}
			if berr != nil {
				lease.Release()
				return nil, berr
			}
			if uerr := upload(ctx, lease, bd, ch.remote); uerr != nil {
				lease.Release()
				return nil, uerr
			}
			continue
		}
		lease.Release()
		if stderr != "" {
			return nil, fmt.Errorf("starting %s (%s): exit %d: %s", ch.remote, ch.why, code, stderr)
		}
		return nil, fmt.Errorf("starting %s (%s): %w", ch.remote, ch.why, err)
	}
}

// state is what hosts_list and server_info say of the host's agent.
func (l *link) state() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.client != nil && l.client.Err() == nil:
		h := l.client.Hello()
		return fmt.Sprintf("agent %s (pid %d, %s, %s: %s): %s", h.Version, h.PID, l.chosen.platform, l.chosen.remote, l.chosen.why, h.Confinement.Mechanism)
	case l.fallback != nil:
		return "none: classifier only (plain SSH; " + l.fallback.Error() + ")"
	case l.failure != nil:
		return "none: agent required but not running (" + l.failure.Error() + ")"
	}
	return "agent " + l.mode + ": starts on the first admitted call"
}

// Report is what server_info says of one host's agent.
type Report struct {
	Host string `json:"host"`
	// Mode is the host's agent mode: auto or required.
	Mode string `json:"mode"`
	// State is running, fallback (plain SSH under auto), failed (the
	// last start under required) or idle (not started yet).
	State       string `json:"state"`
	Version     string `json:"version,omitempty"`
	PID         int    `json:"pid,omitempty"`
	Platform    string `json:"platform,omitempty"`
	Path        string `json:"path,omitempty"`
	Why         string `json:"why,omitempty"`
	Confinement string `json:"confinement,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// Reports says, for every inventory host whose agent mode is not off,
// which agent runs there (its version, path, why that one, and its
// confinement) or why none does. It never dials.
func (p *Provider) Reports() []Report {
	var out []Report
	for _, e := range p.ssh.List() {
		if e.Target == nil {
			continue
		}
		mode := p.mode(*e.Target)
		if mode == Off {
			continue
		}
		r := Report{Host: e.Name, Mode: mode, State: "idle", Reason: "starts on the first admitted call"}
		p.mu.Lock()
		l, ok := p.links[e.Name]
		p.mu.Unlock()
		if ok {
			l.report(&r)
		}
		out = append(out, r)
	}
	return out
}

// report fills r with the link's state.
func (l *link) report(r *Report) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.client != nil && l.client.Err() == nil:
		h := l.client.Hello()
		*r = Report{Host: r.Host, Mode: r.Mode, State: "running", Version: h.Version, PID: h.PID, Platform: l.chosen.platform,
			Path: l.chosen.remote, Why: l.chosen.why, Confinement: h.Confinement.Mechanism}
	case l.fallback != nil:
		r.State, r.Reason = "fallback", "plain SSH, classifier only: "+l.fallback.Error()
	case l.failure != nil:
		r.State, r.Reason = "failed", l.failure.Error()
	}
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
		if p, ok := nativeFile(req.Argv); ok {
			if res, ok := readNative(ctx, c.FS(), p, req); ok {
				r.l.p.native.Add(1)
				return res, nil
			}
		}
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
