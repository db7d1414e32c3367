package audit

import "strings"

// Statements prepared by the server and run by name: PostgreSQL's
// PREPARE p AS UPDATE … $1 …; EXECUTE p('…'), MySQL's PREPARE s FROM
// 'UPDATE … ?'; SET @a = '…'; EXECUTE s USING @a. The statement marks its
// secret parameters as a client's prepared one does (redact_sqlparams.go);
// the EXECUTE after it binds them, by place or through the variables it
// names, however far after the statement it comes.

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

// preparedStmt is a statement the server prepared by name, whose
// EXECUTE later binds its secret parameters: params marks them, from is
// where the statement ends, and the SET of a USING variable is looked
// for after it.
type preparedStmt struct {
	name   string
	params []bool
	from   int
}

// notePrepared keeps the statement name, prepared up to from with the
// secret parameters params, for its EXECUTE however far it comes: the
// pass meets the EXECUTE as it meets any word (executePrepared), so no
// look-ahead bounds the distance. The latest few are kept.
func (r *redactor) notePrepared(from int, name string, params []bool) {
	p := preparedStmt{name, params, from}
	for k, q := range r.prepared[:r.nprepared] {
		if q.name == name {
			r.prepared[k] = p // PREPARE p again: the new statement
			return
		}
	}
	if r.nprepared == len(r.prepared) {
		copy(r.prepared[:], r.prepared[1:])
		r.nprepared--
	}
	r.prepared[r.nprepared] = p
	r.nprepared++
}

// executePrepared reads the EXECUTE word s[i:j] when it runs a statement
// noted by notePrepared, and queues the literals it binds to the
// statement's secret parameters: EXECUTE name(…) by place, EXECUTE name
// USING @a, @b through the variables' SET @a = '…'.
func (r *redactor) executePrepared(i, j int) {
	s := r.s
	k := skipSQLSpace(s, j)
	e := k
	for e < len(s) && isAlnumUnderscore(s[e]) {
		e++
	}
	if e == k || i > 0 && isAlnumUnderscore(s[i-1]) {
		return
	}
	for n := range r.prepared[:r.nprepared] {
		st := &r.prepared[n]
		if st.name != s[k:e] || i < st.from {
			continue
		}
		p := skipSQLSpace(s, e)
		if p < len(s) && s[p] == '(' {
			r.boundValues(p, len(s), st.params) // EXECUTE p('…', 1)
			return
		}
		if p+5 < len(s) && strings.EqualFold(s[p:p+5], "using") {
			// The SETs before an earlier EXECUTE of the statement
			// were read by it: each byte is looked back at once.
			r.usingVars(st.from, i, skipSQLSpace(s, p+5), len(s), st.params)
			st.from = e
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
