package relay

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
)

// AddPrompt registers a prompt whose every fetch passes the pipeline: the
// caller is identified and checked against the allowed users, the fetch is
// admitted as a tier 0 read, and it is audited (as tool "prompt:NAME",
// with the SHA-256 and length of the text served, never the text).
func (r *Relay) AddPrompt(p *mcp.Prompt, h mcp.PromptHandler) {
	name := "prompt:" + p.Name
	r.server.AddPrompt(p, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		r.activity.begin()
		defer r.activity.end()
		start := r.opts.Now()
		args, _ := json.Marshal(req.Params.Arguments)
		c := &Call{ID: newID(), Tool: name, Args: args, Identity: r.identity(req.Extra), Client: clientName(req.Session.InitializeParams().ClientInfo)}
		rec := audit.Record{ID: c.ID, Identity: c.Identity, Client: c.Client, Tool: name, Host: "local"}
		out := &Outcome{Status: StatusOK}
		var (
			res *mcp.GetPromptResult
			err error
		)
		switch {
		case r.allowed != nil && !r.allowed[c.Identity]:
			rec.Decision = string(policy.Deny)
			out = Fail(StatusDenied, "identity %q is not in the allowed users", c.Identity)
		case policy.Admit(r.mode(name, "local"), policy.Verdict{Tier: policy.TierRead}) != policy.Allow:
			rec.Decision = string(policy.Deny)
			out = Fail(StatusDenied, "prompt fetch refused by policy mode")
		default:
			rec.Decision = string(policy.Allow)
			res, err = h(ctx, req)
			if err != nil {
				out = Fail(StatusError, "%v", err)
			} else {
				out.Output = []byte(promptText(res))
			}
		}
		r.record(ctx, &rec, c, out, start)
		if out.Status != StatusOK {
			return nil, &promptError{out.Reason}
		}
		return res, nil
	})
}

type promptError struct{ reason string }

func (e *promptError) Error() string { return e.reason }

// promptText is the text of a prompt result, for its audited digest.
func promptText(res *mcp.GetPromptResult) string {
	if res == nil {
		return ""
	}
	var b strings.Builder
	for _, m := range res.Messages {
		if t, ok := m.Content.(*mcp.TextContent); ok {
			b.WriteString(string(m.Role))
			b.WriteByte(':')
			b.WriteString(t.Text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
