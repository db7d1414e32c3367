package audit

import (
	"strings"
)

// containsFold reports whether s contains the lower-case word, in any case.
func containsFold(s, word string) bool {
	for k := 0; k+len(word) <= len(s); k++ {
		if s[k]|0x20 == word[0] && strings.EqualFold(s[k:k+len(word)], word) {
			return true
		}
	}
	return false
}

// nameSeparator reports whether the name ending at j is followed, after
// an optional closing quote and blanks, by '=', '+=' or ':', as keyValue
// needs, so most words skip secretName.
func nameSeparator(s string, j int) bool {
	if s[j] == ' ' || s[j] == '\t' {
		if j = skipBlanks(s, j); j >= len(s) {
			return false
		}
	}
	switch s[j] {
	case '=', ':':
		return true
	case '+':
		return strings.HasPrefix(s[j:], "+=")
	case '|', '?':
		// Ruby's and JavaScript's NAME ||= value, NAME ??= value;
		// make's NAME ?= value.
		return strings.HasPrefix(s[j:], "||=") || strings.HasPrefix(s[j:], "??=") || strings.HasPrefix(s[j:], "?=")
	case '"', '\'':
		j++
	case '\\':
		if !strings.HasPrefix(s[j:], `\"`) {
			return false
		}
		j += 2
	default:
		return false
	}
	j = skipBlanks(s, j)
	return j < len(s) && (s[j] == '=' || s[j] == ':' || strings.HasPrefix(s[j:], "+="))
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// skipBlanks skips blanks and line continuations (a backslash before a
// line end), which bash removes before it splits words: curl \<newline>
// -u bob:pass is one command.
func skipBlanks(s string, k int) int {
	for k < len(s) {
		switch {
		case s[k] == ' ' || s[k] == '\t':
			k++
		case s[k] == '\\' && k+1 < len(s) && s[k+1] == '\n':
			k += 2
		default:
			return k
		}
	}
	return k
}

// continued reports whether the line end at i is escaped by a backslash,
// joining the next line to the command (an odd run of backslashes before
// it; each run belongs to one line end, so the scans stay linear).
func continued(s string, i int) bool {
	n := 0
	for k := i - 1; k >= 0 && s[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

// pem redacts the body of a PEM private key block starting at i, keeping
// its BEGIN and END lines; with no END line it redacts to the end of s.
func (r *redactor) pem(i int) int {
	s := r.s
	const begin = "-----BEGIN"
	label := s[i+len(begin) : min(len(s), i+len(begin)+64)]
	e := strings.Index(label, "-----")
	// OpenVPN's static keys (tls-auth, tls-crypt) and tls-crypt-v2 keys
	// are as secret as a private key.
	if e < 0 || !strings.Contains(label[:e], "PRIVATE KEY") && !strings.Contains(label[:e], "Static key") && !strings.Contains(label[:e], "tls-crypt-v2") {
		return 0
	}
	body := i + len(begin) + e + 5
	k := strings.Index(s[body:], "-----END")
	if k < 0 {
		return r.replace(body, len(s), "\n"+Redacted)
	}
	k += body
	r.replace(body, k, "\n"+Redacted+"\n")
	end := k + len("-----END")
	if tail := strings.Index(s[end:min(len(s), end+64)], "-----"); tail >= 0 {
		end += tail + 5
	}
	return end
}

// quotedData reports whether the line end at i sits in a quoted string
// that a command feeds the pipeline (printf 'pw⏎pw⏎' | …, cat <<< 'a⏎b'
// | …), not a script a shell runs (sh -c '…⏎…', ssh host "…"), whose
// line ends break its commands. Elsewhere (prose with a lone apostrophe)
// line ends still break. A tracker already past i cannot tell, and the
// line end breaks.
func (r *redactor) quotedData(i int) bool {
	if r.stdin.echoAt < 0 && r.stdin.nfeed == 0 {
		return false
	}
	q, ok := r.quoteAt(i)
	if !ok || q == 0 {
		return false
	}
	// In a shell's script (ssh h "printf 'pw⏎pw⏎' | …"), the script's
	// own strings are the data.
	if (q == '\'' || q == '"') && r.inScript(i) {
		return r.innerData(i)
	}
	return r.stdin.scriptAt < r.quotes.open
}

// quotedSeparator reports whether the ';', '|', '&' or line end at i sits in a
// quoted string that is no shell's script: text a command feeds the
// pipeline (quotedData), or the -c value of a program whose -c takes its
// own commands (smbclient -c "cd x; ls"). The command goes on past it.
// A lone apostrophe (echo it's done; echo bob:… | chpasswd) opens no
// such string: the quote must close and end a shell word there
// (closes).
func (r *redactor) quotedSeparator(i int) bool {
	q, ok := r.quoteAt(i)
	if !ok || q == 0 {
		return false
	}
	if q != '$' && r.inScript(i) && r.innerEscaped(i, q) {
		return true // ssh h "echo a\\;b …": the script's own escape
	}
	if q != '$' && r.inScript(i) {
		// A shell's script: only its own strings hold separators
		// that do not end its commands (ssh h "smbclient -c 'cd x;
		// ls' <<< …").
		return (r.stdin.echoAt >= 0 || r.stdin.nfeed > 0 || plainC(r.stdin.cmd)) && r.innerData(i)
	}
	if !r.quotes.closes(r.s) {
		return false
	}
	return r.quotedData(i) || plainC(r.stdin.cmd)
}

// closes reports whether the string quoted with q that the tracker is in
// closes, and its closing quote ends a shell word. The answer is kept for
// the string's opening, so each string is read to its end once however
// many separators it holds and however long it is: the pass stays linear
// with no bound on how far the close may be (a printf of many kilobytes
// whose first line holds a ';').
func (t *quoteTracker) closes(s string) bool {
	if t.closeOf == t.open+1 {
		return t.closed
	}
	t.closeOf, t.closed = t.open+1, closedString(s, t.open, t.q)
	return t.closed
}

// closedString reports whether the string quoted with q that opens at
// open closes, and its closing quote ends a shell word.
// A $'…' string (q '$') closes at its first unescaped quote. A closing
// quote another quoted part of the word follows ("a"';'"b") ends the
// string too.
func closedString(s string, open int, q byte) bool {
	k, c := open+1, q
	if q == '$' {
		k, c = open+2, '\''
	}
	for ; k < len(s); k++ {
		switch s[k] {
		case '\\':
			if q == '"' || q == '$' {
				k++
			}
		case c:
			return k+1 == len(s) || strings.IndexByte(" \t\r\n|;&)<>'\"", s[k+1]) >= 0
		}
	}
	return false
}
