package audit

import "strings"

// Configuration bodies whose secret follows no '=' or ':' the key rules
// read: Hadoop's <name>…password…</name><value>…</value> (and a plist's
// <key>…</key><string>…</string>), a properties or conf line whose key
// and value are split by blanks (spring.datasource.password S3cret, pass
// S3cret), and a shadow or htpasswd line's hash (bob:$6$salt$hash:…).

// xmlValue redacts the text of a <value> or <string> element whose name
// element (<name>, <key>) just before names a secret, for the word
// s[i:j] after '<'; it returns where scanning resumes, or 0.
func (r *redactor) xmlValue(i, j int) int {
	s := r.s
	w := s[i:j]
	if i == 0 || s[i-1] != '<' || j >= len(s) || s[j] != '>' || w != "value" && w != "string" && w != "data" {
		return 0
	}
	before := s[max(0, i-namedBack):i]
	close := "</name>"
	if w != "value" {
		close = "</key>"
	}
	e := strings.LastIndex(before, close)
	if e < 0 || strings.TrimSpace(strings.NewReplacer(`\n`, "", `\t`, "").Replace(before[e+len(close):len(before)-1])) != "" {
		return 0 // another element, not blanks, between them
	}
	b := strings.LastIndexByte(before[:e], '>')
	if b < 0 {
		return 0
	}
	name := strings.TrimSpace(before[b+1 : e])
	if secretKey(name) == keyNone && !secretName(name) {
		return 0
	}
	from := j + 1
	to := strings.Index(s[from:min(len(s), from+maxTemplate)], "</"+w+">")
	if to <= 0 {
		return 0
	}
	return r.replace(from, from+to, Redacted)
}

// blankSeparated redacts the value of a line whose key s[i:j], a dotted
// secret key (spring.datasource.password) or a bare pass or secret,
// starts a line (pass only after the first: pass NAME runs the password
// store) and whose one value word ends it; it returns where scanning
// resumes, or 0. The password store's subcommands are kept.
func (r *redactor) blankSeparated(i, j int) int {
	s := r.s
	w := s[i:j]
	if j >= len(s) || s[j] != ' ' && s[j] != '\t' {
		return 0
	}
	// A configuration key spelled with '.', '_' or '-' (auth_pass,
	// smtp_password, db-secret) is one wherever its line starts, also
	// in an echoed string; a bare word only at a line's start.
	ident := strings.IndexAny(w, "._-") > 0 && secretKey(w) == keyPlain && !upstreamPass(w)
	switch {
	case w == "pass" || w == "secret" || w == "passwd":
	case ident:
	default:
		return 0
	}
	at := lineAt(s, i)
	var quote byte // the quote an echoed line sits in
	if k := strings.LastIndexAny(s[max(0, i-16):i], "'\"\n"); k >= 0 && (w == "secret" || ident) {
		k += max(0, i-16)
		if at < 0 && s[k] != '\n' && strings.TrimLeft(s[k+1:i], " \t") == "" && k > 0 && isBlank(s[k-1]) {
			at, quote = 1, s[k] // echo 'auth_pass …' >> keepalived.conf, echo '  secret "…";'
		}
	}
	if at < 0 || at == 0 && (w == "pass" || w == "passwd") {
		// pass NAME runs the password store, passwd USER changes a
		// password: on the command's first line they are commands.
		return 0
	}
	k := skipBlanks(s, j)
	if !ident && k < len(s) && (s[k] == '-' || s[k] == '<' || s[k] == '>') {
		return 0 // passwd -S, passwd <<EOF: the command, its option or its input
	}
	if quote != 0 && !ident && (k >= len(s) || s[k] != '"') {
		return 0 // git commit -m "secret santa": prose; only named.conf's secret "…"; is a key
	}
	if k < len(s) && s[k] == '"' && quote != '"' && (w == "secret" || ident) {
		// A quoted value ending the line, with C's ';' after it
		// (named.conf's secret "…";).
		if q := strings.IndexByte(s[k+1:min(len(s), k+1+maxTemplate)], '"'); q > 0 {
			e := k + 1 + q + 1
			if e < len(s) && s[e] == ';' {
				e++
			}
			if e >= len(s) || s[e] == '\n' || s[e] == '\r' || s[e] == '\'' || strings.HasPrefix(s[e:], `\n`) {
				return r.replace(k+1, k+1+q, Redacted)
			}
		}
		return 0
	}
	e := k
	for e < len(s) && strings.IndexByte(" \t\n\r\"", s[e]) < 0 && s[e] != quote && !strings.HasPrefix(s[e:], `\n`) && !strings.HasPrefix(s[e:], `\r`) {
		e++
	}
	if ident && e > k && s[e-1] == ';' {
		e-- // smtp_password …;
	}
	lineEnd := e >= len(s) || s[e] == '\n' || s[e] == '\r' || s[e] == '\\' || s[e] == ';' || s[e] == '"' && (e+1 >= len(s) || s[e+1] == ',' || s[e+1] == '}') ||
		quote != 0 && s[e] == quote
	if e == k || !lineEnd || s[k] == '=' || s[k] == ':' || s[k] == '#' {
		return 0
	}
	switch s[k:e] {
	case "show", "insert", "generate", "edit", "rm", "mv", "cp", "git", "init", "ls", "find", "grep", "otp", "list":
		return 0
	}
	return r.replace(k, e, Redacted)
}

// upstreamPass reports whether w is one of nginx's directives that pass
// a request to an upstream (proxy_pass http://b;), whose "_pass" names
// no password.
func upstreamPass(w string) bool {
	switch w {
	case "proxy_pass", "fastcgi_pass", "uwsgi_pass", "scgi_pass", "grpc_pass", "memcached_pass":
		return true
	}
	return false
}

// cryptHash redacts the hash of a shadow or htpasswd line, the word
// s[i:j] being its user: bob:$6$salt$hash, bob:$apr1$…, bob:$2y$….
func (r *redactor) cryptHash(i, j int) int {
	s := r.s
	if j+3 >= len(s) || s[j] != ':' || s[j+1] != '$' || !directiveStart(s, i) {
		return 0
	}
	id := s[j+2 : min(len(s), j+7)]
	if d := strings.IndexByte(id, '$'); d <= 0 {
		return 0
	} else {
		switch id[:d] {
		case "1", "2a", "2b", "2y", "5", "6", "y", "gy", "7", "apr1", "sha1", "md5":
		default:
			return 0
		}
	}
	from := j + 1
	to := from
	for to < len(s) && to-from < maxTemplate && s[to] != ':' && s[to] != '\n' && s[to] != '\r' && s[to] != ' ' && s[to] != '\'' && s[to] != '"' {
		to++
	}
	return r.replace(from, to, Redacted)
}

// lineAt returns 1 when the word at i starts a line after a text's first
// (or a JSON string's text, a file's content), 0 when it starts the text,
// and -1 when it starts no line.
func lineAt(s string, i int) int {
	k := i
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	switch {
	case k == 0:
		return 0
	case s[k-1] == '\n' || k >= 3 && s[k-3:k] == `":"` || k >= 2 && s[k-2:k] == `\n`:
		return 1
	}
	return -1
}
