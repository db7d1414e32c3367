package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRecordsKeepNoTypedSecret drives the binary with the spellings round
// 13 closed, and reads every record warden keeps of them: the audit log,
// the session list and the recording (its header and its output, which
// warden watch follows). A password attached to its option that starts
// with punctuation, a literal compared with a secret variable, a login
// call without parentheses, a script's name given where a secret goes, a
// session's start command, the rest of a secret a second send types,
// echoed by the terminal. Every command is behind false && or prints.
func TestRecordsKeepNoTypedSecret(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"run_command", map[string]any{"command": "false && mysql -uroot -p!S3cr3tVa shop; false && sshpass -p#S3cr3tVb ssh h"}},
		{"run_command", map[string]any{"command": `[ "$PGPASSWORD" == "S3cr3tVc" ] && echo same; false && 7z a -p[x]S3cr3tVd a.7z f`}},
		{"run_script", map[string]any{"interpreter": "bash", "script": "false && ruby -e 'req.basic_auth \"bob\", \"S3cr3tVe\"'\n" +
			"false && python3 -c 'x = \"S3cr3tVf\"; os.environ[\"PGPASSWORD\"] = x'\necho done\n"}},
	}
	for _, c := range calls {
		callTool(t, s.cs, c.tool, c.args)
	}
	started := startSession(t, s.cs, map[string]any{"command": "false && sshpass -p S3cr3tVg ssh h; PGPASSWORD=S3cr3tVh sleep 30"})
	_, list := callTool(t, s.cs, "session_list", map[string]any{})
	sh := startSession(t, s.cs, nil)
	callTool(t, s.cs, "session_send", map[string]any{"session_id": sh.id, "data": "false && export PGPASSWORD=", "enter": false})
	callTool(t, s.cs, "session_send", map[string]any{"session_id": sh.id, "data": "S3cr3tVi"})
	sh.send("echo after-$((1+1))")
	sh.readUntil("after-2")
	callTool(t, s.cs, "session_close", map[string]any{"session_id": sh.id})
	callTool(t, s.cs, "session_close", map[string]any{"session_id": started.id})
	s.cs.Close()
	b, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	listed, _ := json.Marshal(list)
	records := map[string]string{"audit log": string(b), "session list": string(listed)}
	for _, m := range regexp.MustCompile(`"recording":"([^"]+)"`).FindAllStringSubmatch(string(b), -1) {
		cast, err := os.ReadFile(m[1])
		if err != nil {
			t.Fatal(err)
		}
		records[filepath.Base(m[1])] = string(cast)
	}
	if len(records) < 4 {
		t.Fatalf("records: %d, want the log, the list and two recordings:\n%s", len(records), b)
	}
	for what, text := range records {
		for _, leak := range []string{"S3cr3tVa", "S3cr3tVb", "S3cr3tVc", "S3cr3tVd", "S3cr3tVe", "S3cr3tVf", "S3cr3tVg", "S3cr3tVh", "S3cr3tVi"} {
			if strings.Contains(text, leak) {
				t.Errorf("%s keeps %q:\n%s", what, leak, text)
			}
		}
	}
	for _, kept := range []string{"mysql -uroot -p[REDACTED] shop", `== \"[REDACTED]\" ]`, "sshpass -p [REDACTED] ssh h", "export PGPASSWORD="} {
		if !strings.Contains(string(b), kept) {
			t.Errorf("audit log lacks %q:\n%s", kept, b)
		}
	}
}
