package audit

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
