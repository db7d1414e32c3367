package relay

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AddPrompt registers a prompt whose every fetch passes the pipeline: the
// caller is identified and checked against the allowed users, the fetch is
// admitted as a tier 0 read, and it is audited (as tool "prompt:NAME",
// with the SHA-256 and length of the text served, never the text).
func (r *Relay) AddPrompt(p *mcp.Prompt, h mcp.PromptHandler) {
	r.server.AddPrompt(p, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		var res *mcp.GetPromptResult
		err := r.read(ctx, readRequest{
			name: "prompt:" + p.Name, what: "prompt fetch", args: req.Params.Arguments,
			extra: req.Extra, meta: req.Params.GetMeta(), session: req.Session,
		}, func(ctx context.Context) (string, error) {
			var err error
			res, err = h(ctx, req)
			return promptText(res), err
		})
		if err != nil {
			return nil, err
		}
		return res, nil
	})
}

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
