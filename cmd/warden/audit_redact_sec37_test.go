package main

import "testing"

// TestAuditRedactsCommunitiesBootstrapsKeepsNames: through the real
// binary, the audit record loses a RouterOS community set over ssh, a
// nomad bootstrap token fed on its input and a gossip key, and keeps
// what is no secret: chpasswd's user name, an expect script's host-key
// "yes", openssl's key file name. Each command sits behind false &&.
func TestAuditRedactsCommunitiesBootstrapsKeepsNames(t *testing.T) {
	recordsWithout(t, "Zq9vTr7mK", []string{
		`false && ssh admin@r1 '/snmp community set [find] name=Zq9vTr7mKa addresses=10.0.0.0/8'`,
		`false && nomad acl bootstrap - <<< Zq9vTr7mKb`,
		`false && consul keyring -install=Zq9vTr7mKc`,
		`false && chpasswd <<< 'bobby:Zq9vTr7mKd'`,
		`false && expect -c 'spawn ssh bob@h1; expect { "continue connecting" {send "yes\r"; exp_continue} "assword:" {send "Zq9vTr7mKe\r"} }'`,
		`false && openssl pkeyutl -sign -inkey signer -passin pass:Zq9vTr7mKf -in data`,
	}, []string{
		"ssh admin@r1 '/snmp community set [find] name=", "addresses=10.0.0.0/8'",
		"nomad acl bootstrap - <<<", "consul keyring -install=", "chpasswd <<< 'bobby:",
		`{send \"yes\\r\"; exp_continue}`, "-inkey signer -passin pass:",
	})
}
