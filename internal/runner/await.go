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

// AwaitMoving is Await for work that counts what it has done, as a copy
// counts its bytes: it waits while moved, a count f advances, changes at
// least once every stall, and until ctx ends. A transfer may take as long
// as its size needs; one that stops moving, on a file system or a host
// that stopped answering, ends the call.
func AwaitMoving[T any](ctx context.Context, stall time.Duration, moved func() int64, f func() T) (T, bool) {
	done := make(chan T, 1)
	go func() { done <- f() }()
	t := time.NewTicker(stall)
	defer t.Stop()
	for last := moved(); ; {
		select {
		case v := <-done:
			return v, true
		case <-t.C:
			if n := moved(); n != last {
				last = n
				continue
			}
		case <-ctx.Done():
		}
		var zero T
		return zero, false
	}
}
