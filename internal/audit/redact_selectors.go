package audit

import "strings"

// Secret-named keys whose value is no secret where they are written: a
// SQL condition's key column (WHERE key = 'theme') selects a row by its
// name; keytool's -storepass:env NAME and -keypass:file PATH say where
// the password is; QEMU's password-secret=ID and key-secret=ID name a
// secret object, and password=on is a switch (the password is set in the
// monitor).

// keptValue reports whether the value after the secret-named key s[i:j],
// whose separator is at sep, is none of the secret's.
func (r *redactor) keptValue(i, j, sep int) bool {
	s, w := r.s, r.s[i:j]
	switch {
	case sep == j && sep+1 < len(s) && s[sep] == ':' && w[0] == '-':
		// keytool -storepass:env VAR, -keypass:file /path
		v := s[sep+1:]
		return (strings.HasPrefix(v, "env") || strings.HasPrefix(v, "file")) && len(v) > 4 && wordEnd3(v)
	case sep == j && sep < len(s) && s[sep] == '=' && qemuSecretRef(w):
		return true // qemu -drive …,password-secret=sec0, -o key-secret=k
	case i > 0 && s[i-1] == ',' && sep == j && sep < len(s) && s[sep] == '=':
		// qemu -vnc :0,password=on
		v := s[sep+1:]
		for _, b := range [...]string{"on", "off"} {
			if strings.HasPrefix(v, b) && (len(v) == len(b) || strings.IndexByte(", \t\n'\"", v[len(b)]) >= 0) {
				return true
			}
		}
	}
	if v := valueStart(s, sep); v > 0 && (fileReference(s[v:]) || switchName(w) && boolWord(s[v:]) || s[sep] == '=' && authName(w) && mechanismWord(s, v, r.textQuoted(i))) {
		// --secret-string file://secret.json, a file the tool reads;
		// MYSQL_ALLOW_EMPTY_PASSWORD=yes, a switch, not a password;
		// curl --login-options AUTH=PLAIN, SMTP_AUTH=LOGIN, a way to
		// log in.
		return true
	}
	return sqlKeyColumn(s, i, j)
}

// valueStart returns where the value after a name's separator at sep
// ('=', ':' or blanks, with an opening quote) starts, or 0.
func valueStart(s string, sep int) int {
	if sep >= len(s) {
		return 0
	}
	k := sep
	if s[k] == '=' || s[k] == ':' {
		k++
	}
	k = skipBlanks(s, k)
	if k < len(s) && (s[k] == '"' || s[k] == '\'') {
		k++
	}
	if k >= len(s) {
		return 0
	}
	return k
}

// fileReference reports whether a value names a file for the tool to
// read (the AWS CLI's file:// and fileb://): where the secret is.
func fileReference(v string) bool {
	return strings.HasPrefix(v, "file://") || strings.HasPrefix(v, "fileb://")
}

// switchName reports whether a secret-named name is a switch about the
// secret, by a part that says so: MYSQL_ALLOW_EMPTY_PASSWORD,
// MARIADB_RANDOM_ROOT_PASSWORD, SKIP_PASSWORD, generate-password.
func switchName(w string) bool {
	for k := 0; k < len(w); {
		for k < len(w) && (w[k] == '_' || w[k] == '-' || w[k] == '.') {
			k++
		}
		e := k
		for e < len(w) && w[e] != '_' && w[e] != '-' && w[e] != '.' {
			e++
		}
		switch strings.ToLower(w[k:e]) {
		case "allow", "random", "generate", "empty", "skip", "disable", "enable", "require", "required", "force":
			return true
		}
		k = e
	}
	return false
}

// boolWord reports whether a value is a boolean word alone: yes, no,
// true, false, on, off, 0, 1.
func boolWord(v string) bool {
	e := 0
	for e < len(v) && isAlnum(v[e]) {
		e++
	}
	if e < len(v) && strings.IndexByte(" \t\r\n;&|)'\",}", v[e]) < 0 {
		return false
	}
	switch strings.ToLower(v[:e]) {
	case "yes", "no", "true", "false", "on", "off", "0", "1":
		return true
	}
	return false
}

// qemuSecretRef reports whether w is a QEMU property whose value is the
// id of a secret object.
func qemuSecretRef(w string) bool {
	switch w {
	case "password-secret", "proxy-password-secret", "key-secret", "passwordid", "keysecret":
		return true
	}
	return false
}

// wordEnd3 reports whether v, starting with env or file, is that word
// alone: keytool's source type, followed by a blank.
func wordEnd3(v string) bool {
	n := 3
	if v[0] == 'f' {
		n = 4
	}
	return len(v) > n && (v[n] == ' ' || v[n] == '\t')
}

// sqlKeyColumn reports whether s[i:j] is a key-value table's key column
// compared in a SQL condition (WHERE key = 'theme', AND meta_key IN …):
// the literal names a row. A credential column (api_key) compared there
// is still read as one.
func sqlKeyColumn(s string, i, j int) bool {
	name := s[i:j]
	if d := strings.LastIndexByte(name, '.'); d >= 0 {
		name = name[d+1:] // s.key: the table's name before
	}
	switch strings.ToLower(name) {
	case "key", "meta_key", "setting_key", "config_key", "option_key", "pref_key", "cache_key", "settings_key", "name_key":
	default:
		return false
	}
	k := i
	if k > 0 && (s[k-1] == '`' || s[k-1] == '"') {
		k-- // `key`, "key"
	}
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t' || s[k-1] == '(') {
		k--
	}
	b := k
	for b > 0 && b > k-8 && wordByte[s[b-1]] {
		b--
	}
	switch strings.ToUpper(s[b:k]) {
	case "WHERE", "AND", "OR", "ON", "WHEN", "NOT":
		return true
	}
	return false
}

// authName reports whether the name w says auth and no other credential
// word (AUTH, SMTP_AUTH, --auth): its value may be a method's name
// rather than the secret itself.
func authName(w string) bool {
	w = strings.TrimLeft(w, "-")
	n := len(w)
	return n >= 4 && strings.EqualFold(w[n-4:], "auth") && (n == 4 || strings.IndexByte("_-.", w[n-5]) >= 0)
}

// mechanismWord reports whether the value at s[k] is, alone, the name of
// a way to authenticate or of a digest (SASL's PLAIN, LOGIN, CRAM-MD5,
// SCRAM-SHA-256, HTTP's basic, SNMP's SHA) or curl's '*' for any of them:
// a choice, never a password. A quoted value must end with its quote
// (X_AUTH="Basic dXNlcjpwdw==" is a header's credential).
func mechanismWord(s string, k int, quoted bool) bool {
	v := s[k:]
	e := 0
	for e < len(v) && (isAlnum(v[e]) || v[e] == '-' || v[e] == '*' && e == 0) {
		e++
	}
	if q := s[k-1]; q == '"' || q == '\'' {
		if e == 0 || e >= len(v) || v[e] != q {
			return false
		}
	} else if e == 0 || e < len(v) && (strings.IndexByte(" \t\r\n;&|)'\",}", v[e]) < 0 || quoted && (v[e] == ' ' || v[e] == '\t')) {
		// In a quoted text ('X_AUTH=Basic dXNl…' >> .env) a blank
		// goes on with the value.
		return false
	}
	switch strings.ToUpper(v[:e]) {
	case "*", "PLAIN", "LOGIN", "CRAM-MD5", "DIGEST-MD5", "SCRAM-SHA-1", "SCRAM-SHA-256", "SCRAM-SHA-512", "XOAUTH2",
		"OAUTHBEARER", "GSSAPI", "GS2-KRB5", "NTLM", "EXTERNAL", "ANONYMOUS", "BASIC", "DIGEST", "NEGOTIATE", "KERBEROS",
		"MD5", "SHA", "SHA1", "SHA-1", "SHA224", "SHA256", "SHA-256", "SHA384", "SHA512", "SHA-512", "NONE":
		return true
	}
	return false
}

// textQuoted reports whether the word at i sits in a quoted string that
// is text, not a shell's script (sh -c '…', ssh h "…"), whose blanks part
// words.
func (r *redactor) textQuoted(i int) bool {
	q, ok := r.quoteAt(i)
	if !ok || q == 0 {
		return false
	}
	// In the script's string, a quote the script opens before the word
	// (ssh h 'echo "X_AUTH=…" >> .env') makes it text again; a script
	// too long to look back through is taken as text.
	at := r.stdin.scriptAt
	return at < 0 || r.quotes.open+1 != at || i-at > 4096 || strings.ContainsAny(r.s[at:i], "'\"")
}
