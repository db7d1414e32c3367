package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTakeoverAtPasswordPrompt: an operator takes a session over to type
// the password the agent must not know, at a prompt no rule names (here
// the terminal's echo turned off, then a line read). The input record and
// the recording kept it as typed. A terminal reading a line without echo
// is at a password prompt: the record keeps the rest of what was typed,
// the recording none of the answer; an operator's command typed at an
// echoing prompt is kept.
func TestTakeoverAtPasswordPrompt(t *testing.T) {
	const secret = "Zq9OperatorPw7"
	s, env, _, _ := webConsoleWith(t, "  takeover: true\n")
	sh := startSession(t, s.cs, map[string]any{"command": "/bin/sh -c 'stty -echo; echo ASK-READY; read X; stty echo; echo GOT-$((6*7)); exec /bin/sh'"})
	sh.readUntil("ASK-READY")
	time.Sleep(200 * time.Millisecond)
	cmd := execCommand([]string{"watch", "--takeover", sh.id}, env)
	cmd.Stdin = strings.NewReader(secret + "\n")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sh.readUntil("GOT-42")
	recs := stoppedRecords(t, s.state, sh.id)
	callTool(t, s.cs, "session_close", map[string]any{"session_id": sh.id})
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
	}
	if len(recs["takeover_input"]) != 1 {
		t.Fatalf("%d takeover_input records, want 1 (all: %v)", len(recs["takeover_input"]), recs)
	}
	if in := recs["takeover_input"][0]["extra"].(map[string]any)["input"]; strings.Contains(in.(string), secret) || !strings.Contains(in.(string), "[REDACTED]") {
		t.Errorf("the input record keeps the password typed at the prompt: %q", in)
	}
	for _, name := range []string{"audit.jsonl"} {
		if b, _ := os.ReadFile(filepath.Join(s.state, name)); strings.Contains(string(b), secret) {
			t.Errorf("%s holds the password typed at the prompt", name)
		}
	}
	casts, _ := filepath.Glob(filepath.Join(s.state, "recordings", "*.cast"))
	if len(casts) == 0 {
		t.Fatal("no recording")
	}
	for _, c := range casts {
		if b, _ := os.ReadFile(c); strings.Contains(string(b), secret) {
			t.Errorf("the recording %s holds the password typed at the prompt", filepath.Base(c))
		}
	}
}
