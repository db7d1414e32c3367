package audit

import "strings"

// Secrets written to files that hold credentials: echo … > ~/.netrc,
// printf … >> ~/.pgpass, cat > ~/.my.cnf <<EOF, … | sudo tee
// /etc/ppp/chap-secrets. What the command writes there is redacted as if
// a program read it as a secret on its input (redact_stdin.go): echo,
// printf and yes arguments, here-strings, here-document bodies.

// redirectOut handles a '>' at i: an output redirection whose target is a
// credential file makes the command's output secret.
func (r *redactor) redirectOut(i int) {
	s := r.s
	if r.stdin.echoAt >= 0 {
		// A '>' in a string echo prints ('<a>…</a>') is text, not a
		// redirection; in a script's string (sh -c 'echo x > f') the
		// echo comes after the quote opened, and it is one.
		if q, ok := r.quoteAt(i); ok && q != 0 && r.quotes.open > r.stdin.echoAt {
			return
		}
	}
	if r.outputSink(i) {
		return // echo … > >(chpasswd), >&"${COPROC[1]}"
	}
	if st := &r.stdin; !st.atCmd && st.echoAt < 0 && r.innerCommand(i) {
		// ssh h '> ~/.token echo …': the string's command is still to
		// come, as when a word opens it (stdinWordAs).
		st.atCmd, st.secret, st.heredocs, st.scriptAt = true, false, false, i
	}
	k := i
	for k < len(s) && (s[k] == '>' || s[k] == '|' || s[k] == '&') {
		k++
	}
	if k < len(s) && s[k] == '(' {
		return // >(…) is a process, not a file
	}
	r.writesTo(skipBlanks(s, k))
}

// writesTo looks at the file name starting at k that the current command
// writes to.
func (r *redactor) writesTo(k int) {
	s, st := r.s, &r.stdin
	if k >= len(s) || st.secret {
		return
	}
	e := shellWordEnd(s, k)
	if e == k {
		return
	}
	if !credentialFile(s[k:e]) {
		if st.echoAt >= 0 && !st.tee {
			// A later password-file option may name it (redact_pwfiles.go).
			r.wrote(k, e, echoed(s, st.echoAt, k))
		} else {
			r.writesPlain(k, e) // cat > /tmp/p <<EOF, tee /tmp/p, > /tmp/p printf
		}
		return
	}
	if st.atCmd {
		// > ~/.token echo …: the command is still to come; what it
		// writes is read as a password file's (redact_pwfiles.go).
		r.writesPlain(k, e)
		r.passwordPath(s[k:e])
		st.readsSecret, st.otherReaders = true, true // a tool's stdin text goes there too
		return
	}
	if st.echoAt >= 0 && !st.tee {
		r.feedSpan(echoed(s, st.echoAt, k))
		r.echoedAfter(k, e)
	}
	r.secretInput(k)
}

// echoedAfter feeds the words after the file name s[k:e] that the
// current echo writes too (echo > ~/.token pw), up to the command's end
// or the quote closing the string it sits in (ssh h 'echo > f pw; ls'),
// without other redirections (2>/dev/null).
func (r *redactor) echoedAfter(k, e int) {
	s := r.s
	end := commandEnd(s, e)
	if q, ok := r.quoteAt(k); ok && q != 0 {
		if x := strings.IndexByte(s[e:end], q); x >= 0 {
			end = e + x
		}
	}
	for t := skipBlanks(s, e); t < end; t = skipBlanks(s, t) {
		x := t
		for x < end && s[x] >= '0' && s[x] <= '9' {
			x++
		}
		if x < end && (s[x] == '>' || s[x] == '<' || s[x] == '&' && x+1 < end && s[x+1] == '>') {
			// A redirection and its target, joined or the next word.
			for x < end && strings.IndexByte("<>&|", s[x]) >= 0 {
				x++
			}
			t = min(shellWordEnd(s, skipBlanks(s, x)), end)
			continue
		}
		we := min(shellWordEnd(s, t), end)
		if we <= t {
			return
		}
		r.feedSpan(span{t, we})
		t = we
	}
}

// echoed is what the echo whose arguments start at at writes to the
// file named at k.
func echoed(s string, at, k int) span {
	from, to := skipBlanks(s, at), k
	for to > from && strings.IndexByte(" \t>&|12", s[to-1]) >= 0 {
		to--
	}
	return span{from, to}
}

// credentialFile reports whether the path p (a shell word, quotes
// included) names a file that holds credentials: a name or directory
// that secretName calls secret (token, db_password, secrets/, .pgpass,
// .git-credentials, server.key), or one of the well-known ones (.netrc,
// .my.cnf, shadow); not passwd, group, authorized_keys or a public key.
func credentialFile(p string) bool {
	p = strings.Map(func(c rune) rune {
		if c == '\'' || c == '"' || c == '\\' {
			return -1
		}
		return c
	}, p)
	if strings.HasPrefix(p, "/dev/") || strings.HasSuffix(p, ".pub") {
		return false
	}
	prev := ""
	for part := range strings.SplitSeq(p, "/") {
		name := strings.ToLower(part)
		if prev == "pam.d" {
			prev = name
			continue // /etc/pam.d/common-password, password-auth: PAM's rules for passwords
		}
		if credentialIn[prev+"/"+name] || prev == "system-connections" {
			return true // ~/.docker/config.json, ~/.vnc/passwd, NetworkManager's profiles
		}
		prev = name
		switch name {
		case "", ".", "..", "~", "passwd", "group", "authorized_keys", "known_hosts", "etc", "home", "root":
			continue
		case ".netrc", "_netrc", ".my.cnf", ".mylogin.cnf", ".s3cfg", "shadow", "gshadow", "private",
			// Clients' and daemons' own credential files.
			".npmrc", ".pypirc", ".boto", ".fetchmailrc", "fetchmailrc", ".msmtprc", "msmtprc", ".muttrc",
			"rclone.conf", ".terraformrc", "terraform.rc", "settings-security.xml",
			"debian.cnf", "sasldb2", "upsd.users", "wpa_supplicant.conf", ".pgpass", ".dockercfg",
			"userlist.txt",                                                             // pgbouncer's "user" "password" lines
			".curlrc", "_curlrc", ".wgetrc", ".authinfo", "smbpasswd", "passwd.client": // curl's user = "u:pw", Emacs', Samba's, Exim's
			return true
		}
		if strings.HasPrefix(name, "id_") || secretName(strings.TrimPrefix(name, ".")) || credName(name) {
			return true
		}
	}
	return false
}

// credName reports whether a file name is short for credentials: cred or
// creds as a part of it (smb-creds, cifs.cred) or after a protocol's name
// (.smbcredentials is secretName's; .smbcred, cifscreds are not).
func credName(name string) bool {
	name = strings.TrimSuffix(strings.TrimPrefix(name, "."), "s")
	for part := range strings.FieldsFuncSeq(name, func(c rune) bool { return c == '-' || c == '_' || c == '.' }) {
		if part == "cred" || part == "creds" {
			return true
		}
	}
	for _, p := range [...]string{"smb", "cifs", "samba", "nfs", "ftp", "mail", "db", "nas"} {
		if name == p+"cred" {
			return true
		}
	}
	return false
}

// netrcPassword redacts the value after the netrc keyword password ending
// at j (machine h login u password secret), in a line or text that names
// a machine or a login before it.
func (r *redactor) netrcPassword(i, j int) int {
	s := r.s
	k := skipBlanks(s, j)
	if k == j || k >= len(s) || strings.IndexByte("-=:\n\r", s[k]) >= 0 {
		return 0
	}
	before := s[max(0, i-256):i]
	if !containsFold(before, "machine") && !containsFold(before, "login ") {
		return 0
	}
	start, end := r.valueWord(k, false)
	if end <= start {
		return 0
	}
	return r.replace(start, end, Redacted)
}

// secondArgument redacts the second quoted argument of the call whose
// '(' is at k (db.auth("user", "secret"), changeUserPassword(u, "…")).
func (r *redactor) secondArgument(k int) int {
	s := r.s
	k = skipBlanks(s, k+1)
	if k >= len(s) {
		return 0
	}
	k = skipBlanks(s, pastArgument(s, k))
	if k >= len(s) || s[k] != ',' {
		return 0
	}
	k = skipBlanks(s, k+1)
	if o, e := perlQuote(s, k); e > o {
		return r.replace(o, e-1, Redacted) + 1 // q{…}
	}
	if !startsQuote(s, k) {
		r.scriptNameUse(k, identEnd(s, k, false)) // ftp.login("bob", pw): pw = "…" is the secret
		return 0
	}
	start, end := valueSpan(s, k)
	if end <= start {
		return 0
	}
	return r.replace(start, end, Redacted)
}

// pastQuoted returns the index after the closing quote of the quoted
// value at k: '…', "…", $'…', \"…\" inside a shell's double quotes
// (python3 -c "ftp.login(\"bob\", \"pw\")") and \\\"…\\\" two shells
// down, or the quote of the shell inside sh -c '…' (four bytes: quote,
// backslash, quote, quote), whose closes are as long as their opens.
func pastQuoted(s string, k int) int {
	_, e := valueSpan(s, k)
	switch {
	case strings.HasPrefix(s[k:], `'\''`):
		return e + 4
	case escapedQuote(s, k) > 0:
		return e + escapedQuote(s, k)
	}
	return e + 1
}

// credentialIn are files that hold credentials by the directory they sit
// in: "dir/name", lower case.
var credentialIn = map[string]bool{
	".docker/config.json": true, ".kube/config": true, "gh/hosts.yml": true, "hub/config": true,
	".vnc/passwd": true, "vnc/passwd": true, "mosquitto/passwd": true, "containers/auth.json": true,
	"tigervnc/passwd": true, ".config/hub": true, "glab-cli/config.yml": true,
}

// openvpnInline are the inline blocks of an OpenVPN config that hold a
// credential: the login, and the static keys of --secret, --tls-auth and
// --tls-crypt, which may come as bare hex lines without a PEM header.
var openvpnInline = [...]string{"auth-user-pass", "http-proxy-user-pass", "secret", "tls-auth", "tls-crypt", "tls-crypt-v2"}

// inlineAuth redacts the body of an OpenVPN config's inline credential
// block at i (openvpnInline), to the closing tag or, without one, to the
// end of s; it returns where scanning resumes, or 0 when there is no such
// block.
func (r *redactor) inlineAuth(i int) int {
	s := r.s
	tag := ""
	for _, t := range openvpnInline {
		if len(s) > i+len(t)+2 && s[i+len(t)+1] == '>' && strings.HasPrefix(s[i+1:], t) {
			tag = t
			break
		}
	}
	if tag == "" || tag == "secret" && (i+8 >= len(s) || s[i+8] != '\n' && s[i+8] != '\r') {
		// <secret>x</secret> on one line is an XML element's.
		return r.secretElement(i)
	}
	open, shut := "<"+tag+">", "</"+tag+">"
	body := i + len(open)
	if strings.HasPrefix(strings.TrimLeft(s[body:min(len(s), body+16)], "\r\n"), "-----BEGIN") {
		return 0 // a PEM block: its rule keeps the BEGIN and END lines
	}
	end := strings.Index(s[body:], shut)
	if end < 0 {
		end = len(s) - body
	}
	from, to := body, body+end
	for from < to && (s[from] == '\n' || s[from] == '\r') {
		from++
	}
	for to > from && (s[to-1] == '\n' || s[to-1] == '\r') {
		to--
	}
	if to > from {
		r.replace(from, to, Redacted)
	}
	return body + end
}

// secretElement redacts the text of an XML element whose name names a
// secret (<password>…</password> in Maven's settings.xml, <secret>,
// <apiKey>, <password type="plain">…), up to the next tag or the end of
// the line, or the value attribute of such an empty element (<Password
// value="…"/>), and returns where scanning resumes, or 0.
func (r *redactor) secretElement(i int) int {
	s := r.s
	e := i + 1
	for e < len(s) && e-i <= 64 && (wordByte[s[e]] || s[e] == ':') {
		e++
	}
	if e >= len(s) || s[e] != '>' && s[e] != ' ' && s[e] != '\t' || e == i+1 || !secretName(s[i+1:e]) && secretKey(s[i+1:e]) == keyNone {
		return 0
	}
	if s[e] != '>' {
		// Attributes: a value attribute holds the secret, else the
		// text after the tag does. Only a name that ends in a secret
		// word (<passwordPolicy minLength=…> is a setting).
		if secretKey(s[i+1:e]) == keyNone {
			return 0
		}
		if end := r.valueAttribute(e); end > 0 {
			return end
		}
		if e = tagEnd(s, e); e < 0 {
			return 0
		}
	}
	from := e + 1
	if end := r.cdata(from); end > 0 {
		return end
	}
	to := from
	for to < len(s) && s[to] != '<' && s[to] != '\n' {
		to++
	}
	if s[i+1:e] == "key" && plistKey(s, to) {
		return to // <key>Password</key><string>…: a name; xmlValue reads the value
	}
	if to > from {
		r.replace(from, to, Redacted)
	}
	return to
}

// plistKey reports whether the text of a <key> element ending at k is a
// property list's key: </key> follows, then, past blanks (raw or
// escaped in JSON), the element of its value.
func plistKey(s string, k int) bool {
	if !strings.HasPrefix(s[k:], "</key>") {
		return false
	}
	k += len("</key>")
	for k < len(s) {
		switch {
		case s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r':
			k++
		case s[k] == '\\' && k+1 < len(s) && strings.IndexByte("ntr", s[k+1]) >= 0:
			k += 2
		default:
			for _, v := range [...]string{"<string>", "<data>", "<integer>", "<real>", "<date>", "<true/>", "<false/>", "<dict", "<array"} {
				if strings.HasPrefix(s[k:], v) {
					return true
				}
			}
			return false
		}
	}
	return false
}
