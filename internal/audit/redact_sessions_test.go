package audit

import "testing"

// TestRedactSessionHeadersAndSignedQueries: a session id sent as an X-
// header is the login itself, in curl, httpie, JSON and code; a signed
// URL's hmac and a CAS ticket in a query too. Request ids and timeouts
// are kept.
func TestRedactSessionHeadersAndSignedQueries(t *testing.T) {
	checkCases(t, []spelling{
		{"curl -H 'X-Session-Id: S3cr3tZ' https://h", []string{"S3cr3tZ"}, []string{"X-Session-Id: ", "https://h"}},
		{`curl -H "x-session-id:S3cr3tZ" h`, []string{"S3cr3tZ"}, []string{"x-session-id:"}},
		{"curl --header 'X-SESSION-ID:   S3cr3tZ' h", []string{"S3cr3tZ"}, []string{"X-SESSION-ID:"}},
		{"curl -H 'X-Session: S3cr3tZ' h", []string{"S3cr3tZ"}, []string{"X-Session: "}},
		{"curl -H 'X-Dropbox-Session: S3cr3tZ' h", []string{"S3cr3tZ"}, []string{"X-Dropbox-Session: "}},
		{"curl -H 'X-Sid: S3cr3tZ' h", []string{"S3cr3tZ"}, []string{"X-Sid: "}},
		{"curl -H 'X-Plex-Session-Key: S3cr3tZ' h", []string{"S3cr3tZ"}, []string{"X-Plex-Session-Key: "}},
		{"curl -H 'X-App-SessionId: S3cr3tZ' h", []string{"S3cr3tZ"}, []string{"X-App-SessionId: "}},
		{"http h X-Session-Id:S3cr3tZ", []string{"S3cr3tZ"}, []string{"X-Session-Id:"}},
		{`{"headers": {"X-Session-Id": "S3cr3tZ"}}`, []string{"S3cr3tZ"}, []string{`"X-Session-Id": "`}},
		{"requests.get(u, headers={'X-Session-Id': 'S3cr3tZ'})", []string{"S3cr3tZ"}, []string{"'X-Session-Id': '"}},
		{"fetch(u, {headers: {'x-session-token': 'S3cr3tZ'}})", []string{"S3cr3tZ"}, []string{"'x-session-token': '"}},
		{`curl "https://h/x?hmac=S3cr3tZ&a=1"`, []string{"S3cr3tZ"}, []string{"&a=1"}},
		{`curl "https://h/x?a=1&HMAC=S3cr3tZ"`, []string{"S3cr3tZ"}, []string{"?a=1&HMAC="}},
		{`curl "https://h/cas/validate?service=x&ticket=ST-S3cr3tZ"`, []string{"S3cr3tZ"}, []string{"service=x&ticket="}},
		{`wget 'https://h/x?session_key=S3cr3tZ&v=2'`, []string{"S3cr3tZ"}, []string{"&v=2"}},
		{`curl "https://h/x?sessionToken=S3cr3tZ"`, []string{"S3cr3tZ"}, []string{"?sessionToken="}},
		// Kept: ids and settings that are no session.
		{"curl -H 'X-Request-Id: keep1234' -H 'X-Session-Timeout: 30' h", nil, []string{"keep1234", "X-Session-Timeout: 30"}},
		{`curl "https://h/x?ticket_count=3&hmac_alg=sha256"`, nil, []string{"ticket_count=3&hmac_alg=sha256"}},
	})
}
