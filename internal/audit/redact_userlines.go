package audit

import "strings"

// chpasswd, chgpasswd and newusers read name:password lines: the name
// (a user's or a group's) is no secret and tells the record whose
// password was set, so each line keeps it and loses the rest. A line that
// starts with no plain name (an expansion, an option, printf's format)
// goes whole, as does any text after a line's first ':' (a password may
// hold blanks, quotes or escaped line ends: $'…\n…').

// userLineReader reports whether the reader word w reads name:password
// lines.
func userLineReader(w string) bool {
	return w == "chpasswd" || w == "chgpasswd" || w == "newusers"
}

// userLineSpans calls fn with the secret parts of the name:password
// lines in s[from:to]: after each line's name and ':', or the whole line
// when it starts with no name. The line may start with the quote that
// opens the word it sits in (echo 'bob:…'); a closing quote that ends
// the text is kept with it.
func userLineSpans(s string, from, to int, fn func(a, b int)) {
	for k := from; k < to; {
		e := k
		for e < to && s[e] != '\n' {
			e++
		}
		n := k
		if n < e && (s[n] == '\'' || s[n] == '"') {
			n++
		}
		m := n
		for m < e && m-n < 32 && (isAlnum(s[m]) || s[m] == '_' || s[m] == '.' || s[m] == '-') {
			m++
		}
		if m < e && m > n && s[m] == '$' {
			m++ // a machine account: host$
		}
		switch {
		case m > n && m < e && s[m] == ':' && (s[n] == '_' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z'):
			b := e
			if n > k && b > m+1 && s[b-1] == s[k] {
				b-- // the close of the quoted word the line is
			}
			if b > m+1 {
				fn(m+1, b)
			}
		case e > k:
			fn(k, e)
		}
		k = e + 1
	}
}

// replaceInput replaces the fed text s[from:to] of a command that reads
// a secret on its input, keeping the names of name:password lines, and
// returns where scanning resumes.
func (r *redactor) replaceInput(from, to int) int {
	if !r.stdin.userLines {
		return r.replace(from, to, Redacted)
	}
	userLineSpans(r.s, from, to, func(a, b int) {
		if a >= r.done {
			r.replace(a, b, Redacted)
		}
	})
	return max(to, r.done)
}

// userLinesInput reports whether what a tool writes to the command's
// input reaches a reader of name:password lines (chpasswd, sudo
// chpasswd, ssh h chpasswd -c SHA512) as it is: the command reads no
// other secret there, and no pipe, redirection, list, group or expansion
// (rev | chpasswd, chpasswd < <(…)) may reorder the lines' fields on the
// way.
func userLinesInput(command string) bool {
	if command == "" || strings.ContainsAny(command, "|<>;&$()`{}\n\r\\") {
		return false
	}
	r := newRedactor(command)
	r.run()
	return r.stdin.lineReaders && !r.stdin.otherReaders
}

// redactUserLines replaces the secret parts of name:password lines in s,
// the text a tool writes to such a reader's input (userLinesInput),
// adding them to *found when found is not nil.
func redactUserLines(s string, found *[]string) string {
	var b strings.Builder
	done := 0
	userLineSpans(s, 0, len(s), func(a, e int) {
		if a < done {
			return
		}
		if found != nil {
			*found = append(*found, s[a:e])
		}
		b.WriteString(s[done:a])
		b.WriteString(Redacted)
		done = e
	})
	b.WriteString(s[done:])
	return b.String()
}
