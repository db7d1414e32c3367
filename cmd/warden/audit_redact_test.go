package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditRedactsCredentialOptions drives the binary with calls that pass
// credentials as program options and environment variables, whatever the
// policy decides about them, and reads the audit log warden wrote: the
// calls are there, their secrets are not.
func TestAuditRedactsCredentialOptions(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	calls := []map[string]any{
		{"command": "sshpass -p S3cr3tZa ssh -p 2222 bob@127.0.0.1 true"},
		{"command": "PGPASSWORD=S3cr3tZb psql -h 127.0.0.1 -U app -c 'select 1'"},
		{"command": "curl -sSu bob:S3cr3tZc http://127.0.0.1:1/ ; htpasswd -nbB bob S3cr3tZd"},
		{"command": "mysql -uroot -pS3cr3tZe -e 'select 1'", "env": map[string]any{"MYSQL_PWD": "S3cr3tZf", "REDISCLI_AUTH": "S3cr3tZg"}},
		{"command": "smbclient //127.0.0.1/x -U bob%S3cr3tZh -c ls; openssl rsa -passin pass:S3cr3tZi -in /dev/null"},
		// Values bash joins from parts, and secrets inside an inner shell.
		{"command": `X_TOKEN=S3cr3t'Zj'x true; curl -u bob:S3cr3t"Zk"x http://127.0.0.1:1/ ; bash -c 'export API_KEY=S3cr3t"Zl"x; true'`},
	}
	for _, args := range calls {
		callTool(t, s.cs, "run_command", args)
	}
	s.cs.Close()
	b, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, leak := range []string{"S3cr3tZa", "S3cr3tZb", "S3cr3tZc", "S3cr3tZd", "S3cr3tZe", "S3cr3tZf", "S3cr3tZg", "S3cr3tZh", "S3cr3tZi", "'Zj'x", `Zk\"x`, `Zl\"x`} {
		if strings.Contains(log, leak) {
			t.Errorf("audit log contains %q", leak)
		}
	}
	for _, kept := range []string{"sshpass -p [REDACTED] ssh -p 2222 bob@127.0.0.1", "PGPASSWORD=[REDACTED] psql", "bob:[REDACTED]", `"MYSQL_PWD":"[REDACTED]"`, "bob%[REDACTED]", "X_TOKEN=[REDACTED] true", "export API_KEY=[REDACTED]; true"} {
		if !strings.Contains(log, kept) {
			t.Errorf("audit log lacks %q:\n%s", kept, log)
		}
	}
}
