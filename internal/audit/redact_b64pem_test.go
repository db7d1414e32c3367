package audit

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestRedactBase64PrivateKeys: a PEM private key encoded whole in base64
// (one line or wrapped at 76) is redacted wherever it stands; an encoded
// certificate or public key is kept.
func TestRedactBase64PrivateKeys(t *testing.T) {
	pem := func(label, body string) string {
		return base64.StdEncoding.EncodeToString([]byte("-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n"))
	}
	body := "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW" + strings.Repeat("QUJD", 40)
	ssh, rsa, ec, pk := pem("OPENSSH PRIVATE KEY", body), pem("RSA PRIVATE KEY", body), pem("EC PRIVATE KEY", body), pem("PRIVATE KEY", body)
	wrapped := ""
	for k := 0; k < len(rsa); k += 76 {
		wrapped += rsa[k:min(len(rsa), k+76)] + "\n"
	}
	cert := pem("CERTIFICATE", "MIIBkeepkeepkeep")
	tail := func(b64 string) string { return b64[len(b64)-24:] }
	checkCases(t, []spelling{
		{"echo " + ssh + " | base64 -d > ~/.ssh/id_ed25519", []string{tail(ssh)}, []string{"| base64 -d > ~/.ssh/id_ed25519"}},
		{"SSH_KEY_B64=" + ssh, []string{tail(ssh)}, []string{"SSH_KEY_B64="}},
		{"export DEPLOY_KEY_ENCODED='" + rsa + "'", []string{tail(rsa)}, []string{"export DEPLOY_KEY_ENCODED='"}},
		{`{"tls.key": "` + ec + `", "tls.crt": "` + cert + `"}`, []string{tail(ec)}, []string{cert}},
		{"  client-key-data: " + pk + "\n  client-certificate-data: " + cert, []string{tail(pk)}, []string{cert}},
		{"base64 -d > k.pem <<EOF\n" + wrapped + "EOF", []string{tail(rsa[:len(rsa)/76*76]), tail(rsa)}, []string{"base64 -d > k.pem <<EOF\n", "\nEOF"}},
		// Kept: a certificate, a public key, and text that only starts alike.
		{"echo " + cert + " | base64 -d", nil, []string{cert}},
		{"echo " + pem("PUBLIC KEY", body) + " | base64 -d", nil, []string{pem("PUBLIC KEY", body)}},
		{"echo LS0tLS1CRUdJTi", nil, []string{"LS0tLS1CRUdJTi"}},
	})
}

// TestRedactDovecotSchemes: Dovecot's passwd-file gives the password or
// its hash after a {SCHEME} in the second field; the other fields stay.
func TestRedactDovecotSchemes(t *testing.T) {
	checkCases(t, []spelling{
		{"echo 'bob:{PLAIN}S3cr3tZ::::::' >> /etc/dovecot/users", []string{"S3cr3tZ"}, []string{"bob:{PLAIN}", "::::::' >> /etc/dovecot/users"}},
		{"bob:{SHA512-CRYPT}$6$x$S3cr3tZ:1000:1000::/home/bob::", []string{"S3cr3tZ"}, []string{":1000:1000::/home/bob::"}},
		{"amy@example.org:{ARGON2ID}S3cr3tZ", []string{"S3cr3tZ"}, []string{"amy@example.org:{ARGON2ID}"}},
		{`doveadm pw -s SHA512-CRYPT; echo "bob:{CRAM-MD5}S3cr3tZ" >> users`, []string{"S3cr3tZ"}, []string{">> users"}},
		// Kept: braces that are no scheme.
		{`a:{b}c; x:{} ; {"k":{"v":1}}`, nil, []string{`a:{b}c`, `{"k":{"v":1}}`}},
	})
}
