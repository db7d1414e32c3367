package audit

import "strings"

// A key named by its file: openssl's -signkey k.pem and -inkey, ssh's and
// ansible's --private-key ~/.ssh/id_rsa, terraform's ssh_key=…pub. The
// name ends in "key", but the value is where the key is kept, a path, and
// no secret.

// keyFilePath reports whether the key or flag w, whose separator or
// blank is at sep, names a key and is given a file's path.
func keyFilePath(w, s string, sep int) bool {
	l := strings.ToLower(strings.TrimLeft(w, "-"))
	if !strings.HasSuffix(l, "key") || sep >= len(s) {
		return false
	}
	k := sep
	switch {
	case s[k] == '=':
		k++
	case w[0] == '-' && (s[k] == ' ' || s[k] == '\t'):
		k = skipBlanks(s, k)
	default:
		return false
	}
	if k < len(s) && (s[k] == '"' || s[k] == '\'') {
		k++
	}
	e := k
	for e < len(s) && e-k < 256 && s[e] > ' ' && s[e] != '"' && s[e] != '\'' && s[e] != ',' && s[e] != ';' {
		e++
	}
	v := s[k:e]
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") ||
		strings.HasPrefix(v, "$HOME/") || strings.HasPrefix(v, "${HOME}/") {
		return true
	}
	if d := strings.LastIndexByte(v, '.'); d > 0 {
		switch strings.ToLower(v[d+1:]) {
		case "pem", "key", "crt", "cer", "der", "p12", "pfx", "jks", "pub", "ppk", "asc", "gpg", "p8":
			return true
		}
	}
	return false
}
