package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestStdioRunCommand(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_SERVER_ONLY=server-secret-4711")
	s := startStdio(t, env, state, nil)

	tests := []struct {
		name     string
		args     map[string]any
		exit     float64
		stdout   string
		stderr   string
		isError  bool
		status   string
		contains bool
	}{
		{name: "echo", args: map[string]any{"command": "echo hi"}, stdout: "hi\n", status: "ok"},
		{name: "non-zero exit", args: map[string]any{"command": "echo oops >&2; exit 3"}, exit: 3, stderr: "oops\n", status: "ok"},
		{name: "stdin", args: map[string]any{"command": "tr a-z A-Z", "stdin": "shout\n"}, stdout: "SHOUT\n", status: "ok"},
		{name: "cwd", args: map[string]any{"command": "pwd", "cwd": "/usr"}, stdout: "/usr\n", status: "ok"},
		{name: "server env is not inherited", args: map[string]any{"command": "echo ${WARDEN_SERVER_ONLY:-absent}"}, stdout: "absent\n", status: "ok"},
		{name: "per-call env", args: map[string]any{"command": "echo $GREETING", "env": map[string]any{"GREETING": "hello"}}, stdout: "hello\n", status: "ok"},
		{name: "fixed base env", args: map[string]any{"command": "echo $TERM"}, stdout: "dumb\n", status: "ok"},
		{name: "relative cwd refused", args: map[string]any{"command": "pwd", "cwd": "tmp"}, isError: true, status: "invalid_argument"},
		{name: "missing command", args: map[string]any{}, isError: true, status: "invalid_argument"},
		{name: "wrong type", args: map[string]any{"command": 42}, isError: true, status: "invalid_argument"},
		{name: "unknown argument", args: map[string]any{"command": "true", "sudo": true}, isError: true, status: "invalid_argument"},
		{name: "unknown host", args: map[string]any{"command": "true", "host": "nas"}, isError: true, status: "invalid_argument"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, got := callTool(t, s.cs, "run_command", tc.args)
			if res.IsError != tc.isError {
				t.Fatalf("isError = %v, want %v: %s", res.IsError, tc.isError, text(res))
			}
			if got["status"] != tc.status {
				t.Errorf("status = %v, want %s", got["status"], tc.status)
			}
			if tc.isError {
				return
			}
			if got["exit_code"] != tc.exit {
				t.Errorf("exit_code = %v, want %v", got["exit_code"], tc.exit)
			}
			if got["stdout"] != tc.stdout {
				t.Errorf("stdout = %q, want %q", got["stdout"], tc.stdout)
			}
			if got["stderr"] != tc.stderr {
				t.Errorf("stderr = %q, want %q", got["stderr"], tc.stderr)
			}
		})
	}
}

func TestStdioTimeoutKillsProcessGroup(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	marker := fmt.Sprintf("warden-timeout-%d", time.Now().UnixNano())
	cmd := fmt.Sprintf("sh -c 'sleep 300; : %s' & sh -c 'sleep 300; : %s'", marker, marker)
	start := time.Now()
	res, got := callTool(t, s.cs, "run_command", map[string]any{"command": cmd, "timeout_s": 1})
	if !res.IsError || got["status"] != "timeout" || got["timed_out"] != true {
		t.Fatalf("want a timeout result, got %s", text(res))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("timeout took %s", d)
	}
	if left := waitGone(marker, 5*time.Second); len(left) > 0 {
		t.Fatalf("processes survived the timeout: %v", left)
	}
}

func TestStdioCancelKillsChild(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	marker := fmt.Sprintf("warden-cancel-%d", time.Now().UnixNano())
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		deadline := time.Now().Add(10 * time.Second)
		for len(processesWith(marker)) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
	}()
	_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{
		"command": fmt.Sprintf("sh -c 'sleep 300; : %s'", marker),
	}})
	if err == nil {
		t.Fatal("cancelled call returned no error")
	}
	if left := waitGone(marker, 5*time.Second); len(left) > 0 {
		t.Fatalf("child survived cancellation: %v", left)
	}
}

func TestStdioHugeOutputStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 1 GiB")
	}
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	res, got := callTool(t, s.cs, "run_command", map[string]any{"command": "head -c 1073741824 /dev/zero | tr '\\0' x", "timeout_s": 120})
	if res.IsError {
		t.Fatalf("1 GiB call failed: %s", text(res))
	}
	if got["truncated"] != true || got["total_bytes"] != float64(1<<30) {
		t.Errorf("truncated=%v total_bytes=%v, want true and %d", got["truncated"], got["total_bytes"], 1<<30)
	}
	if n := len(got["stdout"].(string)); n != 64<<10 {
		t.Errorf("kept %d bytes of stdout, want %d", n, 64<<10)
	}
	hwm := vmHWM(t, s.cmd.Process.Pid)
	t.Logf("server peak RSS after 1 GiB of output: %d KiB", hwm)
	if hwm > 100<<10 {
		t.Errorf("server peak RSS %d KiB exceeds 100 MiB", hwm)
	}
}

func TestStdioMultibyteCutCleanly(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	// 'é' is two bytes; a cap of 1001 falls inside one.
	res, got := callTool(t, s.cs, "run_command", map[string]any{
		"command": "i=0; while [ $i -lt 2000 ]; do printf 'é'; i=$((i+1)); done", "max_bytes": 1001,
	})
	if res.IsError {
		t.Fatal(text(res))
	}
	out := got["stdout"].(string)
	if !utf8.ValidString(out) || strings.ContainsRune(out, utf8.RuneError) {
		t.Errorf("stdout is not clean UTF-8: %q", out[len(out)-4:])
	}
	if len(out) != 1000 || got["truncated"] != true || got["total_bytes"] != float64(4000) {
		t.Errorf("len=%d truncated=%v total=%v, want 1000, true, 4000", len(out), got["truncated"], got["total_bytes"])
	}
}

func TestStdioMaxBytesOnlyNarrows(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	_, got := callTool(t, s.cs, "run_command", map[string]any{"command": "head -c 5000000 /dev/zero | tr '\\0' y", "max_bytes": 100 << 20})
	if n := len(got["stdout"].(string)); n != 2<<20 {
		t.Errorf("per-call max_bytes above the ceiling kept %d bytes, want the 2 MiB ceiling", n)
	}
}

func TestStdioRunScript(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	tests := []struct {
		name   string
		args   map[string]any
		stdout string
		exit   float64
	}{
		{"sh", map[string]any{"script": "x=6\necho $((x*7))\n"}, "42\n", 0},
		{"strict sh stops at unset variable", map[string]any{"script": "echo $NOPE\necho after\n", "strict": true}, "", 2},
		{"bash pipefail", map[string]any{"script": "false | true\necho after\n", "interpreter": "bash", "strict": true}, "", 1},
		{"python3", map[string]any{"script": "print(6*7)\n", "interpreter": "python3"}, "42\n", 0},
		{"script sees stdin", map[string]any{"script": "read l; echo got $l\n", "stdin": "line\n"}, "got line\n", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, got := callApproved(t, s.cs, "run_script", tc.args)
			if res.IsError {
				t.Fatal(text(res))
			}
			if got["stdout"] != tc.stdout || got["exit_code"] != tc.exit {
				t.Errorf("stdout=%q exit=%v, want %q %v (stderr %q)", got["stdout"], got["exit_code"], tc.stdout, tc.exit, got["stderr"])
			}
		})
	}
	t.Run("bad interpreter", func(t *testing.T) {
		res, got := callTool(t, s.cs, "run_script", map[string]any{"script": "x", "interpreter": "perl"})
		if !res.IsError || got["status"] != "invalid_argument" {
			t.Errorf("want invalid_argument, got %s", text(res))
		}
	})
}

func TestServerInfo(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=readonly")
	s := startStdio(t, env, state, nil)
	res, got := callTool(t, s.cs, "server_info", nil)
	if res.IsError {
		t.Fatal(text(res))
	}
	if got["mode"] != "readonly" || got["transport"] != "stdio" || got["audit_healthy"] != true {
		t.Errorf("server_info = %v", got)
	}
	limits := got["limits"].(map[string]any)
	if limits["default_max_bytes"] != float64(65536) || limits["default_timeout_s"] != float64(60) {
		t.Errorf("limits = %v", limits)
	}
}

func TestToolsHaveSchemasAndAnnotations(t *testing.T) {
	env, state := wardenEnv(t)
	s := startStdio(t, env, state, nil)
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.OutputSchema == nil || tool.InputSchema == nil || tool.Annotations == nil {
			t.Errorf("%s lacks a schema or annotations", tool.Name)
		}
	}
}

// TestPerCallLimitsOnlyNarrow: stdin over exec.max_stdin_bytes is refused
// before anything runs, and a timeout_s above exec.max_timeout is cut to it.
func TestPerCallLimitsOnlyNarrow(t *testing.T) {
	cfg := writeFile(t, "mode: open\nexec:\n  default_timeout: 1s\n  max_timeout: 2s\n  max_stdin_bytes: 16\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	res, got := callTool(t, s.cs, "run_command", map[string]any{"command": "cat", "stdin": strings.Repeat("x", 17)})
	if got["status"] != "invalid_argument" || !strings.Contains(text(res), "16") {
		t.Errorf("17 bytes of stdin over a 16-byte limit: %s", text(res))
	}
	start := time.Now()
	res, got = callTool(t, s.cs, "run_command", map[string]any{"command": "sleep 30", "timeout_s": 3600})
	if got["status"] != "timeout" {
		t.Fatalf("timeout_s 3600 with max_timeout 2s: %s", text(res))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("a 2s maximum timeout took %s", d)
	}
}
