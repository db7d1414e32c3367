package audit

import "strings"

// snmpd.conf's directives that name a community or a user's passphrases,
// which are the agent's passwords: written with echo … >> snmpd.conf,
// a here-document or net-snmp-config, they are secret as the -c, -A and
// -X options of the snmp* commands are (snmpLike).

// snmpdDirective returns the secret positionals after the snmpd.conf
// directive w: rocommunity COMMUNITY [SOURCE …], trap2sink HOST
// [COMMUNITY …], com2sec SECNAME SOURCE COMMUNITY, createUser USER
// PROTO AUTHPASS [PROTO PRIVPASS].
func snmpdDirective(w string) (positional, bool) {
	switch w {
	case "rocommunity", "rwcommunity", "rocommunity6", "rwcommunity6", "trapcommunity":
		return positional{index: 0}, true
	case "trapsink", "trap2sink", "informsink":
		return positional{index: 1}, true
	case "com2sec", "com2sec6":
		return positional{index: 2}, true
	case "createUser":
		return positional{index: 2, and: 4}, true
	}
	return positional{}, false
}

// directiveStart reports whether the word at i starts a line of a
// configuration text: at the start of s or of a line, or of a quoted
// string (echo 'rocommunity …'), blanks before it aside. An argument
// (grep rocommunity /etc/snmp/snmpd.conf) does not.
func directiveStart(s string, i int) bool {
	k := i - 1
	for k >= 0 && (s[k] == ' ' || s[k] == '\t') {
		k--
	}
	return k < 0 || s[k] == '\n' || s[k] == '\'' || s[k] == '"'
}

// redisDirective reports whether w is one of redis's password
// directives, which CONFIG SET sets too.
func redisDirective(w string) bool {
	return strings.EqualFold(w, "requirepass") || strings.EqualFold(w, "masterauth")
}

// secretDirective reports whether w is a directive of a daemon's
// configuration whose value is a password: redis's requirepass and
// masterauth (also set by CONFIG SET), OpenLDAP's rootpw and nss-ldap's or
// pam_ldap's bindpw.
func secretDirective(w string) bool {
	switch strings.ToLower(w) {
	case "requirepass", "masterauth", "rootpw", "bindpw", "password", "passphrase",
		"passntlmv2", "passnt", "passlm": // cntlm's hashes of the password
		return true
	}
	return false
}

// debconfQuestion reports whether the word before i is a debconf
// question (mysql-server/root_password) that follows its owner's name,
// making the word at i the question's type.
func debconfQuestion(s string, i int) bool {
	e := i
	for e > 0 && (s[e-1] == ' ' || s[e-1] == '\t') {
		e--
	}
	b := e
	for b > 0 && e-b < 128 && (wordByte[s[b-1]] || s[b-1] == '/' || s[b-1] == ':') {
		b--
	}
	q := s[b:e]
	return b < e && b < i && strings.IndexByte(q, '/') > 0 && !strings.Contains(q, "//") && b > 0 && (s[b-1] == ' ' || s[b-1] == '\t')
}

// englishDirective reports whether the directive w is also an English
// word that starts sentences (password, passphrase), unlike requirepass.
func englishDirective(w string) bool {
	return strings.EqualFold(w, "password") || strings.EqualFold(w, "passphrase")
}

// lastWord reports whether the word at k ends its line: only blanks, then
// a line end (written or escaped), the string's closing quote, a
// comment or the text's end follow it.
func (r *redactor) lastWord(k int) bool {
	s := r.s
	q, _ := r.quoteAt(k)
	e := skipBlanks(s, wordEnd(s, k, q, false))
	return e >= len(s) || strings.IndexByte("\n\r#;|&)", s[e]) >= 0 || q != 0 && s[e] == q ||
		strings.HasPrefix(s[e:], `\n`) || strings.HasPrefix(s[e:], `\r`)
}

// directive redacts the value of a configuration line whose directive,
// the word w at s[i:j], takes a password as its next word (requirepass
// S3cret, CONFIG SET masterauth S3cret) or whose Dockerfile ENV sets a
// secret-named variable (ENV DB_PASSWORD S3cret), returning where
// scanning resumes, or 0. A directive followed by = or : is a key the
// key-value rules read.
func (r *redactor) directive(w string, i, j int) int {
	s := r.s
	if j >= len(s) || s[j] != ' ' && s[j] != '\t' {
		return 0
	}
	k := skipBlanks(s, j)
	if k >= len(s) || s[k] == '=' || s[k] == ':' {
		return 0
	}
	switch {
	case w == "ENV" && directiveStart(s, i):
		e := k
		for e < len(s) && wordByte[s[e]] {
			e++
		}
		if e < len(s) && (s[e] == ' ' || s[e] == '\t') && secretName(s[k:e]) {
			r.lookAhead(e, positional{index: 0}, false)
			return e
		}
	case w == "insecure-password" || w == "auth" && i >= 6 && s[i-6:i] == "stats ":
		// haproxy: user bob insecure-password PW, stats auth user:PW.
		// The next word, read here: a redis ACL line's look-ahead
		// (user NAME …) may have read past it already.
		q, _ := r.quoteAt(k)
		from, to := innerSpan(s, k, wordEnd(s, k, q, false))
		if w == "auth" {
			c := strings.IndexByte(s[from:to], ':')
			if c < 0 {
				return j
			}
			from += c + 1
		}
		if to <= from {
			return j
		}
		return r.replace(from, to, Redacted)
	case (w == "socks5" || w == "socks4" || w == "http") && directiveStart(s, i):
		// proxychains.conf: socks5 HOST PORT [USER PASS].
		p := skipBlanks(s, shellWordEnd(s, k))
		if e := shellWordEnd(s, p); e > p && isDigits(s[p:e]) {
			r.lookAhead(j, positional{index: 3}, false)
			return j
		}
	case w == "password" && debconfQuestion(s, i):
		// debconf: OWNER QUESTION password VALUE, the rest of the line.
		q, _ := r.quoteAt(k)
		e := k
		for e < len(s) && s[e] != '\n' && s[e] != '\r' && (q == 0 || s[e] != q) && !strings.HasPrefix(s[e:], `\n`) {
			e++
		}
		for e > k && (s[e-1] == ' ' || s[e-1] == '\t') {
			e--
		}
		if e > k {
			return r.replace(k, e, Redacted)
		}
	case len(w) >= 6 && len(w) <= 11 && secretDirective(w) && (directiveStart(s, i) || redisDirective(w) && i >= 4 && strings.EqualFold(s[i-4:i], "set ")):
		if englishDirective(w) && !r.lastWord(k) {
			return 0 // echo "password must be long": prose, not msmtprc's password PW
		}
		r.lookAhead(j, positional{index: 0}, false)
		return j
	}
	return 0
}

// puttyPrivate redacts the lines of a PuTTY key file's private part, whose
// count follows "Private-Lines:" at k, and returns where scanning resumes.
func (r *redactor) puttyPrivate(k int) int {
	s := r.s
	k = skipBlanks(s, k)
	n := 0
	for k < len(s) && s[k] >= '0' && s[k] <= '9' && n < 1000 {
		n = n*10 + int(s[k]-'0')
		k++
	}
	if k >= len(s) || s[k] != '\n' && s[k] != '\r' || n == 0 {
		return k
	}
	from := k + 1
	if s[k] == '\r' && from < len(s) && s[from] == '\n' {
		from++
	}
	end := from
	for line := 0; line < n && end < len(s); line++ {
		nl := strings.IndexByte(s[end:], '\n')
		if nl < 0 {
			end = len(s)
			break
		}
		end += nl + 1
	}
	for end > from && (s[end-1] == '\n' || s[end-1] == '\r') {
		end--
	}
	if end <= from {
		return k
	}
	return r.replace(from, end, Redacted)
}
