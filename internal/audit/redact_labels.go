package audit

import "strings"

// Secrets that tools print under a label of two words, as a terminal
// recording keeps them (session output is redacted as the commands
// are): Vault's "Unseal Key 1: …" and "Recovery Key 2: …" (operator
// init), Nomad's "Secret ID    = …" and Consul's "Secret ID: …" (acl
// bootstrap, acl token create). The label's first word names a secret
// and the second numbers or identifies it; the value after ':' or '='
// goes. Accessor IDs and public keys stay.

// labelled redacts the value after the label that the word s[i:j] (a
// blank after it) begins, and returns where scanning resumes, or 0.
func (r *redactor) labelled(i, j int) int {
	s := r.s
	w := s[i:j]
	if w[0] < 'A' || w[0] > 'Z' || i > 0 && (s[i-1] == '-' || s[i-1] == '.' || s[i-1] == '_') {
		return 0 // a printed label is capitalized; --secret id=npm,src=… is an option
	}
	k := skipBlanks(s, j)
	e := k
	for e < len(s) && isAlnum(s[e]) {
		e++
	}
	if e == k || e-k > 8 {
		return 0
	}
	next := s[k:e]
	secret := secretKey(w) != keyNone || secretName(w)
	switch {
	case isDigits(next) && (secret || strings.EqualFold(w, "key") || strings.EqualFold(w, "share")):
		// Unseal Key 1: …, Key Share 2: …; not Public Key 1: ….
		b := i
		for b > 0 && (s[b-1] == ' ' || s[b-1] == '\t') {
			b--
		}
		a := b
		for a > 0 && isAlnum(s[a-1]) {
			a--
		}
		if identifierKey(strings.ToLower(s[a:b])) {
			return 0
		}
	case secret && strings.EqualFold(next, "id") && (e < len(s) && s[e] == ':' || skipBlanks(s, e) > e):
		// Secret ID = …, Secret ID: …; not Secret id=….
	default:
		return 0
	}
	k = skipBlanks(s, e)
	if k >= len(s) || s[k] != ':' && s[k] != '=' {
		return 0
	}
	k = skipBlanks(s, k+1)
	if k >= len(s) || s[k] == '\n' || s[k] == '\r' {
		return 0
	}
	start, end := r.valueWord(k, false)
	if end <= start {
		return 0
	}
	return r.replace(start, end, Redacted)
}

// passwordWord redacts the password that the word password, s[i:j],
// introduces in a netrc line or in a tool's printed announcement, and
// returns where scanning resumes, or 0.
func (r *redactor) passwordWord(i, j int) int {
	if end := r.netrcPassword(i, j); end > 0 {
		return end
	}
	return r.announced(i, j)
}

// announced redacts the password a tool prints when it makes one: a
// line naming it as generated, temporary, initial or the following one
// and ending in ':' before the password alone, on the line or the next
// that holds anything (MySQL's "A temporary password is generated for
// root@localhost: …", Elasticsearch's "The generated password for the
// elastic user is:⏎ …", Jenkins' "Please use the following password to
// proceed to installation:⏎⏎…"), and elasticsearch-setup-passwords'
// "PASSWORD elastic = …" rows. chage -l's "Password expires : never"
// announces nothing and stays.
func (r *redactor) announced(i, j int) int {
	s := r.s
	ls := strings.LastIndexByte(s[max(0, i-256):i], '\n') + 1 + max(0, i-256)
	le := j + strings.IndexByte(s[j:min(len(s), j+256)], '\n')
	if le < j {
		le = min(len(s), j+256)
	}
	if s[i:j] == "PASSWORD" && ls == i {
		// PASSWORD elastic = …
		k := skipBlanks(s, j)
		e := k
		for e < le && (isAlnum(s[e]) || s[e] == '_' || s[e] == '-' || s[e] == '.') {
			e++
		}
		if e > k && strings.HasPrefix(s[e:le], " = ") {
			return r.lineValue(e+3, le)
		}
		return 0
	}
	line := strings.ToLower(s[ls:le])
	if !strings.Contains(line, "generated") && !strings.Contains(line, "temporary") &&
		!strings.Contains(line, "initial") && !strings.Contains(line, "following") {
		return 0
	}
	c := strings.LastIndexByte(s[j:le], ':')
	if c < 0 || strings.ContainsAny(s[ls:j+c], "\"{}=,;") {
		return 0 // a line of code or data ({"type":"password",…,"temporary":false}) is no announcement
	}
	k := skipBlanks(s, j+c+1)
	for n := 0; k >= le && n < 3 && le < len(s); n++ {
		// The password on a line of its own after the announcement.
		ls = le + 1
		if le = ls + strings.IndexByte(s[ls:min(len(s), ls+256)], '\n'); le < ls {
			le = min(len(s), ls+256)
		}
		k = skipBlanks(s, ls)
		if k < le && s[k] == '\r' {
			k = le
		}
	}
	return r.lineValue(k, le)
}

// lineValue redacts s[k:le] when it is one word alone (an optional \r
// ending the line), and returns where scanning resumes, or 0.
func (r *redactor) lineValue(k, le int) int {
	s := r.s
	e := le
	for e > k && (s[e-1] == '\r' || s[e-1] == ' ' || s[e-1] == '\t') {
		e--
	}
	for e > k && (s[e-1] == '"' || s[e-1] == '\'') && strings.Count(s[k:e], s[e-1:e])%2 == 1 {
		e-- // echo "… password: x": the close of the string the line sits in
	}
	if e <= k || e-k > 256 || s[k] == '$' || strings.ContainsAny(s[k:e], " \t") {
		return 0 // several words are prose; $PW is a command's expansion
	}
	return r.replace(k, e, Redacted)
}
