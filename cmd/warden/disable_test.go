package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDisableTools: a tool the operator switched off with disable_tools —
// a built-in host tool, a pack tool, run_command itself — is absent from
// tools/list and refused by name as denied, in open mode, without running
// anything, and each refusal is audited;
// the tools left on still work, and a name that matches no tool stops
// warden at start instead of leaving the tool on.
func TestDisableTools(t *testing.T) {
	env, state := wardenEnv(t)
	cfg := writeFile(t, "mode: open\ndisable_tools: [restart_service, reboot, run_command]\n")
	s := startStdio(t, env, state, nil, "--config", cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	var names []string
	for tool, err := range s.cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	for _, off := range []string{"restart_service", "reboot", "run_command"} {
		if slices.Contains(names, off) {
			t.Errorf("%s is switched off but listed", off)
		}
	}
	for _, on := range []string{"run_script", "service_status", "wan_status", "read_file"} {
		if !slices.Contains(names, on) {
			t.Errorf("%s is not switched off but missing from tools/list", on)
		}
	}

	marker := filepath.Join(t.TempDir(), "ran")
	for name, args := range map[string]map[string]any{
		"run_command":     {"command": "touch " + marker},
		"restart_service": {"service": "warden-test-none"},
		"reboot":          {"host": "local"},
	} {
		res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err == nil && !res.IsError {
			t.Errorf("%s: switched off, yet the call succeeded: %+v", name, res)
			continue
		}
		msg := ""
		if err != nil {
			msg = err.Error()
		} else {
			msg = text(res)
		}
		if !strings.Contains(msg, name) {
			t.Errorf("%s: refusal does not name the tool: %q", name, msg)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("switched-off run_command ran its command")
	}
	// Each refusal is audited like any denial.
	trail, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"run_command", "restart_service", "reboot"} {
		found := false
		for _, l := range strings.Split(string(trail), "\n") {
			if strings.Contains(l, `"tool":"`+name+`"`) && strings.Contains(l, `"status":"denied"`) && strings.Contains(l, "switched off") {
				found = true
			}
		}
		if !found {
			t.Errorf("no denied audit record for the switched-off %s:\n%s", name, trail)
		}
	}
	// What is left on still runs.
	_, got := callTool(t, s.cs, "run_script", map[string]any{"script": "echo on"})
	if got["status"] != "ok" || !strings.Contains(got["stdout"].(string), "on") {
		t.Errorf("run_script: %v", got)
	}

	// A typo is a startup error, not a tool silently left on.
	env2, _ := wardenEnv(t)
	bad := writeFile(t, "disable_tools: [restart_servce]\n")
	out, err := execCommand([]string{"serve", "--config", bad}, env2).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "disable_tools: restart_servce: no such tool") {
		t.Errorf("unknown tool name: err %v, output %s", err, out)
	}
}
