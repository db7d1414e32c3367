package audit

import "strings"

// Settings tools that name a key with one option and give its value with
// another: reg add HKLM\… /v Password /t REG_SZ /d …, plutil -replace
// password -string …, xmlstarlet ed -u //db/password -v …. When the key's
// last segment names a secret, the next value option's value is one.

// keyedOpts are a program's key and value options (compared in any
// case, as Windows' tools take them).
type keyedOpts struct {
	key, value []string
}

// keyedLook reads the command's words from k, and queues the value of
// each value option that follows a key option naming a secret.
func (r *redactor) keyedLook(k int, o *keyedOpts) {
	s := r.s
	if k < r.lookEnd {
		return
	}
	q, _ := r.quoteAt(k)
	lim := min(len(s), k+maxListLook)
	secret, want := false, 0 // want: 1 the key is next, 2 the value is next
	for n := 0; n < 64; n++ {
		k = skipBlanks(s, k)
		if k >= lim || strings.IndexByte("\n\r;|&)`", s[k]) >= 0 || q != 0 && s[k] == q {
			break
		}
		e := wordEnd(s, k, q, false)
		if e <= k {
			break
		}
		tok := s[k:e]
		switch {
		case want == 1:
			secret, want = keyedSecret(tok), 0
		case want == 2:
			if secret {
				r.queue(k, e, whole)
			}
			want = 0
		case hasFold(o.key, tok):
			want = 1
		case hasFold(o.value, tok):
			want = 2
		}
		k = e
	}
	r.lookEnd = max(r.lookEnd, k)
}

// keyedSecret reports whether the key tok (a name, a path, an XPath),
// by its last segment, names a secret.
func keyedSecret(tok string) bool {
	tok = strings.Trim(tok, `"'`)
	if x := strings.LastIndexAny(tok, `/\:@`); x >= 0 {
		tok = tok[x+1:]
	}
	if x := strings.IndexByte(tok, '['); x >= 0 {
		tok = tok[:x]
	}
	return tok != "" && (secretKey(tok) != keyNone || secretName(tok))
}

func hasFold(list []string, w string) bool {
	for _, x := range list {
		if strings.EqualFold(x, w) {
			return true
		}
	}
	return false
}

// secretPathKey reports whether the word s[i:j] ends a key path whose
// first segment is a store of secrets (consul kv put secret/db …,
// etcdctl put /secrets/app/dsn …), whatever the last segment's name.
func secretPathKey(s string, i, j int) bool {
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		j++
	}
	if j >= len(s) || s[j] != ' ' && s[j] != '\t' || i == 0 || s[i-1] != '/' {
		return false
	}
	b := quotedKeyStart(s, i)
	if s[b] == '"' || s[b] == '\'' {
		b++
	}
	first, _, _ := strings.Cut(strings.TrimLeft(s[b:i], "/"), "/")
	switch strings.ToLower(first) {
	case "secret", "secrets", "credentials", "creds", "passwords", "tokens":
		return true
	}
	return false
}

// quotedKeyStart returns where the word holding s[i] starts, at its
// opening quote if it has one, looking back at most 256 bytes.
func quotedKeyStart(s string, i int) int {
	b := i
	for b > 0 && i-b < 256 && s[b-1] > ' ' && s[b-1] != '\'' && s[b-1] != '"' {
		b--
	}
	if b > 0 && (s[b-1] == '\'' || s[b-1] == '"') {
		b--
	}
	return b
}
