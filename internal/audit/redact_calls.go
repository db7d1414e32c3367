package audit

import "strings"

// Secrets a script sets by a secret-named string rather than a shell
// assignment: run_script runs python3 too, and commands embed other
// languages. A secret name quoted as a subscript (os.environ['PGPASSWORD']
// = …, process.env["API_TOKEN"] = …, $ENV{'DB_PASS'} = …) or as the first
// argument of a call (os.putenv("PGPASSWORD", …), os.Setenv, setenv,
// SetEnvironmentVariable, os.environ.setdefault, System.setProperty,
// getenv's default) has its value redacted; so has the password argument
// of a login call (ftp.login("bob", …), req.SetBasicAuth("bob", …),
// HTTPBasicAuth("bob", …)).

// scriptSetter redacts the value set under the secret name that is the
// whole quoted string s[i:j], and returns where scanning resumes, or 0.
func (r *redactor) scriptSetter(i, j int) int {
	s := r.s
	if i < 2 || j+1 >= len(s) {
		return 0
	}
	bare := s[i-1] == '{' && s[j] == '}' && (s[i-2] == '$' || s[i-2] == '>' || s[i-2] == '}' || wordByte[s[i-2]])
	// Inside a shell's double quotes the key's are escaped: ssh h
	// "python3 -c 'os.environ[\"PGPASSWORD\"] = …'".
	escaped := i >= 3 && s[i-2] == '\\' && s[i-1] == '"' && strings.HasPrefix(s[j:], `\"`)
	// Inside sh -c '…' the key's quote is the inner shell's, four bytes:
	// sh -c 'python3 -c "x[QpasswordQ] = …"' with Q the quote idiom.
	idiom := i >= 5 && strings.HasSuffix(s[:i], `'\''`) && strings.HasPrefix(s[j:], `'\''`)
	if !bare && !escaped && !idiom && ((s[i-1] != '\'' && s[i-1] != '"') || s[j] != s[i-1]) {
		return 0
	}
	w := s[i:j]
	if secretKey(w) == keyNone && !secretName(w) || lookupProgram(w) != nil || w[0] == '.' || escaped && w[0] == '-' {
		// A program's name ("htpasswd", "-b", …) starts an argv list, a
		// file's (".htpasswd") is an item, and so is an option
		// (\"--no-password\", read by the argv rules).
		return 0
	}
	if r.prog != nil && r.prog.positionalAfter(w) {
		return 0 // ["rabbitmqctl", "change_password", "bob", …]: a subcommand, whose rule finds the secret
	}
	before, k := i-2, skipBlanks(s, j+1)
	if escaped {
		before, k = i-3, skipBlanks(s, j+2)
	}
	if idiom {
		before, k = i-5, skipBlanks(s, j+4)
	}
	if bare {
		// Perl's bareword key: $ENV{PGPASSWORD} = …, $cfg->{password} = ….
		before, k = i-1, j
	}
	for before > 0 && (s[before] == ' ' || s[before] == '\t') {
		before--
	}
	switch {
	case (s[before] == '[' || s[before] == '{') && k < len(s) && (s[k] == ']' || s[k] == '}'):
		// NAME] = value, not a comparison (==).
		k = skipBlanks(s, k+1)
		if strings.HasPrefix(s[k:], "||=") || strings.HasPrefix(s[k:], "??=") {
			k += 2 // ENV['DB_PASSWORD'] ||= …
		}
		if k+1 >= len(s) || s[k] != '=' || s[k+1] == '=' {
			return 0
		}
		k = skipBlanks(s, k+1)
	case (s[before] == '(' && nameStyled(w) || (s[before] == '(' || s[before] == ',') && secretKey(w) != keyNone && secretKey(w) != keyName) && k < len(s) && s[k] == ',':
		// Or a key by its ending (props.put("password", …),
		// config.set('db', 'password', …)).
		// Spelled like a variable (DB_PASSWORD, db.password): a
		// program's name ("sshpass", "-p", …) starts an argv list.
		k = skipBlanks(s, k+1)
		if !startsQuote(s, k) {
			// A variable or None: no value written out here, but
			// what the script assigns the variable is the secret.
			r.scriptNameUse(k, identEnd(s, k, false))
			return 0
		}
	default:
		return 0
	}
	if strings.HasPrefix(s[k:], "q{") || strings.HasPrefix(s[k:], "qq{") {
		// Perl's q{…}, qq{…}.
		o := strings.IndexByte(s[k:], '{') + k + 1
		if c := strings.IndexByte(s[o:min(len(s), o+maxCallLook)], '}'); c > 0 {
			return r.replace(o, o+c, Redacted)
		}
		return 0
	}
	start, end := valueSpan(s, k)
	if end <= start {
		return 0
	}
	if !startsQuote(s, k) {
		r.scriptNameUse(start, identEnd(s, start, false)) // os.environ['PGPASSWORD'] = pw
	}
	if secretKey(w) == keyAuth {
		// req.Header.Set("Authorization", "Basic …"): the scheme stays.
		if sp := strings.IndexByte(s[start:end], ' '); sp > 0 && sp < 16 && isAlnum(s[start]) {
			start += sp + 1
		}
	}
	return r.replace(start, end, Redacted)
}

// dsnCall reports whether the word s[i:j], followed by '(', is Perl's
// DBI->connect or PHP's new PDO, whose third argument is the password.
func dsnCall(s string, i, j int) bool {
	w := s[i:j]
	if e := strings.LastIndexByte(w, '.'); e >= 0 {
		w = w[e+1:]
	}
	switch w {
	case "connect", "connect_cached":
		return strings.HasSuffix(s[:i], "DBI->")
	case "PDO", "mysqli":
		return strings.HasSuffix(s[:i], "new ")
	case "getConnection", "mysqli_connect", "mysql_connect", "mysql_pconnect", "set_password":
		// JDBC's DriverManager.getConnection(url, user, password), PHP's
		// mysqli_connect(host, user, password), Python's
		// keyring.set_password(service, user, password).
		return true
	}
	return false
}

// thirdArgument redacts the third quoted argument of the call whose '('
// is at k, the first being quoted or a name.
func (r *redactor) thirdArgument(k int) int {
	s := r.s
	k = skipBlanks(s, k+1)
	if k >= len(s) {
		return 0
	}
	k = skipBlanks(s, pastArgument(s, k))
	if k >= len(s) || s[k] != ',' {
		return 0
	}
	return r.secondArgument(k)
}

// pastArgument returns where the call argument at k ends when it is a
// literal ('…', "…", Perl's q{…} and qq{…}) or a name ($dsn, @args, u),
// or k.
func pastArgument(s string, k int) int {
	if startsQuote(s, k) {
		return pastQuoted(s, k)
	}
	if _, e := perlQuote(s, k); e > k {
		return e
	}
	if strings.HasPrefix(s[k:], `\$`) {
		k++ // \$dsn one quoting level down
	}
	if k < len(s) && (s[k] == '$' || s[k] == '@') {
		k++ // new PDO($dsn, …), DBI->connect($dsn, $u, …): a PHP or Perl variable
	}
	for k < len(s) && wordByte[s[k]] {
		k++
	}
	return k
}

// perlQuote returns the text inside Perl's q{…} or qq{…} at k and where
// it ends past its '}', or k, k when none starts there.
func perlQuote(s string, k int) (int, int) {
	o := k
	switch {
	case strings.HasPrefix(s[k:], "q{"):
		o += 2
	case strings.HasPrefix(s[k:], "qq{"):
		o += 3
	default:
		return k, k
	}
	if k > 0 && wordByte[s[k-1]] {
		return k, k // seq{, not a quote
	}
	c := strings.IndexByte(s[o:min(len(s), o+maxCallLook)], '}')
	if c < 0 {
		return k, k
	}
	return o, o + c + 1
}

// loginCall reports whether the word w, followed by '(' or a quoted
// argument, names a call whose second argument is a password.
func loginCall(w string) bool {
	if e := strings.LastIndexByte(w, '.'); e >= 0 {
		w = w[e+1:]
	}
	switch strings.ToLower(w) {
	case "auth", "login", "changeuserpassword", "setbasicauth", "basicauth", "httpbasicauth", "simple_bind_s", "simple_bind",
		"httpdigestauth", "digestauth", "httpproxyauth", "usernamepasswordcredentials", "networkcredential",
		"auth_password", "basic_auth", "digest_auth", "proxy_auth", "bind_s":
		return true
	}
	return false
}

// oracleConnect redacts the password of an Oracle login string user/
// password@db given to a connect call whose '(' is at k
// (cx_Oracle.connect("bob/…@h/orcl"), DBI->connect("dbi:Oracle:",
// "bob/…@h", "")), among its first three arguments; it returns where
// scanning resumes, or 0.
func (r *redactor) oracleConnect(k int) int {
	s := r.s
	p := k + 1
	for n := 0; n < 3 && p < len(s); n++ {
		p = skipBlanks(s, p)
		if p >= len(s) {
			return 0
		}
		if startsQuote(s, p) {
			if from, to := valueSpan(s, p); to > from && oracleLoginText(s[from:to]) {
				if pf, pt := oracleSecret(s, from, to); pt > pf && pf >= r.done {
					return r.replace(pf, pt, Redacted)
				}
			}
		}
		e := skipBlanks(s, pastArgument(s, p))
		if e == p || e >= len(s) || s[e] != ',' {
			return 0
		}
		p = e + 1
	}
	return 0
}

// oracleLoginText reports whether v is shaped as an Oracle login,
// user/password@db: a name, '/', a password without '/', '@', blanks or
// quotes, then '@' and the database.
func oracleLoginText(v string) bool {
	if len(v) > 256 || strings.Contains(v, "://") {
		return false
	}
	slash := strings.IndexByte(v, '/')
	if slash <= 0 || identEnd(v, 0, true) != slash {
		return false
	}
	at := strings.IndexByte(v[slash:], '@')
	return at > 1 && !strings.ContainsAny(v[slash+1:slash+at], "/ \t\"'") && slash+at+1 < len(v)
}
