package sessions

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/session"
)

// TestRecordingEchoesNoTypedSecret: the terminal echoes what session_send
// types, and the recording's output events (replayed, and followed by
// warden watch) kept the secrets that the send's audit record and input
// event hide: the rest of a secret an earlier send began, a password
// typed where the shell echoes it, the runs of a value edited with DEL
// Ctrl-H, a secret a later command prints. None of them may replay; what
// is typed around them does. Every command is behind false &&, or prints.
func TestRecordingEchoesNoTypedSecret(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rg := newRigWith(t, policy.Open, session.Options{RecordDir: dir})
	id := rg.start(nil)
	sends := []struct {
		data  string
		enter bool
	}{
		{"false && export PGPASSWORD=", false},
		{"S3cr3tKa", true},
		{"false && curl -u bob:", false},
		{"S3cr3tKb https://example.invalid/", true},
		{"false && sshpass -p S3cr", false},
		{"3tKc ssh db1 uptime", true},
		{"false && wget --password=", false},
		{"S3cr3tKd https://registry.invalid/", true},
		{"false && htpasswd -nbB bob ", false},
		{"S3cr3tKe", true},
		{"false && curl -H 'Authorization: Bearer ", false},
		{"S3cr3tKf' https://example.invalid/", true},
		{"false && sshpass -pS3cr3tXX\x7f\x7fKg ssh db2", true},
		{"false && GITHUB_TOKEN=S3cr3tWW\x7f\x7fKh true", true},
		{"false && sudo -S true", true},
		{"S3cr3tKi", true},
		{"false && passwd bob\nS3cr3tKj\nS3cr3tKj", true},
		{`t=S3cr3tKk; false && sshpass -p "$t" ssh h; echo "<$t>"`, true},
		{"echo after-echoes", true},
	}
	for _, s := range sends {
		if got := rg.approved("session_send", map[string]any{"session_id": id, "data": s.data, "enter": s.enter}); got["status"] != "ok" {
			t.Fatalf("send %q: %v", s.data, got)
		}
	}
	rg.readUntil(id, "after-echoes")
	rg.call("session_close", map[string]any{"session_id": id})
	b := onlyRecording(t, dir)
	var out strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		var ev []any
		if json.Unmarshal([]byte(line), &ev) == nil && len(ev) == 3 && ev[1] == "o" {
			out.WriteString(ev[2].(string))
		}
	}
	replay := out.String()
	for _, leak := range []string{"S3cr3tKa", "S3cr3tKb", "3tKc", "S3cr3tKd", "S3cr3tKe", "S3cr3tKf", "S3cr3tXX", "Kg", "S3cr3tWW", "Kh",
		"S3cr3tKi", "S3cr3tKj", "S3cr3tKk"} {
		if strings.Contains(replay, leak) {
			t.Errorf("recorded output replays %q:\n%q", leak, replay)
		}
	}
	// (A send after a command that may prompt, curl -u bob: or htpasswd
	// -nbB bob, is an answer whole, as its audit record has it.)
	for _, kept := range []string{"export PGPASSWORD=", "ssh db1 uptime", "https://registry.invalid/", "ssh db2", "true\r\n",
		"sudo -S true", "passwd bob", "after-echoes"} {
		if !strings.Contains(replay, kept) {
			t.Errorf("recorded output lacks %q:\n%q", kept, replay)
		}
	}
}
