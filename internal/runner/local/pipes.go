package local

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// defaultPath is searched when Request.Env names no PATH; it is what a
// POSIX shell falls back to, not warden's own PATH.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// pipes holds both ends of the child's standard streams. The parent ends
// are non-blocking and served by the runtime poller, so reads take
// deadlines; the child ends are blocking and never touch the poller.
type pipes struct {
	in, out, err                *os.File // parent ends; in is nil without stdin
	childIn, childOut, childErr *os.File
	sharedIn                    bool // childIn is the runner's /dev/null
}

// openPipes makes the stdout and stderr pipes, and a stdin pipe when the
// request has stdin bytes; otherwise the child reads null, the runner's
// /dev/null (opened here when null is nil).
func openPipes(withStdin bool, null *os.File) (*pipes, error) {
	p := &pipes{}
	var err error
	switch {
	case withStdin:
		p.childIn, p.in, err = newPipe(false)
	case null != nil:
		p.childIn, p.sharedIn = null, true
	default:
		p.childIn, err = os.Open(os.DevNull)
	}
	if err != nil {
		return nil, fmt.Errorf("stdin: %w", err)
	}
	if p.out, p.childOut, err = newPipe(true); err != nil {
		p.closeChild()
		p.closeParent()
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	if p.err, p.childErr, err = newPipe(true); err != nil {
		p.closeChild()
		p.closeParent()
		return nil, fmt.Errorf("stderr pipe: %w", err)
	}
	return p, nil
}

// closeChild closes warden's copies of the child's ends, so the parent
// sees EOF once every process holding them is gone.
func (p *pipes) closeChild() {
	for _, f := range []*os.File{p.childIn, p.childOut, p.childErr} {
		if f != nil && (f != p.childIn || !p.sharedIn) {
			_ = f.Close()
		}
	}
}

// closeParent closes the parent ends when the child never started.
func (p *pipes) closeParent() {
	for _, f := range []*os.File{p.in, p.out, p.err} {
		if f != nil {
			_ = f.Close()
		}
	}
}

// lookPath resolves name the way execvp would for the child: as given when
// it contains a slash, otherwise in the PATH from env. Relative PATH
// entries are skipped so the working directory cannot supply programs.
func lookPath(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	if name == "" {
		return "", errors.New(`exec "": empty program name`)
	}
	path, ok := envPath(env)
	if !ok {
		path = defaultPath
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		file := filepath.Join(dir, name)
		if executable(file) {
			return file, nil
		}
	}
	return "", fmt.Errorf("exec %q: %w", name, exec.ErrNotFound)
}

// envPath returns the first PATH in env, the one getenv in the child sees.
func envPath(env []string) (string, bool) {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			return v, true
		}
	}
	return "", false
}

// executable reports whether file is a non-directory with an execute bit.
func executable(file string) bool {
	fi, err := os.Stat(file)
	if err != nil {
		return false
	}
	m := fi.Mode()
	return !m.IsDir() && m&fs.ModePerm&0o111 != 0
}
