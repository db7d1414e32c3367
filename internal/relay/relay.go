// Package relay owns warden's one pipeline: every tool call, resource read
// and prompt fetch is identified, admitted by policy, approved if it must be,
// executed, bounded and audited here, in that order. Tools register through
// Add and never see the MCP server directly, so no tool has a side door.
package relay

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/gate"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/runner"
)

// Policy is what the relay needs of the policy engine.
type Policy interface {
	Evaluate(in policy.Input) policy.Verdict
}

// AuditLog is what the relay needs of the audit log.
type AuditLog interface {
	Append(ctx context.Context, r audit.Record) (audit.Record, error)
	Healthy() (bool, string)
}

// Mechanism is how a call that needs approval gets it.
type Mechanism string

// Approval mechanisms. token is friction, not a human gate: the agent holds
// the token. elicit asks the client's user; console holds the call for an
// operator (warden approvals, the web console).
const (
	MechToken   Mechanism = "token"
	MechElicit  Mechanism = "elicit"
	MechConsole Mechanism = "console"
)

// Options configures a Relay. Policy and Audit are required.
type Options struct {
	Policy Policy
	Audit  AuditLog
	Mode   policy.Mode
	// ToolModes narrows the mode per tool name; HostMode narrows it per host.
	ToolModes map[string]policy.Mode
	HostMode  func(host string) policy.Mode
	// HostRoot reports whether commands on a host run as root, which the
	// classifier is told (policy.Input.Root); nil is never.
	HostRoot func(host string) bool
	// HostShell is the shell that runs a command on a host, which the
	// classifier is told (policy.Input.HostShell); nil is sh.
	HostShell func(host string) string
	// Approval maps tiers 2 and 3 to their mechanisms; missing means
	// token. Several human mechanisms (elicit, console) may share a tier:
	// the first human answer wins.
	Approval map[policy.Tier][]Mechanism
	TokenTTL time.Duration
	// Console holds calls of the console mechanism for an operator; nil
	// refuses them.
	Console Console
	// ProgressEvery is how often a call held for an operator tells the
	// client it is still waiting; <= 0 means 10s.
	ProgressEvery time.Duration
	// RefuseWhenAuditDown refuses calls of tier >= 2 while the audit log
	// cannot be written.
	RefuseWhenAuditDown bool
	// MaxArgBytes bounds each audited argument value.
	MaxArgBytes int
	// ClassifyTimeout bounds each classification: a call whose command
	// is not classified in time is refused; <= 0 means
	// DefaultClassifyTimeout.
	ClassifyTimeout time.Duration
	// AuditWait bounds how long a call waits on the audit log (see
	// auditWait); <= 0 means DefaultAuditWait.
	AuditWait time.Duration
	// Looks bounds the classifications that have not ended (see
	// runner.Looks; they look files up); nil bounds nothing.
	Looks *runner.Looks
	// AllowedUsers, when non-empty, is the only identities admitted.
	AllowedUsers []string
	// LocalIdentity names the caller of a stdio server (the OS user).
	LocalIdentity string
	// TierCeiling, when set, caps the tier of an HTTP caller by its
	// verified token (scopes); see hooks.go.
	TierCeiling CeilingFunc
	// Observe, when set, is told of every finished call (metrics).
	Observe func(Observation)
	// Off are tool names the operator switched off (disable_tools): such a
	// tool is never registered, so it is absent from tools/list, and a call
	// naming it is refused as denied and audited, whatever the mode.
	Off    []string
	Now    func() time.Time
	Logger *slog.Logger
}

// Relay is the pipeline. It is safe for concurrent use.
type Relay struct {
	opts    Options
	server  *mcp.Server
	tokens  *gate.Tokens
	sealer  *gate.Sealer
	allowed map[string]bool
	// classify runs the policy's evaluations, each bounded in time.
	classify *classifier
	// auditLate counts the audit records still waiting on the log past
	// auditWait.
	auditLate atomic.Int64

	mu       sync.Mutex
	tools    []string
	handlers map[string]mcp.ToolHandler
	// off are the tools switched off; switchedOff those a package tried to
	// register, so an operator's name that matches no tool can be refused.
	off         map[string]bool
	switchedOff []string

	activity Activity
	hooks    hooks
}

// New returns a Relay that registers its tools on server.
func New(server *mcp.Server, o Options) *Relay {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.TokenTTL <= 0 {
		o.TokenTTL = 5 * time.Minute
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 10 * time.Second
	}
	if o.MaxArgBytes <= 0 {
		o.MaxArgBytes = 4096
	}
	if o.ClassifyTimeout <= 0 {
		o.ClassifyTimeout = DefaultClassifyTimeout
	}
	r := &Relay{
		opts:     o,
		server:   server,
		tokens:   gate.NewTokens(gate.TokenOptions{TTL: o.TokenTTL, Now: o.Now}),
		sealer:   gate.NewSealer(nil, o.Now),
		classify: newClassifier(o.Looks),
	}
	if len(o.AllowedUsers) > 0 {
		r.allowed = make(map[string]bool, len(o.AllowedUsers))
		for _, u := range o.AllowedUsers {
			r.allowed[u] = true
		}
	}
	r.off = make(map[string]bool, len(o.Off))
	for _, n := range o.Off {
		r.off[n] = true
	}
	if len(r.off) > 0 {
		server.AddReceivingMiddleware(r.refuseOff)
	}
	r.activity.now = o.Now
	r.activity.Touch()
	return r
}

// SwitchedOff lists the tools that were not registered because the
// operator switched them off.
func (r *Relay) SwitchedOff() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.switchedOff...)
}

// Activity returns the relay's activity tracker (last call, calls in flight).
func (r *Relay) Activity() *Activity { return &r.activity }

// Tools lists the names of every tool registered through the relay.
func (r *Relay) Tools() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.tools...)
}

// Mode reports the global policy mode.
func (r *Relay) Mode() policy.Mode { return r.opts.Mode }

// Spec describes a tool to the agent.
type Spec struct {
	Name        string
	Title       string
	Description string
	// Tier is the least tier any call of this tool has; the classifier can
	// raise it, never lower it.
	Tier        policy.Tier
	Annotations *mcp.ToolAnnotations
}

// Call is one tool call as the pipeline sees it.
type Call struct {
	ID       string
	Tool     string
	Args     json.RawMessage
	Identity string
	Client   string
	req      *mcp.CallToolRequest // nil for resource and prompt reads
	token    *auth.TokenInfo      // the verified HTTP token, if any

	redacted     json.RawMessage // Args as audited, once argsRedacted is closed
	redactedMax  int             // the bound of each value in redacted
	secrets      audit.Secrets   // what redacting Args replaced, once argsRedacted is closed
	known        []string        // secrets the tool knows of (KnownSecret)
	argsRedacted chan struct{}   // made by redactArgs, which begin calls
}

// redactArgs starts redacting the call's arguments for its audit record,
// so that it happens while the call is admitted and its command runs
// rather than after: on a run_command it is about a tenth of what warden
// adds to the command's own time.
func (c *Call) redactArgs(maxValue int) {
	c.argsRedacted = make(chan struct{})
	c.redactedMax = maxValue
	go func() {
		c.redacted, c.secrets = audit.RedactArgsFound(c.Args, maxValue, true)
		close(c.argsRedacted)
	}()
}

// redactText returns a text about the call (the classifier's reason, an
// approval's question) with what Redact finds in it and the secrets of the
// call's arguments replaced: the reason quotes the words it judged without
// the options that made them secret (restic echo pw).
func (c *Call) redactText(s string) string {
	return c.allSecrets().Redact(s)
}

// KnownSecret tells the call's audit record, reason and approval text that
// v, a text in its arguments no redaction rule recognises alone, is a
// secret: a password a session_send types at the prompt of the command
// the send before it ran. A tool calls it while planning the call.
func (c *Call) KnownSecret(v string) {
	c.known = append(c.known, v)
}

// allSecrets is what redacting the arguments replaced, once it is done,
// and what the tool said is secret.
func (c *Call) allSecrets() audit.Secrets {
	<-c.argsRedacted
	if len(c.known) == 0 {
		return c.secrets
	}
	return c.secrets.With(c.known...)
}

// auditArgs returns the call's arguments as audited, once redactArgs is done.
func (c *Call) auditArgs() json.RawMessage {
	<-c.argsRedacted
	return c.redacted
}

// uncut bounds the arguments read whole before the secrets a tool knows
// of are replaced: RedactArgs' own bound on a whole call.
const uncut = 512 << 10

// shownArgs returns the call's arguments as audited with every secret
// (allSecrets) replaced, each value cut to maxValue bytes. A secret the
// tool knows of is replaced before the cut: after it, one longer than the
// bound, or lying across the cut, is no longer whole, and the head and
// tail the cut keeps would hold it.
func (c *Call) shownArgs(maxValue int) json.RawMessage {
	sec := c.allSecrets()
	if len(c.known) == 0 {
		if maxValue == c.redactedMax {
			return sec.RedactJSON(c.auditArgs())
		}
		return sec.RedactJSON(audit.RedactArgs(c.Args, maxValue))
	}
	return audit.RedactArgs(sec.RedactJSON(audit.RedactArgs(c.Args, uncut)), maxValue)
}

// WantsProgress reports whether the client asked for progress on this call,
// so a tool can skip the work of reporting it.
func (c *Call) WantsProgress() bool {
	return c.req != nil && c.req.Session != nil && c.req.Params.GetProgressToken() != nil
}

// Progress reports progress to the client if it asked for it; it is a no-op
// otherwise and never blocks the call on a slow client for long.
func (c *Call) Progress(ctx context.Context, progress float64, message string) {
	if c.req == nil || c.req.Session == nil {
		return
	}
	tok := c.req.Params.GetProgressToken()
	if tok == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_ = c.req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: tok,
		Progress:      progress,
		Message:       message,
	})
}

// Plan is what a call will do, decided before anything runs.
type Plan struct {
	// Host is "local" or an inventory name.
	Host string
	// Input is what the policy evaluates: every text that will run.
	Input policy.Input
	// Tier raises the call's tier above the tool's Spec.Tier.
	Tier policy.Tier
	// Why, when set, replaces the classifier's reason for an admitted
	// call: what a human asked to approve it reads (a typed reboot's
	// lock-out reasoning), and what the audit record says.
	Why string
	// Run executes the call; it is called only if the call is admitted.
	Run func(ctx context.Context) *Outcome
}

// PlanFunc validates typed arguments and returns the call's plan. An error
// is reported to the agent as invalid_argument and nothing runs.
type PlanFunc[In any] func(ctx context.Context, c *Call, in *In) (*Plan, error)

// Add registers a tool whose arguments decode into In and whose structured
// result has the shape of Out.
func Add[In, Out any](r *Relay, s Spec, plan PlanFunc[In]) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("relay: input schema of %s: %v", s.Name, err))
	}
	out, err := outputSchema[Out]()
	if err != nil {
		panic(fmt.Sprintf("relay: output schema of %s: %v", s.Name, err))
	}
	r.add(s, in, out, func(raw json.RawMessage, a *argSchema) (any, error) {
		var v In
		if err := validate(a, raw, &v); err != nil {
			return nil, err
		}
		return &v, nil
	}, func(ctx context.Context, c *Call, v any) (*Plan, error) {
		return plan(ctx, c, v.(*In))
	})
}

// AddSchema registers a tool whose input schema is known only at run time
// (declarative tools): arguments are validated against in and passed as a
// map; the structured result has the shape of Out.
func AddSchema[Out any](r *Relay, s Spec, in *jsonschema.Schema, plan PlanFunc[map[string]any]) {
	out, err := outputSchema[Out]()
	if err != nil {
		panic(fmt.Sprintf("relay: output schema of %s: %v", s.Name, err))
	}
	r.add(s, in, out, func(raw json.RawMessage, a *argSchema) (any, error) {
		v := map[string]any{}
		if err := validate(a, raw, &v); err != nil {
			return nil, err
		}
		return &v, nil
	}, func(ctx context.Context, c *Call, v any) (*Plan, error) {
		return plan(ctx, c, v.(*map[string]any))
	})
}

func (r *Relay) add(s Spec, in, out *jsonschema.Schema, decode func(json.RawMessage, *argSchema) (any, error), plan planAny) {
	r.register(s, in, out, func(a *argSchema) mcp.ToolHandler {
		return r.handler(s, func(raw json.RawMessage) (any, error) { return decode(raw, a) }, plan)
	})
}

// register adds the approval_token argument to the input schema, resolves
// it and registers the tool with the handler made for the resolved schema.
func (r *Relay) register(s Spec, in, out *jsonschema.Schema, handler func(*argSchema) mcp.ToolHandler) {
	if r.off[s.Name] {
		r.mu.Lock()
		r.switchedOff = append(r.switchedOff, s.Name)
		r.mu.Unlock()
		return
	}
	if in.Properties == nil {
		in.Properties = map[string]*jsonschema.Schema{}
	}
	in.Properties[approvalTokenArg] = &jsonschema.Schema{
		Type:        "string",
		Description: "Token from an approval_required result; re-issue the identical call with it to run once.",
	}
	portable(in)
	portable(out)
	args, err := newArgSchema(in)
	if err != nil {
		panic(fmt.Sprintf("relay: resolve input schema of %s: %v", s.Name, err))
	}
	tool := &mcp.Tool{
		Name:         s.Name,
		Title:        s.Title,
		Description:  s.Description,
		InputSchema:  in,
		OutputSchema: out,
		Annotations:  s.Annotations,
	}
	h := handler(args)
	r.mu.Lock()
	r.tools = append(r.tools, s.Name)
	if r.handlers == nil {
		r.handlers = map[string]mcp.ToolHandler{}
	}
	r.handlers[s.Name] = h
	r.mu.Unlock()
	r.server.AddTool(tool, h)
}

// Handler returns the handler registered for the tool name, nil when no
// tool of that name is registered (or it is switched off), for a
// transport that answers tools/call itself.
func (r *Relay) Handler(name string) mcp.ToolHandler {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.handlers[name]
}

// ReturnsInputRequests reports whether a call may end in a result that
// asks the client for input (approval by elicitation): the SDK's
// dispatch carries those to clients of older protocol versions by asking
// and calling again, which a transport answering calls itself cannot.
func (r *Relay) ReturnsInputRequests() bool {
	for _, mechs := range r.opts.Approval {
		if slices.Contains(mechs, MechElicit) {
			return true
		}
	}
	return false
}

const approvalTokenArg = "approval_token"

func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
