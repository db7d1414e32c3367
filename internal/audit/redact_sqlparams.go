package audit

import "strings"

// Statements that compare or set a secret column to a bound parameter
// (cur.execute("UPDATE users SET password=? WHERE id=?", ("pw", 1)),
// db.Exec("… WHERE name=$1 AND password=$2", "bob", "pw")) carry the
// secret in the arguments after the string, by the parameter's place;
// the placeholder itself is no secret and stays.

// sqlStatementParams reads the statement that the keyword s[i:j]
// (UPDATE, SELECT, DELETE) starts at the opening of a quoted string, and
// queues the literals bound to its parameters that stand for a secret
// column. It returns where the look stopped; the pass goes on at j.
func (r *redactor) sqlStatementParams(i, j int) {
	s := r.s
	if i < r.paramEnd {
		return
	}
	k := i
	for k > 0 && sqlSpace(s[k-1]) {
		k--
	}
	if k == 0 {
		return
	}
	quote := s[k-1 : k]
	lim := min(len(s), j+maxSQLValue)
	doc := -1 // where the here-document's opening ends, when in one
	var delim string
	// prepared names the statement a PREPARE … AS / FROM '…' makes
	// (redact_sqlprepare.go).
	prepared := preparedName(s, k-b2i(quote == "'" || quote == `"`)*len(quote))
	switch {
	case quote == `"` && k >= 2 && s[k-2] == '\\':
		quote = `\"`
	case quote == `"` || quote == "'" || quote == "`":
	case quote == "{" && k >= 2 && s[k-2] == 'q':
		quote = "}" // Perl's q{…} and qq{…}
	case prepared != "":
		quote = "\x00" // PREPARE p AS UPDATE …; the statement ends at ';'
	default:
		// $sth = $dbh->prepare(<<SQL); … the statement is the body
		// of a here-document its line opens, ending at the delimiter
		// line.
		if doc, delim = sqlHeredoc(s, i); doc < 0 {
			return
		}
		quote = "\x00"
	}
	var params []bool
	var named []string // named parameters (:pw, %(pw)s, @pw) for a secret
	secret := false
	n := 0 // positional parameters (?, %s) so far
	update := strings.EqualFold(s[i:j], "update")
	var setting span // the literal a settings row's value column is set to
	keyed := false   // a literal of the statement names a secret
	e := j
statement:
	for ; e < lim; e++ {
		c := s[e]
		if strings.HasPrefix(s[e:], quote) || c == ';' {
			break
		}
		switch c {
		case '\n':
			if doc >= 0 && delimLine(s[e+1:], delim) {
				break statement
			}
		case '\'', '"':
			// A literal in the other quote, or an identifier.
			if x := strings.IndexByte(s[e+1:lim], c); x >= 0 && !strings.Contains(s[e+1:e+1+x], quote) {
				lit := s[e+1 : e+1+x]
				if update && settingValueBefore(s, e, j) {
					setting = span{e + 1, e + 1 + x}
				} else if x > 0 && x < 64 && (secretName(lit) || secretKey(lit) != keyNone) {
					keyed = true
				}
				e += x + 1
				continue
			}
		case '?':
			hit := secretBefore(s, e, j)
			params = setParam(params, n, hit)
			secret, n = secret || hit, n+1
		case '%':
			if x := strings.Index(s[e:min(lim, e+70)], ")s"); e+1 < lim && s[e+1] == '(' && x > 2 {
				// %(name)s: Python's named parameter.
				if secretBefore(s, e, j) {
					named = append(named, s[e+2:e+x])
				}
				e += x + 1
				continue
			}
			if e+1 < lim && s[e+1] == 's' {
				hit := secretBefore(s, e, j)
				params = setParam(params, n, hit)
				secret, n = secret || hit, n+1
				e++
			}
		case ':', '@':
			// :name, @name: named, bound by name after the string.
			d := e + 1
			for d < lim && isAlnumUnderscore(s[d]) {
				d++
			}
			if d > e+1 && (c == '@' || s[e-1] != ':') && d-e <= 64 && secretBefore(s, e, j) {
				named = append(named, s[e+1:d])
			}
			e = d - 1
		case '$':
			d := e + 1
			num := 0
			for d < lim && s[d] >= '0' && s[d] <= '9' && num <= 64 {
				num = num*10 + int(s[d]-'0')
				d++
			}
			if d > e+1 && num > 0 && num <= 64 {
				at := e
				if s[e-1] == '\\' {
					at-- // \$1 inside a shell's "…"
				}
				hit := secretBefore(s, at, j)
				params = setParam(params, num-1, hit)
				secret = secret || hit
				e = d - 1
			}
		}
	}
	r.paramEnd = e
	if keyed && setting.to > setting.from {
		// UPDATE settings SET value = '…' WHERE name = 'smtp_password':
		// a key-value table's row for a secret.
		r.queueSorted(setting.from, setting.to)
	}
	if prepared != "" && (secret || len(named) > 0) {
		r.notePrepared(e, prepared, params)
	}
	if doc >= 0 {
		// The values are bound by the calls after the opening: on
		// its line ($s->execute("…") after prepare(<<SQL);) or past
		// the body.
		lim := min(len(s), doc+maxSQLValue)
		switch q := skipBlanks(s, doc); {
		case !secret && len(named) == 0:
		case q < lim && s[q] == ',':
			// $dbh->do(<<SQL, undef, "…"): the values follow.
			r.boundValues(skipAttrArg(s, skipSQLSpace(s, q+1), lim), lim, params)
		default:
			r.boundLater(doc, params, named)
		}
		if len(named) > 0 {
			r.namedParams(doc, named)
		}
		return
	}
	if (secret || len(named) > 0) && e < lim {
		r.sqlParams(e, params, named)
	}
	if len(named) > 0 && e < lim {
		r.namedParams(e, named)
	}
}

// maxDocLine bounds how far back sqlHeredoc looks for the line that
// opens a here-document.
const maxDocLine = 512

// sqlHeredoc reports whether the keyword at i starts the body of a
// here-document (<<SQL, <<"SQL", <<~SQL, <<-SQL, PHP's <<<SQL) opened on
// the line before: it returns where the opening's delimiter ends, and the
// delimiter, or -1. Only blanks may stand before the keyword on its line.
func sqlHeredoc(s string, i int) (int, string) {
	k := i
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	if k == 0 || s[k-1] != '\n' {
		return -1, ""
	}
	nl := k - 1
	from := max(0, nl-maxDocLine)
	if b := strings.LastIndexByte(s[from:nl], '\n'); b >= 0 {
		from += b + 1
	}
	o := strings.LastIndex(s[from:nl], "<<")
	if o < 0 {
		return -1, ""
	}
	d := from + o + 2
	for d < nl && strings.IndexByte("<~-'\" ", s[d]) >= 0 {
		d++
	}
	e := d
	for e < nl && isAlnumUnderscore(s[e]) {
		e++
	}
	if e == d {
		return -1, ""
	}
	if q := s[d-1]; (q == '"' || q == '\'') && e < nl && s[e] == q {
		return e + 1, s[d:e] // <<"SQL": past the closing quote
	}
	return e, s[d:e]
}

// delimLine reports whether the line s starts is the here-document's
// delimiter line, indented or not.
func delimLine(s, delim string) bool {
	t := strings.TrimLeft(s, " \t")
	return strings.HasPrefix(t, delim) && (len(t) == len(delim) || !isAlnumUnderscore(t[len(delim)]))
}

// namedParams queues the literals bound by name, after the statement's
// string ending at k, to the named parameters: {"pw": "…"}, pw="…".
func (r *redactor) namedParams(k int, names []string) {
	s := r.s
	lim := min(len(s), k+maxSQLValue)
	for _, name := range names {
		for x := k; x < lim; {
			f := strings.Index(s[x:lim], name)
			if f < 0 {
				break
			}
			f += x
			x = f + len(name)
			if f == 0 || isAlnumUnderscore(s[f-1]) || x < len(s) && isAlnumUnderscore(s[x]) {
				continue
			}
			v := x
			if v < lim && (s[v] == '"' || s[v] == '\'') {
				v++
			}
			v = skipBlanks(s, v)
			if v >= lim || s[v] != ':' && s[v] != '=' || strings.HasPrefix(s[v:], "==") {
				continue
			}
			v = skipBlanks(s, v+1)
			if v < lim && (s[v] == '"' || s[v] == '\'') {
				if c := strings.IndexByte(s[v+1:lim], s[v]); c > 0 {
					r.queueSorted(v+1, v+1+c)
				}
			}
			break
		}
	}
}

// setParam sets the n'th parameter's mark, or'ed with what is there.
func setParam(params []bool, n int, hit bool) []bool {
	for len(params) <= n {
		params = append(params, false)
	}
	params[n] = params[n] || hit
	return params
}

// secretBefore reports whether the parameter at p is compared with or
// set to a secret column: password = ?, u.pwd=$2, `api_key` = %s, looked
// at no further back than from.
func secretBefore(s string, p, from int) bool {
	k := p
	for k > from && sqlSpace(s[k-1]) {
		k--
	}
	if k > from && s[k-1] == '(' {
		// password = crypt(?, gen_salt('bf')): the call's first
		// argument.
		k--
		for k > from && p-k < 64 && (isAlnumUnderscore(s[k-1]) || s[k-1] == '.') {
			k--
		}
		for k > from && sqlSpace(s[k-1]) {
			k--
		}
	}
	if k > from && s[k-1] != '=' {
		return keywordParam(s, k, from) // IDENTIFIED BY ?, PASSWORD $1
	}
	if k <= from {
		return false
	}
	k--
	if k > from && (s[k-1] == '!' || s[k-1] == '<' || s[k-1] == '>') {
		return false
	}
	for k > from && sqlSpace(s[k-1]) {
		k--
	}
	e := k
	for k > from && e-k < 64 && (wordByte[s[k-1]] || strings.IndexByte("`\"[]", s[k-1]) >= 0) {
		k--
	}
	name := strings.Trim(s[k:e], "`\"[]")
	if d := strings.LastIndexByte(name, '.'); d >= 0 {
		name = strings.Trim(name[d+1:], "`\"[]")
	}
	return name != "" && secretColumn(name)
}

// placeholderValue reports whether the value at k, after a secret key's
// '=', is a bound parameter in SQL (?, %s, %(pw)s, :pw, @pw), which names
// no secret.
func (r *redactor) placeholderValue(k int) bool {
	s := r.s
	k = skipBlanks(s, k)
	e := k
	inSQL := k < r.paramEnd // a named one only inside a statement read
	switch {
	case strings.HasPrefix(s[k:], "?"):
		e++
	case strings.HasPrefix(s[k:], "%s"):
		e += 2
	case inSQL && (strings.HasPrefix(s[k:], "$") || strings.HasPrefix(s[k:], `\$`)):
		// $1, \$1 in a shell's "…": PostgreSQL's numbered parameter.
		e += 1 + b2i(s[k] == '\\')
		for e < len(s) && s[e] >= '0' && s[e] <= '9' {
			e++
		}
		if e == k+1+b2i(s[k] == '\\') {
			return false
		}
	case !inSQL:
		return false // --password=@file, PASSWORD=:x… are values
	case strings.HasPrefix(s[k:], "%("):
		if x := strings.Index(s[k:min(len(s), k+70)], ")s"); x > 2 {
			e += x + 2
		}
	case k+1 < len(s) && (s[k] == ':' && s[k+1] != ':' || s[k] == '@') && isAlnumUnderscore(s[k+1]):
		e++
		for e < len(s) && isAlnumUnderscore(s[e]) {
			e++
		}
	default:
		return false
	}
	if e == k {
		return false
	}
	return e >= len(s) || !wordByte[s[e]] && s[e] != '?' && s[e] != '%' && s[e] != '$'
}

// settingValueBefore reports whether the literal at p is set to a
// key-value table's value column (value = '…', option_value = '…'),
// looked at no further back than from.
func settingValueBefore(s string, p, from int) bool {
	k := p
	for k > from && sqlSpace(s[k-1]) {
		k--
	}
	if k <= from || s[k-1] != '=' || k >= 2 && strings.IndexByte("!<>=", s[k-2]) >= 0 {
		return false
	}
	k--
	for k > from && sqlSpace(s[k-1]) {
		k--
	}
	e := k
	for k > from && e-k < 32 && (isAlnumUnderscore(s[k-1]) || s[k-1] == '.' || s[k-1] == '`' || s[k-1] == '"') {
		k--
	}
	name := strings.ToLower(strings.Trim(s[k:e], "`\""))
	if d := strings.LastIndexByte(name, '.'); d >= 0 {
		name = name[d+1:]
	}
	return name == "value" || name == "val" || strings.HasSuffix(name, "_value")
}
