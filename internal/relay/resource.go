package relay

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
)

// AddResource registers a resource whose every read passes the pipeline:
// the caller is identified and checked against the allowed users, the read
// is admitted as a tier 0 read under the mode of tool "resource:URI", and
// it is audited (as tool "resource:URI", with the SHA-256 and length of
// the contents served, never the contents).
func (r *Relay) AddResource(res *mcp.Resource, h mcp.ResourceHandler) {
	name := "resource:" + res.URI
	r.server.AddResource(res, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		r.activity.begin()
		defer r.activity.end()
		start := r.opts.Now()
		args, _ := json.Marshal(map[string]string{"uri": req.Params.URI})
		client := ""
		if req.Session != nil {
			if ip := req.Session.InitializeParams(); ip != nil {
				client = clientName(ip.ClientInfo)
			}
		}
		c := &Call{ID: newID(), Tool: name, Args: args, Identity: r.identity(req.Extra), Client: client}
		rec := audit.Record{ID: c.ID, Identity: c.Identity, Client: c.Client, Tool: name, Host: "local"}
		out := &Outcome{Status: StatusOK}
		var (
			result *mcp.ReadResourceResult
			err    error
		)
		switch {
		case r.allowed != nil && !r.allowed[c.Identity]:
			rec.Decision = string(policy.Deny)
			out = Fail(StatusDenied, "identity %q is not in the allowed users", c.Identity)
		case policy.Admit(r.mode(name, "local"), policy.Verdict{Tier: policy.TierRead}) != policy.Allow:
			rec.Decision = string(policy.Deny)
			out = Fail(StatusDenied, "resource read refused by policy mode")
		default:
			rec.Decision = string(policy.Allow)
			result, err = h(ctx, req)
			if err != nil {
				out = Fail(StatusError, "%v", err)
			} else {
				out.Output = []byte(resourceText(result))
			}
		}
		r.record(ctx, &rec, c, out, start)
		if out.Status != StatusOK {
			if err != nil {
				// Keep the handler's error (ResourceNotFoundError carries
				// its own JSON-RPC code).
				return nil, err
			}
			return nil, &promptError{out.Reason}
		}
		return result, nil
	})
}

// resourceText is the served contents, for their audited digest.
func resourceText(res *mcp.ReadResourceResult) string {
	if res == nil {
		return ""
	}
	var b strings.Builder
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		b.WriteString(c.URI)
		b.WriteByte('\n')
		b.WriteString(c.Text)
		b.Write(c.Blob)
	}
	return b.String()
}
