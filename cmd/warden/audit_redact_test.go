package main

import (
	"os"
	"path/filepath"
	"regexp"
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

// TestAuditRedactsFedAndWrappedSecrets drives the binary with the
// spellings of issue 16 point 4 that other rules missed: a here-string
// that names a secret reader inside it (which made the redactor panic), a
// shell's here-string, a secret piped to a login under kubectl exec,
// nmcli's password after a network named like a program, inner-quoted
// positionals of an inner shell, SET PASSWORD FOR, AUTH lines fed to
// redis-cli, curl -u TOKEN:, password commands and process substitutions
// in run_script, and a session_send. None of them runs a login: each sits
// behind false &&.
func TestAuditRedactsFedAndWrappedSecrets(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"run_command", map[string]any{"command": "cat <<< 'mysql --password S3cr3tYa shop'"}},
		{"run_command", map[string]any{"command": "false && bash <<< 'echo bob:S3cr3tYb | chpasswd'"}},
		{"run_command", map[string]any{"command": "false && kubectl exec -i p -- echo S3cr3tYc | docker login -u bob --password-stdin r"}},
		{"run_command", map[string]any{"command": "false && nmcli dev wifi connect net password S3cr3tYd"}},
		{"run_command", map[string]any{"command": `false && sh -c 'rabbitmqctl add_user bob '\''S3cr3tYe'\'''`}},
		{"run_command", map[string]any{"command": `false && mysql -e "SET PASSWORD FOR 'bob'@'%' = 'S3cr3tYf'"`}},
		{"run_command", map[string]any{"command": "false && echo 'AUTH S3cr3tYg' | redis-cli; false && curl -u S3cr3tYh: http://127.0.0.1:1/"}},
		{"run_script", map[string]any{"interpreter": "bash", "script": "false && restic --password-command 'echo S3cr3tYi' snapshots\n" +
			"false && openvpn --auth-user-pass <(printf 'bob\\nS3cr3tYj\\n') --config c\necho done\n"}},
		// Positionals after option values, FTP and protocol logins on
		// input, options and secrets held in variables for later.
		{"run_command", map[string]any{"command": "false && smbclient //127.0.0.1/x -U bob -W DOM S3cr3tYn -c ls"}},
		{"run_command", map[string]any{"command": "false && ftp -n 127.0.0.1 <<< 'user bob S3cr3tYo'; false && nc h 110 <<< $'USER bob\\nPASS S3cr3tYt'"}},
		{"run_command", map[string]any{"command": `args=(-uroot -pS3cr3tYp); false && mysql "${args[@]}" shop`}},
		{"run_command", map[string]any{"command": `p=S3cr3tYq; false && sshpass -p "$p" ssh h`}},
		{"run_script", map[string]any{"interpreter": "bash", "script": "set -- -pS3cr3tYr\nfalse && mysql \"$@\" shop\n"}},
		{"run_command", map[string]any{"command": "false && zfs load-key tank <<< S3cr3tYu; false && winexe -U 'bob%S3cr3tYv' //h cmd"}},
		{"run_command", map[string]any{"command": "false && deluge-console \"connect h bob S3cr3tYw; info\"; false && set system login user bob authentication plaintext-password S3cr3tYx"}},
	}
	for _, c := range calls {
		callTool(t, s.cs, c.tool, c.args)
	}
	sh := startSession(t, s.cs, nil)
	sh.send("false && psql -c 'ALTER ROLE app PASSWORD $$S3cr3tYk$$'\n")
	// A password typed at the prompt of the line before (sudo -S; mysql
	// -p would be refused here, since mysql reads the next lines as SQL).
	sh.send("false && sudo -S true\n")
	sh.send("S3cr3tYm\n")
	sh.send("echo after-prompt\n")
	// A secret whose last bytes, fewer than 4, a second send types.
	callTool(t, s.cs, "session_send", map[string]any{"session_id": sh.id, "data": "false && PGPASSWORD=S3cr3tY", "enter": false})
	callTool(t, s.cs, "session_send", map[string]any{"session_id": sh.id, "data": "Zs true"})
	s.cs.Close()
	b, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, leak := range []string{"S3cr3tYa", "S3cr3tYb", "S3cr3tYc", "S3cr3tYd", "S3cr3tYe", "S3cr3tYf", "S3cr3tYg", "S3cr3tYh", "S3cr3tYi", "S3cr3tYj", "S3cr3tYk", "S3cr3tYm",
		"S3cr3tYn", "S3cr3tYo", "S3cr3tYp", "S3cr3tYq", "S3cr3tYr", "S3cr3tYt", "Zs", "S3cr3tYu", "S3cr3tYv", "S3cr3tYw", "S3cr3tYx"} {
		if strings.Contains(log, leak) {
			t.Errorf("audit log contains %q:\n%s", leak, log)
		}
	}
	for _, kept := range []string{"cat <<< '", "chpasswd", "docker login -u bob --password-stdin r", "connect net password [REDACTED]",
		"rabbitmqctl add_user bob", "SET PASSWORD FOR", "| redis-cli", "--password-command 'echo [REDACTED]' snapshots",
		"--auth-user-pass <(printf [REDACTED]) --config c", "ALTER ROLE app PASSWORD $$[REDACTED]$$",
		`"data":"[REDACTED]\n"`, "echo after-prompt", "-U bob -W DOM [REDACTED] -c ls", "ftp -n 127.0.0.1 <<<",
		`mysql \"${args[@]}\" shop`, `p=[REDACTED]; false && sshpass -p \"[REDACTED]\" ssh h`, `"data":"[REDACTED] true"`,
		"zfs load-key tank <<< [REDACTED]", "winexe -U 'bob%[REDACTED]' //h cmd", "connect h bob [REDACTED]; info", "plaintext-password [REDACTED]"} {
		if !strings.Contains(log, kept) {
			t.Errorf("audit log lacks %q:\n%s", kept, log)
		}
	}
	// The session's recording: what was typed is redacted as the log
	// is, and the prompt's answer too, in the input events and in the
	// shell's echo of it (here no prompt turned the echo off).
	m := regexp.MustCompile(`"recording":"([^"]+)"`).FindStringSubmatch(log)
	if m == nil {
		t.Fatalf("no recording in the log:\n%s", log)
	}
	cast, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cast), "S3cr3tYk") || strings.Contains(string(cast), "S3cr3tYm") || !strings.Contains(string(cast), `"i", "[REDACTED]`) {
		t.Errorf("recording keeps a typed secret:\n%s", cast)
	}
}
