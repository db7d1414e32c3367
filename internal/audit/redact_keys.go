package audit

// Which key names hold secrets: the suffixes a key ends in and the kind
// of value each one takes.

type keyKind int

const (
	keyNone keyKind = iota
	keyPlain
	keyAuth   // Authorization: keep the scheme, redact the rest of the line
	keyCookie // Cookie/Set-Cookie: redact the rest of the line
	keyName   // a name secretName calls secret: only before '=', or ':' when styled
	keyPwd    // PWD/OLDPWD: a secret only when the value is no path
)

// secretSuffixes name keys whose values are secrets, compared after
// lower-casing and mapping '-' and '.' to '_'. Entries starting with '_'
// also match the bare word without it ("pass", "auth").
var secretSuffixes = [...]struct {
	suffix string
	kind   keyKind
}{
	{"password", keyPlain}, {"passwd", keyPlain}, {"passphrase", keyPlain},
	{"secret", keyPlain}, {"token", keyPlain},
	{"apikey", keyPlain}, {"api_key", keyPlain}, {"accesskey", keyPlain}, {"access_key", keyPlain},
	{"secretkey", keyPlain}, {"secret_key", keyPlain}, {"privatekey", keyPlain}, {"private_key", keyPlain},
	{"credentials", keyPlain}, {"credential", keyPlain}, {"_auth", keyPlain}, {"_pass", keyPlain},
	{"authkey", keyPlain}, {"auth_key", keyPlain}, {"passin", keyPlain}, {"passout", keyPlain},
	{"storepass", keyPlain}, {"keypass", keyPlain}, {"creds", keyPlain}, {"community", keyPlain},
	{"authtok", keyPlain},     // PAM's and sssd's authentication token: ldap_default_authtok
	{"sonar_login", keyPlain}, // -Dsonar.login=TOKEN: SonarQube's token, despite its name
	{"authorization", keyAuth}, {"cookie", keyCookie},
}

func normKeyByte(c byte) byte {
	switch {
	case c >= 'A' && c <= 'Z':
		return c + 'a' - 'A'
	case c == '-' || c == '.' || c == ' ':
		return '_'
	}
	return c
}

// suffixesByLast indexes secretSuffixes by their last byte, so most words
// are rejected with one table look-up.
var suffixesByLast = func() (t [256][]int) {
	for i, e := range secretSuffixes {
		c := e.suffix[len(e.suffix)-1]
		t[c] = append(t[c], i)
	}
	return t
}()

// secretKey reports what kind of secret-named key w is.
func secretKey(w string) keyKind {
	if len(w) < 4 || len(w) > 128 {
		return keyNone
	}
	cands := suffixesByLast[normKeyByte(w[len(w)-1])]
	if len(cands) == 0 {
		return keyNone
	}
	for len(w) > 0 && w[0] == '-' {
		w = w[1:]
	}
	for _, i := range cands {
		e := secretSuffixes[i]
		suf := e.suffix
		if hasNormSuffix(w, suf) || (suf[0] == '_' && len(w) == len(suf)-1 && hasNormSuffix(w, suf[1:])) {
			return e.kind
		}
	}
	return keyNone
}

// hasNormSuffix compares from the end, where most words already differ.
func hasNormSuffix(w, suf string) bool {
	if len(w) < len(suf) {
		return false
	}
	for k := 1; k <= len(suf); k++ {
		if normKeyByte(w[len(w)-k]) != suf[len(suf)-k] {
			return false
		}
	}
	return true
}

// spacedEquals reports whether blanks and then '=' follow j: a key's
// separator in INI and TOML (name = value), never a command's.
func spacedEquals(s string, j int) bool {
	k := skipBlanks(s, j)
	return k > j && k < len(s) && s[k] == '=' && (k+1 == len(s) || s[k+1] != '=')
}
