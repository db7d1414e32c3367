package audit

import "strings"

// Credentials in the lines of line protocols, typed into a client or fed
// to one: IMAP's tagged LOGIN, Redis's and SMTP's AUTH, FTP's and POP3's
// PASS, smbclient's and rpcclient's logon.

// taggedLine reports whether the word at i is the second of a protocol
// line: one word (an IMAP tag) before it, at the start of a line, of a
// string, or after an escaped line end ($'…\na1 LOGIN …').
func taggedLine(s string, i int) bool {
	k := i - 1
	if k < 0 || s[k] != ' ' {
		return false
	}
	for k >= 0 && s[k] == ' ' {
		k--
	}
	e := k
	for k >= 0 && wordByte[s[k]] {
		k--
	}
	if k == e || e-k > 16 {
		return false
	}
	return k < 0 || strings.IndexByte("\n'\"\\", s[k]) >= 0
}

// escapedProtocolLine reports whether the word s[i:j] is an AUTH or PASS
// line's command after an escaped line end (printf 'USER u\r\nPASS pw'),
// whose arguments are secret.
func escapedProtocolLine(s string, i, j int) bool {
	return j-i == 5 && i > 0 && s[i-1] == '\\' && (s[i] == 'n' || s[i] == 'r') && protocolAuth(s, s[i+1:j], j)
}

// twoWordsLeft reports whether the line from k holds two words, an IMAP
// LOGIN's user and password, and no more (SQL's ALTER LOGIN sa WITH
// PASSWORD … has more); a line ends at a line end, an escaped one, a
// quote that closes or a command break.
func twoWordsLeft(s string, k int) bool {
	return wordsLeft(s, k) == 2
}

// wordsLeft counts the words on the line from k as twoWordsLeft reads
// them, up to 3 (3 is 3 or more).
func wordsLeft(s string, k int) int {
	n := 0
	for {
		k = skipBlanks(s, k)
		closing := k < len(s) && (s[k] == '\'' || s[k] == '"') && (k+1 == len(s) || strings.IndexByte(" \t\n\r;|&)", s[k+1]) >= 0)
		if closing || k >= len(s) || strings.IndexByte("\n\r;|&`", s[k]) >= 0 || strings.HasPrefix(s[k:], `\r`) || strings.HasPrefix(s[k:], `\n`) {
			return n
		}
		if n++; n > 2 {
			return n
		}
		e := shellWordEnd(s, k)
		if x := strings.Index(s[k:e], `\r`); x > 0 {
			return n
		}
		if x := strings.Index(s[k:e], `\n`); x > 0 {
			return n
		}
		k = e
	}
}

// protocolAuth reports whether the word w, ending at j, is the command of
// a protocol line whose arguments are a credential: AUTH [user] password
// (Redis, SMTP) or PASS password (FTP, POP3). Upper case always; typed
// in lower or mixed case (auth pw, Pass pw) only with the words such a
// line has, so PAM's "auth required pam_unix.so" and "auth include
// system-auth" lines stay.
func protocolAuth(s, w string, j int) bool {
	if w == "AUTH" || w == "PASS" {
		return true
	}
	if len(w) != 4 || !strings.EqualFold(w, "pass") && !strings.EqualFold(w, "auth") {
		return false
	}
	n := wordsLeft(s, j)
	if strings.EqualFold(w, "pass") {
		return n == 1
	}
	if n < 1 || n > 2 {
		return false
	}
	k := skipBlanks(s, j)
	e := k
	for e < len(s) && wordByte[s[e]] {
		e++
	}
	switch s[k:e] {
	case "required", "requisite", "sufficient", "optional", "include", "substack",
		// A status in prose or a log search: echo "auth ok", grep 'auth failure'.
		"ok", "OK", "failed", "failure", "fail", "error", "success", "succeeded", "successful",
		"done", "denied", "expired", "timeout", "pending", "complete", "completed":
		return false
	}
	return !strings.HasPrefix(s[k:], "[")
}

// optionNext reports whether the word after j is an option.
func optionNext(s string, j int) bool {
	k := skipBlanks(s, j)
	return k < len(s) && s[k] == '-'
}

// logonSecret queues the second word after j, a logon line's password,
// read in the string the line sits in. The program's own look-ahead may
// have read past it already (smbclient's -c takes a value), so the span
// is put in its place among the queued ones.
func (r *redactor) logonSecret(j int) {
	s := r.s
	q, _ := r.quoteAt(j)
	k := skipBlanks(s, wordEnd(s, skipBlanks(s, j), q, false))
	e := wordEnd(s, k, q, false)
	if k, e = innerSpan(s, k, e); e <= k || k < r.done {
		return
	}
	at := len(r.pending)
	for at > 0 && r.pending[at-1].from >= e {
		at--
	}
	if at > 0 && r.pending[at-1].to > k {
		return // already queued
	}
	r.pending = append(r.pending, span{})
	copy(r.pending[at+1:], r.pending[at:])
	r.pending[at] = span{k, e}
}

// logonLine reports whether the word s[i:j] is smbclient's (or
// rpcclient's) logon command starting a command of its -c string or
// input, followed by the user and password: logon bob pw.
func logonLine(s string, i, j int) bool {
	if j-i != 5 || !strings.EqualFold(s[i:j], "logon") {
		return false
	}
	k := i
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	return (k == 0 || strings.IndexByte("'\";\n", s[k-1]) >= 0) && wordsLeft(s, j) == 2
}
