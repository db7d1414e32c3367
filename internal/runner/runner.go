// Package runner owns the seam through which warden runs one command: the
// Request a tool hands to the pipeline, the bounded Result it gets back, and
// the output capture every runner shares so that bounds hold the same way
// wherever a command runs.
package runner

import (
	"context"
	"time"
)

// Runner runs one command to completion, or until its timeout or the
// context ends, and kills everything the command started when it does.
type Runner interface {
	Run(ctx context.Context, req Request) (Result, error)
}

// Request is one command to run. Argv is passed as is: runners never wrap it
// in a shell of their own, so a caller that wants shell syntax puts the shell
// in Argv[0] on purpose.
type Request struct {
	Argv []string
	// Env is the child's complete environment as KEY=VALUE pairs. Nothing
	// from warden's own environment reaches the child unless it is listed.
	Env   []string
	Dir   string
	Stdin []byte
	// Timeout bounds the run; zero means no timeout beyond ctx.
	Timeout time.Duration
	// MaxBytes caps stdout and stderr together; zero means DefaultMaxBytes.
	MaxBytes int
	// Progress, if set, is called about every ProgressEvery while the
	// command runs, from a goroutine of the runner's.
	Progress func(elapsed time.Duration, bytes int64)
}

// Result is what a run produced, already bounded.
type Result struct {
	ExitCode int
	Stdout   []byte
	Stderr   []byte
	// Truncated reports whether output was dropped to respect MaxBytes.
	Truncated bool
	// TotalBytes is how many bytes the command wrote to stdout and stderr,
	// kept or not.
	TotalBytes int64
	TimedOut   bool
	// Canceled reports whether the run was stopped because ctx ended.
	Canceled bool
	Duration time.Duration
}

const (
	// DefaultMaxBytes is the combined output cap when a request names none.
	DefaultMaxBytes = 64 << 10
	// CeilingMaxBytes is the largest cap any configuration may set.
	CeilingMaxBytes = 2 << 20
	// ProgressEvery is how often a running command reports progress.
	ProgressEvery = time.Second
	// KillGrace is how long a command has between SIGTERM and SIGKILL.
	KillGrace = 2 * time.Second
)
