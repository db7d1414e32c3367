// Package docker owns the docker runner: each command runs in a fresh
// container (--rm, --init, no new privileges, networking off unless the
// tool allows it) from a given image, with only the mounts the tool names.
// Every option is checked and turned into argv; nothing reaches a shell.
// The docker CLI runs through a base runner, which keeps its bounds and
// output capture; a container left by a timeout or cancellation is removed.
package docker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/runner"
)

// Options are the runner's options as a declarative tool states them,
// already rendered.
type Options struct {
	Image           string
	AllowNetworking bool
	// Network is the network to join when networking is allowed.
	Network string
	// Mounts are HOST:CONTAINER[:ro|rw] with clean absolute paths.
	Mounts []string
	// Hide are paths no mount may show (warden's own files). The daemon
	// makes the mounts, outside any confinement of warden's, so a mount
	// whose source, as the daemon resolves it, is, holds or lies in one is
	// refused.
	Hide    []string
	User    string
	Workdir string
	// RunOpts are extra docker run options, split like shell words and
	// checked against RunOptsAllowed.
	RunOpts string
	// Prepare runs before the command, in the same container.
	Prepare           string
	Memory            string
	MemoryReservation string
	MemorySwap        string
	// MemorySwappiness is 0..100; nil means docker's default.
	MemorySwappiness *int
	CapAdd           []string
	CapDrop          []string
	DNS              []string
	DNSSearch        []string
	Platform         string
}

// RunOptsAllowed are the docker run flags docker_run_opts may use; each
// takes a value except --read-only. Anything that widens the container
// (--privileged, --network, -v, --device, --pid, --security-opt, …) is
// refused.
var RunOptsAllowed = []string{"--cpus", "--cpu-shares", "--memory", "--pids-limit", "--read-only", "--tmpfs", "--ulimit", "--shm-size", "--label", "--hostname", "--stop-timeout"}

var (
	memRE      = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?[bkmgBKMG]?$`)
	capRE      = regexp.MustCompile(`^[A-Za-z_]{2,40}$`)
	userRE     = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}(:[A-Za-z0-9_.-]{1,64})?$`)
	nameRE     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$`)
	imageRE    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}$`)
	platformRE = regexp.MustCompile(`^[a-z0-9]+/[a-z0-9_]+(/[a-z0-9]+)?$`)
	domainRE   = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$`)
	valueRE    = regexp.MustCompile(`^[A-Za-z0-9_.:=/,+-]{1,256}$`)
)

// Runner runs commands in docker containers.
type Runner struct {
	base   runner.Runner
	docker string
	// host is DOCKER_HOST for the CLI, or "".
	host string
	args []string
	opts Options
}

var _ runner.Runner = (*Runner)(nil)

// New returns a Runner that runs the docker CLI at path through base,
// talking to the daemon at host ("" means the CLI's default).
func New(base runner.Runner, path, host string, o Options) (*Runner, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("docker: program path %q is not absolute", path)
	}
	args, err := o.args()
	if err != nil {
		return nil, fmt.Errorf("docker: %w", err)
	}
	return &Runner{base: base, docker: path, host: host, args: args, opts: o}, nil
}

func cleanAbs(p string) bool {
	return filepath.IsAbs(p) && filepath.Clean(p) == p && !strings.ContainsAny(p, "\x00\n\r:,")
}

// hiddenBy returns the hidden path a mount of src would show, or "".
func hiddenBy(src string, hide []string) string {
	real, err := filepath.EvalSymlinks(src)
	if err != nil {
		real = src
	}
	for _, h := range runner.RealPaths(hide) {
		if runner.Within(real, h) || runner.Within(h, real) {
			return h
		}
	}
	return ""
}

// args checks every option and returns the docker run arguments that
// follow "run".
func (o Options) args() ([]string, error) {
	if !imageRE.MatchString(o.Image) {
		return nil, fmt.Errorf("image %q is missing or not an image reference", o.Image)
	}
	a := []string{"--rm", "-i", "--init", "--security-opt", "no-new-privileges"}
	switch {
	case !o.AllowNetworking && o.Network != "" && o.Network != "none":
		return nil, fmt.Errorf("network %q needs allow_networking: true", o.Network)
	case !o.AllowNetworking:
		a = append(a, "--network", "none")
	case o.Network != "":
		if !nameRE.MatchString(o.Network) {
			return nil, fmt.Errorf("network %q is not a network name", o.Network)
		}
		a = append(a, "--network", o.Network)
	}
	for _, m := range o.Mounts {
		parts := strings.Split(m, ":")
		if len(parts) < 2 || len(parts) > 3 || !cleanAbs(parts[0]) || !cleanAbs(parts[1]) || parts[0] == "/" || parts[1] == "/" {
			return nil, fmt.Errorf("mount %q must be HOST:CONTAINER[:ro|rw] with clean absolute paths below /", m)
		}
		if h := hiddenBy(parts[0], o.Hide); h != "" {
			return nil, fmt.Errorf("mount %q would show warden's own files (%s) to the container", m, h)
		}
		mode := "ro"
		if len(parts) == 3 {
			mode = parts[2]
		}
		if mode != "ro" && mode != "rw" {
			return nil, fmt.Errorf("mount %q: mode must be ro or rw", m)
		}
		a = append(a, "--mount", fmt.Sprintf("type=bind,source=%s,target=%s%s", parts[0], parts[1], map[string]string{"ro": ",readonly", "rw": ""}[mode]))
	}
	if o.User != "" {
		if !userRE.MatchString(o.User) {
			return nil, fmt.Errorf("user %q must be NAME or UID[:GID]", o.User)
		}
		a = append(a, "--user", o.User)
	}
	if o.Workdir != "" {
		if !cleanAbs(o.Workdir) {
			return nil, fmt.Errorf("workdir %q must be a clean absolute path", o.Workdir)
		}
		a = append(a, "--workdir", o.Workdir)
	}
	for _, m := range []struct{ flag, v string }{{"--memory", o.Memory}, {"--memory-reservation", o.MemoryReservation}, {"--memory-swap", o.MemorySwap}} {
		if m.v == "" {
			continue
		}
		if !memRE.MatchString(m.v) {
			return nil, fmt.Errorf("%s %q is not a size like 512m", strings.TrimPrefix(m.flag, "--"), m.v)
		}
		a = append(a, m.flag, m.v)
	}
	if sw := o.MemorySwappiness; sw != nil {
		if *sw < 0 || *sw > 100 {
			return nil, fmt.Errorf("memory_swappiness %d must be 0..100", *sw)
		}
		a = append(a, "--memory-swappiness", strconv.Itoa(*sw))
	}
	for _, c := range o.CapDrop {
		if !capRE.MatchString(c) {
			return nil, fmt.Errorf("cap_drop %q is not a capability name", c)
		}
		a = append(a, "--cap-drop", c)
	}
	for _, c := range o.CapAdd {
		if !capRE.MatchString(c) {
			return nil, fmt.Errorf("cap_add %q is not a capability name", c)
		}
		a = append(a, "--cap-add", c)
	}
	for _, d := range o.DNS {
		if net.ParseIP(d) == nil {
			return nil, fmt.Errorf("dns %q is not an IP address", d)
		}
		a = append(a, "--dns", d)
	}
	for _, d := range o.DNSSearch {
		if !domainRE.MatchString(d) {
			return nil, fmt.Errorf("dns_search %q is not a domain", d)
		}
		a = append(a, "--dns-search", d)
	}
	if o.Platform != "" {
		if !platformRE.MatchString(o.Platform) {
			return nil, fmt.Errorf("platform %q is not like linux/amd64", o.Platform)
		}
		a = append(a, "--platform", o.Platform)
	}
	extra, err := ParseRunOpts(o.RunOpts)
	if err != nil {
		return nil, err
	}
	return append(a, extra...), nil
}

// ParseRunOpts splits docker_run_opts like shell words (quotes only; any
// expansion is an error) and checks every flag against RunOptsAllowed.
func ParseRunOpts(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(s), "")
	if err != nil {
		return nil, fmt.Errorf("docker_run_opts: %v", err)
	}
	if len(f.Stmts) != 1 {
		return nil, errors.New("docker_run_opts: must be one list of options")
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || f.Stmts[0].Background || len(f.Stmts[0].Redirs) > 0 {
		return nil, errors.New("docker_run_opts: must be plain options")
	}
	var words []string
	for _, w := range call.Args {
		lit, ok := literal(w)
		if !ok {
			return nil, errors.New("docker_run_opts: expansions and substitutions are not allowed")
		}
		words = append(words, lit)
	}
	var out []string
	for i := 0; i < len(words); i++ {
		flag, val, hasVal := strings.Cut(words[i], "=")
		if !slices.Contains(RunOptsAllowed, flag) {
			return nil, fmt.Errorf("docker_run_opts: %q is not allowed (allowed: %s)", flag, strings.Join(RunOptsAllowed, " "))
		}
		if flag == "--read-only" {
			if hasVal {
				return nil, errors.New("docker_run_opts: --read-only takes no value")
			}
			out = append(out, flag)
			continue
		}
		if !hasVal {
			if i+1 >= len(words) {
				return nil, fmt.Errorf("docker_run_opts: %s needs a value", flag)
			}
			i++
			val = words[i]
		}
		if !valueRE.MatchString(val) {
			return nil, fmt.Errorf("docker_run_opts: value %q of %s has characters outside [A-Za-z0-9_.:=/,+-]", val, flag)
		}
		out = append(out, flag+"="+val)
	}
	return out, nil
}

// literal returns a word's value when it has only literal and quoted
// parts.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// Argv returns the docker CLI argv for a request, and the container name.
func (r *Runner) Argv(req runner.Request) (argv []string, name string) {
	name = "warden-" + randomHex()
	argv = append([]string{r.docker, "run", "--name", name}, r.args...)
	for _, kv := range req.Env {
		k, _, _ := strings.Cut(kv, "=")
		// The value comes from the CLI's environment, not its argv.
		argv = append(argv, "--env", k)
	}
	if req.Dir != "" {
		argv = append(argv, "--workdir", req.Dir)
	}
	argv = append(argv, "--", r.opts.Image)
	if r.opts.Prepare != "" {
		argv = append(argv, "/bin/sh", "-c", r.opts.Prepare+"\nexec \"$@\"", "sh")
	}
	return append(argv, req.Argv...), name
}

// Run runs req.Argv in a new container. A container still there after a
// timeout or cancellation is removed.
func (r *Runner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if len(req.Argv) == 0 {
		return runner.Result{}, errors.New("docker: empty argv")
	}
	argv, name := r.Argv(req)
	wrapped := req
	wrapped.Argv = argv
	wrapped.Dir = ""
	wrapped.Env = r.cliEnv(req.Env)
	res, err := r.base.Run(ctx, wrapped)
	if res.TimedOut || res.Canceled || err != nil {
		r.remove(name)
	}
	if err != nil {
		return res, fmt.Errorf("docker: %w", err)
	}
	// docker run exits 125 when the container could not be created and
	// 126/127 when the command could not be run: nothing ran.
	if (res.ExitCode == 125 || res.ExitCode == 127 || res.ExitCode == 126) && strings.Contains(string(res.Stderr), "docker: Error response from daemon") {
		return res, fmt.Errorf("docker: exec %q: %s", req.Argv[0], strings.TrimSpace(string(res.Stderr)))
	}
	return res, nil
}

func (r *Runner) cliEnv(env []string) []string {
	out := append([]string(nil), env...)
	if r.host != "" {
		out = append(out, "DOCKER_HOST="+r.host)
	}
	return out
}

// remove force-removes a container, bounded in time.
func (r *Runner) remove(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, _ = r.base.Run(ctx, runner.Request{Argv: []string{r.docker, "rm", "-f", name}, Env: r.cliEnv([]string{"PATH=/usr/bin:/bin"}), Timeout: 30 * time.Second})
}

func randomHex() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
