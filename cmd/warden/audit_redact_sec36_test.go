package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditRedactsPromptsListsAndNames: through the real binary, the
// audit record loses an expect script's answer to a prompt written as a
// regular expression or a bare ":", a secret clustered into a script's
// argv item with items after it, a password fed to htdigest, and the
// values of names that hold a session id or connection string; the
// programs, users and files stay. None of them runs a login: each sits
// behind false &&.
func TestAuditRedactsPromptsListsAndNames(t *testing.T) {
	recordsWithout(t, "Zq9vTr7mK", []string{
		`false && expect -c 'spawn ssh bob@h; expect -re "(P|p)ass"; send "Zq9vTr7mKa\r"; interact'`,
		`false && expect -c 'spawn sudo -k id; expect ":"; send "Zq9vTr7mKb\r"'`,
		`false && python3 -c 'import subprocess; subprocess.run(["ldapsearch", "-xwZq9vTr7mKc", "-D", "cn=admin"])'`,
		`false && echo Zq9vTr7mKd | htdigest /etc/apache2/.htdigest realm bob`,
		`APP_SESSION=Zq9vTr7mKe DB_CONN=Zq9vTr7mKf true`,
	}, []string{"spawn ssh bob@h", "spawn sudo -k id", `\"-D\", \"cn=admin\"])`, "htdigest /etc/apache2/.htdigest realm bob", "APP_SESSION=", "DB_CONN="})
}

// recordsWithout runs each command through a warden in open mode and
// holds its audit log to holding no marker and every one of kept: the
// secrets went, and what is no secret stayed.
func recordsWithout(t *testing.T, marker string, cmds, kept []string) {
	t.Helper()
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	for _, c := range cmds {
		callTool(t, s.cs, "run_command", map[string]any{"command": c})
	}
	s.cs.Close()
	b, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	if strings.Contains(log, marker) {
		t.Errorf("audit log holds a secret:\n%s", log)
	}
	for _, k := range kept {
		if !strings.Contains(log, k) {
			t.Errorf("audit log lacks %q:\n%s", k, log)
		}
	}
}
