package audit

import (
	"strings"
)

// Redacted replaces every secret that Redact and RedactArgs find.
const Redacted = "[REDACTED]"

// Redact returns s with secrets replaced by [REDACTED]: credentials after
// secret-named keys (key=value, key: value, "key": "value", --key value,
// --key=value, Authorization and Cookie headers keeping the auth scheme);
// variables whose name carries a credential word anywhere (PGPASSWORD=,
// MYSQL_PWD=, REDISCLI_AUTH=, SSHPASS=, *_PASSPHRASE=, AWS_SECRET_ACCESS_KEY=,
// in assignments, export, env, docker -e and JSON or YAML maps; see
// secretName); credentials in program options, read by the program's own
// rules (curl -u user:pass, sshpass -p, htpasswd -b's password, docker
// login -p, mysql -pSECRET, redis-cli -a, openssl -passin pass:, smbclient
// -U user%pass, ldapsearch -w, vault login TOKEN, git config
// user.password …; see programs); bearer tokens; passwords in
// scheme://user:pass@host URLs; PEM private key blocks; JWTs; and
// well-known token formats (AWS access key ids, GitHub, GitLab, Grafana,
// Slack, Stripe, OpenAI, Anthropic, Google API, npm, PyPI, Hugging Face,
// Vault, Tailscale, DigitalOcean). A value after name=, --flag or a
// program's option is the whole shell word however bash joins it
// (pass"wo"rd, 'a b'c, $'…', $(…)), and a quote that closes the string the
// command sits in (sh -c '…', ssh host "…") ends it; see redact_words.go.
// What a command feeds a program that reads a secret on its input (echo …
// | passwd, kinit <<< …) or writes into a credential file (echo … >
// ~/.netrc, cat > ~/.pgpass <<EOF, | tee token) is redacted too; see
// redact_stdin.go, redact_readers.go and redact_files.go. So is a literal
// fed to a command whose own words cue a credential (mosquitto_passwd,
// kadmin -q 'cpw u', mongosh --password; see credentialCue: nothing else
// is typed into a password prompt, so a kept literal is likelier a secret
// than not), and the password of a protocol login line (smbclient -c
// 'logon u pw', a1 login u pw, auth pw, PASS pw; see redact_protocol.go). A program is known by the name bash runs
// it by, the last path component with quotes and backslashes removed
// (/usr/bin/kinit, \kinit, k'in'it; see redact_spelled.go), and a pipe
// into a compound command (if, while, until, for, case) or a group feeds
// its body, as does a redirection after its close.
//
// It makes one pass over s, dispatching on the first byte of each word, and
// every look-ahead either ends in a replacement that the pass then skips or
// stops at a byte the pass would visit anyway; the look-ahead for secret
// positionals never rescans what an earlier one read; a spelled program
// name is read back at most maxSpelled bytes, once per shell word, from
// its last run. So time is linear in len(s).
// Only ASCII bytes are ever cut, so valid UTF-8 stays valid. When nothing is
// found, s itself is returned.
func Redact(s string) string {
	return redactFound(s, nil)
}

// redactFound is Redact, adding what it replaced to *found when found is
// not nil.
func redactFound(s string, found *[]string) string {
	r := newRedactor(s)
	r.found = found
	n := 0
	if found != nil {
		n = len(*found)
	}
	r.run()
	files := r.pwFiles.secretSpans()
	if r.argv.secretUses {
		r.argv.resolveAliases() // p=…; q=$p; sshpass -p "$q"
	}
	if m := r.argv.matches(); len(m) > 0 || r.argv.secretUses || len(files) > 0 {
		// Options held for a later command, or a variable whose value
		// a secret's place expands: read them again by the program's
		// rules, or as a secret (redact_argv.go).
		if found != nil {
			*found = (*found)[:n]
		}
		a := r.argv
		r = newRedactor(s)
		r.found, r.argv.second, r.argv.presets, r.argv.uses, r.argv.secretUses = found, true, m, a.uses, a.secretUses
		r.pwFiles.spans = files
		r.run()
	}
	if r.out == nil {
		return s
	}
	r.out = append(r.out, s[r.done:]...)
	return string(r.out)
}

func newRedactor(s string) redactor {
	return redactor{s: s, stdin: stdinState{atCmd: true, echoAt: -1, docAt: -1, scriptAt: -1}, execAt: -1}
}

// ReadsSecretInput reports whether a program in the command reads a secret
// on its standard input (chpasswd, sudo -S, docker login
// --password-stdin, …) or writes its input into a credential file (cat >
// ~/.netrc), by the rules Redact follows: the text a tool writes to the
// command's input is then a secret too.
func ReadsSecretInput(command string) bool {
	r := newRedactor(command)
	r.run()
	return r.stdin.readsSecret
}

type redactor struct {
	s    string
	out  []byte // nil until the first replacement
	done int    // s[:done] is in out (or needs no copy while out is nil)

	// prog is the program whose options are being read (mysql, where
	// -pSECRET is a password; curl, where -u takes user:password; …),
	// nil outside a command that names one. subs are its first plain
	// arguments (login, config, alias set), htN is htpasswd's -n.
	prog  *program
	subs  [8]string
	nsubs int
	htN   bool
	// pending are positionals a look-ahead found secret (htpasswd -b's
	// password), in order; lookEnd is where the last look-ahead stopped.
	pending []span
	lookEnd int
	// fmtEnd is where the last printf look-ahead stopped
	// (redact_formats.go).
	fmtEnd int
	// bracketEnd is where the last look for the close of a secret
	// key's map or list that found none stopped (redact_values.go).
	bracketEnd int
	// hclEnd is where the last variable block read ended
	// (redact_hcl.go).
	hclEnd int
	// insertEnd is where the last look at an INSERT's values stopped
	// (redact_insert.go).
	insertEnd int
	// paramEnd is where the last look at a quoted statement's bound
	// parameters stopped (redact_sqlparams.go).
	paramEnd int
	// execScan is where the last look for a prepared statement's
	// execute call stopped, execAt where it found one (-1 for none):
	// each byte is looked at once (redact_sqlexec.go).
	execScan, execAt int
	// qemuEnd is where the last read of a QEMU secret object's
	// property list stopped (redact_qemu.go).
	qemuEnd int
	// qemuJSONEnd is where the last JSON secret object read ended.
	qemuJSONEnd int
	// prepared are statements the server prepared by name, for their
	// EXECUTE (redact_sqlprepare.go).
	prepared  [4]preparedStmt
	nprepared int
	// listProg is the program the last argv list in a script named
	// as its first item, taken up again where a later statement adds
	// items to a list (redact_listadds.go).
	listProg *program
	// callEnd is where the last look at a call's arguments stopped
	// (redact_detours.go).
	callEnd int
	// editEnd is where the last look for a credential file a sed
	// command edits stopped, editHit what it found (redact_encoders.go).
	editEnd int
	editHit bool
	// expectAt and spawnAt are one past where the last expect and spawn
	// words start, 0 for none (redact_expect.go).
	expectAt, spawnAt int

	stdin stdinState // secrets fed to a program's input (redact_stdin.go)

	// quotes follows bash's quoting (redact_words.go); readEnd is where
	// the last value read as a shell word ended.
	quotes  quoteTracker
	readEnd int
	// urlAheadEnd is where the last look for a URL password's '@'
	// past its authority that found none stopped (redact_urlahead.go).
	urlAheadEnd int
	// procEnd is where the last process substitution read as a secret
	// source ended (redact_fds.go).
	procEnd int
	// procEnd2 is where the last look for a call's command before
	// input= stopped (redact_procinput.go).
	procEnd2 int
	// looked are the names searched for an assignment, namesLooked
	// how many (scriptNameUse).
	looked      [maxNamesLooked]string
	namesLooked int
	// found, when not nil, collects the text of every replacement
	// (RedactArgsFound).
	found *[]string
	// argv holds option words written before their program is named
	// (redact_argv.go).
	argv argvState
	// pwFiles are the files written and read as password files
	// (redact_pwfiles.go).
	pwFiles pwFileState
	// spelled is the name of the program that the word being read ends,
	// when bash joins it from more than that word (/usr/bin/curl,
	// c\url, 'cu'rl): redact_spelled.go.
	spelled string
	// kube is the last document kubeData looked at (redact_kube.go);
	// genScan is where the look for a kustomization's generator
	// stopped, genSecret whether the last one found is secretGenerator.
	kube      kubeDoc
	genScan   int
	genSecret bool
}

// replace emits s[done:from] and then with, and skips s[from:to]. A span
// that starts before done overlaps a replacement already made: only its
// rest is replaced, so no rule's overlap can panic or re-emit text.
func (r *redactor) replace(from, to int, with string) int {
	if from <= r.done && r.done > 0 {
		if to <= r.done || strings.Trim(r.s[r.done:to], "'\" \t") == "" {
			return max(to, r.done) // echo 'ghp_…' > ~/.token: the closing quote is no secret
		}
		from = r.done
	}
	if !r.argv.second {
		r.secretUse(from, to)
		r.catInSecret(from, to)
	}
	if r.found != nil {
		*r.found = append(*r.found, r.s[from:to])
	}
	if r.out == nil {
		r.out = make([]byte, 0, len(r.s))
	}
	r.out = append(r.out, r.s[r.done:from]...)
	r.out = append(r.out, with...)
	r.done = to
	return to
}

// wordByte marks bytes that make up words: keys, flags and tokens.
var wordByte = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	t['_'], t['-'], t['.'] = true, true, true
	return t
}()

func (r *redactor) run() {
	s, n := r.s, len(r.s)
	for i := 0; i < n; {
		if r.argv.second {
			if end := r.presetAt(i); end > i {
				i = end
				continue
			}
		}
		if len(r.pwFiles.spans) > 0 && i >= r.pwFiles.spans[0].from {
			// A literal written into a password file (redact_pwfiles.go).
			p := r.pwFiles.spans[0]
			r.pwFiles.spans = r.pwFiles.spans[1:]
			if i < p.to {
				i = r.replace(i, p.to, Redacted)
				continue
			}
		}
		if len(r.pending) > 0 && i >= r.pending[0].from {
			p := r.pending[0]
			r.pending = r.pending[1:]
			if i >= p.to && p.to > r.done && p.from >= r.done {
				// A word that began before the span and ran past it
				// (\nS3cr3tZ in a $'…' string): the span is not copied
				// out yet, so it is replaced still.
				r.replace(p.from, p.to, Redacted)
				continue
			}
			if i < p.to {
				// A positional read as secret may be an expansion of
				// held words (smbclient //nas/share "${creds[@]}").
				for k := i; k < p.to; k++ {
					if s[k] == '$' {
						r.useAt(k)
					}
				}
				i = r.replace(i, p.to, Redacted)
			}
			continue
		}
		c := s[i]
		if wordByte[c] {
			j := i + 1
			for j < n && wordByte[s[j]] {
				j++
			}
			if (c == 'n' || c == 'r' || c == 't') && r.escapedStart(i) && lookupProgram(s[i+1:j]) != nil {
				// printf 'x\nset -x API_TOKEN …' | fish: the escape
				// ends a line of the text, and the program after it
				// starts one.
				i++
				continue
			}
			// The program a command names is read however bash spells
			// it: /usr/bin/kinit, \kinit, k'ini't, "$HOME"/bin/kinit
			// (redact_spelled.go).
			name, from := r.spelledName(i, j)
			switch {
			case name != "":
				j = max(r.stdinWordAs(from, i, j, name), j)
			case startsWord(s, i) && !r.nameGoesOn(i, j) || colonSub(s, i, j):
				j = max(r.stdinWord(i, j), j)
			}
			r.spelled = name
			i = max(r.word(i, j), j)
			r.spelled = ""
			continue
		}
		switch c {
		case ':':
			if strings.HasPrefix(s[i:], "://") {
				i = r.url(i + 3)
				continue
			}
			if sipScheme(s, i) {
				i = r.url(i + 1) // sip:bob:pw@host, a SIP URI's password
				continue
			}
			if strings.HasPrefix(s[i:], ":pserver:") {
				i = r.url(i + len(":pserver:")) // CVSROOT's :pserver:bob:pw@host:/repo
				continue
			}
			if strings.HasPrefix(s[i:], `:\/\/`) && i > 0 && isAlnum(s[i-1]) {
				// JSON's escaped slashes: "https:\/\/bob:pw@h\/x".
				i = r.url(i + 5)
				continue
			}
			if v := schemeBrace(s, i+1); v > 0 && i > 0 && wordByte[s[i-1]] {
				// Dovecot's passwd-file: bob:{PLAIN}pw:…, bob:{SSHA}hash:….
				e := v
				for e < len(s) && s[e] != ':' && !shapeEnd(s[e]) {
					e++
				}
				if e > v {
					i = r.replace(v, e, Redacted)
					continue
				}
			}
			if end := smbHashes(s, i); end > 0 {
				i = r.replace(i+1, end, Redacted) // Samba's smbpasswd: uid:LM:NT
				continue
			}
			if end := pgpassField(s, i); end > 0 {
				// host:port:db:user:password in any file or text.
				i = r.replace(i+1, end, Redacted)
				continue
			}
		case '<':
			r.listAdd(i) // a << "-p" << …
			if end := r.inlineAuth(i); end > 0 {
				i = end
				continue
			}
			if end := r.stdinRedirect(i); end > 0 {
				i = end
				continue
			}
		case '\n', '\r', ';', '|', '&':
			// '\r' is Enter typed into a session's terminal.
			if c == '\n' && continued(s, i) {
				break // a line continuation, no command break
			}
			if c == '&' && (i > 0 && (s[i-1] == '>' || s[i-1] == '<') || i+1 < n && s[i+1] == '>') {
				break // 2>&1, <&3, &>/dev/null: a redirection's, no command break
			}
			if c == '\n' && i < r.argv.presetEnd {
				break // a held array's elements go on (second pass)
			}
			if (c == ';' || c == '\n') && i > 0 && (s[i-1] <= ')' || s[i-1] == ';') && addChainBreak(s, i) {
				break // cmd.add("-p"); cmd.add("…"): one argv list
			}
			if c == '\n' && r.quotedData(i) {
				break // printf 'pw\npw\n' | pdbedit -t: one word's line end
			}
			if c != '\n' && continued(s, i) {
				// The tracker steps over an escaped byte with its
				// backslash; in '…' a backslash escapes nothing.
				if q, ok := r.quoteAt(i); ok && q != '\'' || !ok && r.quotes.pos == i+1 {
					break // echo a\;b: an escaped ';' is a byte of the word
				}
			}
			if (c == ';' || c == '|' || c == '&' || c == '\n') && r.quotedSeparator(i) {
				break // printf 'conn u/pw;…' | sqlplus, smbclient -c "cd x; ls" <<< pw
			}
			r.prog = nil
			r.stdinBreak(c, i)
		case '(', ')', '{', '}':
			if c == '(' {
				r.listAdd(i) // a.push("-p", …)
			}
			r.stdinGroup(c, i)
		case '+', '@', '=':
			r.listAdd(i) // a += ["-p", …], push @a, "-p", …, a[2] = "…"
		case '/', '~':
			if c == '/' && i+1 < n && s[i+1] == '/' && schemeRelative(s, i) {
				// //user:pass@host, a URL without its scheme.
				if end := r.url(i + 2); end > i+2 {
					i = end
					continue
				}
			}
			if r.stdin.tee && startsWord(s, i) {
				r.writesTo(i)
			}
		case '>':
			r.redirectOut(i)
		case '$':
			if end := cryptToken(s, i); end > 0 {
				i = r.replace(i, end, Redacted) // $6$salt$hash, $$apr1$$…
				continue
			}
			r.useAt(i)
			r.heldProgram(i)
		}
		i++
	}
	r.wroteFed(n) // > ~/.token echo …, the text's last command
}

// word handles the word s[i:j] and returns where scanning resumes.
func (r *redactor) word(i, j int) int {
	s := r.s
	w := s[i:j]
	r.passwordFileWord(i, j)
	if r.argv.secretUses && r.argv.second && r.argv.uses[w] == heldSecret {
		if end := r.scriptAssigned(i, j); end > 0 {
			return end // p := "…" where exec.Command("sshpass", "-p", p) uses it
		}
	}
	if j < len(s) && (s[j] == '=' || s[j] == '+' || s[j] == '(') || r.stdin.cmdAt == i ||
		w[0] == '-' && w[len(w)-1] == 'c' || i >= 9 && s[i-9] == 'f' {
		if end := r.holdWord(i, j); end > 0 {
			return end // a variable later expanded where a secret goes
		}
	}
	if end := tokenEnd(s, i, j); end > i {
		if w[0] == 'A' && (strings.HasPrefix(w, "AKIA") || strings.HasPrefix(w, "ASIA")) {
			if from, to := awsSecretAfter(s, end); to > from {
				r.replace(i, end, Redacted)
				return r.replace(from, to, Redacted)
			}
		}
		return r.replace(i, end, Redacted)
	}
	if dsnPassword(s, i, j) {
		return r.replace(i, j, Redacted)
	}
	if (len(w) == 6 || len(w) == 5) && (w[0] == 'V' || w[0] == 'v') && (strings.EqualFold(w, "values") || strings.EqualFold(w, "value")) {
		if end := r.sqlInsert(i, j); end > 0 {
			return end // INSERT INTO users (name, password) VALUES ('a', '…')
		}
	}
	if len(w) == 6 && (w[0] == 'S' || w[0] == 's') && strings.EqualFold(w, "select") {
		if end := r.sqlInsertSelect(i, j); end > 0 {
			return end // INSERT INTO users (name, password) SELECT 'a', '…'
		}
	}
	if len(w) == 7 && r.nprepared > 0 && strings.EqualFold(w, "execute") {
		r.executePrepared(i, j) // PREPARE p AS …; …; EXECUTE p('…')
	}
	if (len(w) == 6 || len(w) == 5) && i > 0 && sqlParamsKeyword(w) {
		r.sqlStatementParams(i, j) // "UPDATE users SET password=? …", ("…", 1)
	}
	if j < len(s) && (s[j] == ' ' || s[j] == '\t') && i > 0 {
		if end := r.headerDirective(i, j); end > 0 {
			return end // proxy_set_header Authorization "Basic …";
		}
	}
	if w == "case" && startsWord(s, i) {
		r.secretCase(j) // case "$PGPASSWORD" in S3cret) …
	}
	if w == "variable" {
		if end := r.hclVariable(i, j); end > 0 {
			return end // variable "db_password" { default = "…" }
		}
	}
	if w == "literals" {
		if end := r.kustomizeLiterals(i, j); end > 0 {
			return end // secretGenerator:⏎- name: x⏎  literals:⏎  - k=…
		}
	}
	if w == "data" || w == "stringData" {
		if end := r.kubeData(i, j); end > 0 {
			return end // a Secret's data:⏎  config: c2VjcmV0…
		}
	}
	if j+1 < len(s) && s[j] == '=' && i > 0 && (s[i-1] == '?' || s[i-1] == '&' || s[i-1] == ';' && urlPathParam(s, i)) && queryCredential(w) {
		// ?code=… (an OAuth authorization code), &session=…
		return r.replace(j+1, urlPathEnd(s, j+1, false), Redacted)
	}
	if len(w) == 1 && w[0] == 's' {
		if end := r.sedSubstitution(i, j); end > 0 {
			return end // sed 's/^password=.*/password=…/'
		}
	}
	if (w == "printf" || r.spelled == "printf") && startsWord(s, i) && standsAlone(s, j) {
		r.printfArgs(j) // printf 'password=%s' …
	}
	if end := r.escapedItem(i, j); end > 0 {
		return end // [\"sshpass\", \"-p\", \"…\"] one quoting level down
	}
	if end := r.joinedWord(i, j); end > 0 {
		return end // '--user' 'bob:pw', --pass\word=pw, PG"PASS"WORD=pw
	}
	if end := r.namedValue(i, j); end > 0 {
		return end // - name: DB_PASSWORD⏎  value: …
	}
	if end := r.xmlValue(i, j); end > 0 {
		return end // <name>db.password</name><value>…</value>
	}
	if len(w) <= 4 && i > 0 {
		if end := r.namedElement(i, j); end > 0 {
			return end // <property name="db.password">…</property>
		}
	}
	if end := r.blankSeparated(i, j); end > 0 {
		return end // spring.datasource.password S3cret
	}
	if end := r.cryptHash(i, j); end > 0 {
		return end // bob:$6$salt$hash:…
	}
	if end := r.scriptSetter(i, j); end > 0 {
		return end // os.environ['PGPASSWORD'] = …, os.putenv("PGPASSWORD", …)
	}
	if len(w) >= 7 && len(w) <= 13 && (w[0] == 'r' || w[0] == 't' || w[0] == 'i' || w[0] == 'c') {
		if ps, ok := snmpdDirective(w); ok && directiveStart(s, i) {
			r.lookAhead(j, ps, false) // echo 'rocommunity S3cret' >> snmpd.conf
			return j
		}
	}
	if end := r.directive(w, i, j); end > 0 {
		return end
	}
	if w == "Private-Lines" && j < len(s) && s[j] == ':' && directiveStart(s, i) {
		return r.puttyPrivate(j + 1) // a PuTTY key file's private part
	}
	if w[0] == 'c' && len(w) <= 9 {
		r.routerCommunity(i, j) // /snmp community set [find] name=…
	}
	if len(w) >= 2 && len(w) <= 15 && deviceLineStart[w[0]] && (deviceLineAt(s, i) || w == "ip" && r.stdin.cmd == "ip") && deviceDirective(w) {
		return r.deviceLine(w, j) // username admin secret 5 …, wpa-psk … in interfaces(5)
	}
	if len(w) == 7 || w == "user" {
		r.aclLine(i, j) // echo 'ACL SETUSER bob on >pw' | redis-cli, users.acl
	}
	if j < len(s) && len(w) >= 5 && (w[len(w)-1] == 'd' || w[len(w)-1] == 'e' || w[len(w)-1] == '.') && strings.IndexByte(":?* .)$'\"", s[j]) >= 0 {
		if end := r.promptAnswer(i, j); end > 0 {
			return end // pexpect.run(…, events={"assword": "…\n"})
		}
	}
	if w == "secret" && j < len(s) && s[j] == ',' {
		if end := r.qemuSecret(i, j); end > 0 {
			return end // qemu -object secret,id=sec0,data=…
		}
	}
	if w == "secret" && j < len(s) && (s[j] == '"' || s[j] == '\\') {
		r.qemuSecretJSON(i, j) // -object '{"qom-type":"secret",…,"data":"…"}'
	}
	if len(w) == 12 && w == "set_password" || len(w) == 8 && w == "password" || w == "block_passwd" {
		if end := r.monitorPassword(i, j); end > 0 {
			return end // QEMU's monitor: set_password vnc …, change vnc password …
		}
	}
	if len(w) == 5 && w == "input" || len(w) == 10 && w == "stdin_data" {
		if end := r.procInput(i, j); end > 0 {
			return end // subprocess.run(["chpasswd"], input="bob:…")
		}
	}
	if j < len(s) && (s[j] == ',' || s[j] == ')' || s[j] == ']') || i >= 2 && (s[i-1] == ',' || s[i-2] == ',') {
		if end := r.unpacked(i, j); end > 0 {
			return end // user, password = 'bob', '…'
		}
	}
	switch w[0] {
	case '-':
		if strings.HasPrefix(w, "-----BEGIN") {
			if end := r.pem(i); end > 0 {
				return end
			}
		}
		if r.prog != nil {
			if end := r.option(i, j); end > 0 {
				return end
			}
		}
		if w == "-U" || w == "--user" || len(w) > 2 && w[1] == 'U' {
			if end := r.sambaUser(i, j); end > 0 {
				return end // winexe -U dom/bob%pw, wmic --user=bob%pw, -Ubob%pw
			}
		}
	case 'p', 'P':
		// SQL: PASSWORD 'secret', PASSWORD('secret').
		if len(w) == 8 && strings.EqualFold(w, "password") {
			if end := r.sqlPassword(j); end > 0 {
				return end
			}
			if end := r.passwordWord(i, j); end > 0 {
				return end // machine h login u password …, a printed password
			}
		}
	case 'n', 'r':
		if escapedProtocolLine(s, i, j) {
			r.lookAhead(j, positional{every: true}, false)
			return j
		}
	case 's', 'e':
		switch w {
		case "send", "exp_send":
			if end := r.expectSend(i, j); end > 0 {
				return end
			}
		case "expect":
			r.expectAt = i + 1
		case "spawn":
			r.spawnAt = i + 1
		}
	case 'b', 'B':
		// SQL: IDENTIFIED [WITH plugin] BY 'secret' (or unquoted, Oracle).
		if len(w) == 2 && strings.EqualFold(w, "by") && containsFold(s[max(0, i-64):i], "identified") {
			if end := r.sqlString(j, true); end > 0 {
				return end
			}
		}
		if len(w) == 5 && strings.EqualFold(w, "basic") {
			if end := r.basicWord(j); end > 0 {
				return end // echo 'Basic dXNlcjpwYXNz'
			}
		}
		if strings.EqualFold(w, "bearer") {
			k := skipBlanks(s, j)
			end := k
			for end < len(s) && bearerByte(s[end]) {
				end++
			}
			if k > j && end-k >= 8 {
				return r.replace(k, end, Redacted)
			}
		}
	}
	if j < len(s) && s[j] == '(' && (strings.HasSuffix(w, "connect") || strings.HasSuffix(w, "connect_cached")) {
		if end := r.oracleConnect(j); end > 0 {
			return end // cx_Oracle.connect("bob/…@h/orcl")
		}
	}
	if j < len(s) && s[j] == '(' && sendCall(w) {
		if end := r.expectSendCall(i, j); end > 0 {
			return end // c.expect("assword"); c.sendline("…")
		}
	}
	if j+1 < len(s) && (s[j] == '(' || s[j] == ' ' && startsQuote(s, j+1)) && loginCall(w) {
		if end := r.secondArgument(j); end > 0 {
			// db.auth("u", "secret"), ftp.login("u", "secret"), and
			// without parentheses (Ruby, Perl): req.basic_auth 'u', 'secret'.
			return end
		}
	}
	if j < len(s) && s[j] == '(' {
		if n := callSecretArg(s, i, j); n != -1 {
			if end := r.callArgument(j, n); end > 0 {
				return end // ftplib.FTP(h, 'bob', …), c.connect(h, 22, 'bob', …), crypt.crypt(…)
			}
		}
	}
	if j < len(s) && s[j] == '(' && dsnCall(s, i, j) {
		if end := r.thirdArgument(j); end > 0 {
			return end // DBI->connect("dsn", "u", "secret"), new PDO("dsn", "u", "secret")
		}
	}
	if r.prog != nil && r.prog.slash && i > 0 && s[i-1] == '/' && j < len(s) && (s[j] == ':' || s[j] == ' ' || s[j] == '\t') && startsWord(s, i-1) {
		// xfreerdp /p:secret; Windows' tools, in any case, also with
		// the value as the next word (schtasks /RP secret).
		for _, o := range r.prog.opts {
			if len(o.name) == j-i+2 && strings.EqualFold(o.name[:len(o.name)-1], s[i-1:j]) {
				k := j + 1
				if s[j] != ':' {
					if k = skipBlanks(s, j); k >= len(s) || s[k] == '/' || s[k] == '-' {
						break
					}
				}
				return max(r.optionValue(k, o.split), j+1)
			}
		}
	}
	if exe := len(w) > 6 && strings.EqualFold(w[len(w)-4:], ".exe"); (exe || r.stdin.cmdAt == i && hasUpper(w)) && standsAlone(s, j) && startsWord(s, i) {
		// PsExec.exe, NET.EXE, SCHTASKS: Windows finds a program in
		// any case, with or without its extension.
		name := strings.ToLower(w)
		if exe {
			name = name[:len(name)-4]
		}
		// Without the extension only Windows' own tools: MYSQL_PWD
		// and SSHPASS are variables.
		if p := lookupProgram(name); p != nil && (exe || p.slash || p.winOpts) {
			r.enterProgram(p, j)
			return j
		}
	}
	if r.unlistedLogin(i, j) {
		return j
	}
	if w[0] != '-' && (r.prog != nil || mayBeProgram(w) || r.spelled != "") && (standsAlone(s, j) || escapedQuoted(s, i, j) || wordListStart(s, i)) {
		// \curl (the alias-free spelling) and /usr/bin/curl name it too.
		if startsWord(s, i) || s[i-1] == '/' || s[i-1] == '\\' && startsWord(s, i-1) || r.spelled != "" || wordListStart(s, i) || r.escapedStart(i-1) {
			if r.spelled != "" {
				w = r.spelled
			}
			// Inside a configuring subcommand, the name of a program
			// is a value (rclone config create r sftp …, nmcli dev
			// wifi connect net password …).
			// Nor is a word the program configures by (travis env set).
			// A name before " = " is a key (ldap_default_authtok =
			// …), not an ldap* program. After login the word is the
			// registry (docker login reg -p …: reg is also Windows').
			if p := lookupProgram(w); p != nil && (r.prog == nil || r.stdin.cmdAt == i || !r.configuring(r.prog) && !r.prog.configWord(w) && !r.loggingIn()) && (!p.cmdOnly || r.stdin.cmdAt == i || r.echoedLine(i)) && !spacedEquals(s, j) {
				r.enterProgram(p, j)
				switch {
				case listHead(s, i):
					r.listProg = p // a = ["sshpass"]; a << "-p" << …
				case r.stdin.cmdAt == i:
					r.listProg = nil // a command names its own
				}
				return j
			}
		}
		if r.prog != nil {
			if startsWord(s, i) || colonSub(s, i, j) {
				r.argument(i, j)
			}
			if end := r.configValue(i, j); end > 0 {
				return end
			}
		}
	}
	// An array element's subscript sits between the name and '='
	// (TOKENS[0]=…, [password]=… in an array's parentheses).
	sep := subscriptEnd(s, i, j)
	if mayNameCommand(w) {
		if end := r.passCommand(i, j); end > 0 {
			return end // restic --password-command 'echo pw'
		}
	}
	if end := r.commandValue(i, j); end > 0 {
		return end // ssh -o ProxyCommand='sshpass -p … ssh …'
	}
	kind := secretKey(w)
	noValue := w[0] == '-' && (strings.HasPrefix(w, "--no-") || strings.HasPrefix(w, "-no-") || promptFlag(w))
	if noValue {
		// A negation takes no value (impacket's -no-pass too), nor does
		// a flag that asks for the secret (--ask-password, --ask-vault-pass,
		// -prompt-password): the next word is the command's own.
		kind = keyNone
	}
	if kind == keyNone && !noValue && w[0] == '-' && j-i > 2 && j < len(s) && flagSecretName(w) {
		kind = keyPlain
	}
	if kind == keyNone && j-i >= 2 && sep < len(s) && nameSeparator(s, sep) {
		name := w
		if len(w) > 2 && w[0] == '-' && w[1] == 'e' && w[2] >= 'A' && w[2] <= 'Z' {
			name = w[2:] // docker run -eMYSQL_PWD=x
		}
		switch {
		case name[0] == '-':
		case secretName(name):
			kind = keyName
		case (len(name) == 3 || len(name) == 6) && pwdName(name):
			kind = keyPwd
		}
	}
	if kind == keyNone && j < len(s) && (s[j] == '=' || w[0] == '-') {
		if end := r.pairValue(i, j); end > 0 {
			return end // https_proxy=user:pass@proxy, --proxy user:pass@proxy
		}
	}
	if kind == keyNone && sep < len(s) && (s[sep] == ':' || nameSeparator(s, sep)) && vendorKeyHeader(w) {
		kind = keyPlain // X-JFrog-Art-Api: …
	}
	if j < len(s) && (s[j] == ' ' || s[j] == '\t') && sep == j && !nameSeparator(s, j) {
		if end := r.declared(i, j); end > 0 {
			return end // var dbPassword string = "…", #define DB_PASSWORD "…"
		}
	}
	if eq := skipBlanks(s, sep); kind != keyNone && eq+1 < len(s) && s[eq] == '=' && s[eq+1] != '=' && r.placeholderValue(eq+1) {
		return j // password=?: a bound parameter, read by sqlStatementParams
	}
	if kind != keyNone && r.keptValue(i, j, sep) {
		return j // WHERE key = 'theme', -storepass:env VAR, ,password-secret=sec0
	}
	if kind != keyNone && (keyFilePath(w, s, sep) || secretReference(w, s, sep) || keyFileOption(r.stdin.cmd, w)) {
		return j // -signkey k.pem, --private-key ~/.ssh/id_rsa: where the key is
	}
	if kind != keyNone && !promptText(s, i, sep) {
		// A name that starts a YAML line (pw: …, - pwd: …) is a key
		// there however it is spelled.
		styled := nameStyled(w) || (kind == keyName || kind == keyPwd) && yamlKeyAt(s, i)
		if end := r.keyValue(sep, w[0] == '-', kind, styled); end > 0 {
			return end
		}
	}
	return j
}
