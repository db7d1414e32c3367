// Package nsenter owns running a command in another process's namespaces:
// for warden deployed in a privileged container with the host's PID
// namespace (pid: host), a Runner that enters PID 1's mount, UTS, IPC,
// network and PID namespaces runs host tools as if on the host. It wraps
// argv in nsenter and hands it to the local runner, so bounds, kills and
// output capture are the local runner's.
package nsenter

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/warden-mcp/warden/internal/runner"
)

// DefaultPath is the PATH given to commands in the target namespaces: the
// host's programs, not the container's.
const DefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// Options configure a Runner.
type Options struct {
	// PID is the process whose namespaces are entered; zero means 1.
	PID int
	// Nsenter is the absolute path of nsenter where warden runs; empty
	// means /usr/bin/nsenter.
	Nsenter string
	// Path is the PATH commands see in the target; empty means DefaultPath.
	// It replaces any PATH in Request.Env.
	Path string
	// Inner runs the wrapped command where warden runs; required.
	Inner runner.Runner
	// PIDNamespace also enters the target's PID namespace. It is off by
	// default: under pid: host warden already shares it, and entering one
	// makes nsenter fork, so signals reach nsenter instead of the command.
	PIDNamespace bool
}

// Runner runs commands in the namespaces of another process.
type Runner struct {
	opts Options
}

var _ runner.Runner = (*Runner)(nil)

// New returns a Runner for o.
func New(o Options) (*Runner, error) {
	if o.PID == 0 {
		o.PID = 1
	}
	if o.PID < 0 {
		return nil, fmt.Errorf("nsenter: pid %d is not a process id", o.PID)
	}
	if o.Nsenter == "" {
		o.Nsenter = "/usr/bin/nsenter"
	}
	if !strings.HasPrefix(o.Nsenter, "/") {
		return nil, fmt.Errorf("nsenter: %q is not an absolute path", o.Nsenter)
	}
	if o.Path == "" {
		o.Path = DefaultPath
	}
	if o.Inner == nil {
		return nil, errors.New("nsenter: an inner runner is required")
	}
	return &Runner{opts: o}, nil
}

// Argv returns the command line that runs argv in the target namespaces,
// in dir when dir is set.
func (r *Runner) Argv(argv []string, dir string) []string {
	out := []string{r.opts.Nsenter, "--target", strconv.Itoa(r.opts.PID), "--mount", "--uts", "--ipc", "--net"}
	if r.opts.PIDNamespace {
		out = append(out, "--pid")
	}
	if dir != "" {
		out = append(out, "--wd="+dir)
	}
	out = append(out, "--")
	return append(out, argv...)
}

// Run runs req in the target namespaces. The working directory is set
// inside the target (nsenter --wd), since warden's own file system is not
// the host's.
func (r *Runner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if len(req.Argv) == 0 {
		return runner.Result{}, errors.New("run: empty argv")
	}
	inner := req
	inner.Argv = r.Argv(req.Argv, req.Dir)
	inner.Dir = ""
	inner.Env = WithPath(req.Env, r.opts.Path)
	res, err := r.opts.Inner.Run(ctx, inner)
	if err != nil {
		return res, err
	}
	// nsenter reports a program or directory missing in the target on
	// stderr; make that the start error it would be locally.
	if res.ExitCode != 0 {
		for _, p := range []string{"nsenter: failed to execute ", "nsenter: cannot change directory to ", "nsenter: cannot open "} {
			if msg, ok := strings.CutPrefix(string(res.Stderr), p); ok {
				return runner.Result{}, fmt.Errorf("run in pid %d namespaces: %s%s", r.opts.PID, strings.TrimPrefix(p, "nsenter: "), strings.TrimSpace(msg))
			}
		}
	}
	return res, nil
}

// WithPath returns env with PATH replaced by path.
func WithPath(env []string, path string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PATH="+path)
}
