// Package landlock owns the Landlock runner: each command runs through a
// re-executed helper (warden itself, with a hidden first argument) that
// restricts itself with a Landlock ruleset — read-only system directories,
// only the folders and files the tool allows, and, unless networking is
// allowed, no TCP bind or connect (and, when warden runs as root, a fresh
// network namespace) — and then executes the command, which inherits the
// restrictions for good. The helper runs through a base runner, which keeps
// its bounds, process-group kill and output capture.
package landlock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/warden-mcp/warden/internal/runner"
)

// HelperArg is the hidden first argument that makes warden (or a test
// binary) run Helper instead of its usual main.
const HelperArg = "__warden-landlock-exec"

// Options are the runner's options as a declarative tool states them,
// already rendered. Every path must be absolute and clean.
type Options struct {
	AllowNetworking  bool     `json:"allow_networking,omitempty"`
	AllowUserFolders bool     `json:"allow_user_folders,omitempty"`
	ReadFolders      []string `json:"read_folders,omitempty"`
	ReadFiles        []string `json:"read_files,omitempty"`
	WriteFolders     []string `json:"write_folders,omitempty"`
	WriteFiles       []string `json:"write_files,omitempty"`
	// Hide are paths no rule may reach (warden's own files): a folder
	// above one is granted around it.
	Hide []string `json:"hide,omitempty"`
	// Looks bounds the looks at programs and working directories that
	// wait at once (see runner.Looks); nil bounds nothing.
	Looks *runner.Looks `json:"-"`
}

// systemDirs are readable (and executable) inside the sandbox.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"}

// userDirs are readable with AllowUserFolders.
var userDirs = []string{"/home", "/root"}

// Runner runs commands under a Landlock ruleset.
type Runner struct {
	base   runner.Runner
	helper []string
	opts   Options
	config string
}

var _ runner.Runner = (*Runner)(nil)

// New returns a Runner that runs helper (an argv prefix whose program calls
// Helper when its first argument is HelperArg; HelperArg is appended)
// through base.
func New(base runner.Runner, helper []string, o Options) (*Runner, error) {
	if len(helper) == 0 || !filepath.IsAbs(helper[0]) {
		return nil, errors.New("landlock: the helper program must be an absolute path")
	}
	for _, list := range [][]string{o.ReadFolders, o.ReadFiles, o.WriteFolders, o.WriteFiles} {
		for _, p := range list {
			if err := runner.CheckPath(p); err != nil {
				return nil, fmt.Errorf("landlock: %w", err)
			}
		}
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("landlock: %w", err)
	}
	return &Runner{base: base, helper: helper, opts: o, config: string(b)}, nil
}

// Run runs req.Argv under the helper. A missing program or working
// directory is an error naming it, as with the local runner.
func (r *Runner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if len(req.Argv) == 0 {
		return runner.Result{}, errors.New("landlock: empty argv")
	}
	if err := runner.Precheck(r.opts.Looks, req); err != nil {
		return runner.Result{}, fmt.Errorf("landlock: %w", err)
	}
	wrapped := req
	wrapped.Argv = append(append(append([]string(nil), r.helper...), HelperArg, r.config, "--"), req.Argv...)
	return r.base.Run(ctx, wrapped)
}
