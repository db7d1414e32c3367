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
	switch {
	case quote == `"` && k >= 2 && s[k-2] == '\\':
		quote = `\"`
	case quote == `"` || quote == "'" || quote == "`":
	case quote == "{" && k >= 2 && s[k-2] == 'q':
		quote = "}" // Perl's q{…} and qq{…}
	default:
		return
	}
	lim := min(len(s), j+maxSQLValue)
	var params []bool
	var named []string // named parameters (:pw, %(pw)s, @pw) for a secret
	secret := false
	n := 0 // positional parameters (?, %s) so far
	update := strings.EqualFold(s[i:j], "update")
	var setting span // the literal a settings row's value column is set to
	keyed := false   // a literal of the statement names a secret
	e := j
	for ; e < lim; e++ {
		c := s[e]
		if strings.HasPrefix(s[e:], quote) || c == ';' {
			break
		}
		switch c {
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
				hit := secretBefore(s, e, j)
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
	if (secret || len(named) > 0) && e < lim {
		r.sqlParams(e, params, named)
	}
	if len(named) > 0 && e < lim {
		r.namedParams(e, named)
	}
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
