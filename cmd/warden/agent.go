package main

import (
	"context"
	"io"

	"github.com/warden-mcp/warden/internal/agent"
)

// cmdAgent is `warden agent`, the far side of an agent host: started by
// warden over one SSH channel, it serves the agent protocol on stdin and
// stdout and exits when the channel closes. Hidden from the usage: it is
// not run by hand.
func cmdAgent(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return agent.Main(ctx, args, stdin, stdout, stderr, versionString())
}
