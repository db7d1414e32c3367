package files

import (
	"time"

	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
)

// noAnswer is the outcome of a file tool's call whose file system did not
// answer in time (err, from runner.Await); a write may still land when it
// does. A look the bound refused (runner.Busy) did nothing.
func noAnswer(host, p string, wait time.Duration, writes bool, err error) *relay.Outcome {
	if runner.Busy(err) {
		return relay.Fail(relay.StatusError, "%s on %s: %v", p, host, err)
	}
	out := relay.Fail(relay.StatusError, "the file system of %s on %s did not answer within %s (exec.default_timeout): a mount whose server does not answer?", p, host, wait)
	if writes {
		out.Reason += "; the write may still complete when it answers"
	}
	return out
}
