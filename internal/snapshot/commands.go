package snapshot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

// commandTimeout bounds each pinned metadata command.
const commandTimeout = 15 * time.Second

// commandMaxBytes bounds each pinned metadata command's output.
const commandMaxBytes = runner.CeilingMaxBytes

// AllowedCommands returns the only argv prefixes the engine may run against
// a pool. Every one of them is read-only; the engine refuses, before the
// runner is reached, any argv that does not start with one of them.
func AllowedCommands() [][]string {
	return [][]string{
		{"zfs", "list"},
		{"zfs", "get"},
		{"zpool", "list"},
		{"zpool", "status"},
		{"btrfs", "subvolume", "show"},
		{"btrfs", "subvolume", "list"},
		{"btrfs", "filesystem", "usage"},
	}
}

// commandAllowed reports whether argv starts with an allowed prefix and no
// later argument could be mistaken for another verb's option smuggled in.
func commandAllowed(argv []string) bool {
	for _, p := range AllowedCommands() {
		if len(argv) < len(p) {
			continue
		}
		ok := true
		for i := range p {
			if argv[i] != p[i] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// zfsListArgv is the argv that lists a dataset's own snapshots with exact
// (parsable) numbers: name, creation (epoch seconds), used, referenced.
func zfsListArgv(dataset string) []string {
	return []string{"zfs", "list", "-H", "-p", "-o", "name,creation,used,referenced", "-t", "snapshot", "-d", "1", dataset}
}

// btrfsShowArgv is the argv that describes one subvolume.
func btrfsShowArgv(path string) []string {
	return []string{"btrfs", "subvolume", "show", path}
}

// run runs one pinned command. It is the only place the engine reaches the
// runner, and it refuses anything outside AllowedCommands.
func (e *Engine) run(ctx context.Context, argv []string) ([]byte, error) {
	if !commandAllowed(argv) {
		return nil, fmt.Errorf("run %q: not an allowed read-only command", strings.Join(argv, " "))
	}
	if e.runner == nil {
		return nil, fmt.Errorf("run %s: no runner configured", argv[0])
	}
	res, err := e.runner.Run(ctx, runner.Request{
		Argv:     argv,
		Env:      []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C"},
		Timeout:  commandTimeout,
		MaxBytes: commandMaxBytes,
	})
	if err != nil {
		return nil, fmt.Errorf("run %s %s: %w", argv[0], argv[1], err)
	}
	if res.TimedOut || res.Canceled {
		return nil, fmt.Errorf("run %s %s: timed out", argv[0], argv[1])
	}
	if res.ExitCode != 0 {
		msg := strings.TrimSpace(string(res.Stderr))
		if len(msg) > 200 {
			msg = msg[:200]
		}
		return nil, fmt.Errorf("run %s %s: exit %d: %s", argv[0], argv[1], res.ExitCode, msg)
	}
	if res.Truncated {
		return nil, fmt.Errorf("run %s %s: output exceeded %d bytes", argv[0], argv[1], commandMaxBytes)
	}
	return res.Stdout, nil
}
