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

// TestRedactOpenVPNInlineKeys: an OpenVPN config's inline static keys
// (<secret>, <tls-auth>, <tls-crypt>, as hex lines with or without the
// PEM header) and proxy login are redacted; its CA and other blocks stay.
func TestRedactOpenVPNInlineKeys(t *testing.T) {
	const hex = "6acef03f62675b4b1bbd03e53b187727"
	checkCases(t, []spelling{
		{"cat > c.ovpn <<EOF\n<secret>\n" + hex + "\n</secret>\nEOF", []string{hex}, []string{"<secret>\n", "\n</secret>"}},
		{"cat > c.ovpn <<EOF\n<tls-crypt>\n" + hex + "\n" + hex + "\n</tls-crypt>\nkey-direction 1\nEOF", []string{hex}, []string{"key-direction 1"}},
		{"<tls-auth>\r\n" + hex + "\r\n</tls-auth>", []string{hex}, []string{"<tls-auth>"}},
		{"<tls-crypt-v2>\n-----BEGIN OpenVPN tls-crypt-v2 client key-----\n" + hex + "\n-----END OpenVPN tls-crypt-v2 client key-----\n</tls-crypt-v2>", []string{hex}, []string{"</tls-crypt-v2>"}},
		{"<http-proxy-user-pass>\nbob\nS3cr3tZ\n</http-proxy-user-pass>", []string{"S3cr3tZ"}, []string{"</http-proxy-user-pass>"}},
		// Kept: the CA, and an XML secret element read by its own rule.
		{"<ca>\nMIIBkeepCA\n</ca>\n<cert>\nMIIBkeepCert\n</cert>", nil, []string{"MIIBkeepCA", "MIIBkeepCert"}},
		{"<config><secret>S3cr3tZ</secret><name>keep</name></config>", []string{"S3cr3tZ"}, []string{"<name>keep</name>"}},
	})
}
