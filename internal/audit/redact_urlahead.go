package audit

import "strings"

// A URL's password that holds a byte ending the authority ('/', '?', '#',
// or a blank inside a quoted string): https://bob:S3/cr3t@host,
// postgresql://bob:a#b@db/x, 'https://bob:pass word@host', and in JSON
// "https:\/\/bob:a\/b@host". Clients split
// such a userinfo differently (SQLAlchemy and libpq read to the '@',
// curl to the '/'), so the scan that stopped at the byte, after user:
// and before any '@', goes on to an '@' in the same word, and what lies
// between the colon and it is the password either way.

// userinfoAhead is url's look past the byte at e that stopped the
// authority scan of the URL starting at k, whose first ':' is at colon
// and which has no '@' yet. It returns where scanning resumes: k when no
// '@' follows in the word.
func (r *redactor) userinfoAhead(k, colon, e int) int {
	s := r.s
	if e < r.urlAheadEnd {
		return k // a look from before e found no '@' as far as it went
	}
	p := s[colon+1 : e]
	if p == "" && (s[e] == ' ' || s[e] == '\t') || p != "" && (isDigits(p) || p[0] == '$') || strings.IndexByte(s[k:colon], '[') >= 0 {
		// https://host:8080/u/bob@x.com: a port, a variable's port or
		// an IPv6 host, and the '@' is the path's.
		return k
	}
	if c := s[e]; c == ' ' || c == '\t' {
		if q, ok := r.quoteAt(e); !ok || q != '\'' && q != '"' {
			return k // a blank at bash's top level ends the word
		}
	}
	q, _ := r.quoteAt(e)
	x := e
	for ; x < len(s); x++ {
		c := s[x]
		if c == '@' {
			break
		}
		if c == '\n' || c == '\r' || c == '`' || strings.HasPrefix(s[x:], "://") || strings.HasPrefix(s[x:], `:\/\/`) {
			break // another URL's scheme or the line's end: no userinfo
		}
		if q == 0 && (c <= ' ' || strings.IndexByte(`'"<>|;&()`, c) >= 0) || q != 0 && c == q {
			break // the word ends, or the string the URL sits in
		}
	}
	if x >= len(s) || s[x] != '@' || x+1 >= len(s) || s[x+1] <= ' ' {
		r.urlAheadEnd = x
		return k
	}
	return r.replace(colon+1, x, Redacted)
}
