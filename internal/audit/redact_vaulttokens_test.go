package audit

import "testing"

// TestRedactVaultTokenArgs: vault token lookup, renew and revoke take the
// token itself as their argument, after any flags or global options, in
// vault and OpenBao alike.
func TestRedactVaultTokenArgs(t *testing.T) {
	const pw = "hvs.Zq9Secret77"
	checkLocalAndSSH(t, pw, []string{
		"vault token lookup %s",
		"vault token renew %s",
		"vault token revoke %s",
		"vault token lookup -format=json %s",
		"vault token renew -increment=1h %s",
		"vault -address=https://v:8200 token lookup %s",
		"VAULT_ADDR=https://v:8200 vault token revoke '%s'",
		"bao token lookup %s",
		"sudo vault token lookup %s",
	})
}

// TestRedactVaultTokenKept: the subcommands and their flags stay.
func TestRedactVaultTokenKept(t *testing.T) {
	const pw = "hvs.Zq9Secret77"
	checkSubtests(t, pw, []detourCase{
		{"kept", "vault token lookup " + pw, []string{"vault token lookup "}},
		{"kept", "vault token revoke -self", []string{"vault token revoke -self"}},
		{"kept", "vault token lookup", []string{"vault token lookup"}},
		{"kept", "vault token create -policy=ops -ttl=1h", []string{"-policy=ops -ttl=1h"}},
	})
}
