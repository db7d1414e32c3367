package runner

import (
	"context"
	"time"
)

// Await runs f, work on a host's files, and returns its result;
// or, when ctx ends or wait passes first, reports false. A file system
// whose server does not answer (a hard NFS mount, a stopped FUSE daemon)
// keeps a system call waiting in the kernel, where no context reaches it:
// the call ends instead of hanging, and f is left to finish when the file
// system answers.
func Await[T any](ctx context.Context, wait time.Duration, f func() T) (T, bool) {
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
