package audit

import "strings"

// Values that show no secret: a reference to one kept elsewhere (a shell
// variable, a template's or format's field). Redacting them would make
// the audit log say less than what ran, and the secret they stand for is
// redacted where it is set (secretUse).

// maxReference bounds the reference a value is read as.
const maxReference = 128

// referenceEnd returns where the value starting at k ends when it is
// nothing but one reference, optionally quoted: $pw, ${PW}, "$PW",
// %(pw)s, {{ pw }}, {{ vars.db_pw }}, ${{ secrets.PW }}, %PW%; else 0.
func referenceEnd(s string, k int) int {
	n := len(s)
	quote := ""
	switch {
	case strings.HasPrefix(s[k:], `\"`):
		quote = `\"`
	case k < n && (s[k] == '"' || s[k] == '\''):
		quote = s[k : k+1]
	}
	v := k + len(quote)
	e := refEnd(s[v:min(n, v+maxReference)])
	if e <= 0 {
		return 0
	}
	e += v
	if quote != "" {
		if !strings.HasPrefix(s[e:], quote) {
			return 0
		}
		e += len(quote)
	}
	if !valueStops(s, e) {
		// A quote may close the string the value sits in ("pw=$pw"),
		// or join more to it ($pw'S3cret'): only a quote that a stop
		// follows ends it.
		q := 1
		if strings.HasPrefix(s[e:], `\"`) {
			q = 2
		} else if s[e] != '"' && s[e] != '\'' {
			return 0 // more follows: $pw-suffix, ${A}b
		}
		if !valueStops(s, e+q) {
			return 0
		}
	}
	return e
}

// valueStops reports whether a value ends at e: the end of s, a blank,
// an operator, a closing bracket or a comma.
func valueStops(s string, e int) bool {
	return e >= len(s) || strings.IndexByte(" \t\r\n;&|)},", s[e]) >= 0 || strings.HasPrefix(s[e:], `\n`)
}

// refEnd returns the length of the reference starting t, or 0.
func refEnd(t string) int {
	switch {
	case strings.HasPrefix(t, "${{"):
		return templateRef(t, "${{", "}}")
	case strings.HasPrefix(t, "{{"):
		return templateRef(t, "{{", "}}")
	case strings.HasPrefix(t, "${"):
		if e := identEnd(t, 2, false); e > 2 && e < len(t) && t[e] == '}' {
			return e + 1
		}
	case strings.HasPrefix(t, "$"):
		if e := identEnd(t, 1, false); e > 1 {
			return e
		}
	case strings.HasPrefix(t, "%("):
		if e := identEnd(t, 2, false); e > 2 && e+1 < len(t) && t[e] == ')' && t[e+1] == 's' {
			return e + 2
		}
	case strings.HasPrefix(t, "%"):
		if e := identEnd(t, 1, false); e > 1 && e < len(t) && t[e] == '%' {
			return e + 1
		}
	}
	return 0
}

// templateRef reads open, blanks, a dotted name, blanks, close.
func templateRef(t, open, close string) int {
	p := len(open)
	for p < len(t) && t[p] == ' ' {
		p++
	}
	e := identEnd(t, p, true)
	if e == p {
		return 0
	}
	for e < len(t) && t[e] == ' ' {
		e++
	}
	if !strings.HasPrefix(t[e:], close) {
		return 0
	}
	return e + len(close)
}

// identEnd returns where the identifier (letters, digits, '_', and '.'
// when dotted) starting at p ends; one starting with a digit is none.
func identEnd(t string, p int, dotted bool) int {
	e := p
	for e < len(t) {
		c := t[e]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || e > p && (c >= '0' && c <= '9' || dotted && c == '.') {
			e++
			continue
		}
		break
	}
	return e
}

// callName reports whether w, followed by '(', names a function: a
// dotted identifier, no shell expansion.
func callName(w string) bool {
	return w != "" && identEnd(w, 0, true) == len(w)
}

// qualifiedCallEnd returns the index of the '(' after the function name
// at p, qualified by '.', '::' or '->' (bcrypt.hashSync(,
// BCrypt::Password.create(, $hasher->make(), or p when none is there.
// A name after a variable ($hasher) must be qualified.
func qualifiedCallEnd(s string, p int) int {
	e := p
	if e < len(s) && s[e] == '$' {
		e++
		if x := identEnd(s, e, false); x == e || !strings.HasPrefix(s[x:], "->") && !strings.HasPrefix(s[x:], "::") && (x >= len(s) || s[x] != '.') {
			return p
		}
	}
	for e < len(s) && e-p < 64 {
		if x := identEnd(s, e, false); x > e {
			e = x
			continue
		}
		switch {
		case s[e] == '.' && e > p:
			e++
		case strings.HasPrefix(s[e:], "::") || strings.HasPrefix(s[e:], "->"):
			e += 2
		case s[e] == '(' && e > p && isAlnumUnderscore(s[e-1]):
			return e
		default:
			return p
		}
	}
	return p
}

// callValue handles a secret-named key whose value is the call named by
// s[i:j] (auth := smtp.PlainAuth("", "bob", pw, h)): the call's name is
// no secret, its arguments may be. A known credential constructor's own
// rule reads them as the scan goes on; another call's literal is the
// secret (SecretStr("…"), b64decode("…")), except a getter's first
// argument, which names where the secret is (os.getenv("API_KEY", "…")
// keeps the name and loses the default).
func (r *redactor) callValue(i, j int) int {
	s := r.s
	w := s[i:j]
	if loginCall(w) || callSecretArg(s, i, j) != -1 || dsnCall(s, i, j) {
		return 0
	}
	n := 0
	last := strings.ToLower(w[strings.LastIndexByte(w, '.')+1:])
	for _, g := range [...]string{"get", "env", "read", "load", "fetch", "lookup", "environ", "input", "prompt", "getpass"} {
		if strings.HasPrefix(last, g) {
			n = 1
		}
	}
	if end := r.callArgument(j, n); end > 0 {
		return end
	}
	return 0
}
