package audit

import "strings"

// INSERTs whose secret no column list places by VALUES: INSERT INTO users
// (name, password) SELECT 'bob', 'pw' takes its values from a select list,
// INSERT INTO users SELECT 'bob' AS name, 'pw' AS password names them by
// alias, and INSERT INTO users VALUES (1, 'bob', 'pw') names no column at
// all. Without names, a table that holds logins or credentials is enough:
// its string literals are taken for secrets, except the first when it is
// shaped like a user name, and e-mail addresses, dates and empty strings.

// tableKind says what an INSERT's target table holds.
type tableKind int

const (
	tableOther   tableKind = iota
	tableLogins            // users, accounts, mysql.user: a name, then secrets
	tableSecrets           // api_keys, tokens, credentials: secrets only
)

// insertTable returns the table an INSERT writes, when the text before k
// (the end of the table's name, blanks allowed) is INSERT [INTO] name,
// REPLACE INTO name or INSERT OR … INTO name, and where the name starts;
// ok is false otherwise.
func insertTable(s string, k int) (name string, from int, ok bool) {
	e := k
	for e > 0 && sqlSpace(s[e-1]) {
		e--
	}
	b := e
	for b > 0 && e-b < 128 && (wordByte[s[b-1]] || strings.IndexByte("`\"[]\\", s[b-1]) >= 0) {
		b--
	}
	if b == e {
		return "", 0, false
	}
	w := b
	for w > 0 && sqlSpace(s[w-1]) {
		w--
	}
	v := w
	for v > 0 && w-v < 8 && isAlnum(s[v-1]) {
		v--
	}
	switch kw := s[v:w]; {
	case strings.EqualFold(kw, "into") || strings.EqualFold(kw, "insert") || strings.EqualFold(kw, "ignore"):
	default:
		return "", 0, false
	}
	name = strings.Trim(s[b:e], "`\"[]\\")
	if d := strings.LastIndexAny(name, ".`\"[]"); d >= 0 {
		name = strings.Trim(name[d+1:], "`\"[]\\")
	}
	return name, b, name != ""
}

// credentialTable reports what the table named t holds.
func credentialTable(t string) tableKind {
	if secretColumn(t) {
		return tableSecrets
	}
	l := strings.ToLower(t)
	for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '_' || r == '-' }) {
		if part == "keys" || part == "key" || part == "creds" || part == "cred" {
			return tableSecrets
		}
	}
	for _, w := range [...]string{"user", "account", "login", "member", "admin", "auth", "principal", "identit", "customer"} {
		if strings.Contains(l, w) {
			return tableLogins
		}
	}
	return tableOther
}

// sqlInsertUnnamed redacts the literals of the tuples after the VALUES
// s[i:j] of an INSERT with no column list into a table that holds
// credentials, and returns where the pass resumes, or 0.
func (r *redactor) sqlInsertUnnamed(i, j int) int {
	s := r.s
	t, _, ok := insertTable(s, i)
	if !ok {
		return 0
	}
	kind := credentialTable(t)
	if kind == tableOther {
		return 0
	}
	p, end := j, 0
	for {
		p = skipSQLSpace(s, p)
		if p >= len(s) || s[p] != '(' {
			break
		}
		p++
		named := kind == tableLogins
		for {
			v := skipSQLSpace(s, p)
			e, ok := sqlValueEndBy(s, v, len(s))
			r.insertEnd = max(r.insertEnd, e)
			if !ok {
				return end
			}
			to := e
			for to > v && sqlSpace(s[to-1]) {
				to--
			}
			named = r.unnamedValue(v, to, named)
			p = e + 1
			if s[e] == ')' {
				break
			}
		}
		end = p
		p = skipSQLSpace(s, p)
		if p >= len(s) || s[p] != ',' {
			break
		}
		p++
	}
	return end
}

// unnamedValue redacts the value s[v:to] of a credential table's row
// unless it is kept data: no literal, an e-mail address, a date, an empty
// string, or, while name is true, the first literal shaped like a user
// name. It returns whether the user name is still to come.
func (r *redactor) unnamedValue(v, to int, name bool) bool {
	s := r.s
	if to <= v || sqlPlaceholder(s[v:to]) || !strings.ContainsAny(s[v:to], `'"`) {
		return name
	}
	from, in := sqlInside(s, v, to)
	lit := s[from:in]
	if from == v {
		// A call around literals (crypt('pw', gen_salt('bf'))):
		// redact it whole.
		r.replace(v, to, Redacted)
		return name
	}
	switch {
	case name && userShaped(lit):
		return false
	case lit == "" || keptData(lit):
		return name
	}
	r.replace(from, in, Redacted)
	return false
}

// userShaped reports whether a literal reads as a user name: a letter,
// then letters, digits and . _ - @ +, 32 bytes at most.
func userShaped(v string) bool {
	if len(v) == 0 || len(v) > 32 || !(v[0] >= 'a' && v[0] <= 'z' || v[0] >= 'A' && v[0] <= 'Z') {
		return false
	}
	for k := 0; k < len(v); k++ {
		if !isAlnum(v[k]) && strings.IndexByte("._-@+", v[k]) < 0 {
			return false
		}
	}
	return true
}

// keptData reports whether a literal is an e-mail address or a date or
// time, which a credential table's row keeps.
func keptData(v string) bool {
	if at := strings.IndexByte(v, '@'); at > 0 && strings.IndexByte(v[at:], '.') > 0 && !strings.ContainsAny(v, " \t:/") {
		return true
	}
	if len(v) < 8 || v[0] < '0' || v[0] > '9' {
		return false
	}
	for k := 0; k < len(v); k++ {
		if !(v[k] >= '0' && v[k] <= '9') && strings.IndexByte("-:. TZ+", v[k]) < 0 {
			return false
		}
	}
	return true
}

// sqlInsertSelect redacts the secret items of the select list after the
// SELECT s[i:j] of an INSERT: those at a secret column's place in the
// column list before it, those whose alias names a secret, and, with no
// column list, the literals a credential table's row would lose (see
// unnamedValue). It returns where the pass resumes, or 0.
func (r *redactor) sqlInsertSelect(i, j int) int {
	s := r.s
	if i < r.insertEnd {
		return 0
	}
	k := i
	for k > 0 && sqlSpace(s[k-1]) {
		k--
	}
	var secret []bool
	kind := tableOther
	if k > 0 && s[k-1] == ')' {
		// Back to the column list's '(' however far (sqlInsert).
		open := strings.LastIndexAny(s[:k-1], "()")
		if open < 0 || s[open] != '(' {
			return 0
		}
		if _, _, ok := insertTable(s, open); !ok {
			return 0
		}
		for _, c := range strings.Split(s[open+1:k-1], ",") {
			secret = append(secret, secretColumn(strings.Trim(strings.TrimSpace(c), "`\"'[]\\ \t\r\n")))
		}
	} else {
		t, _, ok := insertTable(s, k)
		if !ok {
			return 0
		}
		kind = credentialTable(t)
	}
	p, end := j, 0
	named := kind == tableLogins
	// The list is read to its end however long (a literal of many
	// kilobytes before the secret hides nothing); an item that does not
	// close was read to the text's end, where no later look can find
	// more, so each byte is read once.
	lim := len(s)
	for n := 0; ; n++ {
		v := skipSQLSpace(s, p)
		e := selectItemEnd(s, v, lim)
		if e <= v {
			if v < lim && (sqlQuoteLen(s, v) > 0 || s[v] == '(' || wordByte[s[v]]) {
				r.insertEnd = lim
			}
			break
		}
		a := skipSQLSpace(s, e)
		alias := ""
		if a+2 < lim && strings.EqualFold(s[a:a+2], "as") && sqlSpace(s[a+2]) {
			b := skipSQLSpace(s, a+2)
			x := b
			for x < lim && (wordByte[s[x]] || strings.IndexByte("`\"[]", s[x]) >= 0) {
				x++
			}
			alias, a = strings.Trim(s[b:x], "`\"[]"), skipSQLSpace(s, x)
		}
		switch {
		case n < len(secret) && secret[n] || alias != "" && secretColumn(alias):
			if strings.ContainsAny(s[v:e], `'"`) {
				if from, to := sqlInside(s, v, e); to > from {
					r.replace(from, to, Redacted)
				}
			}
		case kind != tableOther:
			named = r.unnamedValue(v, e, named)
		}
		end = e
		r.insertEnd = max(r.insertEnd, a)
		if u := unionSelect(s, a, lim); u > 0 {
			// … UNION [ALL] SELECT 'al', '…': the next row, from
			// its first column.
			n, p, named = -1, u, kind == tableLogins
			continue
		}
		if a >= lim || s[a] != ',' {
			break
		}
		p = a + 1
	}
	return end
}

// unionSelect returns where the select list after UNION [ALL] SELECT at
// k begins, or 0.
func unionSelect(s string, k, lim int) int {
	for _, w := range [...]string{"union", "all", "select"} {
		if k+len(w) > lim || !strings.EqualFold(s[k:k+len(w)], w) || k+len(w) < lim && !sqlSpace(s[k+len(w)]) {
			if w == "all" {
				continue
			}
			return 0
		}
		k = skipSQLSpace(s, k+len(w))
	}
	return k
}

// selectItemEnd returns where the select list's item at v ends: after
// its literal ('pw', N'pw', \"pw\"), its call's ')' (crypt('pw', …)) or
// its word (a column, a number, a placeholder); v itself when none
// starts there.
func selectItemEnd(s string, v, lim int) int {
	k := v
	if k < lim && strings.IndexByte("NnEe", s[k]) >= 0 && k+1 < lim && s[k+1] == '\'' {
		k++
	}
	if q := sqlQuoteLen(s, k); q > 0 {
		quote := s[k : k+q]
		k += q
		for {
			x := strings.Index(s[k:lim], quote)
			if x < 0 {
				return v
			}
			k += x + q
			if q == 1 && k < lim && s[k] == quote[0] {
				k++ // 'it''s': a doubled quote goes on
				continue
			}
			return k
		}
	}
	for k < lim && (wordByte[s[k]] || strings.IndexByte("$:?%@", s[k]) >= 0) {
		k++
	}
	if k < lim && s[k] == '(' && k > v {
		depth := 0
		for ; k < lim; k++ {
			switch s[k] {
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					return k + 1
				}
			case '\'':
				if x := strings.IndexByte(s[k+1:lim], '\''); x >= 0 {
					k += x + 1
				}
			}
		}
		return v
	}
	return k
}
