package audit

import "strings"

// Statements prepared by the server and run by name: PostgreSQL's
// PREPARE p AS UPDATE … $1 …; EXECUTE p('…'), MySQL's PREPARE s FROM
// 'UPDATE … ?'; SET @a = '…'; EXECUTE s USING @a. The statement marks its
// secret parameters as a client's prepared one does (redact_sqlparams.go);
// the EXECUTE after it binds them, by place or through the variables it
// names.

// preparedName returns the name of the statement that PREPARE name [(types)]
// AS, or PREPARE name FROM, ending at k (after blanks) prepares, or "".
func preparedName(s string, k int) string {
	w, b := sqlWordBefore(s, k)
	if !strings.EqualFold(w, "as") && !strings.EqualFold(w, "from") {
		return ""
	}
	k = b
	for k > 0 && sqlSpace(s[k-1]) {
		k--
	}
	if k > 0 && s[k-1] == ')' {
		// PREPARE p (text, int) AS: the parameters' types.
		o := strings.LastIndexByte(s[max(0, k-128):k], '(')
		if o < 0 {
			return ""
		}
		k = max(0, k-128) + o
	}
	name, b := sqlWordBefore(s, k)
	if name == "" {
		return ""
	}
	if p, _ := sqlWordBefore(s, b); !strings.EqualFold(p, "prepare") {
		return ""
	}
	return name
}

// sqlWordBefore returns the identifier ending at k, past blanks, and where
// it starts.
func sqlWordBefore(s string, k int) (string, int) {
	for k > 0 && sqlSpace(s[k-1]) {
		k--
	}
	e := k
	for k > 0 && e-k < 64 && isAlnumUnderscore(s[k-1]) {
		k--
	}
	return s[k:e], k
}

// executeNamed queues the literals the EXECUTE of the statement name,
// after from, binds to its secret parameters: EXECUTE name(…) by place,
// EXECUTE name USING @a, @b through the variables' SET @a = '…'.
func (r *redactor) executeNamed(from int, name string, params []bool) {
	s := r.s
	lim := min(len(s), from+maxSQLValue)
	for x := from; x < lim; {
		f := strings.Index(s[x:lim], name)
		if f < 0 {
			return
		}
		at := x + f
		x = at + len(name)
		if w, _ := sqlWordBefore(s, at); !strings.EqualFold(w, "execute") || x < len(s) && isAlnumUnderscore(s[x]) || isAlnumUnderscore(s[at-1]) {
			continue
		}
		p := skipSQLSpace(s, x)
		if p < lim && s[p] == '(' {
			r.boundValues(p, lim, params) // EXECUTE p('…', 1)
			return
		}
		if p+5 < lim && strings.EqualFold(s[p:p+5], "using") {
			r.usingVars(from, at, skipSQLSpace(s, p+5), lim, params)
		}
		return
	}
}

// usingVars queues, for each variable of the USING list at p at a secret
// parameter's place, the literal the last SET @var = '…' (or @var :=
// '…') between from and the EXECUTE at exec gives it.
func (r *redactor) usingVars(from, exec, p, lim int, params []bool) {
	s := r.s
	for n := 0; p < lim && s[p] == '@'; n++ {
		e := p + 1
		for e < lim && isAlnumUnderscore(s[e]) {
			e++
		}
		v := s[p:e]
		if n < len(params) && params[n] {
			if at := strings.LastIndex(s[from:exec], v); at >= 0 {
				q := skipSQLSpace(s, from+at+len(v))
				switch {
				case strings.HasPrefix(s[q:], ":="):
					q += 2
				case q < len(s) && s[q] == '=':
					q++
				default:
					q = -1
				}
				if q > 0 {
					q = skipSQLSpace(s, q)
					if end, ok := sqlValueEnd(s, q); ok || end > q {
						for end > q && sqlSpace(s[end-1]) {
							end--
						}
						if a, b := sqlInside(s, q, end); b > a && a > q {
							r.queueSorted(a, b)
						}
					}
				}
			}
		}
		p = skipSQLSpace(s, e)
		if p >= lim || s[p] != ',' {
			return
		}
		p = skipSQLSpace(s, p+1)
	}
}
