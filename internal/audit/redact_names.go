package audit

import "strings"

// secretName reports whether a variable or key name names a secret because
// one of its parts (split at '_', '-' and '.', compared lower-cased)
// carries a credential word anywhere in it: PGPASSWORD, MYSQL_PWD,
// REDISCLI_AUTH, SSHPASS, BORG_PASSPHRASE, GITHUB_TOKEN, TS_AUTHKEY,
// AWS_SECRET_ACCESS_KEY, *_CREDENTIALS, WIFI_PSK, SENTRY_DSN, KEY,
// SNMP_COMMUNITY, …
//
// It is wider than secretKey, which matches suffixes of any key, and so is
// used only where a name is plainly a name: before '=' (a shell or env
// assignment, a query parameter) and, for names spelled like variables or
// headers (with '_', '-' or '.', or in upper case), before ':'. PWD and
// OLDPWD are left to pwdName.
func secretName(w string) bool {
	if len(w) < 2 || len(w) > 128 {
		return false
	}
	if !hasCredentialStart(w) {
		return false
	}
	var buf [128]byte
	name := buf[:len(w)]
	for k := 0; k < len(w); k++ {
		name[k] = normKeyByte(w[k])
	}
	if string(name) == "pwd" || string(name) == "oldpwd" || authSetting(name) {
		return false
	}
	last, prev := name, []byte(nil)
	if e := lastByte(name, '_'); e >= 0 {
		last = name[e+1:]
		p := name[:e]
		prev = p[lastByte(p, '_')+1:]
	}
	// Vault's unseal_keys_b64, recovery_keys_hex: keys in an encoding
	// (not public_key_hex).
	if (string(prev) == "keys" || string(prev) == "key") && (string(last) == "b64" || string(last) == "hex" || string(last) == "base64") {
		q := name[:len(name)-len(last)-len(prev)-1]
		q = q[:max(len(q)-1, 0)]
		return !identifierKey(string(q[lastByte(q, '_')+1:]))
	}
	// SSH_AUTH_SOCK and the like name where a secret is kept, not one;
	// password_encryption, PASSWORD_FILE, password_min_length how one is
	// kept, read or checked.
	if prev != nil && secretMeta(string(last)) {
		return false
	}
	// Password managers' unlocked sessions are bearer keys: Bitwarden's
	// BW_SESSION, 1Password's OP_SESSION_<account>.
	if string(last) == "session" && string(prev) == "bw" || hasPrefixBytes(name, "op_session_") {
		return true
	}
	if bearerPart(name, last, prev) {
		return true
	}
	// The credential words, looked for with the parts joined, so that
	// API_KEY and CONNECTION_STRING count as apikey and connectionstring.
	var joinedBuf [128]byte
	joined := joinedBuf[:0]
	for _, c := range name {
		if c != '_' {
			joined = append(joined, c)
		}
	}
	for k := range joined {
		for _, word := range nameWords[joined[k]] {
			if len(joined)-k >= len(word) && string(joined[k:k+len(word)]) == word {
				return true
			}
		}
	}
	partStart := 0
	for k := 0; k < len(name); k++ {
		c := name[k]
		if c == '_' {
			partStart = k + 1
			continue
		}
		if k == partStart && secretPart(name[k:partEnd(name, k)]) {
			return true
		}
		rest := name[k:]
		switch {
		case c == 't' && hasPrefixBytes(rest, "token"):
			if !hasPrefixBytes(rest, "tokeniz") {
				return true
			}
		case c == 'a' && hasPrefixBytes(rest, "auth"):
			// auth, oauth, authn, authz, authtoken, authorization; not
			// author (GIT_AUTHOR_NAME) or authority.
			if !hasPrefixBytes(rest[4:], "or") || hasPrefixBytes(rest[4:], "oriz") {
				return true
			}
		}
	}
	// An SNMP community is the agent's password: SNMP_COMMUNITY,
	// RO_COMMUNITY, snmpcommunity (nmap's script argument), community.
	if hasSuffixBytes(last, "community") {
		return true
	}
	// A name whose last part is a key: API_KEY, ACCESS_KEY, PRIVATE_KEY,
	// ENCRYPTION_KEY, AccountKey, KEY itself; not a public one. WEP keys
	// are numbered: key1 (uci), wl0_key1 (nvram), wep_key0 (wpa_cli).
	for len(last) > 3 && last[len(last)-1] >= '0' && last[len(last)-1] <= '9' {
		last = last[:len(last)-1]
	}
	if hasSuffixBytes(last, "key") {
		// The word that qualifies the key, joined (projectKey) or a
		// part of its own (primary_key), says what kind it is.
		qual := last[:len(last)-3]
		if len(qual) == 0 {
			qual = prev
		}
		return !identifierKey(string(qual))
	}
	return false
}

// bearerPart reports whether the last parts of a lower-cased name say it
// holds a credential though no credential word is in it: a web session's
// id (APP_SESSION, APP_SESSION_ID, webSessionId, PHPSESSID, JSESSIONID), an
// object store's secret key (AWS_SK, MINIO_SK, OSS_AK_SK), a connection
// string (DB_CONN, DATABASE_CONNECTION, which carry the password as often
// as not) and a one-time code (MFA_CODE, VERIFICATION_CODE). A terminal's,
// desktop's or bus's session (DESKTOP_SESSION, TMUX_SESSION,
// XDG_SESSION_ID) is a name, and a count of connections (MAX_CONN) is no
// connection.
func bearerPart(name, last, prev []byte) bool {
	// The word qualifying the last one, joined (appSession) or a part of
	// its own (APP_SESSION).
	qualifier := func(word string) []byte {
		if q := last[:len(last)-len(word)]; len(q) > 0 {
			return q
		}
		return prev
	}
	var qual []byte
	switch l := string(last); {
	case hasSuffixBytes(last, "session"):
		qual = qualifier("session")
	case hasSuffixBytes(last, "sessionid"):
		qual = qualifier("sessionid")
	case hasSuffixBytes(last, "sessid"):
		qual = qualifier("sessid")
	case l == "id" && string(prev) == "session":
		if p := name[:len(name)-len("session_id")]; len(p) > 1 {
			p = p[:len(p)-1]
			qual = p[lastByte(p, '_')+1:]
		}
	case l == "sk":
		return prev != nil
	case l == "conn" || l == "connection" || l == "connstr" || l == "connstring":
		if prev == nil {
			return false
		}
		switch string(prev) {
		case "max", "min", "num", "pool", "idle", "http", "keep", "keepalive", "open", "active", "total", "concurrent", "limit":
			return false
		}
		return true
	case hasSuffixBytes(last, "code"):
		switch string(qualifier("code")) {
		case "mfa", "2fa", "twofa", "otp", "totp", "verification", "verify", "recovery", "backup", "sms", "login", "one_time", "onetime":
			return true
		}
		return false
	default:
		return false
	}
	switch string(qual) {
	case "desktop", "xdg", "tmux", "screen", "dbus", "gdm", "kde", "gnome", "x11", "wayland", "zellij", "byobu", "term", "terminal":
		return false
	case "":
		// A session id no word qualifies names a session, as warden's
		// own session_id does in every record of a terminal session;
		// a bare SESSION is still the cookie's value.
		return !hasSuffixBytes(last, "id") && !(string(last) == "id" && string(prev) == "session")
	}
	return true
}

// identifierKey reports whether a key qualified by q (lower-cased) holds
// an identifier or public material rather than a secret: Sonar's
// projectKey, a database's primary, sort or partition key, a message's
// routing key, a public key, a keyboard's hot key.
func identifierKey(q string) bool {
	switch q {
	case "mon", "hot", "pub", "public", "project", "primary", "sort", "foreign", "partition", "hash",
		"range", "row", "cache", "routing", "shard", "lookup", "index", "unique", "composite", "surrogate",
		"natural", "candidate", "dedup", "deduplication", "idempotency", "object", "group", "host", "map",
		"dict", "i18n", "translation", "message", "label", "column", "field", "issue", "jira", "module":
		return true
	}
	return false
}

// secretMeta reports whether the last part of a name says the name is
// about a secret rather than one: where it is kept or read, how it is
// hashed, checked or expires.
func secretMeta(last string) bool {
	switch last {
	case "sock", "socket", "file", "path", "dir", "stdin", "fd", "prompt", "encryption", "algorithm",
		"algo", "policy", "length", "complexity", "expiry", "expiration", "lifetime", "rotation", "history",
		"reuse", "attempts", "retries", "lockout", "required", "enabled", "disabled", "mode", "method", "type",
		// When, where and by whom one is issued or checked: TOKEN_TTL,
		// AUTH_TIMEOUT, TOKEN_ENDPOINT, AUTH_HOST, JWT_ISSUER,
		// token_policies, SECRET_NAME.
		"ttl", "timeout", "interval", "duration", "endpoint", "host", "hostname", "port", "provider",
		"scope", "scopes", "issuer", "audience", "policies", "uses", "name", "region", "bits", "size",
		// How git finds one: credential.helper, credential.useHttpPath.
		"helper", "usehttppath", "interactive",
		// Whose it is: AUTH_USER, SMTP_AUTH_USERNAME, TOKEN_EMAIL.
		"user", "username", "email", "owner",
		// The rules it must meet (login.defs' PASS_MAX_DAYS,
		// PASS_MIN_LEN, PASS_WARN_AGE; PASSWORD_MIN_LEN) and how it is
		// checked or carried (RouterOS' authentication-protocol,
		// SASL's auth_mechanism): numbers and names of algorithms.
		"len", "min", "max", "days", "age", "warn", "expire", "expires", "protocol", "proto", "mechanism", "mechanisms", "mech",
		"digest", "cipher", "types", "methods",
		// Where it is used or reset (AUTH_URL, PASSWORD_RESET_URL; a
		// password in the URL is the URL rules'), and Vault's token
		// accessor, which looks a token up but logs nobody in.
		"url", "uri", "accessor":
		return true
	}
	return false
}

// credentialStarts holds, per first two letters of a credential word that
// secretName looks for, the third letters it may have (bit c-'a'; all bits
// for "pw", whose third byte may be anything or nothing). A name without
// such a start names no secret, which rejects most words at once.
var credentialStarts = func() (t [256][256]uint32) {
	for _, w := range [...]string{
		"pass", "secret", "credential", "creds", "key", "token", "auth", "psk", "dsn", "sig",
		"bearer", "cookie", "connectionstring", "apikey", "privatekey", "accesskey", "pat", "pin", "webhook",
		"pswd", "jwt", "otp", "totp", "puk", "pepper", "session", "community", "sessid", "conn", "code",
	} {
		t[w[0]][w[1]] |= 1 << (w[2] - 'a')
	}
	t['p']['w'] = ^uint32(0)
	t['s']['k'] = ^uint32(0) // AWS_SK: a part of two letters, as pw is
	return t
}()

// hasCredentialStart reports whether w, lower-cased, contains the first
// three letters of a credential word.
func hasCredentialStart(w string) bool {
	for k := 0; k+1 < len(w); k++ {
		mask := credentialStarts[normKeyByte(w[k])][normKeyByte(w[k+1])]
		if mask == 0 {
			continue
		}
		if mask == ^uint32(0) {
			return true
		}
		if k+2 < len(w) {
			if c := normKeyByte(w[k+2]); c >= 'a' && c <= 'z' && mask&(1<<(c-'a')) != 0 {
				return true
			}
		}
	}
	return false
}

// nameWords are the credential words secretName finds anywhere in a name,
// indexed by their first byte.
var nameWords = func() (t [256][]string) {
	for _, w := range [...]string{
		"password", "passwd", "passphrase", "passcode", "passkey", "secret", "credential",
		"apikey", "privatekey", "accesskey", "authkey", "signature", "cookie", "connectionstring", "webhook",
		"communitystring", "authtok", "clientkeydata",
	} {
		t[w[0]] = append(t[w[0]], w)
	}
	return t
}()

// secretPart reports whether one whole part of a lower-cased name is a
// credential word by itself or by its ending: psk, dsn, sig, bearer, pat
// (GH_PAT), pin, puk, jwt, otp, totp, pepper, the short spellings of
// password (pswd, pword, passw), SSHPASS, MYSQL_PWD, BINDPW, *_CREDS.
func secretPart(p []byte) bool {
	switch string(p) {
	case "psk", "dsn", "sig", "bearer", "pat", "pin", "puk", "jwt", "otp", "totp", "pepper", "pswd", "pword", "passw":
		return true
	}
	return hasSuffixBytes(p, "pass") || hasSuffixBytes(p, "pwd") || hasSuffixBytes(p, "pw") || hasSuffixBytes(p, "creds")
}

func partEnd(name []byte, k int) int {
	for k < len(name) && name[k] != '_' {
		k++
	}
	return k
}

func lastByte(b []byte, c byte) int {
	for k := len(b) - 1; k >= 0; k-- {
		if b[k] == c {
			return k
		}
	}
	return -1
}

func hasPrefixBytes(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}

func hasSuffixBytes(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[len(b)-len(p):]) == p
}

// flagSecretName reports whether an option (--db-pwd, --secret-id, -pw)
// names a secret by secretName's rules. Negations (--no-auth) and options
// naming where or how a secret is read rather than the secret itself
// (--password-stdin, --password-file, --auth-url, --auth-method) are not.
func flagSecretName(w string) bool {
	name := strings.TrimLeft(w, "-")
	if len(name) < 2 || hasPrefixFold(name, "no-") || hasPrefixFold(name, "no_") {
		return false
	}
	last, prev := name, ""
	if e := strings.LastIndexAny(name, "-_."); e >= 0 {
		last = name[e+1:]
		prev = name[strings.LastIndexAny(name[:e], "-_.")+1 : e]
	}
	if strings.EqualFold(last, "key") {
		// --key, --ssh-key, --tls-key name a key file.
		switch strings.ToLower(prev) {
		case "", "ssh", "tls", "ssl", "client", "host", "server", "cert":
			return false
		}
	}
	if strings.EqualFold(last, "hash") && strings.EqualFold(prev, "cert") {
		return false // kubeadm's --discovery-token-ca-cert-hash: a public key's pin
	}
	switch strings.ToLower(last) {
	case "stdin", "prompt", "file", "fd", "env", "command", "cmd", "type", "method", "mode",
		"url", "uri", "user", "username", "name", "helper", "dir", "path", "required", "only":
		return false
	}
	if strings.EqualFold(name, "pwd") {
		return true // --pwd, -pwd: a password (the directory is --cwd or --dir)
	}
	return secretName(name) || abbreviates(last)
}

// abbreviates reports whether an option's last part is a shortened
// credential word: GNU getopt_long, MySQL's and gpg's parsers take any
// unambiguous prefix of a long option, so --passwo=x is --password=x.
func abbreviates(last string) bool {
	if len(last) < 4 {
		return false
	}
	for _, w := range [...]string{"password", "passphrase", "secret", "token", "credentials"} {
		if len(last) < len(w) && hasPrefixFold(w, last) {
			return true
		}
	}
	return false
}

// pwdName reports whether name is the shell's working directory variable,
// in any case, whose value is a path and no secret.
func pwdName(name string) bool {
	switch len(name) {
	case 3:
		return strings.EqualFold(name, "pwd")
	case 6:
		return strings.EqualFold(name, "oldpwd")
	}
	return false
}

// looksLikePath reports whether a value starting at s[k] is a path or a
// variable, as PWD's value is; anything else after PWD= is treated as a
// password (a pwd= query parameter).
func looksLikePath(s string, k int) bool {
	if k >= len(s) {
		return true
	}
	switch s[k] {
	case '/', '~', '$', '.', ' ', '\t', '\n', ';', '&', '|':
		return true
	}
	return false
}

// nameStyled reports whether w is spelled like a variable or header name
// (containing '_', '-' or '.', or with no lower-case letter), for which a
// ':' separator is trusted as much as '='.
func nameStyled(w string) bool {
	lower := false
	for k := 0; k < len(w); k++ {
		switch c := w[k]; {
		case c == '_' || c == '-' || c == '.':
			return true
		case c >= 'a' && c <= 'z':
			lower = true
		}
	}
	return !lower
}

// authSetting reports whether the lower-cased name n says how a client or
// server authenticates, by a method's name before authentication:
// OpenSSH's PasswordAuthentication, PubkeyAuthentication,
// PreferredAuthentications, KbdInteractiveAuthentication, sshd's
// password_authentication in a config tool. Its value is yes, no or a
// list of methods, never a credential. A bare Authentication, or one
// qualified by anything else (X-Authentication), still names one.
func authSetting(n []byte) bool {
	k := len(n)
	if hasSuffixBytes(n, "authentications") {
		k -= len("authentications")
	} else if hasSuffixBytes(n, "authentication") {
		k -= len("authentication")
	} else {
		return false
	}
	for k > 0 && n[k-1] == '_' {
		k--
	}
	switch string(n[:k]) {
	case "password", "pubkey", "publickey", "preferred", "kbdinteractive", "keyboardinteractive", "keyboard_interactive",
		"challengeresponse", "challenge_response", "hostbased", "host_based", "gssapi", "kerberos", "rhostsrsa", "rsa",
		"permit_empty_password", "pubkey_accepted", "trusted_user_ca", "two_factor", "multi_factor":
		return true
	}
	return false
}

// promptFlag reports whether the option w asks for a secret on a terminal
// rather than taking one: --ask-password, --ask-vault-pass,
// --ask-become-pass, --prompt-passwd, vault's -prompt-password.
func promptFlag(w string) bool {
	n := strings.TrimLeft(w, "-")
	for _, p := range [...]string{"ask-", "ask_", "prompt-", "prompt_"} {
		if len(n) > len(p) && strings.EqualFold(n[:len(p)], p) {
			return true
		}
	}
	return false
}
