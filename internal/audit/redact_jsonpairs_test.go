package audit

import (
	"strings"
	"testing"
)

// TestRedactArgsNamedValues: in a tool's JSON arguments a secret may be
// named by a sibling member ({"name": "DB_PASSWORD", "value": …}, as
// Kubernetes env lists, header lists and settings write it) or by an X-
// header key; the value goes, the names and other members stay.
func TestRedactArgsNamedValues(t *testing.T) {
	for _, c := range []struct {
		args string
		keep []string
	}{
		{`{"env":[{"name":"DB_PASSWORD","value":"S3cr3tZ"},{"name":"LOG","value":"debug"}]}`, []string{`"name":"DB_PASSWORD"`, `"value":"debug"`}},
		{`{"headers":[{"name":"Authorization","value":"Bearer S3cr3tZ"}]}`, []string{`"name":"Authorization"`}},
		{`{"headers":[{"Name":"X-Api-Key","Value":"S3cr3tZ"}]}`, []string{`"Name":"X-Api-Key"`}},
		{`{"settings":[{"key":"smtp.password","value":"S3cr3tZ"}]}`, []string{`"settings"`}},
		{`{"parameters":[{"Key":"ApiToken","Value":"S3cr3tZ","Type":"String"}]}`, []string{`"Type":"String"`}},
		{`{"headers":{"X-Session-Id":"S3cr3tZ","Accept":"text/plain"}}`, []string{`"Accept":"text/plain"`}},
		{`{"content":"x","meta":{"x-sid":"S3cr3tZ"}}`, []string{`"content":"x"`}},
	} {
		t.Run(c.args, func(t *testing.T) {
			got := string(RedactArgs([]byte(c.args), 0))
			if strings.Contains(got, "S3cr3tZ") {
				t.Errorf("RedactArgs(%s) = %s: the secret is kept", c.args, got)
			}
			for _, k := range c.keep {
				if !strings.Contains(got, k) {
					t.Errorf("RedactArgs(%s) = %s: lost %s", c.args, got, k)
				}
			}
		})
	}
	// Kept: a value named by no secret.
	in := `{"env":[{"name":"LOG_LEVEL","value":"debug"}],"labels":[{"name":"team","value":"core"}]}`
	if got := string(RedactArgs([]byte(in), 0)); got != in {
		t.Errorf("RedactArgs(%s) = %s: changed", in, got)
	}
}

// TestRedactEscapedSlashURLs: JSON encoders that escape '/' write a
// URL's login as https:\/\/user:pw@host; the password goes as in a
// plain URL.
func TestRedactEscapedSlashURLs(t *testing.T) {
	checkCases(t, []spelling{
		{`{"url": "https:\/\/bob:S3cr3tZ@h\/x"}`, []string{"S3cr3tZ"}, []string{`https:\/\/bob:`, `@h\/x"}`}},
		{`curl -d '{"repo":"https:\/\/x-access-token:S3cr3tZ@github.com\/o\/r.git"}' h`, []string{"S3cr3tZ"}, []string{`@github.com\/o\/r.git`}},
		// Kept: an escaped URL without a login.
		{`{"url": "https:\/\/h\/x?a=1"}`, nil, []string{`https:\/\/h\/x?a=1`}},
	})
}

// TestRedactIMAPAuthenticatePlain: IMAP's AUTHENTICATE PLAIN carries the
// login, base64 of \0user\0password, as its initial response.
func TestRedactIMAPAuthenticatePlain(t *testing.T) {
	const b64 = "AGJvYgBTM2NyM3Ra"
	checkCases(t, []spelling{
		{"a1 AUTHENTICATE PLAIN " + b64, []string{b64}, []string{"a1 AUTHENTICATE PLAIN "}},
		{"printf 'a1 authenticate plain " + b64 + "\\r\\na2 LOGOUT\\r\\n' | openssl s_client -connect h:993 -quiet", []string{b64}, []string{"LOGOUT"}},
		{"openssl s_client -connect h:993 -crlf <<< 'A01 Authenticate PLAIN " + b64 + "'", []string{b64}, []string{"A01 Authenticate PLAIN "}},
		// Kept: another mechanism's first line names no secret.
		{"a1 AUTHENTICATE XOAUTH2\na2 CAPABILITY", nil, []string{"a1 AUTHENTICATE XOAUTH2"}},
	})
}
