package server

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkInMemoryRunCommand runs run_command("echo hi") through the
// whole pipeline over an in-memory transport: the cost of warden minus
// the stdio pipe and the client process boundary.
func BenchmarkInMemoryRunCommand(b *testing.B) {
	w, _ := assembleB(b, "audit:\n  sync: none\n")
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := w.MCP.Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "b"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "echo hi"}}
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}
