package audit

import "strings"

// Quotes one shell down. A string that a shell runs as its script (sh -c
// '…', ssh host "…") has its own quoted strings, which bash's top-level
// quoting does not see: in ssh h "printf 'x; y⏎bob:…' | chpasswd" the ';'
// and the line end sit in printf's text, fed to chpasswd, not between the
// inner shell's commands. innerQuotes follows that quoting forward inside
// the top-level string the tracker is in: ' and \" inside "…", " inside
// '…'.
type innerQuotes struct {
	outer int  // open+1 of the top-level string followed, 0 for none
	first int  // where the first of the strings '\'' glues to it opens
	pos   int  // how far it has been followed
	q     byte // the open inner quote: 0, '\'' or '"'
	open  int  // where the open inner quote starts
	// closeOf is open+1 of the inner string whose close was last
	// looked for (0 for none), closed what was found.
	closeOf int
	closed  bool
}

// innerAt returns the inner quote open just before s[p] in the top-level
// string the tracker is in at p (quoteAt(p) answered), and where it
// opened. The strings are followed forward once, so the pass stays linear.
func (t *quoteTracker) innerAt(s string, p int) (byte, int) {
	in := &t.inner
	if t.q != '\'' && t.q != '"' {
		return 0, 0
	}
	if in.outer != t.open+1 || in.pos > p {
		// sh -c 'printf '\''x; y'\'' | …': the idiom closes the
		// top-level string and opens the next as one word, and gives
		// the script a quote of its own; the script's quoting goes on
		// across it. A chain not followed so far is read from its
		// first string, once.
		if in.outer == 0 || in.first != t.first || in.pos > t.open {
			*in = innerQuotes{first: t.first, pos: t.first + 1}
		}
		for in.pos <= t.open-3 {
			if strings.HasPrefix(s[in.pos:], `'\''`) {
				toggle(&in.q, &in.open, '\'', in.pos)
				in.pos += 4
				continue
			}
			in.pos += innerStep(s, in.pos, t.q, &in.q, &in.open)
		}
		in.outer, in.pos, in.closeOf = t.open+1, max(in.pos, t.open+1), 0
	}
	for in.pos < p {
		in.pos += innerStep(s, in.pos, t.q, &in.q, &in.open)
	}
	return in.q, in.open
}

// innerStep reads the byte at k of a string quoted with outer, updating
// the inner quote q opened at open, and returns how many bytes it read.
func innerStep(s string, k int, outer byte, q *byte, open *int) int {
	c := s[k]
	switch {
	case outer == '"' && c == '\\' && k+1 < len(s):
		if s[k+1] == '"' && *q != '\'' {
			toggle(q, open, '"', k)
		}
		return 2
	case outer == '"' && c == '\'' && *q != '"':
		toggle(q, open, '\'', k)
	case outer == '\'' && c == '\\' && *q == '"' && k+1 < len(s):
		return 2
	case outer == '\'' && c == '"':
		toggle(q, open, '"', k)
	}
	return 1
}

// toggle opens the inner quote c at k, or closes it when it is open.
func toggle(q *byte, open *int, c byte, k int) {
	if *q == 0 {
		*q, *open = c, k
	} else if *q == c {
		*q = 0
	}
}

// innerCloses reports whether the inner string innerAt last found open
// closes before the top-level string does. The answer is kept for the
// inner string's opening, so each is read to its end once.
func (t *quoteTracker) innerCloses(s string) bool {
	in := &t.inner
	if in.closeOf == in.open+1 {
		return in.closed
	}
	in.closeOf, in.closed = in.open+1, false
	q, open := in.q, in.open
	k := in.open + 1
	switch {
	case s[in.open] == '\\':
		k++ // \"
	case s[in.open] == '\'' && t.q == '\'':
		k += 3 // '\''
	}
	for k < len(s) {
		if t.q == '\'' && q == '\'' && strings.HasPrefix(s[k:], `'\''`) {
			in.closed = true // the idiom closes the script's string
			return true
		}
		if s[k] == t.q {
			return false // the top-level string closes first
		}
		k += innerStep(s, k, t.q, &q, &open)
		if q == 0 {
			in.closed = true
			return true
		}
	}
	return false
}

// inScript reports whether the top-level string the byte at i sits in
// (quoteAt(i) answered) is, or is glued by '\” to, a string a shell runs
// as its script.
func (r *redactor) inScript(i int) bool {
	r.quotes.innerAt(r.s, i)
	return r.stdin.scriptAt >= r.quotes.inner.first
}

// innerData reports whether the byte at i, in a string a shell runs as
// its script, sits in an inner string of that script that closes in it,
// opened after the script's first word: printf's text there, as a
// top-level string is for quotedData.
func (r *redactor) innerData(i int) bool {
	q, open := r.quotes.innerAt(r.s, i)
	return q != 0 && open > r.stdin.scriptAt && r.quotes.innerCloses(r.s)
}

// innerEscaped reports whether the byte at i, in a script inside the
// top-level string quoted with q, is escaped for the script's shell: an
// odd number of backslashes reach it, where inside "…" each pair (\\)
// gives it one. In the script's own '…' a backslash escapes nothing.
func (r *redactor) innerEscaped(i int, q byte) bool {
	if iq, _ := r.quotes.innerAt(r.s, i); iq == '\'' {
		return false
	}
	n := 0
	for k := i - 1; k >= 0 && r.s[k] == '\\'; k-- {
		n++
	}
	if q == '"' {
		n /= 2
	}
	return n%2 == 1
}
