package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func fixture(name string) string {
	p, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "tools", name))
	return p
}

// runWarden runs the built binary and returns stdout, stderr and the exit
// status.
func runWarden(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, wardenBin, args...)
	cmd.Env = env
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestExe(t *testing.T) {
	env, _ := wardenEnv(t, "WARDEN_FIXTURE_VAR=from-warden", "WARDEN_FIXTURE_UNLISTED=leak")
	tools := "--tools=" + fixture("basic.yaml")
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		contains string
		absent   string
	}{
		{"default", []string{"greet"}, 0, "world\n", ""},
		{"hostile", []string{"greet", "name='; id; '$(id)"}, 0, "'; id; '$(id)\n", "uid="},
		{"typed and env", []string{"count", "n=2", "label=abc"}, 0, "count for abc:\nlabel-abc from-warden scale=1.5\n1\n2\n", ""},
		{"constraint", []string{"count", "n=51"}, 2, "constraint failed: n >= 1 && n <= 50", ""},
		{"not an integer", []string{"count", "n=1.5"}, 2, "", ""},
		{"unknown param", []string{"greet", "nope=1"}, 2, "", ""},
		{"timeout", []string{"sleepy"}, 124, "timed out", ""},
		{"classified", []string{"remove_file", "path=/tmp/x"}, 1, "approval_required", ""},
		{"tier floor", []string{"floor_tier"}, 1, "approval_required", "floor\n"},
		{"env exact", []string{"env_probe"}, 0, "listed=from-warden unlisted=unset", "leak"},
		{"fallback", []string{"fallback"}, 0, "fell-back", ""},
		{"unavailable", []string{"mac_only"}, 2, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runWarden(t, env, append([]string{"exe", tools}, tc.args...)...)
			if code != tc.code || !strings.Contains(out+errOut, tc.contains) || (tc.absent != "" && strings.Contains(out, tc.absent)) {
				t.Errorf("exe %q: exit %d, want %d; output must contain %q and not %q:\n%s\n%s", tc.args, code, tc.code, tc.contains, tc.absent, out, errOut)
			}
		})
	}
}

func TestValidateCLI(t *testing.T) {
	env, _ := wardenEnv(t)
	out, errOut, code := runWarden(t, env, "validate", fixture("basic.yaml"), fixture("sandboxed.yaml"))
	if code != 0 || !strings.Contains(out, "basic.yaml: ok (10 tools, 1 prompts)") || !strings.Contains(errOut, "warning:") || !strings.Contains(errOut, "raw") {
		t.Errorf("validate fixtures: exit %d\n%s\n%s", code, out, errOut)
	}
	_, errOut, code = runWarden(t, env, "validate", fixture("bad/unknown_option.yaml"), fixture("bad/backticks.yaml"))
	if code != 1 || !strings.Contains(errOut, "unknown_option.yaml:10: mcp.tools[0].run.runners[0].options.allow_netwrking: unknown key") || !strings.Contains(errOut, "backticks") {
		t.Errorf("validate bad: exit %d\n%s", code, errOut)
	}
}

func TestToolsCLI(t *testing.T) {
	env, _ := wardenEnv(t)
	out, errOut, code := runWarden(t, env, "tools", "--tools", fixture("basic.yaml"))
	if code != 0 {
		t.Fatalf("tools: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"greet", "mac_only        -", "needs os darwin", "fallback        exec"} {
		if !strings.Contains(out, want) {
			t.Errorf("tools output lacks %q:\n%s", want, out)
		}
	}
}

// TestServeDeclarative drives serve over stdio: declarative tools and the
// prompt are listed, calls run and are audited, an unavailable tool is
// absent, and a bad tool file stops startup.
func TestServeDeclarative(t *testing.T) {
	env, state := wardenEnv(t)
	s := startStdio(t, env, state, nil, "--tools", fixture("basic.yaml"))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	names := map[string]bool{}
	for tool, err := range s.cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names[tool.Name] = true
		if tool.Name == "count" {
			props := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
			if got := props["n"].(map[string]any)["type"]; got != "integer" {
				t.Errorf("count.n type = %v, want integer", got)
			}
		}
	}
	if !names["greet"] || !names["count"] || names["mac_only"] {
		t.Errorf("tools = %v; want greet and count, not mac_only", names)
	}
	res, sc := callTool(t, s.cs, "quote_contexts", map[string]any{"v": "$(id)`id`'\"x"})
	if res.IsError || !strings.Contains(sc["stdout"].(string), "[$(id)`id`'\"x][$(id)`id`'\"x]") || sc["runner"] != "exec" {
		t.Errorf("quote_contexts: %v", sc)
	}
	res, sc = callTool(t, s.cs, "count", map[string]any{"n": 0})
	if !res.IsError || sc["status"] != "invalid_argument" || !strings.Contains(sc["reason"].(string), "n >= 1") {
		t.Errorf("constraint failure: %v", sc)
	}
	pr, err := s.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "basic_helper"})
	if err != nil || len(pr.Messages) != 2 {
		t.Fatalf("GetPrompt: %v, %v", pr, err)
	}
	s.cs.Close()
	b, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"tool":"quote_contexts"`, `"tool":"count"`, `"tool":"prompt:basic_helper"`, `"runner":"exec"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("audit log lacks %s", want)
		}
	}

	_, errOut, code := runWarden(t, env, "serve", "--tools", fixture("bad/unknown_runner.yaml"))
	if code == 0 || !strings.Contains(errOut, `unknown runner "chroot"`) {
		t.Errorf("serve with a bad tool file: exit %d, stderr %s", code, errOut)
	}
}
