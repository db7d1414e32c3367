package files

import (
	"time"

	"github.com/warden-mcp/warden/internal/relay"
)

// noAnswer is the outcome of a file tool's call whose file system did not
// answer in time; a write may still land when it does.
func noAnswer(host, p string, wait time.Duration, writes bool) *relay.Outcome {
	out := relay.Fail(relay.StatusError, "the file system of %s on %s did not answer within %s (exec.default_timeout): a mount whose server does not answer?", p, host, wait)
	if writes {
		out.Reason += "; the write may still complete when it answers"
	}
	return out
}
