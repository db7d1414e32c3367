package audit

import "testing"

// TestRedactSchemeRelativeURLs: a URL without its scheme (//user:pass@host)
// loses its password like one with it, quoted, after '=' or in markup; the
// user, host and path stay, and a path that only looks like one is kept.
func TestRedactSchemeRelativeURLs(t *testing.T) {
	checkCases(t, []spelling{
		{"curl //bob:S3cr3tZ@host/path", []string{"S3cr3tZ"}, []string{"//bob:", "@host/path"}},
		{"git clone //bob:S3cr3tZ@github.com/o/r", []string{"S3cr3tZ"}, []string{"@github.com/o/r"}},
		{`echo "//bob:S3cr3tZ@host"`, []string{"S3cr3tZ"}, []string{`"//bob:`}},
		{"url='//admin:S3cr3tZ@db:5432/app'", []string{"S3cr3tZ"}, []string{"@db:5432/app'"}},
		{`<a href="//bob:S3cr3tZ@example.com/x">`, []string{"S3cr3tZ"}, []string{`href="//bob:`}},
		{"proxy=//u:S3cr3tZ@proxy:3128 wget x", []string{"S3cr3tZ"}, []string{"@proxy:3128 wget x"}},
		{"sh -c 'curl //bob:S3cr3tZ@h/x'", []string{"S3cr3tZ"}, []string{"@h/x'"}},
		{"curl //bob:p%40S3cr3tZ@host", []string{"S3cr3tZ"}, []string{"//bob:"}},
		// Kept: shares, paths and scheme-less hosts without a password.
		{"smbclient //nas/share -U bob", nil, []string{"smbclient //nas/share -U bob"}},
		{"ls //server/share/a:b@c", nil, []string{"ls //server/share/a:b@c"}},
		{"curl //example.com/x.js", nil, []string{"curl //example.com/x.js"}},
		{"echo a//b:c@d", nil, []string{"echo a//b:c@d"}},
		{"// note: see bob@example.com", nil, []string{"// note: see bob@example.com"}},
		{"git clone //git@github.com/o/r", nil, []string{"//git@github.com/o/r"}},
		{"//0@0", nil, []string{"//0@0"}},
		{"x //bob@h", nil, []string{"x //bob@h"}},
	})
}

// TestRedactEncodedColonUserinfo: a URL whose user name holds a
// percent-encoded ':' (bob%3Apw@host) carries a password, which curl and
// browsers send once they decode it; the user name stays.
func TestRedactEncodedColonUserinfo(t *testing.T) {
	checkCases(t, []spelling{
		{"curl https://bob%3AS3cr3tZ@h/", []string{"S3cr3tZ"}, []string{"https://bob%3A", "@h/"}},
		{"git clone https://bob%3aS3cr3tZ@github.com/o/r", []string{"S3cr3tZ"}, []string{"@github.com/o/r"}},
		{"echo 'ftp://bob%3AS3cr3tZ@h'", []string{"S3cr3tZ"}, []string{"ftp://bob%3A"}},
		{"curl //bob%3AS3cr3tZ@h", []string{"S3cr3tZ"}, []string{"//bob%3A"}},
		{"curl https://bob%40corp@h/", nil, []string{"https://bob%40corp@h/"}},
	})
}

// TestRedactURLPathSessions: a session id carried as a URL's path
// parameter (;jsessionid=…, as Java and PHP servers write it) is the
// login itself; a ';' outside a URL is a command separator.
func TestRedactURLPathSessions(t *testing.T) {
	checkCases(t, []spelling{
		{"curl 'https://h/x;jsessionid=S3cr3tZ?a=1'", []string{"S3cr3tZ"}, []string{"https://h/x;jsessionid=", "?a=1'"}},
		{"curl 'https://h/x;JSESSIONID=S3cr3tZ'", []string{"S3cr3tZ"}, []string{";JSESSIONID="}},
		{"wget \"http://h/app/page.jsp;jsessionid=S3cr3tZ\"", []string{"S3cr3tZ"}, []string{"page.jsp;jsessionid="}},
		{"curl 'https://h/x;phpsessid=S3cr3tZ'", []string{"S3cr3tZ"}, []string{";phpsessid="}},
		{"cd /tmp;sid=5 ./run", nil, []string{"cd /tmp;sid=5 ./run"}},
	})
}

// TestRedactHeaderSetterCalls: a call that sets an Authorization header
// by name (req.Header.Set, setRequestHeader, headers.append) loses the
// credentials and keeps the scheme.
func TestRedactHeaderSetterCalls(t *testing.T) {
	checkCases(t, []spelling{
		{`req.Header.Set("Authorization", "Basic S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`"Authorization", "Basic `}},
		{`xhr.setRequestHeader('Authorization', 'S3cr3tZ')`, []string{"S3cr3tZ"}, []string{`'Authorization', '`}},
		{`headers.append("Authorization", "Token S3cr3tZ");`, []string{"S3cr3tZ"}, []string{`"Token `}},
		{`r.headers.__setitem__("Proxy-Authorization", "Basic S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`"Basic `}},
		{`req.Header.Set("Cookie", "sid=S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`"Cookie", "`}},
		{`req.Header.Set("Accept", "application/json")`, nil, []string{`"application/json"`}},
	})
}
