// Package exec owns the command execution tools, run_command and
// run_script: their arguments, limits, child environment and results. Both
// run through the relay, which decides whether they run at all.
package exec

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/command"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/shellword"
)

// Limits bound every call; per-call values may only narrow them.
type Limits = command.Limits

// Deps is what the exec tools need from the rest of warden.
type Deps struct {
	Limits Limits
	// Env is the fixed base environment of every child (PATH, HOME, LANG,
	// TERM and configured pass-through names) as KEY=VALUE.
	Env []string
	// Hosts resolves a host argument ("" or "local" or an inventory name),
	// or explains why it cannot.
	Hosts hosts.Resolver
	// ScriptDir is a private directory (0700) for run_script bodies.
	ScriptDir string
}

// CommandArgs are run_command's arguments.
type CommandArgs struct {
	Command  string            `json:"command" jsonschema:"Shell command line to run with /bin/sh -c on the target."`
	Host     string            `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	Cwd      string            `json:"cwd,omitempty" jsonschema:"Absolute working directory."`
	Stdin    string            `json:"stdin,omitempty" jsonschema:"Text written to the command's standard input."`
	Env      map[string]string `json:"env,omitempty" jsonschema:"Extra environment variables for this call only."`
	TimeoutS int               `json:"timeout_s,omitempty" jsonschema:"Timeout in seconds; capped by the server maximum."`
	MaxBytes int               `json:"max_bytes,omitempty" jsonschema:"Cap on stdout+stderr kept; may only narrow the server limit."`
}

// ScriptArgs are run_script's arguments.
type ScriptArgs struct {
	Script      string            `json:"script" jsonschema:"Script body."`
	Interpreter string            `json:"interpreter,omitempty" jsonschema:"sh (default), bash or python3."`
	Strict      bool              `json:"strict,omitempty" jsonschema:"sh: set -eu; bash: set -euo pipefail."`
	Host        string            `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	Cwd         string            `json:"cwd,omitempty" jsonschema:"Absolute working directory."`
	Stdin       string            `json:"stdin,omitempty" jsonschema:"Text written to the script's standard input."`
	Env         map[string]string `json:"env,omitempty" jsonschema:"Extra environment variables for this call only."`
	TimeoutS    int               `json:"timeout_s,omitempty" jsonschema:"Timeout in seconds; capped by the server maximum."`
	MaxBytes    int               `json:"max_bytes,omitempty" jsonschema:"Cap on stdout+stderr kept; may only narrow the server limit."`
}

// Result is the structured result of both tools.
type Result = command.Result

// Register adds run_command and run_script to the relay.
func Register(r *relay.Relay, d Deps) {
	relay.Add[CommandArgs, Result](r, relay.Spec{
		Name:  "run_command",
		Title: "Run a shell command",
		Description: "Run one shell command line on the local machine or an inventory host and return its exit code, " +
			"stdout and stderr (combined output capped; truncated output is flagged). Every call is classified by " +
			"policy: read-only commands run at once, mutations may need approval, catastrophic commands never run.",
		Annotations: &mcp.ToolAnnotations{Title: "Run a shell command", DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, d.planCommand)
	relay.Add[ScriptArgs, Result](r, relay.Spec{
		Name:  "run_script",
		Title: "Run a script",
		Description: "Run a multi-line script with sh, bash or python3 on the local machine or an inventory host. " +
			"strict=true adds set -eu (sh) or set -euo pipefail (bash). The body is checked by policy like a command.",
		Annotations: &mcp.ToolAnnotations{Title: "Run a script", DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, d.planScript)
}

func ptr[T any](v T) *T { return &v }

// common holds the arguments both tools share, checked once.
type common struct {
	host, cwd, stdin string
	env              map[string]string
	timeout          time.Duration
	maxBytes         int
}

func (d *Deps) check(c common, timeoutS, maxBytes int) (common, error) {
	if c.cwd != "" && (!filepath.IsAbs(c.cwd) || strings.ContainsRune(c.cwd, 0)) {
		return c, fmt.Errorf("cwd must be an absolute path, got %q", c.cwd)
	}
	if len(c.stdin) > d.Limits.MaxStdinBytes {
		return c, fmt.Errorf("stdin is %d bytes; the limit is %d", len(c.stdin), d.Limits.MaxStdinBytes)
	}
	for k, v := range c.env {
		if !shellword.ValidName(k) {
			return c, fmt.Errorf("env: %q is not a valid variable name", k)
		}
		if strings.ContainsRune(v, 0) {
			return c, fmt.Errorf("env: value of %s contains a NUL byte", k)
		}
	}
	if timeoutS < 0 || maxBytes < 0 {
		return c, errors.New("timeout_s and max_bytes must not be negative")
	}
	c.timeout = d.Limits.DefaultTimeout
	if timeoutS > 0 {
		c.timeout = min(time.Duration(timeoutS)*time.Second, d.Limits.MaxTimeout)
	}
	c.maxBytes = d.Limits.DefaultMaxBytes
	if maxBytes > 0 {
		c.maxBytes = min(maxBytes, d.Limits.MaxBytes)
	}
	return c, nil
}

func (d *Deps) planCommand(ctx context.Context, call *relay.Call, a *CommandArgs) (*relay.Plan, error) {
	if strings.TrimSpace(a.Command) == "" {
		return nil, errors.New("command is empty")
	}
	if strings.ContainsRune(a.Command, 0) {
		return nil, errors.New("command contains a NUL byte")
	}
	c, err := d.check(common{host: a.Host, cwd: a.Cwd, stdin: a.Stdin, env: a.Env}, a.TimeoutS, a.MaxBytes)
	if err != nil {
		return nil, err
	}
	t, err := d.Hosts(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	p := d.plan(call, t, c, []string{t.Shell, "-c", a.Command})
	p.Input.Command = a.Command
	return p, nil
}

func (d *Deps) planScript(ctx context.Context, call *relay.Call, a *ScriptArgs) (*relay.Plan, error) {
	if strings.TrimSpace(a.Script) == "" {
		return nil, errors.New("script is empty")
	}
	if strings.ContainsRune(a.Script, 0) {
		return nil, errors.New("script contains a NUL byte")
	}
	interp := a.Interpreter
	if interp == "" {
		interp = "sh"
	}
	body := a.Script
	switch interp {
	case "sh":
		if a.Strict {
			body = "set -eu\n" + body
		}
	case "bash":
		if a.Strict {
			body = "set -euo pipefail\n" + body
		}
	case "python3":
		if a.Strict {
			return nil, errors.New("strict applies to sh and bash only")
		}
	default:
		return nil, fmt.Errorf("interpreter %q is not one of sh, bash, python3", interp)
	}
	c, err := d.check(common{host: a.Host, cwd: a.Cwd, stdin: a.Stdin, env: a.Env}, a.TimeoutS, a.MaxBytes)
	if err != nil {
		return nil, err
	}
	t, err := d.Hosts(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	argv := scriptArgv(t, interp, body)
	p := d.plan(call, t, c, argv)
	p.Input.Interpreter = interp
	p.Input.Script = body
	if t.StageScripts {
		run := p.Run
		p.Run = func(ctx context.Context) *relay.Outcome {
			path, cleanup, err := stageScript(ctx, d.ScriptDir, body, c.timeout)
			if err != nil {
				return relay.Fail(relay.StatusError, "cannot stage script: %v", err)
			}
			defer cleanup()
			argv[len(argv)-1] = path
			return run(ctx)
		}
	}
	return p, nil
}

// scriptArgv runs a script body: where warden's files are the host's,
// from a private file (the last element, filled in at run time), elsewhere
// through the interpreter's -c.
func scriptArgv(t *hosts.Host, interp, body string) []string {
	if t.StageScripts {
		return []string{interp, ""}
	}
	return []string{interp, "-c", body}
}

func (d *Deps) plan(call *relay.Call, t *hosts.Host, c common, argv []string) *relay.Plan {
	host := c.host
	if host == "" {
		host = "local"
	}
	in := relayInput(c)
	in.HostAddrs = t.Addrs
	base := d.Env
	if t.Env != nil {
		base = t.Env
	}
	return &relay.Plan{
		Host:  host,
		Input: in,
		Run: func(ctx context.Context) *relay.Outcome {
			req := runner.Request{
				Argv:     argv,
				Env:      mergeEnv(base, c.env),
				Dir:      c.cwd,
				Stdin:    []byte(c.stdin),
				Timeout:  c.timeout,
				MaxBytes: c.maxBytes,
			}
			if call.WantsProgress() {
				req.Progress = func(elapsed time.Duration, n int64) {
					call.Progress(ctx, float64(n), fmt.Sprintf("%s elapsed, %d bytes of output", elapsed.Round(time.Second), n))
				}
			}
			res, err := t.Runner.Run(ctx, req)
			if err != nil {
				return relay.Fail(relay.StatusError, "%v", err)
			}
			return command.Outcome(res)
		},
	}
}

// mergeEnv returns base with extra added; extra wins on the same name.
func mergeEnv(base []string, extra map[string]string) []string {
	if len(extra) == 0 {
		return base
	}
	env := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := extra[name]; !ok {
			env = append(env, kv)
		}
	}
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

// Outcome renders a runner result as run_command does, for the
// declarative tools.
func Outcome(res runner.Result) *relay.Outcome { return command.Outcome(res) }
