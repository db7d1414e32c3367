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

// read passes a read through the pipeline as a tool call of tier 0 that
// runs no program: it is admitted by admit on host local under the mode of
// its name (allowed users, token ceiling, modes), counts as activity, is
// cancelled by Abort, and is audited with the SHA-256 and length of what
// was served (never the content) and observed for metrics. serve does the
// read with the call's context and returns the text to digest. A refusal
// is returned as an error; a failed read returns the handler's own error,
// which may carry its JSON-RPC code.
func (r *Relay) read(ctx context.Context, q readRequest, serve func(context.Context) (string, error)) error {
	args, _ := json.Marshal(q.args)
	ctx, c, start, end := r.begin(ctx, q.name, args, q.extra, clientFrom(q.meta, q.session), nil)
	defer end()
	rec := audit.Record{ID: c.ID, Identity: c.Identity, Client: c.Client, Tool: q.name, Host: "local"}
	a := r.admit(ctx, c, q.name, "local", nil, policy.TierRead)
	a.stamp(&rec)
	out := a.refused
	if out == nil && a.decision != policy.Allow {
		// A read has no approval step: anything short of allow refuses it.
		rec.Decision = string(policy.Deny)
		out = Fail(StatusDenied, "%s refused by policy mode %s", q.what, a.mode)
	}
	var err error
	if out == nil {
		out = &Outcome{Status: StatusOK}
		var text string
		if text, err = serve(withCaller(ctx, c.Identity)); err != nil {
			out = Fail(StatusError, "%v", err)
		} else {
			out.Output = []byte(text)
		}
	}
	r.finish(ctx, &rec, c, out, start)
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
