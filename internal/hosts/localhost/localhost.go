// Package localhost is the host kind "local": this machine, or — in the
// container shape (host_namespace: pid1) — the host whose PID 1 warden's
// container shares, entered through its namespaces.
package localhost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"strconv"

	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/nsenter"
	"github.com/warden-mcp/warden/internal/session"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// Options describe this machine as its programs are started.
type Options struct {
	// Runner starts commands confined to their call's admission.
	Runner runner.Runner
	// Inspect starts warden's typed probes.
	Inspect runner.Runner
	// Bare starts programs unconfined: the namespace-entering wrapper,
	// which needs what confinement takes.
	Bare runner.Runner
	// Env is the base environment of local programs.
	Env []string
	// Confinement names the kernel confinement of local programs.
	Confinement string
	// EnterPID, when set, makes "local" the host whose namespaces that
	// process is in (host_namespace: pid1 sets 1): warden runs in a
	// container, the agent acts on the host.
	EnterPID int
	// Path is the PATH of programs in the entered namespaces; empty means
	// nsenter.DefaultPath.
	Path string
	// Entered reports that Runner, Inspect and Sessions start programs in
	// EnterPID's namespaces themselves, confined there: the kernel holds
	// the entered host too. Otherwise programs are wrapped in nsenter,
	// unconfined, and only the classifier holds them.
	Entered bool
	// Sessions starts this machine's sessions confined; required with
	// Entered.
	Sessions session.Starter
	// Looks bounds the looks at this machine's files that wait at once
	// (see runner.Looks); nil bounds nothing.
	Looks *runner.Looks
}

// Provider resolves "" and "local".
type Provider struct{ host *hosts.Host }

// New builds the Host "local" resolves to.
func New(o Options) (*Provider, error) {
	h, err := newHost(o)
	if err != nil {
		return nil, err
	}
	return &Provider{host: h}, nil
}

// Host is the Host "local" resolves to, for tests that need it alone.
func (p *Provider) Host() *hosts.Host { return p.host }

// Resolve resolves "" and "local" without work.
func (p *Provider) Resolve(_ context.Context, name string) (*hosts.Host, bool, error) {
	if !hosts.IsLocal(name) {
		return nil, false, nil
	}
	return p.host, true, nil
}

// Close releases nothing.
func (p *Provider) Close() error { return nil }

func newHost(o Options) (*hosts.Host, error) {
	if o.Runner == nil || o.Inspect == nil {
		return nil, errors.New("localhost: the local runners are required")
	}
	h := &hosts.Host{
		Name: "local", Kind: hosts.KindLocal, Runner: o.Runner, Inspect: o.Inspect, Shell: "/bin/sh",
		Env: o.Env, Confinement: o.Confinement, StageScripts: true, Root: os.Geteuid() == 0,
		Files:     func(context.Context) (hostfs.FS, error) { return hostfs.Local{Looks: o.Looks}, nil },
		Transport: func() string { return "local" },
	}
	if o.EnterPID == 0 {
		return h, nil
	}
	if o.EnterPID < 0 {
		return nil, fmt.Errorf("localhost: pid %d is not a process id", o.EnterPID)
	}
	if o.Bare == nil {
		return nil, errors.New("localhost: entering another namespace needs an unconfined runner")
	}
	if o.Path == "" {
		o.Path = nsenter.DefaultPath
	}
	root := "/proc/" + strconv.Itoa(o.EnterPID) + "/root"
	h.Kind = hosts.KindEntered
	// A script file staged in warden's container is not in the host's
	// mount namespace; the body goes with -c as on a remote host.
	h.StageScripts = false
	h.Files = func(context.Context) (hostfs.FS, error) { return hostfs.Local{Root: root, Looks: o.Looks}, nil }
	if o.Entered {
		if o.Sessions == nil {
			return nil, errors.New("localhost: a confined session starter is required")
		}
		h.Runner, h.Inspect = hostPath{o.Runner, o.Path}, hostPath{o.Inspect, o.Path}
		h.Starter = enteredStarter{path: o.Path, in: o.Sessions}
		h.Confinement = o.Confinement // names the namespaces (pid1-namespaces)
	} else {
		ns, err := nsenter.New(nsenter.Options{PID: o.EnterPID, Path: o.Path, Inner: o.Bare})
		if err != nil {
			return nil, err
		}
		h.Runner, h.Inspect = ns, ns
		h.Starter = enteredStarter{ns: ns, path: o.Path, in: &session.Local{}}
		h.Confinement = fmt.Sprintf("none: classifier only (entered into PID %d's namespaces: %s)", o.EnterPID, o.Confinement)
	}
	h.SnapshotFS = func(_ context.Context, dir string) (engine.FS, error) {
		return engine.OpenLocalFS(path.Join(root, dir))
	}
	return h, nil
}

// enteredStarter starts sessions in the entered namespaces, on a local PTY
// or pipes: started there by a confined starter, or (ns set) wrapped in
// nsenter, unconfined like every program entered that way.
type enteredStarter struct {
	ns   *nsenter.Runner
	path string
	in   session.Starter
}

func (s enteredStarter) Start(ctx context.Context, spec session.Spec) (session.Process, error) {
	if s.ns != nil {
		spec.Argv = s.ns.Argv(spec.Argv, spec.Dir)
		spec.Dir = ""
	}
	spec.Env = nsenter.WithPath(spec.Env, s.path)
	return s.in.Start(ctx, spec)
}

// hostPath runs commands with the entered host's PATH, which they are
// looked up in.
type hostPath struct {
	runner.Runner
	path string
}

func (r hostPath) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	req.Env = nsenter.WithPath(req.Env, r.path)
	return r.Runner.Run(ctx, req)
}
