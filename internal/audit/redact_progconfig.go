package audit

import "strings"

// Subcommands that set a secret by key (git config user.password x, aws
// configure set aws_secret_access_key x, nmcli … wifi-sec.psk x, Redis
// SETEX) or log in, and how the redactor reads their keys and values.

// configuring reports whether the command is in one of p's configuring
// subcommands (configSub, alternatives separated by blanks).
func (r *redactor) configuring(p *program) bool {
	for rest := p.configSub; rest != ""; {
		var sub string
		sub, rest, _ = strings.Cut(rest, " ")
		if sub == "*" || r.hasSub(sub) {
			return true
		}
	}
	return false
}

// loggingIn reports whether the current program, one whose password
// options are known, has taken a login subcommand: its words are operands.
func (r *redactor) loggingIn() bool {
	return len(r.prog.opts) > 0 && r.hasSub("login")
}

// configWord reports whether w is one of p's configuring subcommands.
func (p *program) configWord(w string) bool {
	for rest := p.configSub; rest != ""; {
		var sub string
		sub, rest, _ = strings.Cut(rest, " ")
		if sub == w {
			return true
		}
	}
	return false
}

// configValue redacts the value after a secret-named key set by a
// configuring subcommand (git config user.password x, aws configure set
// aws_secret_access_key x, nmcli … wifi-sec.psk x).
func (r *redactor) configValue(i, j int) int {
	p := r.prog
	if !r.configuring(p) {
		return 0
	}
	// Keys are read like option names, so credential.helper or
	// ssl.key-file, which name where a secret is kept, take no secret.
	w := r.s[i:j]
	if strings.HasPrefix(w, "wps_") {
		return 0 // wps_pin any PIN: a command, its PIN a positional (wpsPins)
	}
	if strings.EqualFold(w, "nopass") || strings.EqualFold(w, "resetpass") {
		return 0 // ACL SETUSER bob on nopass ~*: Redis ACL rules, no key
	}
	if p.positionalAfter(w) {
		return 0 // redis-cli AUTH bob PW: a command whose positional rule reads it
	}
	how, pair := r.pairSplit(w) // git config http.proxy user:pass@proxy
	if !pair && secretKey(w) == keyNone && !flagSecretName(w) && !secretPathKey(r.s, i, j) {
		return 0
	}
	if j < len(r.s) && (r.s[j] == '"' || r.s[j] == '\'') && i > 0 && r.s[quotedKeyStart(r.s, i)] == r.s[j] {
		j++ // consul kv put "app/password" PW: the key's closing quote
	}
	k := skipBlanks(r.s, j)
	if k == j || k >= len(r.s) || r.s[k] == '-' {
		return 0
	}
	if e := shellWordEnd(r.s, k); e == k+1 && r.s[k] == '=' && e < len(r.s) && (r.s[e] == ' ' || r.s[e] == '\t') {
		// mutt's set smtp_pass = "PW": the '=' stands apart.
		if k = skipBlanks(r.s, e); k >= len(r.s) {
			return 0
		}
	}
	if e := shellWordEnd(r.s, k); e < len(r.s) && (r.s[e] == ' ' || r.s[e] == '\t') && isDigits(r.s[k:e]) && r.expiringSet() {
		k = skipBlanks(r.s, e) // redis-cli setex session_secret 60 PW: the seconds come first
	}
	if e := shellWordEnd(r.s, k); e < len(r.s) && (r.s[e] == ' ' || r.s[e] == '\t') && (settingKey(w, r.s[k:e]) || nodeKey(r.s, k, e)) {
		// nmcli … key-mgmt wpa-psk wifi-sec.psk x: w was a value, named
		// like a key, and the next word is the key whose value follows.
		// VyOS, EdgeOS and Junos set a path of nodes: in set system
		// login user u authentication plaintext-password PW the secret
		// follows the last secret-named node.
		return 0
	}
	return r.optionValue(k, how)
}

// expiringSet reports whether the command sets a key with its time to
// live before the value (Redis SETEX and PSETEX).
func (r *redactor) expiringSet() bool {
	for _, w := range r.subs[:r.nsubs] {
		if strings.EqualFold(w, "setex") || strings.EqualFold(w, "psetex") {
			return true
		}
	}
	return false
}

// nodeKey reports whether the word s[k:e], followed by blanks, is a
// configuration path's secret-named node (plaintext-password,
// pre-shared-secret, password) with a value after it, rather than the
// value of the node before it: lower-case letters, digits and '-' only,
// as such nodes are spelled.
func nodeKey(s string, k, e int) bool {
	if e-k < 3 || e-k > 48 {
		return false
	}
	for p := k; p < e; p++ {
		if c := s[p]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	if !flagSecretName(s[k:e]) {
		return false
	}
	v := skipBlanks(s, e)
	return v < len(s) && strings.IndexByte("\n\r;|&)-", s[v]) < 0
}

// settingKey reports whether v, the word after the secret-named word w of
// a configuring command, is the secret-named setting.property key of the
// next pair rather than w's value (w being a value without a dot).
func settingKey(w, v string) bool {
	return strings.IndexByte(w, '.') < 0 && strings.IndexByte(v, '.') > 0 && (secretKey(v) != keyNone || flagSecretName(v))
}
