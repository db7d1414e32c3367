package snapshot

import (
	"context"
	"errors"
	"io/fs"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/warden-mcp/warden/internal/runner"
)

// errStop ends a walk early without being an error: the caller has what it
// needs (its result cap is reached).
var errStop = errors.New("stop walk")

// parallel runs do over a tree of jobs with a fixed pool of workers: each
// job may return child jobs, which are queued. Jobs are taken newest first,
// so the queue stays about as deep as the tree rather than as wide. It
// returns the first error do returns, after which no new job starts.
//
// Each worker past the first is a look of looks': a directory on a file
// system that does not answer holds its worker's thread as long as the
// call's own look, which covers the first. A worker the bound refuses is
// not started; the walk goes on with those that are.
func parallel[T any](ctx context.Context, workers int, looks *runner.Looks, seed []T, do func(context.Context, T) ([]T, error)) error {
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		stack   = append([]T(nil), seed...)
		pending = len(stack)
		failed  error
	)
	if pending == 0 {
		return nil
	}
	if workers < 1 {
		workers = 1
	}
	var wg sync.WaitGroup
	for i := range workers {
		if i > 0 && looks.Begin() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i > 0 {
				defer looks.End()
			}
			for {
				mu.Lock()
				for len(stack) == 0 && pending > 0 && failed == nil {
					cond.Wait()
				}
				if pending == 0 || failed != nil {
					mu.Unlock()
					return
				}
				job := stack[len(stack)-1]
				var zero T
				stack[len(stack)-1] = zero
				stack = stack[:len(stack)-1]
				mu.Unlock()

				var children []T
				err := ctx.Err()
				if err == nil {
					children, err = do(ctx, job)
				}

				mu.Lock()
				if err != nil && failed == nil {
					failed = err
				}
				stack = append(stack, children...)
				pending += len(children) - 1
				cond.Broadcast()
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return failed
}

// walkStats counts what a walk saw and what it could not read.
type walkStats struct {
	entries atomic.Int64
	// unreadable counts directories that could not be listed; the walk
	// goes on without them.
	unreadable atomic.Int64
	// overLimit is set when the walk stopped at Limits.WalkEntries.
	overLimit atomic.Bool
}

// walkFunc receives one directory's entries, sorted by name; it may run
// concurrently with itself. dir is relative to the snapshot root.
type walkFunc func(dir string, entries []fs.FileInfo) error

// walk lists every directory under start (a resolved directory) in
// parallel and hands each listing to fn. Symlinks are never followed. It
// stops at ctx's end, fn's error, or the walk-entry limit; errStop and the
// limit are not errors.
func (e *Engine) walk(ctx context.Context, fsys FS, start string, st *walkStats, fn walkFunc) error {
	limit := int64(e.limits.WalkEntries)
	err := parallel(ctx, e.workers, e.looks, []string{start}, func(ctx context.Context, dir string) ([]string, error) {
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			st.unreadable.Add(1)
			return nil, nil
		}
		if st.entries.Add(int64(len(entries))) > limit {
			st.overLimit.Store(true)
			return nil, errStop
		}
		sortInfos(entries)
		if err := fn(dir, entries); err != nil {
			return nil, err
		}
		var subdirs []string
		for _, fi := range entries {
			if fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0 {
				subdirs = append(subdirs, joinRel(dir, fi.Name()))
			}
		}
		return subdirs, nil
	})
	if errors.Is(err, errStop) || ctx.Err() != nil {
		// Reaching a bound is reported through truncation, not as failure.
		return nil
	}
	return err
}

func sortInfos(infos []fs.FileInfo) {
	sort.Slice(infos, func(i, j int) bool { return infos[i].Name() < infos[j].Name() })
}

// truncation names why a bounded walk ended early, or "" when it did not.
func truncation(ctx context.Context, st *walkStats) string {
	switch {
	case st.overLimit.Load():
		return reasonWalk
	case ctx.Err() != nil:
		return reasonTimeout
	}
	return ""
}
