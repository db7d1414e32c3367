package relay

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/display"
	"github.com/warden-mcp/warden/internal/gate"
	"github.com/warden-mcp/warden/internal/policy"
)

// Status is the machine-readable outcome of a call.
type Status string

// Statuses.
const (
	StatusOK       Status = "ok"
	StatusDenied   Status = "denied"
	StatusApproval Status = "approval_required"
	StatusTimeout  Status = "timeout"
	StatusInvalid  Status = "invalid_argument"
	StatusError    Status = "error"
)

// Outcome is what a call produced, before rendering.
type Outcome struct {
	Status Status
	// Reason says why a call did not run or failed.
	Reason string
	// Result is the structured content (a struct with JSON tags).
	Result any
	// Text is the text rendering; empty means the structured JSON.
	Text string
	// Output is what the agent sees of the program's output; its SHA-256
	// and length are audited, never the body. Nil means Text.
	Output   []byte
	ExitCode *int
	// Extra is added to the audit record.
	Extra map[string]any

	tier          policy.Tier
	approvalToken string
	expires       time.Time
	inputRequired *mcp.CallToolResult
}

// Fail returns an outcome with the given status and reason.
func Fail(status Status, format string, args ...any) *Outcome {
	return &Outcome{Status: status, Reason: fmt.Sprintf(format, args...)}
}

type decodeFunc func(json.RawMessage) (any, error)
type planAny func(ctx context.Context, c *Call, v any) (*Plan, error)

func (r *Relay) handler(s Spec, decode decodeFunc, plan planAny) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx, c, start, end := r.begin(ctx, s.Name, req.Params.Arguments, req.Extra, clientOf(req), req)
		defer end()
		rec := audit.Record{ID: c.ID, Identity: c.Identity, Client: c.Client, Tool: s.Name, Tier: int(s.Tier), Host: "local"}
		out := settle(r.pipeline(ctx, s, c, decode, plan, &rec))
		r.finish(ctx, &rec, c, out, start)
		return render(out), nil
	}
}

// pipeline admits, approves and runs one call, filling rec as it decides.
func (r *Relay) pipeline(ctx context.Context, s Spec, c *Call, decode decodeFunc, plan planAny, rec *audit.Record) *Outcome {
	if out := r.admitCaller(c); out != nil {
		rec.Decision = string(policy.Deny)
		return out
	}
	if out := unambiguous(c); out != nil {
		rec.Decision = "invalid"
		return out
	}
	v, err := decode(c.Args)
	if err != nil {
		rec.Decision = "invalid"
		return Fail(StatusInvalid, "invalid arguments: %v", err)
	}
	p, err := plan(ctx, c, v)
	if err != nil {
		if refused(err) {
			rec.Decision = string(policy.Deny)
			return Fail(StatusDenied, "%v", err)
		}
		rec.Decision = "invalid"
		return Fail(StatusInvalid, "%v", err)
	}
	host := p.Host
	if host == "" {
		host = "local"
	}
	rec.Host = host
	a := r.admit(ctx, c, s.Name, host, &p.Input, max(s.Tier, p.Tier))
	if p.Why != "" && a.refused == nil {
		a.verdict.Reason = p.Why
	}
	a.stamp(rec)
	if a.refused != nil {
		return a.refused
	}
	if a.decision == policy.Approve {
		if out := r.approve(ctx, c, host, a.verdict, rec); out != nil {
			out.tier = a.verdict.Tier
			return out
		}
		rec.Decision = "approved"
	}
	if p.Run == nil {
		return Fail(StatusError, "internal error: tool has no run step")
	}
	out := p.Run(withAdmission(ctx, s.Name, c.Identity, a.verdict))
	if out != nil {
		// A call that failed as it ran was admitted at its verdict's tier.
		out.tier = a.verdict.Tier
	}
	return out
}

// unambiguous refuses arguments that repeat a key: the decoder would keep
// one value, the audit log shows both, and nothing could approve or audit
// the call as the one that runs.
func unambiguous(c *Call) *Outcome {
	if err := gate.Unambiguous(c.Args); err != nil {
		return Fail(StatusInvalid, "invalid arguments: %v; each argument may be given once", err)
	}
	return nil
}

// withAdmission returns ctx carrying the admission of a call of tool by
// owner (the caller's identity) with verdict v, so that whatever the call
// starts on this machine is confined to it.
func withAdmission(ctx context.Context, tool, owner string, v policy.Verdict) context.Context {
	return confine.With(ctx, confine.Admission{Level: confine.ForTier(int(v.Tier)), Tool: tool, Owner: owner, Daemons: v.Daemons})
}

// mode is the narrowest of the global, per-tool and per-host modes.
func (r *Relay) mode(tool, host string) policy.Mode {
	m := policy.Narrow(r.opts.Mode, r.opts.ToolModes[tool])
	if r.opts.HostMode != nil {
		m = policy.Narrow(m, r.opts.HostMode(host))
	}
	return m
}

// record writes the call's audit line before the result goes back.
func (r *Relay) record(ctx context.Context, rec *audit.Record, c *Call, out *Outcome, start time.Time) error {
	rec.Status = string(out.Status)
	if out.Reason != "" && (rec.Reason == "" || out.Status != StatusOK) {
		rec.Reason = out.Reason
	}
	rec.DurationMS = r.opts.Now().Sub(start).Milliseconds()
	rec.ExitCode = out.ExitCode
	// The pipeline's own notes (the approval mechanism) stay beside the
	// tool's.
	for k, v := range out.Extra {
		if rec.Extra == nil {
			rec.Extra = map[string]any{}
		}
		rec.Extra[k] = v
	}
	body := out.Output
	if body == nil {
		body = []byte(out.Text)
	}
	if len(body) > 0 {
		sum := sha256.Sum256(body)
		rec.OutputSHA256 = hex.EncodeToString(sum[:])
		rec.OutputLen = int64(len(body))
	}
	rec.Args = c.auditArgs()
	sec := c.allSecrets()
	if out.Status != StatusOK && out.Reason != "" {
		// A refusal's or an approval's reason, back to the client.
		out.Reason = sec.Redact(out.Reason)
	}
	if len(sec) > 0 {
		// The reason goes to the log; tools' notes (a session's typed
		// lines) too.
		rec.Reason = sec.Redact(rec.Reason)
		for k, v := range rec.Extra {
			if s, ok := v.(string); ok {
				rec.Extra[k] = sec.Redact(s)
			}
		}
	}
	if len(c.known) > 0 {
		rec.Args = c.shownArgs(r.opts.MaxArgBytes)
	}
	// Cut after redaction, so no secret is cut where the redactor would
	// no longer know it.
	out.Reason, rec.Reason = clip(out.Reason, maxReasonBytes), clip(rec.Reason, maxReasonBytes)
	err := r.Record(ctx, *rec)
	if err != nil {
		r.opts.Logger.Error("audit write failed", "tool", rec.Tool, "id", rec.ID, "err", err)
	}
	return err
}

// maxReasonBytes bounds a reason as shown and audited. Reasons quote the
// argument they refuse, and arguments may be megabytes long; the audit
// record keeps the arguments themselves only up to MaxArgBytes a value.
const maxReasonBytes = 4 << 10

// maxHostBytes bounds a host name audited before it was validated; a DNS
// name stops at 253.
const maxHostBytes = 256

// clip cuts s to at most n bytes on a rune boundary, saying how much was
// cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return fmt.Sprintf("%s… [%d bytes cut]", s[:i], len(s)-i)
}

// render turns an outcome into the MCP result: structured content with a
// status, and a text rendering.
func render(out *Outcome) *mcp.CallToolResult {
	if out.inputRequired != nil {
		return out.inputRequired
	}
	head := map[string]any{"status": out.Status}
	if out.Status != StatusOK {
		if out.Reason != "" {
			head["reason"] = out.Reason
		}
		head["tier"] = out.tier
	}
	if out.approvalToken != "" {
		head[approvalTokenArg] = out.approvalToken
		head["expires_at"] = out.expires.UTC().Format(time.RFC3339)
	}
	structured := mergeJSON(head, out.Result)
	// The text is what a client shows its user, often in a terminal:
	// escape sequences and invisible formatting in a program's output, a
	// file name or a quoted command are shown as escapes (display). The
	// structured content keeps the exact text for programs.
	text := display.Output(out.Text)
	if text == "" {
		text = string(display.JSON(structured))
	}
	if out.Status != StatusOK && out.Text == "" && out.Result == nil {
		text = display.Output(fmt.Sprintf("%s: %s", out.Status, out.Reason))
		if out.approvalToken != "" {
			text += fmt.Sprintf("\napproval_token: %s (expires %s)", out.approvalToken, out.expires.UTC().Format(time.RFC3339))
		}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: json.RawMessage(structured),
		IsError:           out.Status != StatusOK,
	}
}

// mergeJSON returns head's fields followed by result's, as one object.
func mergeJSON(head map[string]any, result any) []byte {
	h, _ := json.Marshal(head)
	if result == nil {
		return h
	}
	b, err := json.Marshal(result)
	if err != nil || len(b) < 2 || b[0] != '{' {
		return h
	}
	b = dropNulls(b)
	if bytes.Equal(b, []byte("{}")) {
		return h
	}
	merged := make([]byte, 0, len(h)+len(b))
	merged = append(merged, h[:len(h)-1]...)
	merged = append(merged, ',')
	merged = append(merged, b[1:]...)
	return merged
}

// clientOf names the calling client of a tool call.
func clientOf(req *mcp.CallToolRequest) string {
	return clientFrom(req.Params.GetMeta(), req.Session)
}

// clientFrom names a client from a request's _meta (2026-07-28) or its
// session's initialize parameters. It reads the metadata map as it
// arrived: the SDK's ClientInfo re-encodes and decodes it, which costs
// tens of kilobytes on every call.
func clientFrom(meta map[string]any, session *mcp.ServerSession) string {
	switch ci := meta[mcp.MetaKeyClientInfo].(type) {
	case map[string]any:
		name, _ := ci["name"].(string)
		version, _ := ci["version"].(string)
		return clientName(&mcp.Implementation{Name: name, Version: version})
	case *mcp.Implementation:
		return clientName(ci)
	}
	if session != nil {
		if p := session.InitializeParams(); p != nil {
			return clientName(p.ClientInfo)
		}
	}
	return ""
}

func clientName(impl *mcp.Implementation) string {
	if impl == nil {
		return ""
	}
	if impl.Version == "" {
		return impl.Name
	}
	return impl.Name + "/" + impl.Version
}
