package audit

import "strings"

// URLs written without their scheme (//user:pass@host/path, as HTML,
// protocol-relative links and some clients' configs spell them) carry
// their userinfo like any other: url reads them from the "//" on.

// schemeRelative reports whether the "//" at i starts a URL of its own
// rather than following a scheme's ':' (read at "://") or continuing a
// path (a//b): it starts a word, a quoted string or a value after '='.
func schemeRelative(s string, i int) bool {
	if i == 0 {
		return true
	}
	switch s[i-1] {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', '(', '[', '=', ',', ';', '|', '&', '<', '>':
		return true
	}
	return false
}

// urlPathParam reports whether the ';' before i starts a path parameter
// of a URL (https://h/x;jsessionid=…, as Java and PHP servers put the
// session in the path): the word it sits in holds "://" before it.
func urlPathParam(s string, i int) bool {
	b := i - 1
	for b > 0 && i-b < 512 && s[b-1] > ' ' && s[b-1] != '\'' && s[b-1] != '"' {
		b--
	}
	return strings.Contains(s[b:i-1], "://")
}

// queryCredential reports whether a URL query parameter named w carries a
// credential though its name is no credential word: an OAuth
// authorization code, a session id, a signed URL's HMAC, a CAS ticket.
func queryCredential(w string) bool {
	switch strings.ToLower(w) {
	case "code", "session", "sessionid", "session_id", "sid", "jsessionid", "phpsessid",
		"hmac", "ticket", "session_key", "sessionkey", "session_token", "sessiontoken":
		return true
	}
	return false
}

// dsnPassword reports whether the word s[i:j] is the password of a login
// written as no URL is: Go's MySQL DSN user:password@tcp(host)/db or
// @unix(…), and JDBC's Oracle jdbc:oracle:thin:user/password@host.
func dsnPassword(s string, i, j int) bool {
	if j >= len(s) || s[j] != '@' || i == 0 {
		return false
	}
	switch s[i-1] {
	case ':':
		return strings.HasPrefix(s[j:], "@tcp(") || strings.HasPrefix(s[j:], "@unix(")
	case '/':
		lo := max(0, i-1-64) // a bounded look back keeps the pass linear
		b := lo + strings.LastIndexAny(s[lo:i-1], " \t\n'\"")
		return strings.HasPrefix(strings.ToLower(s[b+1:i]), "jdbc:oracle:")
	}
	return false
}
