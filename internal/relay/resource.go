package relay

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AddResource registers a resource whose every read passes the pipeline:
// the caller is identified and checked against the allowed users, the read
// is admitted as a tier 0 read under the mode of tool "resource:URI", and
// it is audited (as tool "resource:URI", with the SHA-256 and length of
// the contents served, never the contents).
func (r *Relay) AddResource(res *mcp.Resource, h mcp.ResourceHandler) {
	r.server.AddResource(res, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		var result *mcp.ReadResourceResult
		err := r.read(ctx, readRequest{
			name: "resource:" + res.URI, what: "resource read", args: map[string]string{"uri": req.Params.URI},
			extra: req.Extra, meta: req.Params.GetMeta(), session: req.Session,
		}, func(ctx context.Context) (string, error) {
			var err error
			result, err = h(ctx, req)
			return resourceText(result), err
		})
		if err != nil {
			return nil, err
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
