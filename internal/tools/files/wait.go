package files

import (
	"context"
	"time"

	"github.com/warden-mcp/warden/internal/relay"
)

// waitFor runs f, a file tool's work on a host's files, and returns its
// result; or, when ctx ends or wait passes first, reports false. A file
// system whose server does not answer (a hard NFS mount, a stopped FUSE
// daemon) keeps a system call waiting in the kernel, where no context
// reaches it: the call fails instead of hanging, and f is left to end
// when the file system answers.
func waitFor[T any](ctx context.Context, wait time.Duration, f func() T) (T, bool) {
	done := make(chan T, 1)
	go func() { done <- f() }()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case v := <-done:
		return v, true
	case <-t.C:
	case <-ctx.Done():
	}
	var zero T
	return zero, false
}

// noAnswer is the outcome of a file tool's call whose file system did not
// answer in time; a write may still land when it does.
func noAnswer(host, p string, wait time.Duration, writes bool) *relay.Outcome {
	out := relay.Fail(relay.StatusError, "the file system of %s on %s did not answer within %s (exec.default_timeout): a mount whose server does not answer?", p, host, wait)
	if writes {
		out.Reason += "; the write may still complete when it answers"
	}
	return out
}
