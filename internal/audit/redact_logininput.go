package audit

import "strings"

// Programs whose input carries a login among other lines: SQL*Plus and
// RMAN read CONNECT user/password[@db] there, psql reads \password's two
// answers after it, and telnet types its input into a remote login, whose
// first prompts ask the name and the password. What is fed to them (a
// here-document, a here-string, an echo or printf before a pipe) is read
// line by line with the program's own rules, so the rest of a script (the
// SQL, the commands typed after the login) stays readable.

// loginInput is how a program's input carries a login.
type loginInput uint8

const (
	noLoginInput loginInput = iota
	oracleInput             // CONNECT [TARGET|CATALOG|AUXILIARY] user/password[@db]
	psqlInput               // \password [user], then the new password twice
	telnetInput             // the login name, then the password
)

// loginInputOf returns how the program cmd reads a login on its input.
func loginInputOf(cmd string) loginInput {
	switch cmd {
	case "sqlplus", "rman", "dgmgrl", "sql", "sqlcl":
		return oracleInput
	case "psql":
		return psqlInput
	case "telnet":
		return telnetInput
	}
	return noLoginInput
}

// loginFeeds reads what the pipeline fed so far (echo and printf
// arguments, here-strings, the first here-document's bodies) with the
// rules of the program kind, whose name is the word at i.
func (r *redactor) loginFeeds(kind loginInput, i int) {
	st := &r.stdin
	for _, f := range st.feed[:st.nfeed] {
		r.loginLines(kind, f.from, f.to, true, i)
	}
	if st.docAt >= 0 {
		r.loginHeredocs(kind, st.docAt, st.docQ)
	}
}

// loginHeredocs reads the bodies of the here-documents whose first
// operator is at i with the rules of the program kind.
func (r *redactor) loginHeredocs(kind loginInput, i int, q byte) {
	eol, delims := heredocDelims(r.s, i)
	if eol < 0 {
		return
	}
	heredocBodies(r.s, eol, delims, q, func(b span) {
		r.loginLines(kind, b.from, b.to, false, -1)
	})
}

// loginLines queues the secrets of the lines of s[from:to] as the program
// kind reads them. escapes: the text is a string whose \n and \r escapes
// end lines too (echo -e, printf, $'…'). Text before behind, already
// scanned, is replaced at once; the rest is queued.
func (r *redactor) loginLines(kind loginInput, from, to int, escapes bool, behind int) {
	s := r.s
	from, to = innerSpan(s, from, to)
	answers, n := 0, 0 // psql: answers still due; lines seen
	first := span{-1, -1}
	for k := from; k < to; {
		e, next := lineEnd(s, k, to, escapes)
		ls, le := trimLine(s, k, e)
		k = next
		if ls >= le {
			continue
		}
		n++
		switch kind {
		case oracleInput:
			r.oracleConnectLine(ls, le, n == 1, behind)
		case psqlInput:
			switch {
			case answers > 0:
				answers--
				r.loginSecret(behind, ls, le)
			case s[ls] == '\\' && hasPrefixFold(strings.TrimLeft(s[ls:le], `\`), "password"):
				// \password in a $'…' string or an echo's argument too.
				answers = 2
			}
		case telnetInput:
			// A session of a protocol (GET / HTTP/1.0, EHLO h, USER
			// bob) has blanks in its lines: the protocol rules read it.
			if strings.ContainsAny(s[ls:le], " \t") {
				return
			}
			switch n {
			case 1:
				first = span{ls, le}
			case 2:
				r.loginSecret(behind, ls, le)
				return
			}
		}
	}
	if kind == telnetInput && n == 1 && first.from >= 0 {
		r.loginSecret(behind, first.from, first.to) // a lone line answers the password prompt
	}
}

// oracleConnectLine queues the password of an Oracle CONNECT line at
// s[ls:le]: CONN[ECT] [TARGET|CATALOG|AUXILIARY] user/password[@db]. The
// first line of the input is the login itself when the program was given
// none (sqlplus -s <<EOF⏎scott/tiger@orcl).
func (r *redactor) oracleConnectLine(ls, le int, first bool, behind int) {
	s := r.s
	k := ls
	w := identEnd(s[:le], k, false)
	if word := s[k:w]; strings.EqualFold(word, "conn") || strings.EqualFold(word, "connect") {
		k = skipBlanks(s[:le], w)
		w = identEnd(s[:le], k, false)
		switch strings.ToLower(s[k:w]) {
		case "target", "catalog", "auxiliary":
			k = skipBlanks(s[:le], w)
		}
	} else if !first {
		return
	}
	e := k
	for e < le && s[e] != ' ' && s[e] != '\t' && s[e] != ';' {
		e++
	}
	if e > k && (s[k] == '"' || s[k] == '\'') {
		if q := strings.IndexByte(s[k+1:le], s[k]); q >= 0 {
			e = k + 1 + q + 1 // CONNECT "sys/pw@db AS SYSDBA"
		}
	}
	k, e = innerSpan(s, k, e)
	if slash := strings.IndexByte(s[k:e], '/'); slash <= 0 || identEnd(s, k, true) != k+slash {
		return // / AS SYSDBA, @script.sql, a path
	}
	if from, to := oracleSecret(s, k, e); to > from {
		r.loginSecret(behind, from, to)
	}
}

// loginSecret replaces s[from:to] now when it ends before behind, the
// text being scanned, and queues it otherwise.
func (r *redactor) loginSecret(behind, from, to int) {
	if to <= behind {
		if from >= r.done {
			r.replace(from, to, Redacted)
		}
		return
	}
	if from >= r.done {
		r.queueSorted(from, to)
	}
}

// lineEnd returns where the line starting at k ends, before to, and where
// the next one starts; with escapes, a \n or \r escape ends it too.
func lineEnd(s string, k, to int, escapes bool) (int, int) {
	for e := k; e < to; e++ {
		switch {
		case s[e] == '\n' || s[e] == '\r':
			return e, e + 1
		case escapes && s[e] == '\\' && e+1 < to && (s[e+1] == 'n' || s[e+1] == 'r'):
			return e, e + 2
		}
	}
	return to, to
}

// trimLine returns the span of s[ls:le] without its blanks at either end.
func trimLine(s string, ls, le int) (int, int) {
	for ls < le && (s[ls] == ' ' || s[ls] == '\t') {
		ls++
	}
	for le > ls && (s[le-1] == ' ' || s[le-1] == '\t') {
		le--
	}
	return ls, le
}
