package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDuplicateArgumentKeysRefused sends raw JSON arguments that repeat a
// key, which no SDK client can build: the decoder keeps the last value, the
// audit log shows both, and a reader of either could take the other for
// what ran. Every such call is refused as invalid before anything reads it
// — tier 0 calls too, which need no approval digest — and the audit record
// says so. One warden process, many spellings.
func TestDuplicateArgumentKeysRefused(t *testing.T) {
	env, state := wardenEnv(t)
	cmd := execCommand([]string{"serve"}, env)
	lc := startLine(t, cmd)
	calls := []struct{ tool, args string }{
		{"run_command", `{"command":"echo DUPRAN-1","command":"echo DUPRAN-2"}`},
		{"run_command", `{"command":"rm -rf /tmp/nothing-here","command":"echo DUPRAN-3"}`},
		{"run_command", `{"comm\u0061nd":"rm -rf /tmp/nothing-here","command":"echo DUPRAN-4"}`},
		{"run_command", `{"command":"echo DUPRAN-5","cwd":"/","cwd":"/tmp"}`},
		{"run_command", `{"command":"cat","stdin":"DUPRAN-6","stdin":"DUPRAN-7"}`},
		{"run_command", `{"command":"env","env":{"X":"DUPRAN-8","X":"DUPRAN-9"}}`},
		{"run_script", `{"script":"echo DUPRAN-10","script":"echo DUPRAN-11"}`},
		{"read_file", `{"path":"/etc/hostname","path":"/etc/passwd"}`},
		{"fanout", `{"command":"echo DUPRAN-12","command":"echo DUPRAN-13","hosts":["local"]}`},
		{"session_start", `{"command":"bash","command":"sh"}`},
	}
	for _, c := range calls {
		raw, err := lc.request("tools/call", map[string]any{"name": c.tool, "arguments": json.RawMessage(c.args)})
		if err != nil {
			t.Errorf("%s %s: %v", c.tool, c.args, err)
			continue
		}
		var res struct {
			Structured struct {
				Status string `json:"status"`
				Reason string `json:"reason"`
			} `json:"structuredContent"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		if res.Structured.Status != "invalid_argument" || !strings.Contains(res.Structured.Reason, "duplicate") {
			t.Errorf("%s %s ran or was refused for another reason: %s", c.tool, c.args, raw)
		}
		if strings.Contains(string(raw), "DUPRAN") && !strings.Contains(res.Structured.Reason, "duplicate") {
			t.Errorf("%s %s: output reached the agent: %s", c.tool, c.args, raw)
		}
	}
	log, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		var rec struct {
			Decision string `json:"decision"`
			Status   string `json:"status"`
		}
		if json.Unmarshal([]byte(line), &rec) != nil {
			continue
		}
		n++
		if rec.Decision != "invalid" || rec.Status != "invalid_argument" {
			t.Errorf("audit record of a call with duplicate keys: %s", line)
		}
	}
	if n != len(calls) {
		t.Errorf("%d audit records, want %d", n, len(calls))
	}
}
