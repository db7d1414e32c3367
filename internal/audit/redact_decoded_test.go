package audit

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestRedactBase64Credentials: a base64 user:password after the word
// Basic anywhere (echo 'Basic …', a header no rule names, a config line),
// and a literal fed to a base64 decoder that decodes to user:password,
// are secrets; base64 of anything else stays.
func TestRedactBase64Credentials(t *testing.T) {
	const pw = "Zq9Secret77"
	for _, cred := range []string{"bob:" + pw, "admin@example.com:" + pw, "svc-account:" + pw + "!x"} {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
			b := enc.EncodeToString([]byte(cred))
			var cases []detourCase
			for _, c := range []detourCase{
				{"basic", "echo 'Basic " + b + "'", []string{"echo 'Basic "}},
				{"basic", "curl -H 'X-Upstream-Auth: Basic " + b + "' https://x", []string{"X-Upstream-Auth: Basic "}},
				{"basic", "echo 'auth_header Basic " + b + ";' >> /etc/nginx/x.conf", []string{">> /etc/nginx/x.conf"}},
				{"basic", "printf 'GET / HTTP/1.1\\r\\nAuthorization: basic " + b + "\\r\\n\\r\\n' | nc h 80", []string{"| nc h 80"}},
				{"decode", "echo " + b + " | base64 -d", []string{"| base64 -d"}},
				{"decode", "echo -n '" + b + "' | base64 --decode; echo", []string{"| base64 --decode"}},
				{"decode", "base64 -d <<< " + b, []string{"base64 -d <<< "}},
				{"decode", "base64 --decode <<< \"" + b + "\" | cut -d: -f2", []string{"| cut -d: -f2"}},
				{"decode", "printf %s " + b + " | openssl base64 -d -A", []string{"openssl base64 -d -A"}},
			} {
				if strings.HasPrefix(c.class, "decode") && enc == base64.RawStdEncoding {
					continue // decoders want the padding
				}
				cases = append(cases, c, detourCase{c.class + "/ssh", `ssh h "` + escapeDouble(c.in) + `"`, []string{"ssh h"}})
			}
			checkSubtests(t, strings.TrimRight(b, "="), cases)
		}
	}
	plain := base64.StdEncoding.EncodeToString([]byte("hello world, no credential here"))
	host := base64.StdEncoding.EncodeToString([]byte("just-a-word"))
	checkSubtests(t, pw, []detourCase{
		// Kept: base64 of other text, and encoding (not decoding).
		{"kept", "echo " + plain + " | base64 -d", []string{plain}},
		{"kept", "echo " + host + " | base64 -d", []string{host}},
		{"kept", "echo 'Basic " + plain + "'", []string{plain}},
		{"kept", "echo 'basic setup done'", []string{"basic setup done"}},
		{"kept", "base64 -d < /tmp/blob > /tmp/out", []string{"base64 -d < /tmp/blob > /tmp/out"}},
	})
}
