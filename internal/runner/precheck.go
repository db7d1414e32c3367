package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// CheckPath accepts a folder or file a sandbox is to expose: a clean
// absolute path below /, with no NUL or line break that could split a
// sandbox tool's arguments or profile.
func CheckPath(p string) error {
	if p == "" || !filepath.IsAbs(p) || filepath.Clean(p) != p || p == "/" || strings.ContainsAny(p, "\x00\n\r") {
		return fmt.Errorf("path %q must be a clean absolute path below /", p)
	}
	return nil
}

// Precheck finds a request's program and working directory on this host,
// for sandbox runners whose sandbox shows the host's system directories:
// a typo becomes an error, as with the local runner, rather than an exit
// status from inside the sandbox.
// The looks wait at most the request's timeout, on a look of looks (see
// Answers).
func Precheck(looks *Looks, req Request) error {
	return Answers(context.Background(), looks, "the program's or working directory's file system", req.Timeout, func() error {
		if req.Dir != "" {
			if fi, err := os.Stat(req.Dir); err != nil || !fi.IsDir() {
				return fmt.Errorf("dir %q: not a directory", req.Dir)
			}
		}
		_, err := LookPath(req.Argv[0], req.Env)
		return err
	})
}

// DefaultWait bounds a look at files when the request names no timeout.
const DefaultWait = time.Minute

// Answers runs look, which looks at files, on a look of looks, and
// returns its error; or, when wait (DefaultWait if not positive) passes
// or ctx ends first, an error saying what did not answer, or looks'
// refusal. A look at a path on a mount
// whose server does not answer (a hard NFS mount, a stopped FUSE daemon)
// waits in the kernel, where nothing reaches it: look is left to end when
// the file system answers.
func Answers(ctx context.Context, looks *Looks, what string, wait time.Duration, look func() error) error {
	if wait <= 0 {
		wait = DefaultWait
	}
	err, waitErr := Await(ctx, looks, wait, look)
	switch {
	case waitErr == nil:
		return err
	case errors.Is(waitErr, ErrWaited):
		return NotAnswering(what, wait)
	}
	return waitErr
}

// NotAnswering is the error of a look at what that Await gave up on after
// wait.
func NotAnswering(what string, wait time.Duration) error {
	return fmt.Errorf("%s did not answer within %s (a mount whose server does not answer?)", what, wait)
}

// DirAnswers waits at most wait for dir, a program's working directory,
// to be looked up; what the look finds is for the start to report. A
// program is started in its directory by a child that changes into it
// before running the program, and that child shares warden's memory until
// then: a change into a directory that does not answer would hold up
// every later start of a program by warden, not only this one.
func DirAnswers(ctx context.Context, looks *Looks, dir string, wait time.Duration) error {
	return Answers(ctx, looks, "working directory "+dir, wait, func() error {
		os.Stat(dir)
		return nil
	})
}

// LookPath finds prog as execvp would with env's PATH (or a system
// default when env names none), skipping relative PATH entries; a prog
// with a slash must exist.
func LookPath(prog string, env []string) (string, error) {
	if strings.Contains(prog, "/") {
		if _, err := os.Stat(prog); err != nil {
			return "", fmt.Errorf("exec %q: %w", prog, errors.Unwrap(err))
		}
		return prog, nil
	}
	path := "/usr/local/bin:/usr/bin:/bin"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, prog)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("exec %q: executable file not found in PATH", prog)
}
