package declare

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/bwrap"
	"github.com/warden-mcp/warden/internal/runner/docker"
	"github.com/warden-mcp/warden/internal/runner/firejail"
	"github.com/warden-mcp/warden/internal/runner/landlock"
	"github.com/warden-mcp/warden/internal/runner/sandboxexec"
)

// OptType is the type of a runner option.
type OptType int

// Option types. Strings and paths are templates rendered per call; paths
// must render to clean absolute paths.
const (
	OptBool OptType = iota
	OptInt
	OptString
	OptPath
	OptStrings
	OptPaths
)

// Kind is one runner the format knows: its options, what it needs, and
// how to build it for one call from rendered options.
type Kind struct {
	Name    string
	Options map[string]OptType
	// OS is the runtime.GOOS it runs on; "" means any.
	OS string
	// Program is the executable it runs; "" means none.
	Program string
	// check says why the runner cannot confine here, or nil.
	check func(d *Deps, o map[string]any) error
	build func(d *Deps, prog string, o map[string]any) (runner.Runner, error)
}

var sandboxOpts = map[string]OptType{
	"allow_networking":    OptBool,
	"allow_user_folders":  OptBool,
	"allow_read_folders":  OptPaths,
	"allow_read_files":    OptPaths,
	"allow_write_folders": OptPaths,
	"allow_write_files":   OptPaths,
}

func withProfile(m map[string]OptType) map[string]OptType {
	out := map[string]OptType{"custom_profile": OptString}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// kinds is the explicit list of runners, in the order documented.
var kinds = []*Kind{
	{
		Name:    "exec",
		Options: map[string]OptType{},
		build:   func(d *Deps, _ string, _ map[string]any) (runner.Runner, error) { return d.Local, nil },
	},
	{
		Name: "bubblewrap", OS: "linux", Program: "bwrap", Options: sandboxOpts,
		build: func(d *Deps, prog string, o map[string]any) (runner.Runner, error) {
			return bwrap.New(d.sandbox(), prog, bwrap.Options{
				AllowNetworking: b(o, "allow_networking"), AllowUserFolders: b(o, "allow_user_folders"),
				ReadFolders: l(o, "allow_read_folders"), ReadFiles: l(o, "allow_read_files"),
				WriteFolders: l(o, "allow_write_folders"), WriteFiles: l(o, "allow_write_files"), Hide: d.hidden(), Looks: d.Looks,
			})
		},
	},
	{
		Name: "firejail", OS: "linux", Program: "firejail", Options: withProfile(sandboxOpts),
		build: func(d *Deps, prog string, o map[string]any) (runner.Runner, error) {
			return firejail.New(d.sandbox(), prog, firejail.Options{
				AllowNetworking: b(o, "allow_networking"), AllowUserFolders: b(o, "allow_user_folders"),
				ReadFolders: l(o, "allow_read_folders"), ReadFiles: l(o, "allow_read_files"),
				WriteFolders: l(o, "allow_write_folders"), WriteFiles: l(o, "allow_write_files"), Hide: d.hidden(), Looks: d.Looks,
				CustomProfile: s(o, "custom_profile"), ProfileDir: d.ProfileDir,
			})
		},
	},
	{
		Name: "landlock", OS: "linux", Options: sandboxOpts,
		check: func(d *Deps, o map[string]any) error {
			if len(d.LandlockHelper) == 0 {
				return errors.New("no landlock helper program")
			}
			return landlock.Available(b(o, "allow_networking"))
		},
		build: func(d *Deps, _ string, o map[string]any) (runner.Runner, error) {
			return landlock.New(d.sandbox(), d.LandlockHelper, landlock.Options{
				AllowNetworking: b(o, "allow_networking"), AllowUserFolders: b(o, "allow_user_folders"),
				ReadFolders: l(o, "allow_read_folders"), ReadFiles: l(o, "allow_read_files"),
				WriteFolders: l(o, "allow_write_folders"), WriteFiles: l(o, "allow_write_files"), Hide: d.hidden(), Looks: d.Looks,
			})
		},
	},
	{
		Name: "sandbox-exec", OS: "darwin", Program: "sandbox-exec", Options: withProfile(sandboxOpts),
		build: func(d *Deps, prog string, o map[string]any) (runner.Runner, error) {
			return sandboxexec.New(d.sandbox(), prog, sandboxexec.Options{
				AllowNetworking: b(o, "allow_networking"), AllowUserFolders: b(o, "allow_user_folders"),
				ReadFolders: l(o, "allow_read_folders"), ReadFiles: l(o, "allow_read_files"),
				WriteFolders: l(o, "allow_write_folders"), WriteFiles: l(o, "allow_write_files"),
				CustomProfile: s(o, "custom_profile"),
			})
		},
	},
	{
		Name: "docker", Program: "docker",
		Options: map[string]OptType{
			"image": OptString, "allow_networking": OptBool, "network": OptString, "mounts": OptStrings,
			"user": OptString, "workdir": OptString, "docker_run_opts": OptString, "prepare_command": OptString,
			"memory": OptString, "memory_reservation": OptString, "memory_swap": OptString, "memory_swappiness": OptInt,
			"cap_add": OptStrings, "cap_drop": OptStrings, "dns": OptStrings, "dns_search": OptStrings, "platform": OptString,
		},
		check: func(_ *Deps, o map[string]any) error {
			if s(o, "image") == "" {
				return errors.New("docker needs the image option")
			}
			return nil
		},
		build: func(d *Deps, prog string, o map[string]any) (runner.Runner, error) {
			opts := docker.Options{
				Image: s(o, "image"), AllowNetworking: b(o, "allow_networking"), Network: s(o, "network"),
				Mounts: l(o, "mounts"), User: s(o, "user"), Workdir: s(o, "workdir"), RunOpts: s(o, "docker_run_opts"),
				Prepare: s(o, "prepare_command"), Memory: s(o, "memory"), MemoryReservation: s(o, "memory_reservation"),
				MemorySwap: s(o, "memory_swap"), CapAdd: l(o, "cap_add"), CapDrop: l(o, "cap_drop"),
				DNS: l(o, "dns"), DNSSearch: l(o, "dns_search"), Platform: s(o, "platform"), Hide: d.hidden(),
			}
			if v, ok := o["memory_swappiness"].(int64); ok {
				sw := int(v)
				opts.MemorySwappiness = &sw
			}
			return docker.New(d.sandbox(), prog, d.DockerHost, opts)
		},
	},
}

func b(o map[string]any, k string) bool     { v, _ := o[k].(bool); return v }
func s(o map[string]any, k string) string   { v, _ := o[k].(string); return v }
func l(o map[string]any, k string) []string { v, _ := o[k].([]string); return v }

func kindByName(name string) *Kind {
	for _, k := range kinds {
		if k.Name == name {
			return k
		}
	}
	return nil
}

func kindNames() []string {
	out := make([]string, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, k.Name)
	}
	return out
}

// lookPath finds an executable in a PATH list (absolute entries only).
func lookPath(name, path string) (string, error) {
	if strings.Contains(name, "/") {
		if fi, err := os.Stat(name); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 && filepath.IsAbs(name) {
			return name, nil
		}
		return "", fmt.Errorf("executable %q not found", name)
	}
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("executable %q not found in %s", name, path)
}

// Choice is the runner chosen for a tool, or why none could be.
type Choice struct {
	Tool   *Tool
	Runner *RunnerSpec
	// Program is the runner's executable, resolved.
	Program string
	// Reason says why the tool is unavailable; empty when a runner was
	// chosen.
	Reason string
}

// Choose picks the first runner whose requirements hold: the stated os
// and executables, and the runner's own (its program, its OS, Landlock in
// the kernel). None holding makes the tool unavailable; it never falls
// back to running unsandboxed.
func (d *Deps) Choose(t *Tool) Choice {
	var why []string
	for _, r := range t.Run.Runners {
		reason := d.requirements(r)
		if reason == "" {
			prog := ""
			if r.kind.Program != "" {
				prog, _ = lookPath(r.kind.Program, d.Path)
			}
			return Choice{Tool: t, Runner: r, Program: prog}
		}
		why = append(why, r.Name+": "+reason)
	}
	return Choice{Tool: t, Reason: "no runner's requirements hold (" + strings.Join(why, "; ") + ")"}
}

func (d *Deps) requirements(r *RunnerSpec) string {
	goos := d.goos()
	if r.OS != "" && r.OS != goos {
		return fmt.Sprintf("needs os %s, this is %s", r.OS, goos)
	}
	if r.kind.OS != "" && r.kind.OS != goos {
		return fmt.Sprintf("runs only on %s", r.kind.OS)
	}
	for _, e := range slices.Concat(r.Executables, []string{r.kind.Program}) {
		if e == "" {
			continue
		}
		if _, err := lookPath(e, d.Path); err != nil {
			return err.Error()
		}
	}
	if r.kind.check != nil {
		if err := r.kind.check(d, r.Options); err != nil {
			return err.Error()
		}
	}
	return ""
}

// build renders the runner's templated options for one call, checks the
// paths and builds the runner, with its write grants read-only if
// readOnly (readOnlyGrants). prepare is the docker prepare_command, which
// policy must see too, with the values of the variables it refers to
// (env.Refs) in.
func (d *Deps) build(c Choice, vals map[string]any, env Env, readOnly bool) (rn runner.Runner, prepare string, err error) {
	r := c.Runner
	o := make(map[string]any, len(r.Options))
	for name, v := range r.Options {
		o[name] = v
	}
	for name, tm := range r.optTemplates {
		if tm == nil {
			continue
		}
		e := env
		if name != "prepare_command" {
			// Only the prepare command can refer to a variable: the
			// others are no shell text, or split without expansion.
			e.Refs = nil
		}
		v, err := tm.Render(vals, e)
		if err != nil {
			return nil, "", fmt.Errorf("runner option %s: %v", name, err)
		}
		if name == "prepare_command" {
			prepare = v
			if env.Refs != nil && v != "" {
				// Policy reads the values the shell will see.
				e.Refs = nil
				if prepare, err = tm.Render(vals, e); err != nil {
					return nil, "", fmt.Errorf("runner option %s: %v", name, err)
				}
			}
		}
		if r.kind.Options[name] == OptPath {
			if err := runner.CheckPath(v); err != nil {
				return nil, "", fmt.Errorf("runner option %s: %v", name, err)
			}
		}
		o[name] = v
	}
	for name, tms := range r.listTmpls {
		list := make([]string, 0, len(tms))
		for i, tm := range tms {
			if tm == nil {
				continue
			}
			v, err := tm.Render(vals, env)
			if err != nil {
				return nil, "", fmt.Errorf("runner option %s[%d]: %v", name, i, err)
			}
			if r.kind.Options[name] == OptPaths {
				if err := runner.CheckPath(v); err != nil {
					return nil, "", fmt.Errorf("runner option %s[%d]: %v", name, i, err)
				}
			}
			list = append(list, v)
		}
		o[name] = list
	}
	if readOnly {
		readOnlyGrants(o)
	}
	rn, err = r.kind.build(d, c.Program, o)
	if err != nil {
		return nil, "", err
	}
	return rn, prepare, nil
}

// LandlockHelper returns the argv prefix that runs landlock.Helper: the
// running warden binary. It is nil when the running program is not warden
// (a test binary, say), which makes the landlock runner unavailable rather
// than re-executing a program that does not know the helper argument.
func LandlockHelper() []string {
	exe, err := os.Executable()
	if base := filepath.Base(exe); err != nil || !strings.HasPrefix(base, "warden") || strings.HasSuffix(base, ".test") {
		return nil
	}
	return []string{exe}
}
