package exec

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/runner"
)

// relayInput is what the policy sees besides the command or script: the
// stdin and env the child will get, so nothing that runs goes unchecked.
func relayInput(c common) policy.Input {
	return policy.Input{Stdin: c.stdin, Env: c.env, Dir: c.cwd}
}

// writeScript stages a script body in a file only warden's user can read,
// inside dir (created 0700), and returns a cleanup that removes it.
func writeScript(dir, body string) (string, func(), error) {
	if dir == "" {
		dir = os.TempDir()
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("script dir: %w", err)
	}
	f, err := os.CreateTemp(dir, "script-*")
	if err != nil {
		return "", nil, fmt.Errorf("script file: %w", err)
	}
	// CreateTemp makes the file 0600; say so explicitly in case umask or
	// the platform differs.
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", nil, err
	}
	if _, err := f.WriteString(body); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", nil, fmt.Errorf("write script: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", nil, err
	}
	name := f.Name()
	return name, func() { os.Remove(name) }, nil
}

// maxStageWait bounds how long staging a script, or removing it, waits on
// the script directory: it sits beside warden's state dir, which an
// operator may put on a share that stops answering.
const maxStageWait = 10 * time.Second

// stageScript is writeScript waiting at most wait (and maxStageWait) or
// until ctx ends; a file staged after that is removed once written.
func stageScript(ctx context.Context, dir, body string, wait time.Duration) (string, func(), error) {
	type staged struct {
		path    string
		cleanup func()
		err     error
	}
	wait = min(wait, maxStageWait)
	st, err := runner.AwaitLate(ctx, nil, wait, func() staged {
		path, cleanup, err := writeScript(dir, body)
		return staged{path, cleanup, err}
	}, func(st staged) {
		if st.err == nil {
			st.cleanup()
		}
	})
	if errors.Is(err, runner.ErrWaited) {
		return "", nil, runner.NotAnswering("the script directory "+dir, wait)
	}
	if err != nil {
		return "", nil, err
	}
	if st.err != nil {
		return "", nil, st.err
	}
	remove := func() struct{} { st.cleanup(); return struct{}{} }
	return st.path, func() { _, _ = runner.Await(context.Background(), nil, wait, remove) }, nil
}
