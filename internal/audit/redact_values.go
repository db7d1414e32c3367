package audit

import "strings"

// The value after a secret-named key, flag or header: where it ends
// however it is quoted, keeping an auth scheme and a header's name.

// maxTemplate bounds the template expression a value is read as.
const maxTemplate = 256

// keyValue redacts the value after a secret-named key ending at j, if a
// separator follows: optional closing quote, then '=', ':' or '=>' (or
// blanks after a --flag), then the value, quoted or not.
func (r *redactor) keyValue(j int, flag bool, kind keyKind, styled bool) int {
	s, n := r.s, len(r.s)
	k := j
	quotedKey := true
	switch {
	case escapedQuote(s, k) > 0:
		k += escapedQuote(s, k)
	case strings.HasPrefix(s[k:], `'\''`):
		k += 4 // sh -c 'echo "{'\''password'\'': …}"': the inner shell's quote
	case k < n && (s[k] == '"' || s[k] == '\''):
		k++
	default:
		quotedKey = false
	}
	k = skipBlanks(s, k)
	if k < n && (s[k] == '}' || s[k] == ']') {
		// "${NAME}" == "…", environ["NAME"] != "…": a comparison.
		e := k + 1
		if strings.HasPrefix(s[e:], `\"`) {
			e++
		}
		if e < n && (s[e] == '"' || s[e] == '\'') {
			e++
		}
		if e = skipBlanks(s, e); e+1 < n && (s[e] == '=' || s[e] == '!') && s[e+1] == '=' {
			return r.compared(j, e, kind)
		}
	}
	switch {
	case k >= n:
		return 0
	case s[k] == '=' && strings.HasPrefix(s[k:], "=>"):
		k += 2
	case s[k] == '=' && strings.HasPrefix(s[k:], "=="):
		// A comparison, except in httpie's name==value query items:
		// its literal is the secret (redact_compare.go).
		if r.prog == nil || !r.prog.query {
			return r.compared(j, k, kind)
		}
		k += 2
	case strings.HasPrefix(s[k:], "!="):
		return r.compared(j, k, kind)
	case s[k] == '=':
		k++
	case s[k] == '+' && strings.HasPrefix(s[k:], "+="):
		k += 2
	case strings.HasPrefix(s[k:], ":="):
		k += 2 // httpie's raw JSON field, make's NAME := value
	case strings.HasPrefix(s[k:], "||=") || strings.HasPrefix(s[k:], "??="):
		k += 3 // Ruby's NAME ||= value, JavaScript's ??=
	case strings.HasPrefix(s[k:], "?=") || strings.HasPrefix(s[k:], "::="):
		k += 2 + b2i(s[k] == ':') // make's NAME ?= value and NAME ::= value
	case s[k] == ':' && !strings.HasPrefix(s[k:], "://"):
		if k+2 < n && s[k+1] == ':' && (isAlnum(s[k+2]) || s[k+2] == '_') {
			return 0 // a scope, no key: JWT::encode(…), Secret::Key
		}
		// pwd: "…" in a script's object literal is a password, pwd:
		// unquoted in prose is not.
		if eq := typedEquals(s, k+1); eq > 0 && !quotedKey {
			k = eq + 1 // password: string = "…": the type is no value (redact_decls.go)
			break
		}
		if (kind == keyName || kind == keyPwd) && !styled && !startsQuote(s, skipBlanks(s, k+1)) {
			return 0
		}
		if strings.HasPrefix(s[k:], ":: ") {
			k++ // LDIF's userPassword:: BASE64
		}
		k++
	case flag && k > j && k == skipBlanks(s, j) && kind != keyName && kind != keyPwd:
		// --password value
		if s[k] == '-' {
			return 0
		}
	default:
		return 0
	}
	header := s[k-1] == ':' && (kind == keyAuth || kind == keyCookie)
	// After name= (or --flag value) the value is a shell word, unless the
	// name was quoted (JSON, YAML) or the separator is ':' or '=>'.
	shell := !quotedKey && s[k-1] != ':' && s[k-1] != '>'
	k = skipBlanks(s, k)
	for !flag && k < n && s[k-1] != '=' && (s[k] == '&' || s[k] == '!') {
		// YAML's anchor or tag before the value: password: &pw PW,
		// password: !!str PW. A --flag's value is a shell word, where
		// ! is a byte like others (gpg --passphrase !S3cret).
		e := k
		for e < n && s[e] != ' ' && s[e] != '\t' && s[e] != '\n' {
			e++
		}
		if e >= n || s[e] == '\n' {
			break
		}
		k = skipBlanks(s, e)
	}
	if k >= n {
		return 0
	}
	if s[k-1] == ':' || s[k] == '|' || s[k] == '>' {
		if end := r.yamlNextLines(k); end > 0 {
			return end // password:⏎  S3cret, password: |⏎  S3cret
		}
	}
	if kind == keyPwd {
		v := k
		if s[v] == '"' || s[v] == '\'' {
			v++
		}
		if looksLikePath(s, v) {
			return 0
		}
	}
	if kind == keyAuth && s[k-1] == '=' {
		// 'Authorization=OAuth TOKEN' in a quoted string (streamlink
		// --twitch-api-header, header=value options): a header's
		// scheme and credentials after '=', read as after ':'.
		if end := r.schemeAfterEquals(k); end > 0 {
			return end
		}
	}
	if v := k + b2i(s[k] == '('); hasPrefixFold(s[v:], "ConvertTo-SecureString") {
		// $pw = ConvertTo-SecureString "…" -AsPlainText, -Password
		// (ConvertTo-SecureString "…"): the program's own rule finds
		// the secret among its words.
		return v
	}
	if shell && s[k] == '(' && s[k-1] != '=' && s[j] == ' ' && k >= r.readEnd {
		// auth = ('bob', …): a script's tuple, no shell array; its
		// last element is the secret.
		r.readEnd = groupEnd(s, k)
		if end := r.readEnd; end-1 > k+1 && s[end-1] == ')' {
			if c := strings.LastIndexByte(s[k:end-1], ','); c > 0 {
				return r.replace(skipBlanks(s, k+c+1), end-1, Redacted) + 1
			}
		}
	}
	if shell && s[k] == '(' && s[k-1] == '=' && k >= r.readEnd {
		// NAME=(a b …): every element of a secret-named array.
		r.readEnd = groupEnd(s, k)
		if end := r.readEnd - 1; end > k+1 && s[end] == ')' {
			return r.replace(k+1, end, Redacted) + 1
		}
		return 0
	}
	if c := qualifiedCallEnd(s, k); c > k && s[k] == '$' {
		return r.callValue(k, c) // password = $hasher->make("…")
	}
	if e := referenceEnd(s, k); e > 0 && !header {
		// password=$pw, password=%(pw)s: a reference shows no secret;
		// what it names is one where it is set.
		if !r.argv.second {
			r.secretUse(k, e)
		}
		return e
	}
	if strings.HasPrefix(s[k:], "{{") {
		// password={{ "…" | password_hash }}: a template's expression,
		// blanks and all.
		if e := strings.Index(s[k:min(n, k+maxTemplate)], "}}"); e > 0 && strings.IndexByte(s[k:k+e], '\n') < 0 {
			return r.replace(k, k+e+2, Redacted)
		}
	}
	if strings.HasPrefix(s[k:], Redacted) {
		// Redacted already (a tool's note redacted again with the
		// call's secrets): read as a word or a list, it would grow a
		// ']' each time.
		return k + len(Redacted)
	}
	if shell && kind != keyAuth && s[k-1] == '=' {
		// 'api_key=Bearer …' in a quoted string: the scheme stays, its
		// credentials go (schemeAfterEquals).
		e := k
		for e < n && e-k <= 16 && (isAlnum(s[e]) || s[e] == '-') {
			e++
		}
		if authSchemeWord(s[k:e]) {
			if end := r.schemeAfterEquals(k); end > 0 {
				return end
			}
		}
	}
	if shell {
		start, end := r.valueWord(k, true)
		if end <= start {
			return 0
		}
		if end < n && s[end] == '(' && callName(s[start:end]) {
			return r.callValue(start, end)
		}
		r.scriptNameUse(start, identEnd(s, start, false)) // password = pw: pw = "…" is the secret
		return r.replace(start, end, Redacted)
	}
	if (s[k] == '{' || s[k] == '[') && schemeBrace(s, k) == 0 && k >= r.bracketEnd {
		// "bearer": {"h": "…"}, api_keys: [a, b]: the whole map or
		// list a secret-named key holds. A look that found no close
		// is not repeated inside what it read.
		c := bracketEnd(s, k)
		if c == k+1 {
			return c + 1 // {} or []: nothing held
		}
		if c > k+1 {
			return r.replace(k+1, c, Redacted) + 1
		}
		r.bracketEnd = len(s) // the look read to the end
	}
	start, end, quote := k, 0, ""
	switch {
	case escapedQuote(s, k) > 0:
		quote = s[k : k+escapedQuote(s, k)]
	case strings.HasPrefix(s[k:], `'\''`):
		quote = `'\''`
	case s[k] == '"' || s[k] == '\'':
		quote = s[k : k+1]
	}
	if e := r.pastClose(k, k); e > k && quote != `'\''` {
		end = e // -H 'X-Api-Key: '"$part"S3cret
	} else if q, ok := r.quoteAt(k); ok && len(quote) == 1 && q == quote[0] {
		// The quote closes the key's string: the value is what the
		// shell word goes on with (-H 'X-Api-Key: '+pw), or none
		// (expect "Password: ").
		if k+1 >= n || strings.IndexByte(" \t\r\n;|&)<>", s[k+1]) >= 0 {
			return 0
		}
		start, end = k+1, wordEnd(s, k+1, 0, false)
	} else if quote != "" {
		start += len(quote)
		end = quotedEnd(s, start, quote)
	} else if e := schemeBrace(s, start); e > 0 {
		end = valueEnd(s, e, false) // userPassword: {SSHA}…, olcRootPW: {CRYPT}…
	} else if c := qualifiedCallEnd(s, start); c > start {
		// password: bcrypt.hashSync("…", 10), 'password' =>
		// Hash::make('…'): the call's name is no secret, its
		// literal is.
		return r.callValue(start, c)
	} else {
		end = r.pastClose(start, r.headerEnd(start, header))
	}
	if w := s[start:end]; (!header || kind != keyAuth) && quote == "" && end < n && (s[end] == ' ' || s[end] == '\t') && authSchemeWord(w) {
		// token: Bearer …, X-Auth: Basic …, Authentication: Token …:
		// a secret's value that is an auth scheme and its
		// credentials; the scheme stays.
		if v := skipBlanks(s, end); v < n && bearerByte(s[v]) {
			start = v
			end = r.pastClose(start, r.headerEnd(start, true))
		}
	}
	if header && kind == keyAuth {
		// Keep the scheme (Bearer, Basic, …) when credentials follow it.
		w := start
		for w < end && (s[w] >= 'A' && s[w] <= 'Z' || s[w] >= 'a' && s[w] <= 'z') {
			w++
		}
		if w > start && w < end && (s[w] == ' ' || s[w] == '\t') {
			start = skipBlanks(s, w)
		}
	}
	if end <= start {
		return 0
	}
	if quote == "" {
		r.scriptNameUse(start, identEnd(s, start, false)) // {"password": pw}: pw = "…" is the secret
	}
	return r.replace(start, end, Redacted)
}

// escapedQuote returns the length of the quote at k escaped once or
// more (\", \\\" two shells down, \\" in '…'), or 0: JSON in a
// string of a script another shell runs.
func escapedQuote(s string, k int) int {
	e := k
	for e < len(s) && e-k < 16 && s[e] == '\\' {
		e++
	}
	if e == k || e >= len(s) || s[e] != '"' {
		return 0
	}
	return e + 1 - k
}

// authSchemeWord reports whether w is an HTTP auth scheme that its
// credentials follow after a blank (Bearer, Basic, Token, …).
func authSchemeWord(w string) bool {
	if len(w) < 3 || len(w) > 16 {
		return false
	}
	for _, a := range [...]string{"bearer", "basic", "token", "bot", "digest", "oauth", "jwt", "apikey", "api-key", "key", "ssws", "splunk",
		"geniekey", "negotiate", "ntlm", "hmac", "sharedaccesssignature"} {
		if strings.EqualFold(w, a) {
			return true
		}
	}
	return false
}

// schemeAfterEquals redacts the credentials after an auth scheme word at
// k (OAuth, Bearer, Basic, AWS4-HMAC-SHA256 …), keeping the scheme, when
// k sits in a quoted string that goes on after the scheme; it returns
// where scanning resumes, or 0.
func (r *redactor) schemeAfterEquals(k int) int {
	s := r.s
	if q, ok := r.quoteAt(k); !ok || q != '\'' && q != '"' {
		return 0
	}
	w := k
	for w < len(s) && w-k <= 32 && (wordByte[s[w]] && s[w] != '.') {
		w++
	}
	if w == k || w >= len(s) || s[k] < 'A' || (s[w] != ' ' && s[w] != '\t') {
		return 0
	}
	start := skipBlanks(s, w)
	end := r.pastClose(start, r.headerEnd(start, true))
	if end <= start {
		return 0
	}
	return r.replace(start, end, Redacted)
}

// quotedEnd returns the index of the closing quote, skipping backslash
// escapes inside double quotes; without one, the end of s. The quote \" is
// a JSON string inside a JSON string, where \\ is one backslash and \" one
// quote.
func quotedEnd(s string, k int, quote string) int {
	for k < len(s) {
		switch {
		case quote == `\"` && strings.HasPrefix(s[k:], `\\`):
			k += 2
			if strings.HasPrefix(s[k:], `\\`) || strings.HasPrefix(s[k:], `\"`) {
				k += 2
			} else {
				k++
			}
		case strings.HasPrefix(s[k:], quote):
			return k
		case s[k] == '\\' && quote == `"` && k+1 < len(s):
			k += 2
		default:
			k++
		}
	}
	return min(k, len(s))
}

// headerEnd returns where the unquoted value starting at k ends (valueEnd);
// a header's value inside a quoted string runs to the quote that closes
// that string, quotes of the other kind being bytes of it (-H
// 'Authorization: Bearer "tok"', -H "Cookie: a='b'; sid=…").
func (r *redactor) headerEnd(k int, header bool) int {
	s := r.s
	if !header {
		return valueEnd(s, k, false)
	}
	q, ok := r.quoteAt(k)
	if !ok || (q != '\'' && q != '"') {
		return valueEnd(s, k, true)
	}
	// In a shell's script (ssh h "printf 'Authorization: Bearer %s' …"),
	// a string of the script ends the value too.
	iq, _ := r.quotes.innerAt(s, k)
	end := k
	for end < len(s) && s[end] != '\n' && s[end] != '\r' && s[end] != q && (iq == 0 || s[end] != iq) {
		if s[end] == '\\' && q == '"' {
			if iq == '"' && end+1 < len(s) && s[end+1] == '"' {
				break // \" closes the script's string
			}
			end++
		}
		end++
	}
	return min(end, len(s))
}

// valueEnd returns where an unquoted value starting at k ends: at a blank,
// a quote or a delimiter; a header value runs to the end of its line.
func valueEnd(s string, k int, header bool) int {
	for ; k < len(s); k++ {
		switch s[k] {
		case '\n', '\r', '"', '\'', '`':
			return k
		case ' ', '\t', '&', ';', ',', '}', ']', ')', '|', '<', '>':
			if !header {
				return k
			}
		}
	}
	return k
}

func bearerByte(c byte) bool {
	return wordByte[c] || c == '~' || c == '+' || c == '/' || c == '='
}

// yamlNextLines redacts a YAML value that starts on the line after its key
// (k is just past "key:" and its blanks): a plain scalar indented below
// the key, or a block scalar (| or >, with its indicators) and all its
// lines. It returns where scanning resumes, or 0 when the value is on the
// key's own line.
func (r *redactor) yamlNextLines(k int) int {
	s := r.s
	if s[k] == '|' || s[k] == '>' {
		h := k + 1
		for h < len(s) && strings.IndexByte("+-0123456789", s[h]) >= 0 {
			h++
		}
		k = skipBlanks(s, h)
	}
	if k >= len(s) || s[k] != '\n' {
		return 0
	}
	first := k + 1
	indent := 0
	for first+indent < len(s) && s[first+indent] == ' ' {
		indent++
	}
	if indent == 0 {
		return 0 // the next key, not a value
	}
	end := first
	for end < len(s) {
		line := end
		sp := 0
		for line+sp < len(s) && s[line+sp] == ' ' {
			sp++
		}
		if sp < indent && line+sp < len(s) && s[line+sp] != '\n' {
			break
		}
		nl := strings.IndexByte(s[line:], '\n')
		if nl < 0 {
			end = len(s)
			break
		}
		end = line + nl + 1
	}
	for end > first && s[end-1] == '\n' {
		end--
	}
	if end <= first+indent {
		return 0
	}
	return r.replace(first+indent, end, Redacted)
}

// schemeBrace returns the index after a password scheme's {NAME} at k
// ({SSHA}, {CRYPT}, {SHA512-CRYPT}, {PLAIN}), which LDAP and Dovecot put
// before a hash or a password, or 0.
func schemeBrace(s string, k int) int {
	if k >= len(s) || s[k] != '{' {
		return 0
	}
	for e := k + 1; e < len(s) && e-k <= 24; e++ {
		switch c := s[e]; {
		case c == '}':
			if e > k+1 {
				return e + 1
			}
			return 0
		case c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_':
		default:
			return 0
		}
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// bracketEnd returns the index of the bracket that closes the one at k,
// past quoted strings, or 0 when it does not close. It reads as far as
// the close, however far: a map of many kilobytes under a secret key
// (a JSON document's "credentials") is held whole. A look that found
// none is not repeated (bracketEnd in the redactor), and one that did is
// replaced, so each byte is read once.
func bracketEnd(s string, k int) int {
	open, shut := s[k], byte('}')
	if open == '[' {
		shut = ']'
	}
	depth := 0
	for e := k; e < len(s); e++ {
		switch s[e] {
		case '\\':
			if e+1 < len(s) && s[e+1] == '"' {
				// ssh h "curl -d '{\"a\": …}'": a string of JSON one
				// shell down, quoted \"…\".
				x := strings.Index(s[e+2:], `\"`)
				if x < 0 {
					return 0
				}
				e += 2 + x + 1
			}
		case '"', '\'':
			q := s[e]
			for e++; e < len(s) && s[e] != q && s[e] != '\n'; e++ {
				if s[e] == '\\' {
					e++
				}
			}
		case open:
			depth++
		case shut:
			depth--
			if depth == 0 {
				return e
			}
		}
	}
	return 0
}
