package hosts

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/nsenter"
	"github.com/warden-mcp/warden/internal/session"
)

// Local is this machine as its programs are started.
type Local struct {
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
	// Path is the PATH of programs in the entered namespaces.
	Path string
}

// NewLocal builds the Host "local" resolves to.
func NewLocal(l Local) (*Host, error) {
	if l.Runner == nil || l.Inspect == nil {
		return nil, errors.New("hosts: the local runners are required")
	}
	h := &Host{
		Name: "local", Kind: KindLocal, Runner: l.Runner, Inspect: l.Inspect, Shell: "/bin/sh",
		Env: l.Env, Confinement: l.Confinement, StageScripts: true,
		fs:    func(context.Context) (hostfs.FS, error) { return hostfs.Local{}, nil },
		files: func() string { return "local" },
	}
	if l.EnterPID == 0 {
		return h, nil
	}
	if l.Bare == nil {
		return nil, errors.New("hosts: entering another namespace needs an unconfined runner")
	}
	ns, err := nsenter.New(nsenter.Options{PID: l.EnterPID, Path: l.Path, Inner: l.Bare})
	if err != nil {
		return nil, err
	}
	if l.Path == "" {
		l.Path = nsenter.DefaultPath
	}
	root := "/proc/" + strconv.Itoa(l.EnterPID) + "/root"
	h.Kind, h.root = KindEntered, root
	h.Runner, h.Inspect = ns, ns
	// A script file staged in warden's container is not in the host's
	// mount namespace; the body goes with -c as on a remote host.
	h.StageScripts = false
	// A ruleset built in warden's namespaces means nothing in the host's.
	h.Confinement = fmt.Sprintf("none: classifier only (entered into PID %d's namespaces)", l.EnterPID)
	h.fs = func(context.Context) (hostfs.FS, error) { return hostfs.Local{Root: root}, nil }
	h.starter = enteredStarter{ns: ns, path: l.Path, in: &session.Local{}}
	return h, nil
}

// enteredStarter starts sessions in the entered namespaces: the program
// wrapped in nsenter, on a local PTY or pipes, unconfined like every
// program entered there.
type enteredStarter struct {
	ns   *nsenter.Runner
	path string
	in   *session.Local
}

func (s enteredStarter) Start(ctx context.Context, spec session.Spec) (session.Process, error) {
	spec.Argv = s.ns.Argv(spec.Argv, spec.Dir)
	spec.Dir = ""
	spec.Env = nsenter.WithPath(spec.Env, s.path)
	return s.in.Start(ctx, spec)
}
