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
	case secret && strings.EqualFold(next, "id"):
		// Secret ID = …, Secret ID: ….
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
