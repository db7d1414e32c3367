package relay

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
)

// refuseOff is receiving middleware for the tools the operator switched
// off (Options.Off). They are never registered, so they are absent from
// tools/list; a call naming one anyway is refused here as denied, like
// any policy refusal, and audited — a client that still knows the name
// learns why, and the operator sees that it tried.
func (r *Relay) refuseOff(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || call.Params == nil || !r.off[call.Params.Name] {
			return next(ctx, method, req)
		}
		name := call.Params.Name
		out := Fail(StatusDenied, "denied: tool %s is switched off by the operator (disable_tools)", name)
		host := "local"
		var a struct {
			Host string `json:"host"`
		}
		if json.Unmarshal(call.Params.Arguments, &a) == nil && a.Host != "" {
			host = a.Host
		}
		rec := audit.Record{ID: newID(), Identity: r.identity(call.Extra), Client: clientOf(call), Tool: name, Host: clip(host, maxHostBytes),
			Decision: string(policy.Deny), Status: string(StatusDenied), Reason: out.Reason,
			Args: audit.RedactArgs(call.Params.Arguments, r.opts.MaxArgBytes)}
		if err := r.Record(ctx, rec); err != nil {
			r.opts.Logger.Error("audit write failed", "tool", name, "err", err)
		}
		return render(out), nil
	}
}
