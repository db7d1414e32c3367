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
