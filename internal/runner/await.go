package runner

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrWaited is Await's error when its wait passed before f ended.
var ErrWaited = errors.New("did not answer in time")

// Await runs f, work on a host's files, on a look of looks, and returns
// its result; or an error: ErrWaited when wait passes first, the cause
// of ctx's end, or a *BusyError when looks refused it (f did not run). A
// file system whose server does not answer (a hard NFS mount, a stopped
// FUSE daemon) keeps a system call waiting in the kernel, where no
// context reaches it: the call ends instead of hanging, and f is left to
// finish when the file system answers.
func Await[T any](ctx context.Context, looks *Looks, wait time.Duration, f func() T) (T, error) {
	return AwaitLate(ctx, looks, wait, f, nil)
}

// AwaitLate is Await, handing what f returns after Await gave up to late
// (when not nil), on f's look: a file made too late to be used is
// removed there.
func AwaitLate[T any](ctx context.Context, looks *Looks, wait time.Duration, f func() T, late func(T)) (T, error) {
	var zero T
	var mu sync.Mutex
	gaveUp := false
	done := make(chan T, 1)
	if err := looks.Go(func() {
		v := f()
		mu.Lock()
		defer mu.Unlock()
		if !gaveUp {
			done <- v
		} else if late != nil {
			late(v)
		}
	}); err != nil {
		return zero, err
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	var err error
	select {
	case v := <-done:
		return v, nil
	case <-t.C:
		err = ErrWaited
	case <-ctx.Done():
		err = context.Cause(ctx)
	}
	mu.Lock()
	defer mu.Unlock()
	select {
	case v := <-done:
		return v, nil // f ended just as the wait did
	default:
		gaveUp = true
		return zero, err
	}
}

// AwaitMoving is Await for work that counts what it has done, as a copy
// counts its bytes: it waits while moved, a count f advances, changes at
// least once every stall, and until ctx ends. A transfer may take as long
// as its size needs; one that stops moving, on a file system or a host
// that stopped answering, ends the call.
func AwaitMoving[T any](ctx context.Context, looks *Looks, stall time.Duration, moved func() int64, f func() T) (T, error) {
	var zero T
	done := make(chan T, 1)
	if err := looks.Go(func() { done <- f() }); err != nil {
		return zero, err
	}
	t := time.NewTicker(stall)
	defer t.Stop()
	for last := moved(); ; {
		select {
		case v := <-done:
			return v, nil
		case <-t.C:
			if n := moved(); n != last {
				last = n
				continue
			}
			return zero, ErrWaited
		case <-ctx.Done():
			return zero, context.Cause(ctx)
		}
	}
}
