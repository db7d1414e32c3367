package audit

import "strings"

// A statement's bound parameters given apart from its string: prepared
// first and bound by a later call ($sth = $dbh->prepare("UPDATE users SET
// password=? …"); $sth->execute("pw", 1), Ruby's and PHP's stmt.execute),
// after Perl's attribute argument ($dbh->do("…", undef, "pw")), or set
// by a keyword rather than a column (ALTER USER bob IDENTIFIED BY ?,
// ALTER ROLE bob PASSWORD $1). The statement marks which parameters are
// secret (redact_sqlparams.go); these read where their values are.

// sqlParamsKeyword reports whether w starts a statement whose parameters
// may be bound to a secret: UPDATE, SELECT, DELETE, ALTER, CREATE.
func sqlParamsKeyword(w string) bool {
	for _, k := range [...]string{"update", "select", "delete", "alter", "create"} {
		if strings.EqualFold(w, k) {
			return true
		}
	}
	return false
}

// keywordParam reports whether the word ending at k (after blanks) sets
// the parameter after it as a password: PASSWORD ?, IDENTIFIED [WITH
// plugin] BY ?, looked at no further back than from.
func keywordParam(s string, k, from int) bool {
	e := k
	for k > from && e-k < 8 && s[k-1]|0x20 >= 'a' && s[k-1]|0x20 <= 'z' {
		k--
	}
	switch w := s[k:e]; {
	case strings.EqualFold(w, "password"):
		return true
	case strings.EqualFold(w, "by"):
		return containsFold(s[max(from, k-64):k], "identified")
	}
	return false
}

// executeCall returns where the arguments of the first call that runs a
// prepared statement (execute(…), ->execute(…), .execute …) start at or
// after k and before lim: the index of its '(' or of the blank after its
// name; 0 when none does. The look never reads a byte twice: it resumes
// where the last one stopped, or returns the call that one found.
func (r *redactor) executeCall(k, lim int) int {
	s := r.s
	if r.execAt >= k {
		return r.execArgs(r.execAt)
	}
	for from := max(k, r.execScan); from < lim; {
		x := strings.Index(s[from:lim], "execute")
		if x < 0 {
			break
		}
		at := from + x
		from = at + len("execute")
		if at > 0 && (s[at-1] == '.' || s[at-1] == '>') && r.execArgs(at) > 0 {
			r.execScan, r.execAt = from, at
			return r.execArgs(at)
		}
	}
	r.execScan = max(r.execScan, lim)
	return 0
}

// execArgs returns where the arguments of the execute call named at at
// start, or 0 when none follow its name.
func (r *redactor) execArgs(at int) int {
	s := r.s
	e := at + len("execute")
	switch {
	case e < len(s) && s[e] == '(':
		// cur.execute(sql, ("pw", 1)): the statement's variable comes
		// first, its values in a tuple or list after it.
		v := e + 1
		for v < len(s) && v-e < 64 && isAlnumUnderscore(s[v]) {
			v++
		}
		if t := skipSQLSpace(s, v); v > e+1 && t < len(s) && s[t] == ',' {
			if t = skipSQLSpace(s, t+1); t < len(s) && (s[t] == '(' || s[t] == '[') {
				return t
			}
		}
		return e
	case e+1 < len(s) && s[e] == ' ' && sqlQuoteLen(s, e+1) > 0:
		return e // Ruby: stmt.execute "pw", 1
	}
	return 0
}

// skipAttrArg returns where the bound values start after Perl's attribute
// argument at q ($dbh->do($sql, undef, @bind), $dbh->do($sql, {}, …)),
// or q when none stands there.
func skipAttrArg(s string, q, lim int) int {
	e := q
	switch {
	case strings.HasPrefix(s[q:lim], "undef"):
		e += len("undef")
	case strings.HasPrefix(s[q:lim], "{}"):
		e += 2
	default:
		return q
	}
	e = skipSQLSpace(s, e)
	if e < lim && s[e] == ',' {
		return skipSQLSpace(s, e+1)
	}
	return q
}

// boundParam reports whether the unquoted word v is a statement's bound
// parameter (?, %s, $1, :pw), which names no secret.
func boundParam(v string) bool {
	switch {
	case v == "?" || v == "%s":
		return true
	case len(v) > 1 && v[0] == '$':
		return strings.Trim(v[1:], "0123456789") == ""
	case len(v) > 1 && v[0] == ':':
		for i := 1; i < len(v); i++ {
			if !isAlnumUnderscore(v[i]) {
				return false
			}
		}
		return true
	}
	return false
}
