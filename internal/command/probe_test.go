package command

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

func TestUnanswered(t *testing.T) {
	argv := []string{"smartctl", "-a"}
	long := strings.Repeat("x", 300)
	for _, c := range []struct {
		name string
		res  runner.Result
		err  error
		ok   []int
		want string
	}{
		{"answered", runner.Result{Stdout: []byte("fine\n")}, nil, nil, ""},
		{"missing", runner.Result{}, exec.ErrNotFound, nil, "smartctl: command not found"},
		{"missing in a shell", runner.Result{ExitCode: 127}, nil, nil, "smartctl: command not found"},
		{"start error", runner.Result{}, errors.New("boom"), nil, "smartctl: boom"},
		{"timeout", runner.Result{TimedOut: true}, nil, nil, "smartctl: timed out after 2s"},
		{"cancelled", runner.Result{Canceled: true}, nil, nil, "smartctl: cancelled"},
		{"exit", runner.Result{ExitCode: 2, Stderr: []byte("\n  bad device\nmore\n")}, nil, nil, "smartctl exited 2: bad device"},
		{"exit without output", runner.Result{ExitCode: 2}, nil, nil, "smartctl exited 2: no output"},
		{"exit meaning an answer", runner.Result{ExitCode: 100}, nil, []int{100}, ""},
		{"privilege", runner.Result{ExitCode: 1, Stdout: []byte("Operation not permitted\n")}, nil, nil, "smartctl: permission denied (Operation not permitted)"},
		{"long line bounded", runner.Result{ExitCode: 1, Stderr: []byte(long)}, nil, nil, "smartctl exited 1: " + long[:200] + "…"},
		{"invalid bytes", runner.Result{ExitCode: 1, Stderr: []byte("a\xffb")}, nil, nil, "smartctl exited 1: a\uFFFDb"},
		{"truncated", runner.Result{Truncated: true}, nil, nil, "smartctl: output exceeded 64 bytes"},
	} {
		if got := Unanswered(argv, c.res, c.err, 2*time.Second, 64, c.ok...); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
