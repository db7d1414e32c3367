package exec

import (
	"fmt"
	"os"

	"github.com/warden-mcp/warden/internal/policy"
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
