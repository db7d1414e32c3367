package snapshot

import (
	"context"
	"fmt"
	"slices"
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
		{"btrfs", "qgroup", "show"},
	}
}

// displayForms are commands that only display when given exactly one
// argument naming a dataset, and change a pool with more: `zfs allow
// <dataset>` shows delegations, `zfs allow <who> <perms> <dataset>` grants
// them. The engine may run them in that one-argument form only.
func displayForms() [][]string {
	return [][]string{{"zfs", "allow"}}
}

// commandAllowed reports whether argv starts with an allowed prefix and no
// later argument could be mistaken for another verb's option smuggled in.
func commandAllowed(argv []string) bool {
	for _, p := range displayForms() {
		if len(argv) >= len(p) && slices.Equal(argv[:len(p)], p) {
			return len(argv) == len(p)+1 && validZFSName(argv[len(p)])
		}
	}
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

// validZFSName reports whether s can only be read as a dataset name: no
// option, no list, no space, no snapshot.
func validZFSName(s string) bool {
	if s == "" || strings.HasPrefix(s, "-") || len(s) > 255 {
		return false
	}
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.:/", r)
		if !ok {
			return false
		}
	}
	return true
}
