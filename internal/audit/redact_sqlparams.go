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
	default:
		return
	}
	lim := min(len(s), j+maxSQLValue)
	var params []bool
	secret := false
	n := 0 // positional parameters (?, %s) so far
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
				e += x + 1
				continue
			}
		case '?':
			hit := secretBefore(s, e, j)
			params = setParam(params, n, hit)
			secret, n = secret || hit, n+1
		case '%':
			if e+1 < lim && s[e+1] == 's' {
				hit := secretBefore(s, e, j)
				params = setParam(params, n, hit)
				secret, n = secret || hit, n+1
				e++
			}
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
	if secret && e < lim {
		r.sqlParams(e, params)
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
	if k <= from || s[k-1] != '=' {
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
// '=', is a bound parameter in SQL (?, %s), which names no secret.
func placeholderValue(s string, k int) bool {
	k = skipBlanks(s, k)
	e := k
	switch {
	case strings.HasPrefix(s[k:], "?"):
		e++
	case strings.HasPrefix(s[k:], "%s"):
		e += 2
	default:
		return false
	}
	return e >= len(s) || !wordByte[s[e]] && s[e] != '?' && s[e] != '%' && s[e] != '$'
}
