package audit

import "strings"

// Programs that read a secret on their input only with an option given
// somewhere on their command line (xfreerdp /from-stdin, mount -t davfs,
// encfs -S), read by a bounded look at the command's words.

// flagReader reports whether the program w, its arguments starting rest,
// reads a password (or a user and password) on its input.
func flagReader(w, rest string) bool {
	switch w {
	case "mount.davfs":
		return true // asks for the user name and password, reads a pipe
	case "mount":
		return commandHas(rest, func(a string) bool { return a == "davfs" || a == "-tdavfs" || a == "-t=davfs" || a == "--types=davfs" })
	case "xfreerdp", "xfreerdp3", "wlfreerdp", "wlfreerdp3", "sdl-freerdp", "sdl-freerdp3", "freerdp":
		return commandHas(rest, func(a string) bool {
			return a == "/from-stdin" || a == "+from-stdin" || strings.HasPrefix(a, "/from-stdin:")
		})
	case "tcplay", "scrypt", "zipcloak", "argon2":
		// They ask for a passphrase; what is fed to them is meant as one.
		return true
	case "zip":
		return commandHas(rest, func(a string) bool { return a == "-e" || a == "--encrypt" })
	case "encfs":
		return commandHas(rest, func(a string) bool { return a == "-S" || a == "--stdinpass" })
	}
	return false
}

// commandHas reports whether a word of the command whose arguments start
// rest, up to its end and at most maxEditLook bytes, satisfies is.
func commandHas(rest string, is func(string) bool) bool {
	end := min(len(rest), maxEditLook)
	for k := 0; k < end; {
		k = skipBlanks(rest, k)
		if k >= end || strings.IndexByte("\n\r;|&)`", rest[k]) >= 0 {
			return false
		}
		e := shellWordEnd(rest, k)
		if e == k {
			e = k + 1
		}
		if is(strings.Trim(rest[k:min(e, end)], `'"`)) {
			return true
		}
		k = e
	}
	return false
}

// Scripts' calls whose password is a positional argument other than the
// second or third the older rules read (redact_calls.go):
// paramiko's connect(host, 22, user, password), ftplib.FTP(host, user,
// password), pymysql.connect(host, user, password, db),
// add_password(realm, uri, user, password), and password hashers given
// the password itself (crypt.crypt, bcrypt.hashpw, password_hash).

// callSecretArg returns the index of the argument of the call named by
// the word s[i:j], followed by '(' at j, that is a password, or -1.
func callSecretArg(s string, i, j int) int {
	w := s[i:j]
	recv, name := "", w
	if e := strings.LastIndexByte(w, '.'); e >= 0 {
		recv, name = w[:e], w[e+1:]
	}
	if recv == "" && i >= 2 && s[i-2:i] == "::" {
		// BCrypt::Password.create is one word after "::"; Net::FTP.open too.
		recv = s[max(0, i-16):i]
	}
	if recv == "" && i >= 1 && s[i-1] == ')' {
		// require("bcrypt").hash: the receiver is a call's result.
		recv = s[max(0, i-32):i]
	}
	lname, lrecv := strings.ToLower(name), strings.ToLower(recv)
	if n := connectFamily(lname, lrecv); n != -1 {
		return n
	}
	if n := signingKeyArg(s, j, lname, recv); n != -1 {
		return n // AES_ENCRYPT(data, 'key'), jwt.sign(payload, 'key')
	}
	switch lname {
	case "curl_setopt":
		// PHP's curl_setopt($ch, CURLOPT_USERPWD, 'bob:pw'): the
		// option names the value.
		args := s[j:min(len(s), j+64)]
		for _, o := range [...]string{"CURLOPT_USERPWD", "CURLOPT_PASSWORD", "CURLOPT_PROXYUSERPWD", "CURLOPT_PROXYPASSWORD",
			"CURLOPT_KEYPASSWD", "CURLOPT_SSLKEYPASSWD", "CURLOPT_XOAUTH2_BEARER", "CURLOPT_TLSAUTH_PASSWORD"} {
			if strings.Contains(args, o+",") || strings.Contains(args, o+" ") {
				return 2
			}
		}
	case "b64encode", "standard_b64encode", "urlsafe_b64encode", "encodebytes", "btoa", "encode64", "strict_encode64",
		"encode_base64", "base64_encode", "urlsafe_encode64":
		// A user:password being encoded by hand is a Basic credential.
		if q := skipBlanks(s, j+1); q < len(s) {
			if s[q] == 'b' {
				q++
			}
			if startsQuote(s, q) {
				if from, to := valueSpan(s, q); to > from && strings.IndexByte(s[from:to], ':') > 0 {
					return 0
				}
			}
		}
	case "ftp", "ftp_tls", "ftp_login", "ssh2_auth_password", "ldap_bind", "plainauth":
		// ftplib.FTP(host, user, passwd), PHP's ftp_login($c, user,
		// pw), Go's smtp.PlainAuth(identity, user, pw, host).
		return 2
	case "newstaticcredentials", "basicawscredentials":
		return 1 // AWS: the key id, then the secret key
	case "plaincredentials", "smbconnection", "passwordauthentication", "passwordcredential":
		return 1 // pika.PlainCredentials(user, pw), SMBConnection(user, pw, …)
	case "add_password":
		if strings.Contains(lrecv, "keyring") {
			return -1 // set_password's rule
		}
		return 3 // HTTPPasswordMgr.add_password(realm, uri, user, passwd)
	case "connect":
		switch {
		case strings.Contains(lrecv, "oracle"):
			return 1 // cx_Oracle.connect(user, password, dsn)
		case strings.HasSuffix(s[:i], "DBI->"):
			return -1 // thirdArgument's rule
		case strings.Contains(lrecv, "mysql") || strings.Contains(lrecv, "pymssql") || strings.Contains(lrecv, "pgdb"):
			return 2 // pymysql.connect(host, user, password, db)
		}
		return connectPort // paramiko's connect(host, port, user, password)
	case "open":
		if strings.HasSuffix(lrecv, "ftp") {
			return 2 // Net::FTP.open(host, user, password)
		}
	case "bind":
		// ldapjs' client.bind(dn, pw, cb), go-ldap's l.Bind(dn, pw):
		// a first argument that is a DN or a principal (cn=…, bob@…),
		// not fn.bind(this, …) or a socket's address.
		if q := skipBlanks(s, j+1); startsQuote(s, q) {
			if from, to := valueSpan(s, q); strings.ContainsAny(s[from:to], "=@") {
				return 1
			}
		}
	case "pass_":
		return 0 // poplib's pass_(password)
	case "set_password", "setpassword", "set_unusable_password_to", "hash_password", "encrypt_password":
		if strings.Contains(lrecv, "keyring") {
			return -1 // keyring.set_password(service, user, pw): dsnCall's rule
		}
		return 0 // Django's user.set_password(pw), Flask-Security's hash_password(pw)
	case "create_user", "create_superuser":
		return 2 // Django's create_user(username, email, password)
	case "new":
		if strings.Contains(lrecv, "credential") {
			return 1 // PowerShell's [System.Net.NetworkCredential]::new(user, pw)
		}
		if lrecv == "resource" && strings.HasSuffix(strings.ToLower(s[max(0, i-12):i]), "restclient::") {
			return 2 // Ruby's RestClient::Resource.new(url, user, password)
		}
	case "authenticate":
		return authenticateArg(s, j, lrecv)
	case "github":
		if !startsQuote(s, skipBlanks(s, j+1)) {
			return -1 // Github(auth=Auth.Token(…)): the inner call's rule
		}
		return loginOrToken // PyGithub's Github(token), Github(login, password)
	case "login", "token":
		if lrecv == "auth" {
			return loginOrToken // PyGithub's Auth.Token(token), Auth.Login(login, password)
		}
	case "password":
		if lrecv == "ssh" {
			return 0 // golang.org/x/crypto/ssh.Password(pw)
		}
	case "crypt", "hashpw", "hashsync", "password_hash", "generate_password_hash", "make_password", "password_hash_with_salt",
		"checkpw", "password_verify", "comparesync", "check_password_hash":
		if lname == "crypt" && lrecv != "crypt" {
			return -1
		}
		return 0 // the password being hashed or checked
	case "hash", "encrypt", "using":
		// passlib's sha512_crypt.hash(pw), bcrypt.hash(pw, 10), argon2.hash(pw).
		if strings.Contains(lrecv, "crypt") || strings.Contains(lrecv, "argon") || strings.Contains(lrecv, "passlib") || strings.Contains(lrecv, "scrypt") {
			return 0
		}
	case "create":
		if strings.HasSuffix(recv, "Password") {
			return 0 // BCrypt::Password.create(pw)
		}
	}
	return -1
}

// loginOrToken is callSecretArg's answer for a call taking a token alone
// or a login and its password: the second argument when there are two or
// more, else the first.
const loginOrToken = -3

// authenticateArg returns the password argument of an authenticate call
// whose '(' is at j, or -1: Net::IMAP's authenticate(mechanism, user,
// password) names its SASL mechanism first; Net::SMTP's
// authenticate(user, secret, authtype) is a mail session's.
func authenticateArg(s string, j int, lrecv string) int {
	q := skipBlanks(s, j+1)
	if q < len(s) && s[q] == ':' {
		q++ // a Ruby symbol: authenticate(:login, …)
	} else if startsQuote(s, q) {
		q++
	}
	m := q
	for m < len(s) && (isAlnum(s[m]) || s[m] == '-' || s[m] == '_') {
		m++
	}
	switch strings.ToUpper(s[q:m]) {
	case "LOGIN", "PLAIN", "CRAM-MD5", "DIGEST-MD5", "XOAUTH2", "OAUTHBEARER", "SCRAM-SHA-1", "SCRAM-SHA-256", "NTLM", "ANONYMOUS":
		return 2
	}
	if strings.Contains(lrecv, "smtp") {
		return 1
	}
	return -1
}

// connectPort is callSecretArg's answer for a connect call with no
// database module named: the fourth argument when the second is a port
// number (paramiko's connect(host, port, user, password), redis.Redis(host,
// port, db, password)), else the third when there are three or more
// (psycopg2-style connect(host, user, password), ldap3's Connection(server,
// user, password), ibm_db.connect(db, user, password)); see callArgument.
// Only a quoted literal there is redacted, so connect(host, 22) and a
// callback or variable stay.
const connectPort = -2

// connectFamily returns the password argument of a connection call that
// no module names, by the call's own name, or -1: PHP's and others'
// *_connect(host, user, password) (odbc_connect, mssql_connect,
// db2_connect, ibase_connect, real_connect; oci_connect(user, password,
// …); mysqli_real_connect($link, host, user, password)), imap_open(box,
// user, password), a Connection or Redis class, and Ruby's Net::SMTP and
// Net::POP3 start(host, port, …).
func connectFamily(lname, lrecv string) int {
	switch {
	case lname == "mysqli_real_connect":
		return 3
	case strings.HasPrefix(lname, "oci_") && strings.HasSuffix(lname, "connect"):
		return 1
	case strings.HasSuffix(lname, "_connect") || strings.HasSuffix(lname, "_pconnect") || lname == "imap_open":
		return 2
	case lname == "connection":
		if strings.Contains(lrecv, "sftp") {
			return 3 // pysftp.Connection(host, username, private_key, password)
		}
		return connectPort
	case lname == "redis" || lname == "strictredis":
		return connectPort
	case lname == "new" && strings.HasSuffix(lrecv, "mysql"):
		return 2 // Ruby's Mysql.new(host, user, password)
	case lname == "start" && strings.HasSuffix(lrecv, "smtp"):
		return 4 // Net::SMTP.start(host, port, helo, user, secret)
	case lname == "start" && strings.HasSuffix(lrecv, "pop3"):
		return 3 // Net::POP3.start(host, port, user, password)
	}
	return -1
}

// callArgument redacts the quoted argument n of the call whose '(' is at
// k (0 the first), reading at most maxCallLook bytes, and returns where
// scanning resumes, or 0. Arguments before it may be literals, names or
// numbers; a keyword argument there (port=22) ends the look, its own
// rule having the name.
func (r *redactor) callArgument(k, n int) int {
	s := r.s
	if k < r.callEnd {
		return 0
	}
	end := min(len(s), k+maxCallLook)
	var args [8]span
	na := 0
	p := k + 1
	// A later call starts its own look past where this one stopped
	// (ftp_connect("h"); ftp_login($f, "bob", …)); one inside it none.
	defer func() { r.callEnd = max(r.callEnd, p) }()
	for na < len(args) && p < end {
		p = skipBlanks(s, p)
		a := p
		depth := 0
	arg:
		for p < end {
			switch c := s[p]; {
			case startsQuote(s, p) || (c == 'b' || c == 'r' || c == 'u' || c == 'f') && p+1 < end && startsQuote(s, p+1) && (p == a):
				if !startsQuote(s, p) {
					p++ // b'…', r"…"
				}
				p = pastQuoted(s, p)
				continue
			case c == '(' || c == '[' || c == '{':
				depth++
			case c == ')' || c == ']' || c == '}':
				if depth == 0 {
					break arg
				}
				depth--
			case c == ',' && depth == 0:
				break arg
			case c == '\n' && depth == 0:
				return 0
			}
			p++
		}
		if p >= end {
			return 0
		}
		args[na] = span{a, p}
		na++
		if s[p] != ',' {
			break
		}
		p++
	}
	if n == loginOrToken {
		if na == 0 {
			return 0
		}
		n = 0
		if na >= 2 && startsQuote(s, skipBlanks(s, args[1].from)) {
			n = 1 // the password after the login; a keyword argument is none
		}
	}
	if n == connectPort {
		port := isDigits(strings.TrimSpace(s[args[1].from:args[1].to]))
		switch {
		case na >= 4 && port:
			n = 3
		case na >= 3 && !port && !strings.Contains(s[args[0].from:args[0].to], "://"):
			// Not a URL first: ws.connect('wss://h', protocol, …)
			// takes no login.
			n = 2
		default:
			return 0
		}
	}
	if n >= na {
		return 0
	}
	for _, a := range args[:n] {
		if strings.IndexByte(s[a.from:a.to], '=') >= 0 && !startsQuote(s, a.from) {
			return 0 // a keyword argument: the positions are not these
		}
	}
	a := args[n].from
	if strings.HasPrefix(s[a:], "[]byte(") {
		a += len("[]byte(") // Go's []byte("key")
	}
	if a < len(s) && !startsQuote(s, a) && a+1 < len(s) && startsQuote(s, a+1) && strings.IndexByte("bruBRUNE", s[a]) >= 0 {
		a++ // b"pw", r'pw', SQL's N'pw' and E'pw'
	}
	if !startsQuote(s, a) {
		return 0
	}
	from, to := valueSpan(s, a)
	if to <= from || from < r.done {
		return 0
	}
	return r.replace(from, to, Redacted)
}

// maxCallLook bounds how far callArgument reads a call's arguments; a
// call inside what it read starts no look of its own (callEnd), so the
// pass stays linear.
const maxCallLook = 512
