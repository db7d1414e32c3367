package relay

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
)

// readRequest is what a prompt fetch or resource read tells the pipeline.
type readRequest struct {
	name    string // audited tool name: "prompt:NAME" or "resource:URI"
	what    string // "prompt fetch" or "resource read", for refusals
	args    any
	extra   *mcp.RequestExtra
	meta    map[string]any
	session *mcp.ServerSession
}

// read passes a tier 0 read through the pipeline: the caller is identified
// and checked against the allowed users, the read is admitted under the
// mode of its name, and it is audited with the SHA-256 and length of what
// was served (never the content). serve does the read and returns the text
// to digest. A refusal is returned as an error; a failed read returns the
// handler's own error, which may carry its JSON-RPC code.
func (r *Relay) read(ctx context.Context, q readRequest, serve func() (string, error)) error {
	r.activity.begin()
	defer r.activity.end()
	start := r.opts.Now()
	args, _ := json.Marshal(q.args)
	c := &Call{ID: newID(), Tool: q.name, Args: args, Identity: r.identity(q.extra), Client: clientFrom(q.meta, q.session)}
	rec := audit.Record{ID: c.ID, Identity: c.Identity, Client: c.Client, Tool: q.name, Host: "local"}
	out := &Outcome{Status: StatusOK}
	var err error
	switch {
	case r.allowed != nil && !r.allowed[c.Identity]:
		rec.Decision = string(policy.Deny)
		out = Fail(StatusDenied, "identity %q is not in the allowed users", c.Identity)
	case policy.Admit(r.mode(q.name, "local"), policy.Verdict{Tier: policy.TierRead}) != policy.Allow:
		rec.Decision = string(policy.Deny)
		out = Fail(StatusDenied, "%s refused by policy mode", q.what)
	default:
		rec.Decision = string(policy.Allow)
		var text string
		if text, err = serve(); err != nil {
			out = Fail(StatusError, "%v", err)
		} else {
			out.Output = []byte(text)
		}
	}
	r.record(ctx, &rec, c, out, start)
	switch {
	case err != nil:
		return err
	case out.Status != StatusOK:
		return &readRefusal{out.Reason}
	}
	return nil
}

type readRefusal struct{ reason string }

func (e *readRefusal) Error() string { return e.reason }
