package audit

import (
	"slices"
	"strconv"
	"strings"
)

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

// runners run a prepared statement with its values (execute, DBI's do
// and select* after the statement and its attributes, better-sqlite3's
// run); binders bind one value by place or name.
var runners = [...]string{"execute", "executemany", "execute_array", "do", "run", "selectrow_array", "selectrow_arrayref",
	"selectrow_hashref", "selectall_arrayref", "selectall_hashref", "selectcol_arrayref"}

var binders = [...]string{"bind_param", "bindValue", "bindParam"}

// runnerAt reports whether the '(' at p ends the name of a method call
// (.name(, ->name() that runs a statement (run) or binds one of its
// values (bind).
func runnerAt(s string, p int) (run, bind bool) {
	b := p
	for b > 0 && p-b < 20 && isAlnumUnderscore(s[b-1]) {
		b--
	}
	if b == p || b == 0 || s[b-1] != '.' && s[b-1] != '>' {
		return false, false
	}
	name := s[b:p]
	for _, n := range runners {
		if name == n {
			return true, false
		}
	}
	for _, n := range binders {
		if name == n {
			return false, true
		}
	}
	return false, false
}

// executeCall returns where the values of the first call at or after k
// and before lim that runs or binds a prepared statement start ('(', the
// blank after Ruby's stmt.execute, or past the statement's variable and
// DBI's attribute argument), and whether that call binds one value
// (bind_param(1, …), bindValue(":pw", …)); 0 when none does. The look
// never reads a byte twice: it resumes where the last one stopped, or
// returns the call that one found.
func (r *redactor) executeCall(k, lim int) (int, bool) {
	s := r.s
	if r.execAt >= k {
		run, bind := runnerAt(s, r.execAt)
		return r.execArgs(r.execAt, run), bind
	}
	for p := max(k, r.execScan); p < lim; p++ {
		switch s[p] {
		case '(':
			if run, bind := runnerAt(s, p); run || bind {
				r.execScan, r.execAt = p+1, p
				return r.execArgs(p, run), bind
			}
		case ' ':
			// Ruby: stmt.execute "pw", 1.
			if p >= 8 && s[p-7:p] == "execute" && s[p-8] == '.' && sqlQuoteLen(s, p+1) > 0 {
				r.execScan, r.execAt = p+1, p
				return p, false
			}
		}
	}
	r.execScan = max(r.execScan, lim)
	return 0, false
}

// execArgs returns where the values of the call whose '(' is at p start:
// past the statement's variable when one comes first and its values
// follow in a tuple or list (cur.execute(sql, ("pw", 1))) or after DBI's
// attribute argument ($dbh->do($sql, undef, "pw")); else p.
func (r *redactor) execArgs(p int, run bool) int {
	s := r.s
	if s[p] != '(' || !run {
		return p
	}
	v := p + 1
	if v < len(s) && s[v] == '$' {
		v++
	}
	for v < len(s) && v-p < 64 && isAlnumUnderscore(s[v]) {
		v++
	}
	t := skipSQLSpace(s, v)
	if v == p+1 || t >= len(s) || s[t] != ',' || s[p+1] == '$' && v == p+2 {
		return p
	}
	t = skipSQLSpace(s, t+1)
	switch {
	case t < len(s) && (s[t] == '(' || s[t] == '['):
		return t
	case s[p+1] == '$':
		if a := skipAttrArg(s, t, min(len(s), t+64)); a > t {
			return a // $dbh->do($sql, undef, "pw"): the values follow
		}
	}
	return p
}

// bindValue queues the literal a bind call whose '(' is at p binds to
// a secret parameter: bind_param(2, "pw"), bindValue(1, "pw") by place
// (from 1), bindValue(":pw", "…") by a name in named.
func (r *redactor) bindValue(p int, params []bool, named []string) {
	s := r.s
	a := skipSQLSpace(s, p+1)
	e, ok := sqlValueEnd(s, a)
	if !ok || s[e] != ',' {
		return
	}
	arg := strings.Trim(strings.TrimSpace(s[a:e]), `"'`)
	secret := false
	if n, err := strconv.Atoi(arg); err == nil {
		secret = n >= 1 && n <= len(params) && params[n-1]
	} else {
		secret = slices.Contains(named, strings.TrimLeft(arg, ":@"))
	}
	if !secret {
		return
	}
	v := skipSQLSpace(s, e+1)
	ve, ok := sqlValueEnd(s, v)
	if !ok {
		return
	}
	for ve > v && sqlSpace(s[ve-1]) {
		ve--
	}
	if o, e := perlQuote(s, v); e == ve && e > o+1 {
		r.queueSorted(o, e-1) // q{…}
		return
	}
	if from, to := sqlInside(s, v, ve); to > from && from > v {
		r.queueSorted(from, to)
	}
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
