package relay

import (
	"context"
	"errors"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/runner"
)

// DefaultClassifyTimeout bounds a classification when Options names none.
const DefaultClassifyTimeout = 20 * time.Second

// classifyWorkerIdle is how long a classifier worker waits for more work.
const classifyWorkerIdle = 30 * time.Second

// errClassifyTimeout is a classification that did not finish in time.
var errClassifyTimeout = errors.New("classification timed out")

// classifier runs the policy's evaluations off the caller's goroutine, so
// that a call can be refused when one does not finish. The classifier
// looks files up (a project's configuration, symlinks in a path), and a
// lookup on a mount whose server does not answer — a hard NFS mount, a
// stopped FUSE daemon — waits in the kernel, where no context reaches it.
// The call is refused; the evaluation is left to end when the mount
// answers, on a worker of its own. Evaluations that have not ended count
// against looks (see runner.Looks): past its bound a call is refused at
// once.
//
// Each worker keeps the stack it grew walking a command's syntax tree (a
// new goroutine grows a small stack by copying, several times over an
// evaluation) and waits classifyWorkerIdle for the next one.
type classifier struct {
	idle  chan func()
	looks *runner.Looks
}

func newClassifier(looks *runner.Looks) *classifier {
	return &classifier{idle: make(chan func()), looks: looks}
}

// evaluate returns p's verdict on in, or an error when ctx ends or
// timeout passes first.
func (c *classifier) evaluate(ctx context.Context, p Policy, in policy.Input, timeout time.Duration) (policy.Verdict, error) {
	looks := c.looks
	if readsNothing(in) {
		// Its classification looks no file up: server_info and the
		// like answer while classifications wait on a mount.
		looks = nil
	}
	if err := looks.Begin(); err != nil {
		return policy.Verdict{}, err
	}
	done := make(chan policy.Verdict, 1)
	job := func() {
		defer looks.End()
		done <- p.Evaluate(in)
	}
	select {
	case c.idle <- job:
	default:
		go c.work(job)
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case v := <-done:
		return v, nil
	case <-t.C:
		return policy.Verdict{}, errClassifyTimeout
	case <-ctx.Done():
		return policy.Verdict{}, context.Cause(ctx)
	}
}

// readsNothing reports whether in names no command, program, script,
// input or directory: a tool's call that runs nothing.
func readsNothing(in policy.Input) bool {
	return in.Command == "" && len(in.Argv) == 0 && in.Script == "" && in.Stdin == "" &&
		in.Dir == "" && len(in.Dirs) == 0 && len(in.Env) == 0
}

func (c *classifier) work(job func()) {
	t := time.NewTimer(classifyWorkerIdle)
	defer t.Stop()
	for {
		job()
		t.Reset(classifyWorkerIdle)
		select {
		case job = <-c.idle:
		case <-t.C:
			return
		}
	}
}

// classifyRefusal is what a call whose classification did not finish is
// told: nothing ran, and why that may be.
func classifyRefusal(err error, timeout time.Duration) *Outcome {
	if errors.Is(err, errClassifyTimeout) {
		return Fail(StatusDenied, "refused: classifying the call did not finish within %s (policy.classify_timeout), so nothing was run; "+
			"a path it names may be on a mount that does not answer (NFS, SMB, FUSE)", timeout)
	}
	if runner.Busy(err) {
		return Fail(StatusDenied, "refused: the call was not classified, so nothing was run: %v", err)
	}
	return Fail(StatusError, "refused: the call ended while it was classified (%v); nothing was run", err)
}
