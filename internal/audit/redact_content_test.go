package audit

import (
	"strings"
	"testing"
)

// TestRedactArgsCredentialFileContent: write_file's content for a
// credential file is a secret as a whole, as an echo redirected there is,
// whatever its format (pgpass, chap-secrets, shadow, htpasswd, an
// openvpn auth file); the path and the other arguments stay, and so does
// the content of any other file.
func TestRedactArgsCredentialFileContent(t *testing.T) {
	for _, in := range []string{
		`{"path":"/root/.pgpass","content":"db:5432:*:bob:S3cr3tZ\n"}`,
		`{"host":"db1","path":"/home/bob/.pgpass","content":"db:5432:*:bob:S3cr3tZ\n","mode":"0600"}`,
		`{"path":"/etc/ppp/chap-secrets","content":"bob * S3cr3tZ *\n","overwrite":true}`,
		`{"path":"/etc/shadow","content":"bob:S3cr3tZ:19000:0:99999:7:::\n"}`,
		`{"path":"/etc/rsyncd.secrets","content":"bob:S3cr3tZ\n"}`,
		`{"path":"/etc/nginx/htpasswd","content":"bob:S3cr3tZ\n"}`,
		`{"path":"/etc/ipsec.secrets","content":": PSK \"S3cr3tZ\"\n"}`,
		`{"path":"/etc/openvpn/auth.txt","content":"bob\nS3cr3tZ\n"}`,
		`{"path":"/root/.netrc","content":"machine h\nlogin bob\npassword S3cr3tZ\n"}`,
		`{"Path":"/root/.pgpass","Content":"db:5432:*:bob:S3cr3tZ"}`,
		`{"content":"db:5432:*:bob:S3cr3tZ","path":"/root/.pgpass"}`,
		`{"path":"/root/.pgpass","content":"ZGI6NTQzMjoqOmJvYjpTM2NyM3Ra","encoding":"base64"}`,
	} {
		got := string(RedactArgs([]byte(in), DefaultMaxValue))
		if strings.Contains(got, "S3cr3tZ") || strings.Contains(got, "ZGI6NTQzMjoqOmJvYjpTM2NyM3Ra") {
			t.Errorf("RedactArgs(%s) = %s: content kept", in, got)
		}
		if !strings.Contains(strings.ToLower(got), `"path":"/`) || !strings.Contains(got, Redacted) {
			t.Errorf("RedactArgs(%s) = %s: path lost", in, got)
		}
	}
	for _, in := range []string{
		// A pgpass line loses its password anywhere (redact_shapes.go);
		// the rest of a plain file's content stays.
		`{"path":"/srv/app/notes.txt","content":"db:5432:*:bob:pw\nreadable\n"}`,
		`{"path":"/etc/hosts","content":"10.0.0.1 db readable\n"}`,
		`{"path":"/etc/passwd","content":"bob:x:1000:1000::/home/bob:/bin/sh readable\n"}`,
		`{"command":"cat /root/.pgpass","content":"readable"}`,
	} {
		if got := string(RedactArgs([]byte(in), DefaultMaxValue)); !strings.Contains(got, "readable") {
			t.Errorf("RedactArgs(%s) = %s: content of a plain file lost", in, got)
		}
	}
}
