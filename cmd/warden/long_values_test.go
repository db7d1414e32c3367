package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileFieldValues sends megabyte values and line-breaking
// characters in the string fields of many tools to one real server. Each
// call must end in a clear answer of bounded size, and each audit record
// must stay one bounded line that parses.
func TestHostileFieldValues(t *testing.T) {
	cfg := writeFile(t, "mode: open\ndisable_tools: [system_info]\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	// A few values of 1 MiB; the rest are 128 KiB, as far past any bound
	// and quicker to send.
	big, mid := strings.Repeat("A", 1<<20), strings.Repeat("B", 128<<10)
	breaks := "x\ny\r\n{\"decision\":\"allow\"}\u2028\u0085\x1b[2J\x00z"
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"run_command", map[string]any{"command": "true", "cwd": big}},
		{"run_command", map[string]any{"command": "true", "cwd": "/" + mid}},
		{"run_script", map[string]any{"script": "true", "interpreter": mid}},
		{"session_send", map[string]any{"session_id": mid, "data": "x"}},
		{"session_read", map[string]any{"session_id": mid}},
		{"session_signal", map[string]any{"session_id": "s", "signal": mid}},
		{"forward_open", map[string]any{"host": "a", "spec": mid}},
		{"forward_close", map[string]any{"forward_id": mid}},
		{"read_file", map[string]any{"path": mid}},
		{"write_file", map[string]any{"path": "/tmp/" + mid, "content": "x"}},
		{"list_dir", map[string]any{"path": "/" + mid}},
		{"fanout", map[string]any{"hosts": []string{mid}, "command": "true"}},
		{"ssh_keyscan", map[string]any{"hosts": []string{mid}}},
		{"run_command", map[string]any{"command": "true", "host": mid}},
		{"system_info", map[string]any{"host": big}}, // switched off
		{"run_command", map[string]any{"command": "true", "cwd": "/tmp/" + breaks}},
		{"run_command", map[string]any{"command": "true", "approval_token": breaks}}, // not needed in open mode: runs
		{"session_signal", map[string]any{"session_id": breaks, "signal": breaks}},
		{"write_file", map[string]any{"path": "/tmp/" + breaks, "content": "x"}},
		{"forward_open", map[string]any{"host": breaks, "spec": breaks}},
		{"system_info", map[string]any{"host": breaks}},
	}
	for _, c := range calls {
		res, _ := callTool(t, s.cs, c.tool, c.args)
		b, _ := json.Marshal(res)
		if !res.IsError && c.args["approval_token"] == nil {
			t.Errorf("%s: a hostile value was accepted: %.200s", c.tool, b)
		}
		if len(b) > 64<<10 {
			t.Errorf("%s: answer of %d bytes to a hostile value; want it bounded: %.200s…", c.tool, len(b), b)
		}
	}
	raw, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if len(lines) < len(calls) {
		t.Fatalf("%d audit lines for %d calls", len(lines), len(calls))
	}
	for _, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("audit line does not parse (%v): %.300s", err, line)
		}
		if len(line) > 64<<10 {
			t.Errorf("audit record of %d bytes for %v: %.200s…", len(line), m["tool"], line)
		}
		if strings.ContainsAny(line, "\r\x00\x1b") || strings.Contains(line, "\u2028") {
			t.Errorf("audit record carries a raw control character: %q", line)
		}
	}
}
