package command

import (
	"errors"
	"fmt"
	"io/fs"
	osexec "os/exec"
	"slices"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

// Unanswered says why a typed probe's run gave no usable answer, or ""
// when it answered: the program missing, a start error, a timeout (after
// timeout), cancellation, a non-zero exit (other than okCodes, which still
// mean an answer, as dnf check-update's 100 does) with its first line of
// output and whether it was refused for want of privilege, or output past
// maxBytes. Host tools and appliance packs report it per probe.
func Unanswered(argv []string, res runner.Result, err error, timeout time.Duration, maxBytes int, okCodes ...int) string {
	name := argv[0]
	switch {
	case err != nil && (errors.Is(err, osexec.ErrNotFound) || errors.Is(err, fs.ErrNotExist)):
		return name + ": command not found"
	case err != nil:
		return fmt.Sprintf("%s: %v", name, err)
	case res.TimedOut:
		return fmt.Sprintf("%s: timed out after %s", name, timeout)
	case res.Canceled:
		return name + ": cancelled"
	case res.ExitCode == 127:
		return name + ": command not found"
	case res.ExitCode != 0 && !slices.Contains(okCodes, res.ExitCode):
		out := ValidUTF8(res.Stderr) + ValidUTF8(res.Stdout)
		if permissionDenied(out) {
			return fmt.Sprintf("%s: permission denied (%s)", name, FirstLine(ValidUTF8(res.Stderr), ValidUTF8(res.Stdout)))
		}
		return fmt.Sprintf("%s exited %d: %s", name, res.ExitCode, FirstLine(ValidUTF8(res.Stderr), ValidUTF8(res.Stdout)))
	case res.Truncated:
		return fmt.Sprintf("%s: output exceeded %d bytes", name, maxBytes)
	}
	return ""
}

func permissionDenied(s string) bool {
	s = strings.ToLower(s)
	return strings.Contains(s, "permission denied") || strings.Contains(s, "operation not permitted") ||
		strings.Contains(s, "must be root") || strings.Contains(s, "are you root") || strings.Contains(s, "requires root")
}

// FirstLine returns the first non-empty line of the texts, at most 200
// bytes, or "no output".
func FirstLine(texts ...string) string {
	for _, t := range texts {
		for _, l := range strings.Split(t, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				if len(l) > 200 {
					l = l[:200] + "…"
				}
				return l
			}
		}
	}
	return "no output"
}
