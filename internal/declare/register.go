package declare

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/tools/exec"
)

// Deps is what declarative tools need from the rest of warden.
type Deps struct {
	// Limits are run_command's: a tool's run.timeout is capped by
	// MaxTimeout, and output by DefaultMaxBytes.
	Limits exec.Limits
	// Env is the fixed base environment of every child, as KEY=VALUE.
	Env []string
	// Getenv reads warden's own environment, for names a tool lists in
	// run.env; nil reads nothing.
	Getenv func(string) string
	// TemplateEnv names variables every template may read with env
	// (exec.env_passthrough), besides a tool's own run.env names.
	TemplateEnv []string
	// Local runs commands on this machine, confined to each call's
	// admission (the exec runner).
	Local runner.Runner
	// Sandbox is the base the sandbox runners wrap: they confine their
	// programs themselves and need what Local's confinement takes away
	// (mounts, namespaces, setuid). Nil means Local.
	Sandbox runner.Runner
	// Hide lists warden's own files, which the kernel confinement keeps
	// from every other child: the sandbox runners, which run outside it,
	// keep them out of their sandboxes (bubblewrap covers them, firejail
	// blacklists them, landlock grants around them, docker refuses a
	// mount that shows one). Nil hides nothing.
	Hide func() []string
	// Path is where runner programs and requirements.executables are
	// looked up.
	Path string
	// LandlockHelper is the argv prefix that runs landlock.Helper; nil
	// makes the landlock runner unavailable.
	LandlockHelper []string
	// Looks bounds the sandbox runners' looks at programs and working
	// directories that wait at once (see runner.Looks); nil bounds
	// nothing.
	Looks *runner.Looks
	// DockerHost is DOCKER_HOST for the docker CLI, or "".
	DockerHost string
	// ProfileDir is where sandbox runners write the profiles they hand
	// their program (firejail's custom_profile): a directory no program
	// below tier 2 may write. "" means the system's temporary directory.
	ProfileDir string
	// GOOS overrides runtime.GOOS (tests).
	GOOS   string
	Logger *slog.Logger
}

// hidden is what every sandbox runner keeps out of its sandbox.
func (d *Deps) hidden() []string {
	if d.Hide == nil {
		return nil
	}
	return d.Hide()
}

func (d *Deps) sandbox() runner.Runner {
	if d.Sandbox != nil {
		return d.Sandbox
	}
	return d.Local
}

func (d *Deps) goos() string {
	if d.GOOS != "" {
		return d.GOOS
	}
	return runtime.GOOS
}

// Result is a declarative call's structured result: run_command's, and
// the runner that ran it.
type Result struct {
	exec.Result
	Runner string `json:"runner"`
}

// Register adds every available tool of set to the relay, and every
// file's prompts. It returns the choice made for every tool, available or
// not, for warden tools and the log.
func Register(r *relay.Relay, set *Set, d Deps) []Choice {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	var out []Choice
	for _, f := range set.Files {
		for _, t := range f.Tools {
			c := d.Choose(t)
			out = append(out, c)
			if c.Reason != "" {
				d.Logger.Warn("declarative tool unavailable", "tool", t.Name, "file", t.File, "reason", c.Reason)
				continue
			}
			relay.AddSchema[Result](r, relay.Spec{
				Name:        t.Name,
				Title:       t.Name,
				Description: t.Description,
				Tier:        t.Tier,
				Annotations: annotations(t, c),
			}, t.InputSchema(), d.plan(c))
		}
		if f.Prompts != nil {
			addPrompt(r, f.Prompts)
		}
	}
	return out
}

func annotations(t *Tool, c Choice) *mcp.ToolAnnotations {
	net := b(c.Runner.Options, "allow_networking") || c.Runner.Name == "exec"
	destructive := t.Tier >= policy.TierMutate
	return &mcp.ToolAnnotations{
		Title:           t.Name,
		ReadOnlyHint:    false,
		DestructiveHint: &destructive,
		OpenWorldHint:   &net,
	}
}

// InputSchema is the tool's JSON schema: one typed property per parameter,
// defaults, required names, and nothing else accepted.
func (t *Tool) InputSchema() *jsonschema.Schema {
	s := &jsonschema.Schema{
		Type:                 "object",
		Properties:           map[string]*jsonschema.Schema{},
		AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}},
	}
	for _, p := range t.Params {
		ps := &jsonschema.Schema{Type: string(p.Type), Description: p.Description}
		if p.Type == TypeArray {
			ps.Items = &jsonschema.Schema{Type: "string"}
		}
		if p.Default != nil {
			ps.Default, _ = json.Marshal(p.Default)
		}
		s.Properties[p.Name] = ps
		if p.Required {
			s.Required = append(s.Required, p.Name)
		}
	}
	return s
}

// Values turns decoded JSON arguments into typed values: integers as
// int64, numbers as float64, and absent optional
// parameters as their default or the type's zero value.
func (t *Tool) Values(args map[string]any) (map[string]any, error) {
	vals := make(map[string]any, len(t.Params))
	for _, p := range t.Params {
		v, ok := args[p.Name]
		if !ok || v == nil {
			if p.Required {
				return nil, fmt.Errorf("parameter %s is required", p.Name)
			}
			v = p.Default
		}
		tv, err := typedValue(p, v)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %v", p.Name, err)
		}
		vals[p.Name] = tv
	}
	return vals, nil
}

func typedValue(p *Param, v any) (any, error) {
	switch p.Type {
	case TypeString:
		if v == nil {
			v = ""
		}
		s, ok := v.(string)
		if !ok {
			return nil, errors.New("must be a string")
		}
		if strings.ContainsRune(s, 0) {
			return nil, errors.New("contains a NUL byte")
		}
		return s, nil
	case TypeArray:
		var list []any
		switch x := v.(type) {
		case nil:
			return []string{}, nil
		case []string:
			for _, e := range x {
				list = append(list, e)
			}
		case []any:
			list = x
		default:
			return nil, errors.New("must be an array of strings")
		}
		out := make([]string, 0, len(list))
		for i, e := range list {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("element %d must be a string", i)
			}
			if strings.ContainsRune(s, 0) {
				return nil, fmt.Errorf("element %d contains a NUL byte", i)
			}
			out = append(out, s)
		}
		return out, nil
	case TypeBoolean:
		if v == nil {
			return false, nil
		}
		bv, ok := v.(bool)
		if !ok {
			return nil, errors.New("must be a boolean")
		}
		return bv, nil
	case TypeInteger:
		switch x := v.(type) {
		case nil:
			return int64(0), nil
		case int64:
			return x, nil
		case json.Number:
			return x.Int64()
		case float64:
			if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
				return nil, errors.New("must be an integer")
			}
			return int64(x), nil
		}
		return nil, errors.New("must be an integer")
	case TypeNumber:
		switch x := v.(type) {
		case nil:
			return float64(0), nil
		case float64:
			return x, nil
		case int64:
			return float64(x), nil
		case json.Number:
			return x.Float64()
		}
		return nil, errors.New("must be a number")
	}
	return nil, fmt.Errorf("unknown type %s", p.Type)
}

// Prepared is one call made ready to run: the rendered command, the
// child's environment, the runner, and the bounds.
type Prepared struct {
	Command string
	// Policy is what the policy classifies: the prepare command, if any,
	// then the command.
	Policy  policy.Input
	Argv    []string
	Env     []string
	Runner  runner.Runner
	Timeout time.Duration
	Prefix  string
	// readOnly builds Runner again with its write grants read-only, for
	// a call admitted below tier 2; nil when it grants none.
	readOnly func() (runner.Runner, error)
}

// Prepare checks the constraints, renders the command and the runner's
// options and builds the runner. A constraint that does not hold is an
// error wrapping ErrConstraint and naming the expression.
func (d *Deps) Prepare(ctx context.Context, c Choice, args map[string]any) (*Prepared, error) {
	return d.prepare(ctx, c, args, false)
}

// refusedSecrets returns the values of a call Prepare refused that the
// command would have held at a secret's place: the refusal is audited
// with the call's arguments too, and a value refused for starting with
// '-', or failing a constraint, is no less a password for it.
func (d *Deps) refusedSecrets(ctx context.Context, c Choice, args map[string]any) []string {
	p, err := d.prepare(ctx, c, args, true)
	if err == nil {
		return p.secretValues(args)
	}
	// A value no quoting can hold (one that ends a here-document early):
	// the command with the values printed as they are.
	vals, err := c.Tool.Values(args)
	if err != nil {
		return nil
	}
	cmd, err := c.Tool.Run.Command.Render(vals, Env{Any: true, Plain: true})
	if err != nil {
		return nil
	}
	return (&Prepared{Policy: policy.Input{Command: cmd}}).secretValues(args)
}

// prepare is Prepare; for refusedSecrets, lenient skips the constraints
// and renders values that would be options as any other.
func (d *Deps) prepare(ctx context.Context, c Choice, args map[string]any, lenient bool) (*Prepared, error) {
	t := c.Tool
	vals, err := t.Values(args)
	if err != nil {
		return nil, err
	}
	if !lenient {
		if err := t.Check(ctx, vals); err != nil {
			return nil, err
		}
	}
	env := Env{Allowed: map[string]bool{}, Getenv: d.Getenv, AnyOption: lenient}
	for _, name := range d.TemplateEnv {
		env.Allowed[name] = true
	}
	for _, e := range t.Run.Env {
		if e.Value == nil {
			env.Allowed[e.Name] = true
		}
	}
	// What the command reads of warden's environment it refers to by
	// name, the value in the program's environment; the policy reads the
	// command with the values, as the shell will run it.
	refs := map[string]string{}
	withRefs := env
	withRefs.Refs = refs
	cmd, err := t.Run.Command.Render(vals, withRefs)
	if err != nil {
		return nil, fmt.Errorf("command: %v", err)
	}
	literal := cmd
	if len(refs) > 0 {
		if literal, err = t.Run.Command.Render(vals, env); err != nil {
			return nil, fmt.Errorf("command: %v", err)
		}
	}
	childEnv, extra, err := d.childEnv(t, vals, env)
	if err != nil {
		return nil, err
	}
	// A docker prepare_command refers to warden's variables as the
	// command does; the runner passes the program's environment on.
	rn, prepare, err := d.build(c, vals, withRefs, false)
	if err != nil {
		return nil, err
	}
	if childEnv, err = withEnvRefs(childEnv, refs); err != nil {
		return nil, err
	}
	p := &Prepared{Command: cmd, Env: childEnv, Runner: rn, Timeout: d.Limits.DefaultTimeout}
	if grantsWrites(c) {
		p.readOnly = func() (runner.Runner, error) {
			rn, _, err := d.build(c, vals, withRefs, true)
			return rn, err
		}
	}
	p.Policy = policy.Input{Command: literal, Env: extra}
	if prepare != "" {
		p.Policy.Command = prepare + "\n" + literal
	}
	if t.Run.Timeout > 0 {
		p.Timeout = t.Run.Timeout
	}
	if d.Limits.MaxTimeout > 0 {
		p.Timeout = min(p.Timeout, d.Limits.MaxTimeout)
	}
	if t.Prefix != nil {
		// The prefix goes to the agent with the output: no value of
		// warden's environment may be in it.
		if p.Prefix, err = t.Prefix.Render(vals, Env{Shown: true}); err != nil {
			return nil, fmt.Errorf("output.prefix: %v", err)
		}
	}
	p.Argv = []string{t.shell, "-c", cmd}
	return p, nil
}

// childEnv is the base environment plus run.env: names passed from
// warden's environment when set there, and templated assignments. The
// second result is the templated assignments alone, which parameters can
// shape and policy must see; passed-through names are the operator's.
func (d *Deps) childEnv(t *Tool, vals map[string]any, env Env) ([]string, map[string]string, error) {
	extra := map[string]string{}
	shaped := map[string]string{}
	for _, e := range t.Run.Env {
		if e.Value == nil {
			if d.Getenv != nil {
				if v := d.Getenv(e.Name); v != "" {
					extra[e.Name] = v
				}
			}
			continue
		}
		v, err := e.Value.Render(vals, env)
		if err != nil {
			return nil, nil, fmt.Errorf("run.env %s: %v", e.Name, err)
		}
		if strings.ContainsRune(v, 0) {
			return nil, nil, fmt.Errorf("run.env %s: value contains a NUL byte", e.Name)
		}
		extra[e.Name] = v
		shaped[e.Name] = v
	}
	out := make([]string, 0, len(d.Env)+len(extra))
	for _, kv := range d.Env {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := extra[name]; !ok {
			out = append(out, kv)
		}
	}
	for _, e := range t.Run.Env {
		if v, ok := extra[e.Name]; ok {
			out = append(out, e.Name+"="+v)
		}
	}
	return out, shaped, nil
}

// withEnvRefs puts each variable the command refers to (Env.Refs) in
// env with its value. A name run.env sets to another value is refused:
// the command would read that instead.
func withEnvRefs(env []string, refs map[string]string) ([]string, error) {
	for name, v := range refs {
		found := false
		for _, kv := range env {
			if k, have, _ := strings.Cut(kv, "="); k == name {
				if have != v {
					return nil, fmt.Errorf("command: env %q is read in the command and set to another value by run.env", name)
				}
				found = true
			}
		}
		if !found {
			env = append(env, name+"="+v)
		}
	}
	return env, nil
}

func (d *Deps) plan(c Choice) relay.PlanFunc[map[string]any] {
	return func(ctx context.Context, call *relay.Call, in *map[string]any) (*relay.Plan, error) {
		p, err := d.Prepare(ctx, c, *in)
		if err != nil {
			for _, v := range d.refusedSecrets(ctx, c, *in) {
				call.KnownSecret(v)
			}
			return nil, err
		}
		for _, v := range p.secretValues(*in) {
			call.KnownSecret(v)
		}
		return &relay.Plan{
			Host:  "local",
			Input: p.Policy,
			Run: func(ctx context.Context) *relay.Outcome {
				// The tool's programs carry what its file gives them
				// (run.env, values from warden's environment): no other
				// tool's programs may share their domain and read it.
				ctx = confine.WithApart(ctx)
				rn, err := p.admittedRunner(ctx)
				if err != nil {
					return relay.Fail(relay.StatusError, "%v", err)
				}
				res, err := rn.Run(ctx, runner.Request{
					Argv:     p.Argv,
					Env:      p.Env,
					Timeout:  p.Timeout,
					MaxBytes: d.Limits.DefaultMaxBytes,
					Progress: func(elapsed time.Duration, n int64) {
						call.Progress(ctx, float64(n), fmt.Sprintf("%s elapsed, %d bytes of output", elapsed.Round(time.Second), n))
					},
				})
				if err != nil {
					return relay.Fail(relay.StatusError, "%v", err)
				}
				o := exec.Outcome(res)
				o.Result = Result{Result: o.Result.(exec.Result), Runner: c.Runner.Name}
				if p.Prefix != "" {
					o.Text = strings.TrimRight(p.Prefix, "\n") + "\n" + o.Text
				}
				o.Extra = map[string]any{"runner": c.Runner.Name}
				return o
			},
		}, nil
	}
}

// addPrompt serves a file's prompts as one MCP prompt through the relay.
func addPrompt(r *relay.Relay, p *Prompts) {
	var text strings.Builder
	for _, s := range p.System {
		text.WriteString(s)
		text.WriteByte('\n')
	}
	var msgs []*mcp.PromptMessage
	if text.Len() > 0 {
		msgs = append(msgs, &mcp.PromptMessage{Role: "user", Content: &mcp.TextContent{Text: strings.TrimRight(text.String(), "\n")}})
	}
	for _, u := range p.User {
		msgs = append(msgs, &mcp.PromptMessage{Role: "user", Content: &mcp.TextContent{Text: u}})
	}
	desc := p.Description
	r.AddPrompt(&mcp.Prompt{Name: p.Name, Description: desc}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Description: desc, Messages: msgs}, nil
	})
}
