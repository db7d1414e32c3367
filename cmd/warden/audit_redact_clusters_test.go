package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditRedactsClustersAndDeepJSON drives the binary with the
// spellings round 35 closed: a password option clustered after options
// without a value, JSON whose quotes are escaped for a shell inside a
// shell, and vault's token subcommands; in run_command, run_script and a
// session's start command, read back from the audit log and the session
// list. Every command sits behind false &&.
func TestAuditRedactsClustersAndDeepJSON(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	callTool(t, s.cs, "run_command", map[string]any{"command": "false && sshpass -vp S3cr3tKa ssh bob@h; false && smbclient -NU bob%S3cr3tKb //nas/share"})
	callTool(t, s.cs, "run_command", map[string]any{"command": `false && ssh h "curl -d \"{\\\"password\\\": \\\"S3cr3tKc\\\"}\" https://api/x"`})
	callTool(t, s.cs, "run_script", map[string]any{"interpreter": "bash", "script": "false && ipmitool -vP S3cr3tKd -H bmc1 chassis status\nfalse && vault token revoke S3cr3tKe\necho done\n"})
	started := startSession(t, s.cs, map[string]any{"command": "false && ssh-keygen -qN S3cr3tKf -f /tmp/k; sleep 30"})
	_, list := callTool(t, s.cs, "session_list", map[string]any{})
	callTool(t, s.cs, "session_close", map[string]any{"session_id": started.id})
	s.cs.Close()
	b, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	listed, _ := json.Marshal(list)
	for what, text := range map[string]string{"audit log": string(b), "session list": string(listed)} {
		for _, leak := range []string{"S3cr3tKa", "S3cr3tKb", "S3cr3tKc", "S3cr3tKd", "S3cr3tKe", "S3cr3tKf"} {
			if strings.Contains(text, leak) {
				t.Errorf("%s keeps %q:\n%s", what, leak, text)
			}
		}
	}
	for _, kept := range []string{"sshpass -vp [REDACTED] ssh bob@h", "-NU bob%[REDACTED] //nas/share", "-H bmc1 chassis status", "vault token revoke [REDACTED]", "ssh-keygen -qN [REDACTED] -f /tmp/k"} {
		if !strings.Contains(string(b), kept) {
			t.Errorf("audit log lacks %q:\n%s", kept, b)
		}
	}
}
