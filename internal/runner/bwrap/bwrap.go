// Package bwrap owns the bubblewrap runner: each command runs in fresh
// namespaces (mount, pid, ipc, uts, cgroup and, unless networking is
// allowed, network) over a filesystem built from nothing: the system
// directories read-only, a private /tmp, /proc and /dev, and only the
// folders and files the tool allows. Everything else on the host does not
// exist inside. It runs bwrap through a base runner, which keeps its
// bounds, process-group kill and output capture.
package bwrap

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/warden-mcp/warden/internal/runner"
)

// Options are the runner's options as a declarative tool states them,
// already rendered. Every path must be absolute and clean.
type Options struct {
	AllowNetworking bool
	// AllowUserFolders binds /home and /root read-only.
	AllowUserFolders bool
	ReadFolders      []string
	ReadFiles        []string
	WriteFolders     []string
	WriteFiles       []string
	// Hide are paths no bind may expose (warden's own files): each one
	// that a bind reaches, in any spelling of the bind's source, is
	// covered inside the sandbox.
	Hide []string
	// Looks bounds the looks at programs and working directories that
	// wait at once (see runner.Looks); nil bounds nothing.
	Looks *runner.Looks
}

// systemDirs are bound read-only (or recreated as the same symlink) when
// they exist on the host.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"}

// userDirs are bound read-only with AllowUserFolders.
var userDirs = []string{"/home", "/root"}

// Runner runs commands under bubblewrap.
type Runner struct {
	base  runner.Runner
	bwrap string
	opts  Options
	// root is the host root the system directories are read from; "/"
	// except in tests.
	root string
}

var _ runner.Runner = (*Runner)(nil)

// New returns a Runner that runs the bwrap program at path through base.
func New(base runner.Runner, path string, o Options) (*Runner, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("bubblewrap: program path %q is not absolute", path)
	}
	for _, list := range [][]string{o.ReadFolders, o.ReadFiles, o.WriteFolders, o.WriteFiles} {
		for _, p := range list {
			if err := runner.CheckPath(p); err != nil {
				return nil, fmt.Errorf("bubblewrap: %w", err)
			}
		}
	}
	return &Runner{base: base, bwrap: path, opts: o, root: "/"}, nil
}

// Args returns bwrap's arguments for argv and dir, before the command.
func (r *Runner) Args(dir string) []string {
	a := []string{"--unshare-all", "--die-with-parent", "--cap-drop", "ALL"}
	if r.opts.AllowNetworking {
		a = append(a, "--share-net")
	}
	for _, d := range systemDirs {
		a = append(a, r.mirror(d, false)...)
	}
	a = append(a, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/run")
	if r.opts.AllowUserFolders {
		for _, d := range userDirs {
			a = append(a, r.mirror(d, false)...)
		}
	}
	for _, p := range append(append([]string(nil), r.opts.ReadFolders...), r.opts.ReadFiles...) {
		a = append(a, "--ro-bind-try", p, p)
	}
	for _, p := range append(append([]string(nil), r.opts.WriteFolders...), r.opts.WriteFiles...) {
		a = append(a, "--bind-try", p, p)
	}
	// Last, so that they cover what every bind above shows.
	a = append(a, r.masks()...)
	if dir != "" {
		a = append(a, "--chdir", dir)
	}
	return append(a, "--")
}

// masks covers each hidden path inside the sandbox wherever a bind shows
// it: an empty read-only tmpfs over a directory, /dev/null over a file.
// bwrap resolves a bind's source, so each is compared as the kernel
// reaches it: a folder that is a symlink to the state dir, or an ancestor
// of it, is covered too.
func (r *Runner) masks() []string {
	hide := runner.RealPaths(r.opts.Hide)
	if len(hide) == 0 {
		return nil
	}
	type bind struct{ src, dst string }
	var binds []bind
	mirrored := append([]string(nil), systemDirs...)
	if r.opts.AllowUserFolders {
		mirrored = append(mirrored, userDirs...)
	}
	for _, d := range mirrored {
		// A symlink is mirrored as a symlink: the directory it names is
		// bound, and covered, under its own name.
		if fi, err := os.Lstat(filepath.Join(r.root, d)); err == nil && fi.Mode()&os.ModeSymlink == 0 {
			binds = append(binds, bind{filepath.Join(r.root, d), d})
		}
	}
	for _, list := range [][]string{r.opts.ReadFolders, r.opts.ReadFiles, r.opts.WriteFolders, r.opts.WriteFiles} {
		for _, p := range list {
			binds = append(binds, bind{p, p})
		}
	}
	var a []string
	seen := map[string]bool{}
	for _, b := range binds {
		real, err := filepath.EvalSymlinks(b.src)
		if err != nil {
			continue // --bind-try skips it; a mirror of a symlink binds nothing
		}
		for _, h := range hide {
			var at, of string
			switch {
			case runner.Within(real, h):
				at, of = b.dst, real
			case runner.Within(h, real):
				at, of = filepath.Join(b.dst, strings.TrimPrefix(h, real)), h
			default:
				continue
			}
			if seen[at] {
				continue
			}
			seen[at] = true
			if fi, err := os.Stat(of); err == nil && fi.IsDir() {
				a = append(a, "--tmpfs", at, "--remount-ro", at)
			} else {
				a = append(a, "--ro-bind", "/dev/null", at)
			}
		}
	}
	return a
}

// mirror recreates host path d inside: a symlink as the same symlink, a
// directory as a bind mount.
func (r *Runner) mirror(d string, write bool) []string {
	host := filepath.Join(r.root, d)
	fi, err := os.Lstat(host)
	if err != nil {
		return nil
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		target, err := os.Readlink(host)
		if err != nil {
			return nil
		}
		return []string{"--symlink", target, d}
	}
	if write {
		return []string{"--bind", host, d}
	}
	return []string{"--ro-bind", host, d}
}

// Run runs req.Argv inside the sandbox. A missing program or working
// directory is an error naming it, as with the local runner.
func (r *Runner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if len(req.Argv) == 0 {
		return runner.Result{}, errors.New("bubblewrap: empty argv")
	}
	if err := runner.Precheck(r.opts.Looks, req); err != nil {
		return runner.Result{}, fmt.Errorf("bubblewrap: %w", err)
	}
	wrapped := req
	wrapped.Argv = append(append([]string{r.bwrap}, r.Args(req.Dir)...), req.Argv...)
	wrapped.Dir = ""
	return r.base.Run(ctx, wrapped)
}
