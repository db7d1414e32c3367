package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

// Local starts sessions on this host: in a new pseudo-terminal, or with
// pipes for a background job. Either way the program leads a new session
// (setsid), which is also a new process group, and is killed if warden dies
// (Linux: PR_SET_PDEATHSIG). Close kills every process of that session and
// process group and every descendant still attached to the tree.
//
// A process that leaves the tree on purpose — double-forks, then calls
// setsid — escapes this bookkeeping; containing such a program takes a
// cgroup or a sandbox runner.
type Local struct {
	// KillGrace is the pause between HUP+TERM and KILL on Close
	// (default DefaultKillGrace).
	KillGrace time.Duration
	// Logger receives diagnostics (nil: discard).
	Logger *slog.Logger
	// Confine starts each program so that it inherits the confinement of
	// the admission in Start's ctx (package confine); nil: unconfined.
	Confine Confiner
	// Looks bounds the looks at working directories that wait at once
	// (see runner.Looks); nil bounds nothing.
	Looks *runner.Looks
}

// Confiner runs start, which starts one process, confined as ctx's
// admission says; release is called once the process has been reaped.
type Confiner interface {
	Start(ctx context.Context, start func() error) (release func(), err error)
}

var _ Starter = (*Local)(nil)

func (l *Local) grace() time.Duration {
	if l.KillGrace <= 0 {
		return DefaultKillGrace
	}
	return l.KillGrace
}

func (l *Local) logger() *slog.Logger {
	if l.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l.Logger
}

// defaultPath is searched when the child's environment has no PATH.
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// lookPath resolves a program name against the PATH of the child's own
// environment rather than warden's. Empty PATH entries (the current
// directory) are skipped.
func lookPath(name string, env []string) (string, error) {
	if name == "" {
		return "", errors.New("empty program name")
	}
	if strings.Contains(name, "/") {
		return name, nil
	}
	path := envValue(env, "PATH")
	if path == "" {
		path = defaultPath
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%q: %w in PATH %s", name, fs.ErrNotExist, path)
}
