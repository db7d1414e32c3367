// Package command owns what running one command gives back to an agent:
// the limits a call may narrow, the structured result, and the outcome the
// relay audits and renders. Every tool that runs a command on a host
// (run_command, run_script, fanout, declarative tools) answers in this
// shape.
package command

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
)

// Limits bound every call; per-call values may only narrow them.
type Limits struct {
	DefaultTimeout  time.Duration
	MaxTimeout      time.Duration
	DefaultMaxBytes int
	MaxBytes        int
	MaxStdinBytes   int
}

// Result is the structured result of a command.
type Result struct {
	ExitCode   int    `json:"exit_code" jsonschema:"Exit status; 128+N when killed by signal N."`
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	Truncated  bool   `json:"truncated" jsonschema:"Output beyond max_bytes was dropped."`
	TotalBytes int64  `json:"total_bytes" jsonschema:"Bytes the command wrote, kept or not."`
	TimedOut   bool   `json:"timed_out"`
	DurationMS int64  `json:"duration_ms"`
}

// Outcome renders a runner result as run_command does: structured result,
// text, audited output, timeout and cancellation statuses.
func Outcome(res runner.Result) *relay.Outcome {
	out := Result{
		ExitCode:   res.ExitCode,
		Stdout:     ValidUTF8(res.Stdout),
		Stderr:     ValidUTF8(res.Stderr),
		Truncated:  res.Truncated,
		TotalBytes: res.TotalBytes,
		TimedOut:   res.TimedOut,
		DurationMS: res.Duration.Milliseconds(),
	}
	o := &relay.Outcome{
		Result:   out,
		Text:     render(out, res.Canceled),
		Output:   append(append([]byte(nil), res.Stdout...), res.Stderr...),
		ExitCode: &out.ExitCode,
	}
	switch {
	case res.TimedOut:
		o.Status = relay.StatusTimeout
		o.Reason = fmt.Sprintf("timed out after %s; the command and its children were killed", res.Duration.Round(time.Millisecond))
	case res.Canceled:
		o.Status = relay.StatusError
		o.Reason = "cancelled; the command and its children were killed"
	}
	return o
}

// render is the text the agent reads: output first, then one status line.
func render(r Result, canceled bool) string {
	var b strings.Builder
	b.WriteString(r.Stdout)
	if r.Stderr != "" {
		if b.Len() > 0 && !strings.HasSuffix(r.Stdout, "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("[stderr]\n")
		b.WriteString(r.Stderr)
	}
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "[exit_code %d, %d ms", r.ExitCode, r.DurationMS)
	if r.Truncated {
		fmt.Fprintf(&b, ", truncated: kept %d of %d bytes", len(r.Stdout)+len(r.Stderr), r.TotalBytes)
	}
	if r.TimedOut {
		b.WriteString(", timed out")
	}
	if canceled {
		b.WriteString(", cancelled")
	}
	b.WriteString("]")
	return b.String()
}

// ValidUTF8 is b as text, invalid bytes replaced.
func ValidUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
