package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

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
	prog := req.Argv[0]
	if strings.Contains(prog, "/") {
		if _, err := os.Stat(prog); err != nil {
			return fmt.Errorf("exec %q: %w", prog, errors.Unwrap(err))
		}
		return nil
	}
	path := "/usr/local/bin:/usr/bin:/bin"
	for _, kv := range req.Env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, d := range filepath.SplitList(path) {
		if !filepath.IsAbs(d) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(d, prog)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return nil
		}
	}
	return fmt.Errorf("exec %q: executable file not found in PATH", prog)
}
