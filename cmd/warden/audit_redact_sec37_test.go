package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditRedactsCommunitiesBootstrapsKeepsNames: through the real
// binary, the audit record loses a RouterOS community set over ssh, a
// nomad bootstrap token fed on its input and a gossip key, and keeps
// what is no secret: chpasswd's user name, an expect script's host-key
// "yes", openssl's key file name. Each command sits behind false &&.
func TestAuditRedactsCommunitiesBootstrapsKeepsNames(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	for _, c := range []string{
		`false && ssh admin@r1 '/snmp community set [find] name=Zq9vTr7mKa addresses=10.0.0.0/8'`,
		`false && nomad acl bootstrap - <<< Zq9vTr7mKb`,
		`false && consul keyring -install=Zq9vTr7mKc`,
		`false && chpasswd <<< 'bobby:Zq9vTr7mKd'`,
		`false && expect -c 'spawn ssh bob@h1; expect { "continue connecting" {send "yes\r"; exp_continue} "assword:" {send "Zq9vTr7mKe\r"} }'`,
		`false && openssl pkeyutl -sign -inkey signer -passin pass:Zq9vTr7mKf -in data`,
	} {
		callTool(t, s.cs, "run_command", map[string]any{"command": c})
	}
	s.cs.Close()
	b, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	if strings.Contains(log, "Zq9vTr7mK") {
		t.Errorf("audit log holds a secret:\n%s", log)
	}
	for _, kept := range []string{
		"ssh admin@r1 '/snmp community set [find] name=", "addresses=10.0.0.0/8'",
		"nomad acl bootstrap - <<<", "consul keyring -install=", "chpasswd <<< 'bobby:",
		`{send \"yes\\r\"; exp_continue}`, "-inkey signer -passin pass:",
	} {
		if !strings.Contains(log, kept) {
			t.Errorf("audit log lacks %q:\n%s", kept, log)
		}
	}
}
