package sessions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/session"
)

// TestSecretsSplitAcrossSends: a secret whose start one send types and
// whose rest the next send types (export PGPASSWORD= then the value, a
// password after sshpass -p) is found in the text the
// shell reads, so neither send's audit record nor the recording keeps it;
// what is typed around it stays readable. Every command is behind false
// &&, so nothing runs.
func TestSecretsSplitAcrossSends(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rg := newRigWith(t, policy.Open, session.Options{RecordDir: dir})
	id := rg.start(nil)
	for _, s := range []struct {
		data  string
		enter bool
	}{
		{"false && export PGPASSWORD=", false},
		{"S3cr3tZa", true},
		{"false && curl -u bob:", false},
		{"S3cr3tZb https://example.invalid/", true},
		{"false && SNMP_COMMUNITY=S3c", false},
		{"r3tZc ./poll.sh", true},
		// A script may read the terminal: Ctrl-C ends the doubt.
		{"\x03", false},
		{"", true},
		{"false && sshpass -p ", false},
		{"S3cr3tZd ssh db1 uptime", true},
		// A rest shorter than a secret looked for elsewhere is still
		// known to be one.
		{"false && PGPASSWORD=S3cr3tZe", false},
		{"Zq ./short-rest.sh", true},
		{"\x03", false},
		{"", true},
		{"echo after-split", true},
	} {
		got := rg.approved("session_send", map[string]any{"session_id": id, "data": s.data, "enter": s.enter})
		if got["status"] != "ok" {
			t.Fatalf("send %q: %v", s.data, got)
		}
	}
	rg.readUntil(id, "after-split")
	b, err := json.Marshal(rg.audit.all)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, leak := range []string{"S3cr3tZa", "S3cr3tZb", "r3tZc", "S3cr3tZd", "S3cr3tZe", "Zq"} {
		if strings.Contains(log, leak) {
			t.Errorf("audit records keep %q:\n%s", leak, log)
		}
	}
	for _, kept := range []string{"false \u0026\u0026 export PGPASSWORD=", "https://example.invalid/", "./poll.sh", "ssh db1 uptime", "./short-rest.sh", "echo after-split"} {
		if !strings.Contains(log, kept) && !strings.Contains(log, strings.NewReplacer("&", `\u0026`, ">", `\u003e`, "<", `\u003c`).Replace(kept)) {
			t.Errorf("audit records lack %q:\n%s", kept, log)
		}
	}
	cast := onlyRecording(t, dir)
	for _, line := range strings.Split(string(cast), "\n") {
		if !strings.Contains(line, `"i", `) {
			continue // the terminal's echo is output, not what was typed
		}
		for _, leak := range []string{"S3cr3tZa", "S3cr3tZb", "r3tZc", "S3cr3tZd", "S3cr3tZe", "Zq"} {
			if strings.Contains(line, leak) {
				t.Errorf("recording's input keeps %q: %s", leak, line)
			}
		}
	}
}

// TestSecretAnsweredInTheSameSend: a send that both runs a command that
// prompts for a secret and types the answer (mysql -p⏎S3cret) keeps the
// answer out of the audit record and the recording, as when the answer
// comes in the next send, whether the send runs or is refused; so does
// one whose program name is behind a key the terminal consumes. Each
// send has a session of its own; every command is behind false &&, so
// nothing runs and each answer reaches the shell as a command it does
// not find.
func TestSecretAnsweredInTheSameSend(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rg := newRigWith(t, policy.Open, session.Options{RecordDir: dir})
	sends := []struct {
		data, leak string
		enter      bool
	}{
		{"false && mysql -uroot -p\nS3cr3tYa", "S3cr3tYa", true},
		{"false && sudo -S true\rS3cr3tYb", "S3cr3tYb", true},
		{"false && passwd bob\nS3cr3tYc\nS3cr3tYc", "S3cr3tYc", true},
		{"false && psql -h db -U app -W\nS3cr3tYd", "S3cr3tYd", false},
		{"echo one; false && kinit bob\nS3cr3tYe", "S3cr3tYe", true},
		{"false && read -s P\nS3cr3tYf", "S3cr3tYf", true},
		{"false && docker login -u bob\nS3cr3tYg", "S3cr3tYg", true},
		{"\x7ffalse && sshpass -p S3cr3tYh ssh db1 uptime", "S3cr3tYh", true},
		{"\x1b[Dfalse && mysql -uroot -pS3cr3tYi", "S3cr3tYi", true},
		// Programs that ask on the terminal, not on their input.
		{"false && sudo -v\nS3cr3tYj", "S3cr3tYj", true},
		{"false && openssl passwd -6\nS3cr3tYk", "S3cr3tYk", true},
		{"false && gpg -d /tmp/x.gpg\nS3cr3tYl", "S3cr3tYl", true},
		{"false && ssh-keygen -y -f /tmp/k\nS3cr3tYm", "S3cr3tYm", true},
	}
	for _, s := range sends {
		id := rg.start(nil)
		rg.approved("session_send", map[string]any{"session_id": id, "data": s.data, "enter": s.enter})
	}
	b, err := json.Marshal(rg.audit.all)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sends {
		if strings.Contains(string(b), s.leak) {
			t.Errorf("audit records keep %q of %q", s.leak, s.data)
		}
	}
	if !strings.Contains(string(b), "docker login -u bob") {
		t.Errorf("audit records lack what was typed around the answers:\n%s", b)
	}
	casts, _ := filepath.Glob(filepath.Join(dir, "*.cast"))
	for _, c := range casts {
		cast, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(cast), "\n") {
			for _, s := range sends {
				if strings.Contains(line, `"i", `) && strings.Contains(line, s.leak) {
					t.Errorf("recording's input keeps %q: %s", s.leak, line)
				}
			}
		}
	}
}

// TestTerminalPromptAnsweredLater: sudo -v, gpg and ssh-keygen ask for a
// password on the terminal, and the next send is that password.
func TestTerminalPromptAnsweredLater(t *testing.T) {
	t.Parallel()
	rg := newRig(t, policy.Open)
	for _, s := range []struct{ prompt, secret string }{
		{"false && sudo -v", "S3cr3tZa"}, {"false && sudo -u bob ls", "S3cr3tZb"},
		{"false && gpg -c /tmp/x", "S3cr3tZc"}, {"false && openssl enc -aes256 -in /tmp/x", "S3cr3tZd"},
	} {
		id := rg.start(nil)
		rg.approved("session_send", map[string]any{"session_id": id, "data": s.prompt, "enter": true})
		rg.approved("session_send", map[string]any{"session_id": id, "data": s.secret, "enter": true})
		b, _ := json.Marshal(rg.audit.all)
		if strings.Contains(string(b), s.secret) {
			t.Errorf("audit records keep the answer %q to %q", s.secret, s.prompt)
		}
	}
}

// onlyRecording returns the one recording in dir.
func onlyRecording(t *testing.T, dir string) []byte {
	t.Helper()
	casts, _ := filepath.Glob(filepath.Join(dir, "*.cast"))
	if len(casts) != 1 {
		t.Fatalf("recordings: %v", casts)
	}
	b, err := os.ReadFile(casts[0])
	if err != nil {
		t.Fatal(err)
	}
	return b
}
