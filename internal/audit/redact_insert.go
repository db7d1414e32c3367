package audit

import "strings"

// SQL INSERTs that store a credential: INSERT INTO users (name, password)
// VALUES ('a', 'pw'), ('b', crypt('pw2', gen_salt('bf'))). The column
// list names the secret, the tuples after VALUES hold it by position, so
// no key=value rule sees it.

// The column list's '(' is looked for back from the ')' before VALUES
// however far it is (a list of many columns names its secret last); a
// '(' or ')' ends the look, so looks never overlap and each byte is read
// back once.

// sqlInsert redacts the values of the secret-named columns in the tuples
// after the VALUES keyword s[i:j] and returns where the pass resumes, or
// 0 when no column list naming a secret closes right before it.
func (r *redactor) sqlInsert(i, j int) int {
	s := r.s
	if i < r.insertEnd {
		return 0 // inside text an earlier look read
	}
	k := i - 1
	for k >= 0 && sqlSpace(s[k]) {
		k--
	}
	if k < 0 || s[k] != ')' {
		return r.sqlInsertUnnamed(i, j) // INSERT INTO users VALUES (…)
	}
	open := strings.LastIndexAny(s[:k], "()")
	if open < 0 || s[open] != '(' {
		return 0
	}
	var secret []bool
	found := false
	for _, c := range strings.Split(s[open+1:k], ",") {
		c = strings.Trim(strings.TrimSpace(c), "`\"'[]\\ \t\r\n")
		hit := secretColumn(c)
		secret = append(secret, hit)
		found = found || hit
	}
	if !found {
		return 0
	}
	p, end := j, 0
	var params []bool // the bound parameters that fill a secret column
	for {
		p = skipSQLSpace(s, p)
		if p >= len(s) || s[p] != '(' {
			break
		}
		e := r.sqlTuple(p+1, secret, &params)
		if e <= p {
			break
		}
		end = e
		p = skipSQLSpace(s, e)
		if p >= len(s) || s[p] != ',' {
			break
		}
		p++
	}
	if end > 0 && len(params) > 0 {
		r.sqlParams(end, params, nil)
	}
	return end
}

// sqlParams queues the literals bound to the secret parameters of a
// statement whose tuples end at k, given after the string the statement
// sits in: cur.execute("… VALUES (%s, %s)", ("bob", "pw")), db.query('…
// ($1, $2)', ['bob', 'pw']), db.Exec("… (?, ?)", "bob", "pw").
func (r *redactor) sqlParams(k int, params []bool, named []string) {
	s := r.s
	lim := min(len(s), k+maxSQLValue)
	q := k
	for q < lim && (sqlSpace(s[q]) || s[q] == ';') {
		q++
	}
	switch {
	case strings.HasPrefix(s[q:lim], `\"`):
		q += 2
	case q < lim && (s[q] == '"' || s[q] == '\'' || s[q] == '`' || s[q] == '}'):
		q++ // '}' ends Perl's q{…}
	default:
		return
	}
	for n := 0; n < 2 && q < lim && s[q] == s[q-1] && (s[q] == '"' || s[q] == '\''); n++ {
		q++ // Python's """…""" and '''…'''
	}
	q = skipSQLSpace(s, q)
	switch {
	case q >= lim:
		return
	case s[q] == ',':
		q = skipAttrArg(s, skipSQLSpace(s, q+1), lim)
	default:
		r.boundLater(q, params, named)
		return
	}
	r.boundValues(q, lim, params)
}

// boundLater queues the literals bound to the secret parameters of a
// statement prepared, then bound and run: the values are the bind calls'
// and the execute call's at or after q (redact_sqlexec.go), however far
// after the statement they come: executeCall never reads a byte twice,
// so the look needs no bound.
func (r *redactor) boundLater(q int, params []bool, named []string) {
	for {
		a, bind := r.executeCall(q, len(r.s))
		if a == 0 {
			return
		}
		if !bind {
			r.boundValues(a, len(r.s), params)
			return
		}
		r.bindValue(a, params, named)
		q = a + 1
	}
}

// boundValues queues the literals at the secret places of the values
// list at q: (…), […], ([…]), array(…) or bare.
func (r *redactor) boundValues(q, lim int, params []bool) {
	s := r.s
	if q < lim && (s[q] == '(' || s[q] == '[') {
		q++
		if q = skipSQLSpace(s, q); q < lim && (s[q] == '(' || s[q] == '[') {
			q++ // executemany(…, [("bob", "pw")]): the first row
		}
	}
	switch q = skipSQLSpace(s, q); {
	case q < lim && s[q] == '[':
		q++ // $stmt->execute(["bob", "pw"])
	case strings.HasPrefix(s[q:lim], "array("):
		q += len("array(") // $stmt->execute(array("bob", "pw"))
	}
	for n := 0; q < lim; n++ {
		v := skipSQLSpace(s, q)
		e, ok := sqlValueEnd(s, v)
		r.insertEnd = max(r.insertEnd, e) // a VALUES inside starts no look
		if !ok {
			return
		}
		if n < len(params) && params[n] {
			to := e
			for to > v && (sqlSpace(s[to-1]) || s[to-1] == ']') {
				to--
			}
			if o, e := perlQuote(s, v); e == to && e > o+1 {
				r.queueSorted(o, e-1) // $sth->execute(q{…})
			} else if from, to := sqlInside(s, v, to); to > from && from > v {
				r.queueSorted(from, to)
			}
		}
		if s[e] != ',' {
			return
		}
		q = e + 1
	}
}

// queueSorted puts the span from, to among the queued ones in its place,
// unless one there already covers it.
func (r *redactor) queueSorted(from, to int) {
	at := len(r.pending)
	for at > 0 && r.pending[at-1].from >= to {
		at--
	}
	if at > 0 && r.pending[at-1].to > from {
		return
	}
	r.pending = append(r.pending, span{})
	copy(r.pending[at+1:], r.pending[at:])
	r.pending[at] = span{from, to}
}

// secretColumn reports whether a column named c holds a credential:
// password, passwd, password_hash, api_key, auth_token, pwd, …
func secretColumn(c string) bool {
	if secretName(c) || secretKey(c) != keyNone {
		return true
	}
	// A column keeps the hash or a cipher of a password too
	// (password_hash, encrypted_token), which the name rules, made for
	// values, leave.
	l := strings.ToLower(c)
	for _, w := range [...]string{"passw", "passphrase", "pwd", "secret", "token", "apikey", "api_key", "credential"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if part == "pw" || part == "pass" {
			return true
		}
	}
	return false
}

// sqlTuple redacts the values at the secret positions of the tuple whose
// first value starts at p, and returns the index after its ')', or 0
// when the tuple does not close.
func (r *redactor) sqlTuple(p int, secret []bool, params *[]bool) int {
	s := r.s
	for n := 0; ; n++ {
		v := skipSQLSpace(s, p)
		e, ok := sqlValueEndBy(s, v, len(s))
		r.insertEnd = max(r.insertEnd, e)
		if !ok {
			return 0
		}
		if n < len(secret) && secret[n] {
			from, to := v, e
			for to > from && sqlSpace(s[to-1]) {
				to--
			}
			if to > from && !sqlPlaceholder(s[from:to]) {
				if from, to = sqlInside(s, from, to); to > from {
					r.replace(from, to, Redacted)
				}
			}
		}
		if v < e {
			addParam(params, strings.TrimSpace(s[v:e]), n < len(secret) && secret[n])
		}
		if s[e] == ')' {
			return e + 1
		}
		p = e + 1
	}
}

// addParam records whether the bound parameter the value v is (?, %s,
// $N) fills a secret column; $N names its place, the others count.
func addParam(params *[]bool, v string, secret bool) {
	switch {
	case v == "?" || v == "%s":
		*params = append(*params, secret)
	case len(v) >= 2 && v[0] == '$' && isDigits(v[1:]):
		n := 0
		for _, c := range v[1:] {
			n = n*10 + int(c-'0')
			if n > 64 {
				return
			}
		}
		for len(*params) < n {
			*params = append(*params, false)
		}
		if n > 0 {
			(*params)[n-1] = (*params)[n-1] || secret
		}
	}
}

// sqlInside returns the text inside the quotes of the literal s[from:to]
// ('pw', "pw", \"pw\", N'pw', E'pw'), or the whole value when it is no
// single literal (crypt('pw', gen_salt('bf'))).
func sqlInside(s string, from, to int) (int, int) {
	if q := sqlQuoteLen(s, from); q > 0 && to-from >= 2*q && s[to-q:to] == s[from:from+q] {
		return from + q, to - q
	}
	if strings.IndexByte("NnEe", s[from]) >= 0 && sqlQuoteLen(s, from+1) == 1 && to-from >= 3 && s[to-1] == s[from+1] {
		return from + 2, to - 1
	}
	return from, to
}

// maxSQLValue bounds one value of a tuple, so that an unclosed quote
// costs a bounded look.
const maxSQLValue = 4096

// sqlValueEnd returns the index of the ',' or ')' that ends the value at
// v, outside quotes and nested parentheses, and whether there is one;
// without one, where the look stopped.
func sqlValueEnd(s string, v int) (int, bool) {
	return sqlValueEndBy(s, v, min(len(s), v+maxSQLValue))
}

// sqlValueEndBy is sqlValueEnd looking no further than end. A row's
// values are read each once, one after the other, so a tuple reads them
// to the end of the text (a value of many kilobytes, a blob before the
// password, does not hide the values after it); looks that may start
// again inside what they read keep sqlValueEnd's bound.
func sqlValueEndBy(s string, v, end int) (int, bool) {
	depth := 0
	for k := v; k < end; k++ {
		switch c := s[k]; c {
		case '\'', '"':
			// A quote, doubled ('it''s') or escaped (\'), runs to
			// its close; \" is a quote inside a shell's "…".
			for k++; k < end && s[k] != c; k++ {
				if s[k] == '\\' {
					k++
				}
			}
		case '\\':
			if k+1 < end && s[k+1] == '"' {
				if e := strings.Index(s[k+2:end], `\"`); e >= 0 {
					k += 2 + e + 1
				}
			}
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return k, true
			}
			depth--
		case ',':
			if depth == 0 {
				return k, true
			}
		case ';':
			return k, false
		}
	}
	return end, false
}

// sqlQuoteLen is the length of the quote opening a literal at k: 1 for '
// and ", 2 for \", 0 for none.
func sqlQuoteLen(s string, k int) int {
	switch {
	case k < len(s) && (s[k] == '\'' || s[k] == '"'):
		return 1
	case strings.HasPrefix(s[k:], `\"`):
		return 2
	}
	return 0
}

// sqlPlaceholder reports whether v is no literal but NULL, DEFAULT or a
// bound parameter (?, $1, :pw, %s, @pw), which the statement fills in.
func sqlPlaceholder(v string) bool {
	if strings.EqualFold(v, "null") || strings.EqualFold(v, "default") {
		return true
	}
	return v == "?" || strings.IndexByte("$:%@", v[0]) >= 0 && !strings.ContainsAny(v, "'\" ")
}

func sqlSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSQLSpace(s string, k int) int {
	for k < len(s) && sqlSpace(s[k]) {
		k++
	}
	return k
}
