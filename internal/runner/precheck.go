package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
func Precheck(req Request) error {
	if req.Dir != "" {
		if fi, err := os.Stat(req.Dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("dir %q: not a directory", req.Dir)
		}
	}
	_, err := LookPath(req.Argv[0], req.Env)
	return err
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
