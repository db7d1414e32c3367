package policy

import "strings"

// URL parsers disagree on where a URL's host is. curl, wget, Python, Go
// and the browsers' WHATWG parser each read some of these differently:
// a backslash (WHATWG reads it as '/', so http://169.254.169.254\@x/ goes
// to 169.254.169.254, while a userinfo reading goes to x), more than one
// '@', one or three slashes after the scheme or none (http:/h, http:h),
// tabs and newlines (WHATWG drops them anywhere), a host that is
// percent-encoded (%31%36%39.254.169.254, which curl decodes), a port
// followed by more colons. hostKey takes one reading; altHostDenied takes
// every other: a destination whose host is a denied one under any
// client's reading is denied, since which client reads it is not always
// known and the classifier must not be the one parser that disagrees.

// altHostDenied returns the rule that denies a host some client would
// read out of s where hostKey reads another.
func (p *Policy) altHostDenied(s string) (string, bool) {
	if oneReading(s) {
		return "", false
	}
	if strings.ContainsAny(s, "\t\r\n") {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\r' || r == '\n' {
				return -1
			}
			return r
		}, s)
		if r, ok := p.ruleFor(hostKey(s)); ok {
			return r, true
		}
	}
	auth := urlAuthority(s)
	if r, ok := p.authorityDenied(auth); ok {
		return r, true
	}
	if wide := urlAuthorityToSlash(s); len(wide) > len(auth) {
		// http://example.com#@169.254.169.254/: parsers that do not end
		// the authority at '?' or '#' take the host after the '@'.
		if r, ok := p.authorityDenied(wide); ok {
			return r, true
		}
	}
	if strings.Contains(auth, "%") {
		return p.authorityDenied(percentDecode(auth))
	}
	return "", false
}

// oneReading reports whether every client reads s's host as hostKey
// does: host, host:PORT, user@host or scheme://host[:port]/path, with no
// backslash, percent sign, second '@' or colon, '@' beside a '?' or '#',
// or extra slash.
func oneReading(s string) bool {
	if strings.ContainsAny(s, "\\%\t\r\n") || strings.Count(s, "@") > 1 || strings.Count(s, ":") > 1 || strings.HasPrefix(strings.TrimSpace(s), "//") ||
		strings.Contains(s, "@") && strings.ContainsAny(s, "?#") {
		return false
	}
	i := strings.Index(s, "://")
	if i < 0 {
		_, port, ok := strings.Cut(s, ":")
		return !ok || strings.Trim(port, "0123456789") == ""
	}
	return !strings.HasPrefix(s[i+3:], "/")
}

// urlAuthority returns the part of s a client reads the host from: after
// a scheme's colon and any slashes or backslashes (http://, http:/,
// http:\\, and http: before a host), after leading slashes (//host/), or
// all of s when it has no scheme; up to the path, query or fragment.
func urlAuthority(s string) string {
	s = strings.TrimSpace(s)
	if i := schemeEnd(s); i > 0 {
		s = s[i:]
	}
	s = strings.TrimLeft(s, `/\`)
	if j := strings.IndexAny(s, "/?#"); j >= 0 {
		s = s[:j]
	}
	return s
}

// urlAuthorityToSlash is urlAuthority ended at the path alone.
func urlAuthorityToSlash(s string) string {
	s = strings.TrimSpace(s)
	if i := schemeEnd(s); i > 0 {
		s = s[i:]
	}
	s = strings.TrimLeft(s, `/\`)
	if j := strings.IndexByte(s, '/'); j >= 0 {
		s = s[:j]
	}
	return s
}

// schemeEnd returns the length of s's leading "scheme:" (letters, then
// letters, digits, '+', '-', '.'), or 0. A scheme of hex digits before a
// second colon is an IPv6 address's first group, not a scheme.
func schemeEnd(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == ':' && i > 0:
			if i+1 < len(s) && s[i+1] == ':' {
				return 0
			}
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// authorityDenied returns the rule denying any host an authority can be
// read to name: each piece between '@', '\', and the '?', '#', '&' and
// spaces some parsers do not end an authority at, less a port or a
// password, so a user name, a password or a host that one client takes
// for the host all count.
func (p *Policy) authorityDenied(auth string) (string, bool) {
	for rest := auth; ; {
		i := strings.IndexAny(rest, `@\?#& `)
		piece := rest
		if i >= 0 {
			piece = rest[:i]
		}
		if piece != "" {
			h := authorityHost(piece)
			if r, ok := p.ruleFor(hostKey(h)); ok {
				return r, true
			}
			if strings.Contains(h, "%") {
				// hostKey drops a zone (h%eth0); ssh's tokens
				// (%h.169.254.169.254.nip.io) lead a name instead.
				if r, ok := p.ruleFor(CanonicalHost(h)); ok {
					return r, true
				}
			}
		}
		if i < 0 {
			return "", false
		}
		rest = rest[i+1:]
	}
}

// authorityHost is one piece of an authority less what follows the host:
// a bracketed address is kept whole, a bare IPv6 address too, and
// otherwise everything from the first colon goes (a port, ports, or a
// user's password).
func authorityHost(piece string) string {
	if strings.HasPrefix(piece, "[") || strings.Count(piece, ":") < 2 {
		return piece
	}
	if _, ok := parseAddr(strings.ToLower(piece)); ok {
		return piece
	}
	h, _, _ := strings.Cut(piece, ":")
	return h
}

// percentDecode decodes %XX escapes as a client decoding a host would,
// leaving a '%' that starts no escape as it is.
func percentDecode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
