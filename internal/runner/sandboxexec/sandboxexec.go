// Package sandboxexec owns the macOS sandbox-exec runner: each command runs
// under a Seatbelt profile generated from the tool's options — reads of
// system locations and the allowed folders and files only, writes to the
// allowed ones only, networking denied unless allowed — or under the
// tool's custom profile. The profile is generated and tested everywhere;
// the runner runs only on macOS.
package sandboxexec

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
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
	// CustomProfile replaces the generated profile.
	CustomProfile string
}

// systemRead are readable in every generated profile.
var systemRead = []string{"/usr", "/bin", "/sbin", "/System", "/Library", "/private/etc", "/etc", "/dev", "/opt/homebrew", "/private/var/db/timezone"}

// Runner runs commands under sandbox-exec.
type Runner struct {
	base    runner.Runner
	program string
	profile string
}

var _ runner.Runner = (*Runner)(nil)

// New returns a Runner that runs the sandbox-exec program at path through
// base.
func New(base runner.Runner, path string, o Options) (*Runner, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("sandbox-exec: program path %q is not absolute", path)
	}
	p, err := Profile(o)
	if err != nil {
		return nil, err
	}
	return &Runner{base: base, program: path, profile: p}, nil
}

// Profile returns the Seatbelt profile for o.
func Profile(o Options) (string, error) {
	if o.CustomProfile != "" {
		return o.CustomProfile, nil
	}
	var b strings.Builder
	b.WriteString("(version 1)\n(deny default)\n")
	b.WriteString("(allow process-fork)\n(allow process-exec)\n(allow signal (target same-sandbox))\n")
	b.WriteString("(allow sysctl-read)\n(allow mach-lookup)\n(allow ipc-posix-shm)\n")
	b.WriteString("(allow file-read-metadata)\n")
	b.WriteString(`(allow file-write-data (literal "/dev/null"))` + "\n")
	read := append([]string(nil), systemRead...)
	if o.AllowUserFolders {
		read = append(read, "/Users")
	}
	rule := func(verb, kind string, paths []string) error {
		for _, p := range paths {
			if err := runner.CheckPath(p); err != nil {
				return fmt.Errorf("sandbox-exec: %w", err)
			}
			fmt.Fprintf(&b, "(allow %s (%s %s))\n", verb, kind, quote(p))
		}
		return nil
	}
	for _, r := range []struct {
		verb, kind string
		paths      []string
	}{
		{"file-read*", "subpath", read},
		{"file-read*", "subpath", o.ReadFolders},
		{"file-read*", "literal", o.ReadFiles},
		{"file-read* file-write*", "subpath", o.WriteFolders},
		{"file-read* file-write*", "literal", o.WriteFiles},
	} {
		if err := rule(r.verb, r.kind, r.paths); err != nil {
			return "", err
		}
	}
	if o.AllowNetworking {
		b.WriteString("(allow network*)\n")
	} else {
		b.WriteString("(deny network*)\n")
	}
	return b.String(), nil
}

// quote writes s as a Seatbelt (Scheme) string literal.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// Run runs req.Argv under the profile.
func (r *Runner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if len(req.Argv) == 0 {
		return runner.Result{}, errors.New("sandbox-exec: empty argv")
	}
	wrapped := req
	wrapped.Argv = append([]string{r.program, "-p", r.profile, "--"}, req.Argv...)
	return r.base.Run(ctx, wrapped)
}
