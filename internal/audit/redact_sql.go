package audit

import "strings"

// Passwords in SQL and other query languages, typed into a client's -e or
// -c, fed on its input or kept in a script: PASSWORD 'x', IDENTIFIED BY
// 'x', SET PASSWORD FOR u = 'x' (MySQL, InfluxQL), SET PASSWORD FROM 'x'
// TO 'y' (Cypher), with the literal in any of the quotes the languages
// take: '…', "…", N'…' and E'…' prefixes, PostgreSQL's $$…$$ and
// $tag$…$tag$ (\$\$…\$\$ inside a shell's double quotes).

// sqlPassword redacts the password that follows the keyword PASSWORD
// ending at j, returning where scanning resumes, or 0.
func (r *redactor) sqlPassword(j int) int {
	if end := r.sqlString(j, false); end > 0 {
		return end
	}
	s := r.s
	k := skipBlanks(s, j)
	if k == j {
		return 0
	}
	if k < len(s) && s[k] == '=' {
		// SET PASSWORD = 'x', SET PASSWORD = PASSWORD('x') (MySQL 5).
		v := skipBlanks(s, k+1)
		if v+8 <= len(s) && strings.EqualFold(s[v:v+8], "password") {
			return r.sqlString(v+8, false)
		}
		return r.sqlLiteral(v)
	}
	e := k
	for e < len(s) && e-k < 4 && (s[e]|0x20 >= 'a' && s[e]|0x20 <= 'z') {
		e++
	}
	switch {
	case e-k == 3 && strings.EqualFold(s[k:e], "for"):
		// SET PASSWORD FOR 'u'@'h' = 'x': the literal after the '='
		// of this statement.
		for eq := e; eq < len(s) && eq-e < 256; eq++ {
			switch s[eq] {
			case ';', '\n':
				return 0
			case '=':
				return r.sqlLiteral(skipBlanks(s, eq+1))
			}
		}
	case e-k == 4 && strings.EqualFold(s[k:e], "from"):
		// SET PASSWORD FROM 'old' TO 'new': both are secrets.
		end := r.sqlLiteral(skipBlanks(s, e))
		if end == 0 {
			return 0
		}
		t := skipBlanks(s, end+1)
		if t+2 < len(s) && strings.EqualFold(s[t:t+2], "to") && (s[t+2] == ' ' || s[t+2] == '\t') {
			if e2 := r.sqlLiteral(skipBlanks(s, t+2)); e2 > 0 {
				return e2
			}
		}
		return end
	}
	return 0
}

// sqlString redacts the string literal after a SQL password keyword
// ending at j (after an optional '(' and blanks); bare allows an unquoted
// word.
func (r *redactor) sqlString(j int, bare bool) int {
	s := r.s
	k := j
	paren := k < len(s) && s[k] == '('
	if paren {
		k++
	}
	if b := skipSQLGap(s, k); b > k || paren {
		k = b
	} else {
		return 0 // "password": or password=, a key
	}
	if end := r.sqlLiteral(k); end > 0 || !bare || k >= len(s) {
		return end
	}
	start, end := valueSpan(s, k)
	if end <= start || boundParam(s[start:end]) {
		return 0 // IDENTIFIED BY ?: the value is bound (redact_sqlexec.go)
	}
	return r.replace(start, end, Redacted)
}

// sqlLiteral redacts the body of the string literal starting at k and
// returns where it ends, or 0 when no literal starts there.
func (r *redactor) sqlLiteral(k int) int {
	s := r.s
	switch {
	case strings.HasPrefix(s[k:], `'"'`) && k > 0 && s[k-1] != '\'':
		// psql -c '… PASSWORD '"'pw'": the shell's quote closes and
		// the literal stands in the double-quoted part joined to it.
		k += 2
	case k+1 < len(s) && s[k+1] == '\'' && strings.IndexByte("NnEe", s[k]) >= 0:
		k++ // N'…', E'…'
	case k+2 < len(s) && s[k+2] == '\'' && s[k+1] == '&' && s[k]|0x20 == 'u':
		k += 2 // U&'…'
	}
	if k >= len(s) {
		return 0
	}
	switch {
	case s[k] == '$' || strings.HasPrefix(s[k:], `\$`):
		return r.dollarQuoted(k)
	case s[k] != '\'' && s[k] != '"' && !strings.HasPrefix(s[k:], `\"`):
		return 0
	}
	start, end := valueSpan(s, k)
	if end <= start {
		return 0
	}
	if s[k] == '\'' && !strings.HasPrefix(s[k:], `'\''`) {
		end = sqlQuoteEnd(s, start, end)
	}
	return r.replace(start, end, Redacted)
}

// sqlQuoteEnd returns where the SQL literal whose body starts at from
// ends, given the first quote after it at end: a quote written twice
// is one quote of the body, and so is a backslash-escaped one (E'pw\'x',
// MySQL's 'pw\'x') when the literal read so closes on the same line;
// else end.
func sqlQuoteEnd(s string, from, end int) int {
	for k := from; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case '\n':
			return end
		case '\'':
			if k+1 < len(s) && s[k+1] == '\'' {
				k++
				continue
			}
			return k
		}
	}
	return end
}

// maxSQLGap bounds the blanks, line ends and comments skipSQLGap skips,
// so a run of keywords in comments is no quadratic read.
const maxSQLGap = 256

// skipSQLGap skips blanks, line ends and SQL comments (-- … and /* … */)
// after k, as SQL reads them between a keyword and its literal: PASSWORD
// on one line and its literal on the next.
func skipSQLGap(s string, k int) int {
	lim := min(len(s), k+maxSQLGap)
	for k < lim {
		switch {
		case sqlSpace(s[k]):
			k++
		case s[k] == '\\' && k+1 < lim && s[k+1] == '\n':
			k += 2 // a shell's line continuation
		case strings.HasPrefix(s[k:lim], "--") && k+2 < lim && (s[k+2] == ' ' || s[k+2] == '\t'):
			e := strings.IndexByte(s[k:lim], '\n')
			if e < 0 {
				return k
			}
			k += e + 1
		case strings.HasPrefix(s[k:lim], "/*"):
			e := strings.Index(s[k+2:lim], "*/")
			if e < 0 {
				return k
			}
			k += e + 4
		default:
			return k
		}
	}
	return k
}

// dollarQuoted redacts the body of PostgreSQL's $tag$…$tag$ at k, its
// dollars escaped (\$) when it sits in a shell's double quotes.
func (r *redactor) dollarQuoted(k int) int {
	s := r.s
	esc := s[k] == '\\'
	d := "$"
	if esc {
		d = `\$`
	}
	t := k + len(d)
	for t < len(s) && t-k < 32 && (isAlnum(s[t]) || s[t] == '_') {
		t++
	}
	if !strings.HasPrefix(s[t:], d) {
		return 0
	}
	tag := s[k : t+len(d)]
	body := t + len(d)
	e := strings.Index(s[body:], tag)
	if e <= 0 {
		return 0
	}
	r.replace(body, body+e, Redacted)
	return body + e + len(tag)
}
