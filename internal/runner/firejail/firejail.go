// Package firejail owns the firejail runner: each command runs under
// firejail with no profile but warden's own (or the tool's custom one),
// all capabilities dropped, no new privileges, seccomp, networking off
// unless allowed, the root filesystem read-only, and every top-level
// directory that is not a system directory hidden unless the tool allows
// something inside it. It runs firejail through a base runner, which keeps
// its bounds, process-group kill and output capture.
package firejail

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-mcp/warden/internal/runner"
)

// Options are the runner's options as a declarative tool states them,
// already rendered. Every path must be absolute and clean.
type Options struct {
	AllowNetworking  bool
	AllowUserFolders bool
	ReadFolders      []string
	ReadFiles        []string
	WriteFolders     []string
	WriteFiles       []string
	// Hide are paths the sandbox must not show (warden's own files),
	// blacklisted wherever they lie; firejail blacklists the path a
	// symlink resolves to, so an allowed symlink to one shows nothing.
	Hide []string
	// CustomProfile is firejail profile text used instead of --noprofile;
	// warden's own confinement arguments still apply on top.
	CustomProfile string
	// ProfileDir is where CustomProfile is written for firejail to read:
	// a directory no program below tier 2 may write, so none rewrites the
	// profile before firejail reads it. "" means the system's temporary
	// directory.
	ProfileDir string
	// Looks bounds the looks at programs and working directories that
	// wait at once (see runner.Looks); nil bounds nothing.
	Looks *runner.Looks
}

// systemTop are top-level directories left visible (read-only).
var systemTop = []string{"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "dev", "proc", "sys", "run"}

// whitelistTop are top-level directories under which firejail can
// whitelist paths; an allowed path elsewhere cannot be confined.
var whitelistTop = []string{"tmp", "home", "root", "srv", "opt", "media", "mnt", "var"}

// Runner runs commands under firejail.
type Runner struct {
	base     runner.Runner
	firejail string
	opts     Options
	args     []string
}

var _ runner.Runner = (*Runner)(nil)

// New returns a Runner that runs the firejail program at path through
// base. It fails when an allowed path lies where firejail cannot whitelist
// it, rather than running with less confinement than asked.
func New(base runner.Runner, path string, o Options) (*Runner, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("firejail: program path %q is not absolute", path)
	}
	r := &Runner{base: base, firejail: path, opts: o}
	args, err := r.build("/")
	if err != nil {
		return nil, err
	}
	r.args = args
	return r, nil
}

// CheckPath is runner.CheckPath with one rule more: no commas, which
// firejail reads as list separators in its options.
func CheckPath(p string) error {
	if strings.Contains(p, ",") {
		return fmt.Errorf("path %q must not contain a comma", p)
	}
	return runner.CheckPath(p)
}

// build returns firejail's confinement arguments for a host root.
func (r *Runner) build(root string) ([]string, error) {
	o := r.opts
	read := append(append([]string(nil), o.ReadFolders...), o.ReadFiles...)
	write := append(append([]string(nil), o.WriteFolders...), o.WriteFiles...)
	for _, p := range append(append([]string(nil), read...), write...) {
		if err := CheckPath(p); err != nil {
			return nil, fmt.Errorf("firejail: %w", err)
		}
	}
	a := []string{"--quiet", "--deterministic-exit-code", "--deterministic-shutdown", "--caps.drop=all", "--nonewprivs", "--seccomp", "--nodbus", "--nosound", "--no3d"}
	if !o.AllowNetworking {
		a = append(a, "--net=none")
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("firejail: %w", err)
	}
	for _, e := range ents {
		top := e.Name()
		if slices.Contains(systemTop, top) {
			continue
		}
		dir := "/" + top
		var inside []string
		for _, p := range append(append([]string(nil), read...), write...) {
			if p == dir || strings.HasPrefix(p, dir+"/") {
				inside = append(inside, p)
			}
		}
		switch {
		case len(inside) > 0 && !slices.Contains(whitelistTop, top):
			return nil, fmt.Errorf("firejail: cannot confine %s: firejail whitelists paths only under /%s; use bubblewrap or landlock", inside[0], strings.Join(whitelistTop, ", /"))
		case len(inside) > 0:
			for _, p := range inside {
				a = append(a, "--whitelist="+p)
			}
		case top == "tmp":
			a = append(a, "--private-tmp")
		case o.AllowUserFolders && (top == "home" || top == "root"):
		default:
			a = append(a, "--blacklist="+dir)
		}
	}
	for _, h := range runner.RealPaths(o.Hide) {
		if strings.ContainsAny(h, ",\n\r") {
			return nil, fmt.Errorf("firejail: cannot hide %q (a comma or line break in the path); use bubblewrap or landlock", h)
		}
		a = append(a, "--blacklist="+h)
	}
	a = append(a, "--read-only=/")
	for _, p := range read {
		a = append(a, "--read-only="+p)
	}
	for _, p := range write {
		a = append(a, "--read-write="+p)
	}
	return a, nil
}

// Run runs req.Argv under firejail. A missing program or working directory
// is an error naming it, as with the local runner.
func (r *Runner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if len(req.Argv) == 0 {
		return runner.Result{}, errors.New("firejail: empty argv")
	}
	if err := runner.Precheck(r.opts.Looks, req); err != nil {
		return runner.Result{}, fmt.Errorf("firejail: %w", err)
	}
	argv := []string{r.firejail}
	if r.opts.CustomProfile != "" {
		if r.opts.ProfileDir != "" {
			if err := os.MkdirAll(r.opts.ProfileDir, 0o700); err != nil {
				return runner.Result{}, fmt.Errorf("firejail: profile: %w", err)
			}
		}
		f, err := os.CreateTemp(r.opts.ProfileDir, "warden-firejail-*.profile")
		if err != nil {
			return runner.Result{}, fmt.Errorf("firejail: profile: %w", err)
		}
		defer os.Remove(f.Name())
		_, werr := f.WriteString(r.opts.CustomProfile)
		if cerr := f.Close(); werr != nil || cerr != nil {
			return runner.Result{}, fmt.Errorf("firejail: profile: %w", errors.Join(werr, cerr))
		}
		argv = append(argv, "--profile="+f.Name())
	} else {
		argv = append(argv, "--noprofile")
	}
	argv = append(argv, r.args...)
	wrapped := req
	wrapped.Argv = append(append(append(argv, "--"), envReset(req.Env)...), req.Argv...)
	return r.base.Run(ctx, wrapped)
}

// firejailVars are variables firejail sets in the sandbox.
var firejailVars = []string{"DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS", "FIREJAIL_QUIET", "KDE_FORK_SLAVES", "PROMPT_COMMAND", "QML_DISABLE_DISK_CACHE", "QT_X11_NO_MITSHM", "SHELL", "container"}

// envReset returns an env(1) prefix that takes back the variables firejail
// adds, so the command gets exactly the environment asked for; a variable
// the request sets itself is set again.
func envReset(env []string) []string {
	a := []string{"/usr/bin/env"}
	for _, name := range firejailVars {
		a = append(a, "-u", name)
	}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(firejailVars, name) {
			a = append(a, kv)
		}
	}
	return a
}
