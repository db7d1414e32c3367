package audit

import "strings"

// Secrets fed on standard input: echo pass | sudo -S …, chpasswd <<<
// 'user:pass', docker login --password-stdin, gh auth login --with-token.
// The redactor notes the arguments of an echo or printf that starts a
// command and ends at a pipe; when the next command turns out to read a
// secret on its input, those arguments are replaced (they have not been
// copied out yet), and so are its here-string and the body of its
// here-document.

// stdinState is what the redactor keeps for this rule.
type stdinState struct {
	atCmd  bool   // the next word starts a command
	cmd    string // the current command's first word
	cmdAt  int    // where it starts
	echoAt int    // where the current echo's arguments start, or -1
	// feed are what the earlier commands of this pipeline write: echo,
	// printf and yes arguments, here-strings; docAt is the first
	// here-document operator among them, or -1.
	feed  [8]span
	nfeed int
	docAt int
	docQ  byte // the quote of the string docAt sits in (enclosingQuote)
	depth int  // open ( and { groups, whose commands share one output
	// compound: open if, while, until, for, select and case commands,
	// whose bodies share one input and output as a group's do.
	compound int
	// casePatterns: a case command's patterns have begun, where '('
	// opens a pattern, not a subshell: case … in (x) chpasswd;; esac.
	casePatterns bool
	// telnet: the command is telnet, whose input is typed into a remote
	// login (loneFeeds).
	telnet bool
	tee    bool // the current command is tee, writing its input to files
	// outs are plain files the current command writes what it is fed
	// or prints to (cat > /tmp/p <<EOF, tee /tmp/p, dd of=/tmp/p), for
	// a later password-file option (redact_pwfiles.go).
	outs  [2]string
	nouts int
	// wrapper: the current command runs another with its input (sudo).
	wrapper bool
	secret  bool // the current command reads a secret on its input
	// readsSecret: some command did, so what a tool feeds the command
	// line on its input is a secret (ReadsSecretInput). lineReaders and
	// otherReaders: some of those commands read name:password lines,
	// some anything else (userLinesInput).
	readsSecret, lineReaders, otherReaders bool
	// sshpass: the command is sshpass, its own command not yet found.
	sshpass bool
	// scriptAt is where the last string read as a shell's script
	// starts (sh -c '…', bash <<< '…'), or -1.
	scriptAt int
	// heredocs: the command's here-document bodies have been found.
	heredocs bool
	// userLines: the command reads name:password lines, whose names
	// stay (redact_userlines.go).
	userLines bool
	// decoder: the command decodes base64 (base64 -d), whose input
	// that decodes to user:password is a secret (redact_decoded.go).
	decoder bool
	// decodedEnd is where the last look at literals fed to a decoder
	// stopped: each byte is looked at once however many decoders a
	// pipeline has.
	decodedEnd int
	// groupSecret: a command inside the open group or compound command
	// read a secret on its input, so a redirection after its close
	// ({ chpasswd; } <<EOF, done <<< …) feeds that command.
	groupSecret bool
	// cats are the files a cat in the pipeline feeds it (cat /tmp/u |
	// chpasswd), password files once a reader takes them.
	cats  [2]string
	ncats int
	// fds: descriptors other than 0 the command reads a secret from
	// (sshpass -d 3, openssl -passin fd:3), whose here-strings and
	// here-documents are secret (redact_fds.go).
	fds uint16
	// fdIn is what commands gave other descriptors, for a reader
	// taking its input from one (redact_fddup.go).
	fdIn fdFeeds
	// code is the inline code of the current command's interpreter
	// (awk '…', perl -e '…'), what it writes (redact_codefeeds.go).
	code span
	// sinks are processes, descriptors and coprocesses a command may
	// write a reader's input to (redact_sinks.go).
	sinks sinkState
	// fns are the functions defined so far that read a secret on their
	// input (redact_funcinput.go).
	fns funcDefs
	// assignEnd is where the value of an assignment before the command
	// ends (LC_ALL=C sudo -S …), at group depth assignDepth: the words
	// up to it name no command.
	assignEnd, assignDepth int
}

// stdinReader reports whether the program w reads a password or token
// on its input whatever its options: passwd and chpasswd take new
// passwords there when it is no terminal, kinit, smbpasswd, vncpasswd and
// cryptsetup a passphrase, ftp its login.
func stdinReader(w string) bool {
	switch w {
	case "chpasswd", "chgpasswd", "passwd", "kinit", "smbpasswd", "vncpasswd", "tigervncpasswd", "tightvncpasswd", "cryptsetup",
		"wpa_passphrase", "restic", "cifscreds", "kpasswd", "newusers", "gocryptfs", "keepassxc-cli",
		"ftp", "tnftp", "pftp", "netkit-ftp", "lftp", "su", "ksu", "kadmin", "borg", "borgmatic", "ldappasswd",
		"mysql_secure_installation", "mariadb-secure-installation", "keytool", "htdigest", "kadmin.local", "kdb5_util", "pure-pw":
		// wpa_passphrase SSID reads the passphrase there; restic,
		// cifscreds add, gocryptfs and keepassxc-cli read the password
		// (or a database's) there when it is no terminal; newusers
		// reads user:password lines. htdigest and pure-pw (useradd,
		// passwd) read the new password twice there; kdb5_util create
		// the database's master key.
		// su and ksu read the
		// password there when it is no terminal, kadmin the admin's
		// password, borg a repository's passphrase (as restic).
		// FTP clients read their commands there, user NAME PASSWORD (or
		// lftp's open -u NAME,PASSWORD) among them, and without -n the
		// answers to their Name and Password prompts. The database's
		// secure installation asks for the root password and a new one;
		// keytool for the keystore's and key's passwords, read there
		// when there is no console.
		return true
	}
	return false
}

// redirectTarget reports whether the word at i follows an output
// redirection operator (>, >>, 2>, &>), naming its file.
func redirectTarget(s string, i int) bool {
	k := i
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	return k > 0 && s[k-1] == '>' && (k < 2 || s[k-2] != '(')
}

// shellKeyword reports whether w, as a command's first word, is a
// reserved word or keyword after which the command itself starts.
func shellKeyword(w string) bool {
	switch w {
	case "if", "then", "else", "elif", "do", "while", "until", "time", "coproc":
		return true
	}
	return false
}

// stdinWord looks at the word s[i:j] for this rule and returns where
// scanning resumes (j, unless a replacement was made).
func (r *redactor) stdinWord(i, j int) int {
	return r.stdinWordAs(i, i, j, r.s[i:j])
}

// stdinWordAs is stdinWord for the word s[i:j] that ends the shell word
// starting at from, which names w when it names a program
// (/usr/bin/kinit, k\init: redact_spelled.go).
func (r *redactor) stdinWordAs(from, i, j int, w string) int {
	st := &r.stdin
	if !st.atCmd && st.echoAt < 0 && (r.innerCommand(from) || from < i && r.innerCommand(i)) {
		// The quote may be escaped, one shell down (sh -c \"echo …\",
		// sh -c '\''echo …'\''), and then part of the spelled name.
		// sh -c 'echo …', ssh host "echo …": the string is a command.
		st.atCmd, st.echoAt, st.secret, st.heredocs, st.scriptAt = true, -1, false, false, i
	}
	if st.atCmd {
		// A compound command's body reads the pipe its whole command
		// is given: echo pw | if …; then kinit u; fi, | while …; do
		// passwd …; done, | case … in x) chpasswd;; esac. Its
		// commands share that input as a group's do.
		switch w {
		case "if", "while", "until", "for", "select", "case":
			st.compound++
		case "fi", "done", "esac":
			st.compound = max(st.compound-1, 0)
			st.casePatterns = st.casePatterns && w != "esac"
			r.groupClosed()
			return j
		}
	}
	if logonLine(r.s, i, j) {
		r.logonSecret(j) // smbclient -c 'logon bob pw'
	}
	if st.atCmd && r.coprocWord(w, j) {
		return j // coproc [NAME] …: the command follows
	}
	if st.atCmd && shellKeyword(w) {
		return j // if echo … | chpasswd; then …: the command follows
	}
	if st.atCmd && (i < st.assignEnd && st.depth == st.assignDepth || from == i && r.assignment(i, j)) {
		return j // FOO=1 sudo -S …: the command follows the assignments
	}
	if st.atCmd && (redirectTarget(r.s, from) || j < len(r.s) && (r.s[j] == '>' || r.s[j] == '<') && isDigits(w)) {
		return j // > /tmp/p printf …, 1>/tmp/p printf …: the command follows
	}
	r.funcName(w, j, st.atCmd)
	if st.atCmd {
		st.atCmd, st.cmd, st.tee, st.wrapper, st.cmdAt, st.sshpass = false, w, w == "tee", stdinWrapper(w), i, w == "sshpass"
		if st.tee {
			return j
		}
		if (w == "echo" || w == "printf" || w == "yes") && st.echoAt < 0 {
			// Not inside an echo's own $(…): echo a$(printf b)c | …
			st.echoAt = j
		}
		if st.code.to == 0 && len(w) >= 3 && len(w) <= 7 {
			st.code = inlineCode(r.s, w, j) // perl -e 'print "…"' | chpasswd
		}
		if fileFeeder(w) {
			r.catFiles(j) // cat /tmp/u | chpasswd, paste -d: /tmp/u /tmp/p | chpasswd
		}
		if decoderCmd(w, r.s[j:]) {
			st.decoder = true
			for _, f := range st.feed[:st.nfeed] {
				if f.to > st.decodedEnd {
					r.decodedFeed(max(f.from, st.decodedEnd), f.to) // echo dXNlcjpwYXNz | base64 -d
					st.decodedEnd = f.to
				}
			}
		}
		if w == "telnet" {
			r.loneFeeds() // echo pw | telnet h 23
			st.telnet = true
		}
		if kind := loginInputOf(w); kind != noLoginInput {
			r.loginFeeds(kind, i) // echo 'connect scott/pw' | sqlplus /nolog
		}
		if c, tk, te := copyTarget(w, r.s[j:]); c && te > tk {
			r.writesPlain(j+tk, j+te) // dd of=/tmp/p <<< pw
		}
		if stdinReader(w) || st.fns.n > 0 && st.fns.reads(w) || credentialCue(w) && !textFilter(w) || encoderCmd(w, r.s[j:]) || copiesInput(w, r.s[j:]) || flagReader(w, r.s[j:]) {
			// kinit; mosquitto_passwd, systemd-ask-password: credentialCue;
			// echo -n bob:pw | base64, dd of=~/.pgpass: redact_encoders.go.
			r.secretInput(i)
		}
		if (w == "PASS" || len(w) == 4 && strings.EqualFold(w, "auth")) && protocolAuth(r.s, w, j) {
			// A Redis (or SMTP) AUTH line, typed into redis-cli or fed
			// to it: AUTH [user] password; an FTP or POP3 PASS line.
			// Only upper case: PAM's "auth required …" lines are no
			// credential.
			r.lookAhead(j, positional{every: true, userFirst: w != "PASS"}, false)
		}
		return j
	}
	if st.cmd == "case" && w == "in" {
		st.casePatterns = true
	}
	if !st.wrapper && subWrapper(st.cmd, w) {
		st.wrapper = true // docker exec -i c chpasswd, kubectl exec -i p -- …
	}
	if st.wrapper && (w == "sudo" || w == "doas" || wrappedCommand(w) || w == "printf" && (st.cmd == "command" || st.cmd == "builtin") || stringRunner(w) && !stringRunner(st.cmd)) {
		st.cmd = w // ssh host sudo -S …, sudo docker secret create s -
		st.sshpass, st.cmdAt = w == "sshpass", i
	}
	if st.wrapper && !st.secret && (encoderCmd(w, r.s[j:]) || copiesInput(w, r.s[j:]) || flagReader(w, r.s[j:])) {
		r.secretInput(i) // echo pw | sudo dd of=/etc/app/token
		return j
	}
	if st.wrapper && st.echoAt < 0 && (w == "echo" || w == "printf" || w == "yes") {
		st.echoAt = j // sudo echo pw | chpasswd: the wrapped echo writes to the pipe
	}
	if (w == "LOGIN" || len(w) == 5 && strings.EqualFold(w, "login") && r.prog == nil && !optionNext(r.s, j)) && taggedLine(r.s, i) && twoWordsLeft(r.s, j) {
		// In lower case only where no program's rules read the line
		// (vault login -no-print TOKEN, bw login u pw are theirs).
		// a1 LOGIN user password, an IMAP login fed to a client.
		r.lookAhead(j, positional{index: 1}, false)
		return j
	}
	if len(w) == 12 && strings.EqualFold(w, "authenticate") && taggedLine(r.s, i) && strings.EqualFold(strings.TrimSpace(r.s[j:min(len(r.s), j+7)]), "plain") {
		// a1 AUTHENTICATE PLAIN base64(\0user\0password): IMAP's SASL
		// initial response, the login itself.
		r.lookAhead(j, positional{index: 1}, false)
		return j
	}
	if (st.echoAt >= 0 || hereString(r.s, i)) && protocolAuth(r.s, w, j) {
		// echo 'AUTH pw' | redis-cli, nc h 6379 <<< "AUTH u pw": the
		// AUTH line a command writes or is given (upper case only, as
		// above).
		r.lookAhead(j, positional{every: true, userFirst: !strings.EqualFold(w, "pass")}, false)
		return j
	}
	if st.cmd == "printf" && (strings.HasSuffix(r.s[max(0, i-4):i], "-v ") && secretName(w) || len(w) > 2 && strings.HasPrefix(w, "-v") && secretName(w[2:])) {
		// printf -v TOKEN fmt args, -vTOKEN too: what it prints is the
		// variable's value.
		r.lookAhead(j, positional{every: true}, false)
		return j
	}
	if st.tee || st.wrapper && w == "tee" {
		st.tee = true // | sudo tee ~/.netrc
		r.writesTo(i)
		return j
	}
	if len(w) > 1 && w[0] == '-' {
		switch {
		case st.cmd == "sshpass" && len(w) > 2 && w[1] == 'd' && isDigits(w[2:]):
			r.readsFd(int(w[len(w)-1]-'0'), j) // sshpass -d3
		case secretFileOption(st.cmd, w):
			r.secretSource(st.cmd, w, j)
		}
	}
	if st.sshpass && w[0] != '-' {
		// sshpass ssh h <<< pw: no -p, -f, -d or -e; looked at once, at
		// its command's first word (and -P's value, in a bounded span).
		switch reads, value := sshpassReadsStdin(r.s[st.cmdAt:i]); {
		case value && i-st.cmdAt < 1024:
		case reads:
			st.sshpass = false
			r.secretInput(i)
			return j
		default:
			st.sshpass = false
		}
	}
	if !st.secret && r.prog != nil && r.prompts(w, j) {
		r.secretInput(i) // mysql -p, psql -W
		return j
	}
	cue := w
	if !st.wrapper {
		cue = r.s[i:j] // an argument's run as written: $'…\r\nPASS' names nothing
	}
	if st.secret || !readsSecretInput(st.cmd, w, r.s[j:], st.wrapper) && !(credentialCue(cue) && !textFilter(st.cmd)) {
		return j
	}
	r.secretInput(i)
	return j
}

// secretInput marks the current command, whose word at is being read, as
// reading a secret on its input: what the pipeline feeds it so far is
// replaced (it has not been copied out yet), and so are the bodies of
// here-documents feeding it. A shell's here-string the word sits in (bash
// <<< 'echo … | chpasswd') is the script being read, not its input: its
// own rules redact it. Any other fed text the word sits in (cat <<<
// 'mysql -p …') is replaced whole, and the rules that then reach into it
// find it replaced already (replace).
func (r *redactor) secretInput(at int) {
	st := &r.stdin
	st.secret, st.readsSecret = true, true
	e := at
	for e < len(r.s) && wordByte[r.s[e]] {
		e++
	}
	st.userLines = userLineReader(r.s[at:e])
	st.lineReaders, st.otherReaders = st.lineReaders || st.userLines, st.otherReaders || !st.userLines
	st.groupSecret = st.groupSecret || st.depth > 0 || st.compound > 0
	for _, f := range st.feed[:st.nfeed] {
		if f.to > at && f.from <= st.scriptAt && st.scriptAt < f.to {
			continue
		}
		// A part already redacted by another rule is left as it is.
		if from := max(f.from, r.done); f.to > from {
			r.replaceInput(from, f.to)
		}
	}
	st.nfeed = 0
	for _, p := range st.cats[:st.ncats] {
		r.passwordPath(p)
	}
	st.ncats = 0
	if st.docAt >= 0 && !st.heredocs {
		st.heredocs = true
		r.queueHeredocs(st.docAt, st.docQ)
	}
}

// fileFeeder reports whether the program w writes what it reads from the
// files it is given to its output: cat, and the filters that pass their
// lines on, joined, cut or in another order (paste -d: users pws, head
// -1 f, sort f).
func fileFeeder(w string) bool {
	switch w {
	case "cat", "tac", "paste", "head", "tail", "sort", "uniq", "nl", "cut", "sed", "awk", "join", "shuf":
		return true
	}
	return false
}

// catFiles notes the plain files the cat whose name ends at j reads, up
// to the command's end: what it feeds a reader later in the pipeline is
// read from them. Each command's words are read once.
func (r *redactor) catFiles(j int) {
	s, st := r.s, &r.stdin
	for k := skipBlanks(s, j); k < len(s) && st.ncats < len(st.cats) && strings.IndexByte("\n\r;|&)<>", s[k]) < 0; k = skipBlanks(s, k) {
		e := shellWordEnd(s, k)
		if e <= k {
			return
		}
		if s[k] != '-' && e-k <= maxFilePath {
			st.cats[st.ncats] = s[k:e]
			st.ncats++
		}
		k = e
	}
}

// stdinBreak ends a command at byte c (a line end, ';', '|' or '&') at i.
// Inside a ( or { group, and across a pipe, what the commands wrote is
// kept for the next; anything else starts over.
func (r *redactor) stdinBreak(c byte, i int) {
	st, s := &r.stdin, r.s
	pipe := c == '|' && !strings.HasPrefix(s[i:], "||") && (i == 0 || s[i-1] != '|')
	if c == '&' && i > 0 && s[i-1] == '|' {
		return // |&
	}
	if c == '|' && i > 0 && s[i-1] == '>' {
		return // >| f: a redirection that may overwrite f, no pipe
	}
	if st.nouts > 0 {
		r.wroteFed(i)
		st.nouts = 0
	}
	r.codeBreak(pipe, i)
	if st.echoAt >= 0 && (pipe || st.depth > 0 || st.compound > 0) {
		from, to := skipBlanks(s, st.echoAt), i
		for to > from && strings.IndexByte(" \t)}", s[to-1]) >= 0 {
			to--
		}
		r.feedSpan(span{from, to})
	}
	if !pipe && st.depth == 0 && st.compound == 0 {
		r.sinkCommandEnds()
		st.nfeed, st.docAt, st.ncats, st.groupSecret = 0, -1, 0, false
		r.fdCommandEnds()
	}
	st.atCmd, st.cmd, st.echoAt, st.secret, st.heredocs, st.tee, st.fds, st.telnet = true, "", -1, false, false, false, 0, false
	st.decoder = false
}

// loneFeeds replaces what the pipeline feeds telnet when it is one line
// alone, no protocol session: typed into a remote login, the first
// prompts ask the name and the password, and a lone line answers one.
// A session's lines (USER bob, PASS pw, QUIT) are left to the protocol
// rules, which keep what is no secret.
func (r *redactor) loneFeeds() {
	st, s := &r.stdin, r.s
	for _, f := range st.feed[:st.nfeed] {
		k, e := innerSpan(s, f.from, f.to)
		if e <= k || k < r.done || e-k > 256 || strings.ContainsAny(s[k:e], "\n\r") || strings.Contains(s[k:e], `\n`) {
			continue
		}
		r.replace(k, e, Redacted)
	}
}

// feedSpan adds what a command writes into the pipeline.
func (r *redactor) feedSpan(f span) {
	st := &r.stdin
	if st.nfeed < len(st.feed) && f.to > f.from {
		st.feed[st.nfeed] = f
		st.nfeed++
	}
}

// stdinGroup follows ( and { groups at c, at i.
func (r *redactor) stdinGroup(c byte, i int) {
	st := &r.stdin
	switch c {
	case '(':
		if st.casePatterns && st.depth == 0 && (st.atCmd || st.cmd == "case") {
			return // case … in (x): a pattern
		}
		if st.depth == 0 {
			r.funcBodyOpens(i) // f() ( sudo -S "$@" )
		}
		st.depth++
		st.atCmd = true // ( …), $( …): a command starts
	case '{':
		if !st.atCmd && st.echoAt < 0 && r.innerCommand(i) {
			// ssh h '{ chpasswd; } <<EOF …': the script starts with a
			// group.
			st.atCmd, st.secret, st.heredocs, st.scriptAt = true, false, false, i
		}
		if st.depth == 0 && r.funcBodyOpens(i) {
			st.atCmd = true // function f { …: the body's commands
		}
		if st.atCmd {
			st.depth++
		}
	case ')', '}':
		if c == ')' && st.depth == 0 && st.compound > 0 {
			st.atCmd = true // case … in x) chpasswd: a pattern's command follows
		}
		if st.depth > 0 && (c == ')' || st.atCmd) {
			st.depth--
			r.groupClosed()
			if st.depth == st.assignDepth && i < st.assignEnd {
				// X=$(…) sudo -S …: the assignment's value goes on,
				// and the command after it is still to come.
				st.atCmd = true
			}
		}
	}
}

// groupClosed: when the outermost group or compound command closes and a
// command in it read a secret on its input, what is redirected to the
// whole ({ chpasswd; } <<EOF, while …; done <<< …) is that secret.
func (r *redactor) groupClosed() {
	st := &r.stdin
	if st.depth == 0 && st.compound == 0 {
		r.funcBodyCloses()
		r.sinkGroupCloses()
	}
	if st.depth == 0 && st.compound == 0 && st.groupSecret {
		st.secret, st.groupSecret, st.heredocs, st.userLines = true, false, false, false
		st.fds |= st.fdIn.group // { chpasswd <&3; } 3<<< …
	}
	if st.depth == 0 && st.compound == 0 {
		st.fdIn.group = 0
	}
}

// stringRunner reports whether cmd runs a string it is given as a shell
// command line.
func stringRunner(cmd string) bool {
	switch cmd {
	case "ssh", "eval", "watch", "parallel", "ansible",
		// Parallel shells run their string on every host (pssh -i -h
		// hosts '…', pdsh -w h '…', clush -w h '…'); tmux send-keys
		// and screen's stuff type it into a shell.
		"pssh", "parallel-ssh", "pdsh", "clush", "dsh", "mussh", "tmux", "screen":
		return true
	}
	return false
}

// innerCommand reports whether the word at i opens a string that a shell
// runs as a command: sh -c '…', su -c "…", ssh host '…', eval "…".
func (r *redactor) innerCommand(i int) bool {
	s := r.s
	if i == 0 || (s[i-1] != '\'' && s[i-1] != '"') {
		return false
	}
	if q, ok := r.quoteAt(i); ok && q == 0 {
		return false // the quote closed a string
	}
	if stringRunner(r.stdin.cmd) {
		return true
	}
	// A string one or more shells down opens with its quote escaped
	// (sh -c \"…\", sh -c '\''…'\''): the escapes and the quotes of
	// the levels around it come between the option and the script.
	before := strings.TrimRight(strings.TrimRight(s[max(0, i-48):i-1], `'"\`), " \t")
	if strings.HasSuffix(before, "<<<") {
		if b := len(before) - 4; b >= 0 && before[b] >= '1' && before[b] <= '9' {
			return false // 3<<< '…': another descriptor's text, no script
		}
		// bash <<< '…', sudo sh <<< "…": a shell's here-string is its
		// script.
		return r.stdin.wrapper || shellProgram(r.stdin.cmd)
	}
	// az vm run-command invoke --scripts "…", aws ssm send-command
	// --parameters 'commands=["…"]': run on a machine's shell.
	// A -c that takes no shell command (kinit -c CCACHE, smbclient -c
	// 'ls', cryptsetup -c CIPHER) leaves the command reading its input.
	return (strings.HasSuffix(before, " -c") || strings.HasSuffix(before, " -lc")) && !plainC(r.stdin.cmd) ||
		// sh -ec '…', bash -xc, script -qc: -c last in a cluster.
		(shellProgram(r.stdin.cmd) || r.stdin.cmd == "script" || r.stdin.wrapper) && clusterEndsInC(before) ||
		strings.HasSuffix(before, " --scripts") || strings.HasSuffix(before, "commands=[") ||
		// gcloud compute ssh vm --command '…', also --command='…'.
		strings.HasSuffix(before, " --command") || strings.HasSuffix(before, " --command=") ||
		// builtin eval '…', salt '*' cmd.run '…'.
		strings.HasSuffix(before, " eval") || strings.HasSuffix(before, " cmd.run") || strings.HasSuffix(before, " cmd.shell")
}

// clusterEndsInC reports whether the text before a string ends with a
// cluster of short flags whose last is c (-ec, -xc, -euxc, -qc): the
// string is the command the flag takes.
func clusterEndsInC(before string) bool {
	b := strings.LastIndexAny(before, " \t")
	w := before[b+1:]
	if len(w) < 3 || w[0] != '-' || w[1] == '-' || w[len(w)-1] != 'c' {
		return false
	}
	for k := 1; k < len(w); k++ {
		if c := w[k]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// plainC reports whether the program cmd, which reads a secret on its
// input, takes a -c whose value is no shell command: kinit's credential
// cache, Samba clients' own commands, cryptsetup's cipher, htpasswd's
// create flag (before the file), psql's SQL.
func plainC(cmd string) bool {
	switch cmd {
	case "kinit", "smbclient", "rpcclient", "smbcacls", "cryptsetup", "htpasswd", "htpasswd2", "psql", "openconnect":
		return true
	}
	return false
}

// prompts reports whether the word w, ending at j, is an option given
// without a value with which the current program asks for a password (prompt).
func (r *redactor) prompts(w string, j int) bool {
	if j < len(r.s) && r.s[j] == '=' {
		return false // --password=…, a value the option rules read
	}
	for _, o := range r.prog.prompt {
		if w == o {
			return true
		}
		// mysql -Bp: a cluster of flags ending in the prompting option.
		if p := r.prog; len(o) == 2 && p.flags != "" && len(w) > 2 && w[0] == '-' && w[1] != '-' && w[len(w)-1] == o[1] &&
			strings.Trim(w[1:len(w)-1], p.flags) == "" {
			return true
		}
	}
	return false
}

// assignment reports whether the word s[i:j] at a command's start is the
// name of a variable assigned there (NAME=value, NAME+=value), noting
// where its value ends.
func (r *redactor) assignment(i, j int) bool {
	s, st := r.s, &r.stdin
	k := j
	switch {
	case k < len(s) && s[k] == '=':
		k++
	case strings.HasPrefix(s[k:], "+="):
		k += 2
	default:
		return false
	}
	if c := s[i]; c >= '0' && c <= '9' {
		return false
	}
	for p := i; p < j; p++ {
		if c := s[p]; c == '-' || c == '.' {
			return false
		}
	}
	// A value is read to its end however long (X="<kilobytes>" sudo -S
	// …): values read so apart never overlap. One nested in a value
	// read before (A=$(B=$(…) is read at most maxAssignValue bytes far,
	// so that nesting does not make the pass quadratic.
	lim := len(s)
	if k < st.assignEnd {
		lim = min(len(s), k+maxAssignValue)
	}
	q, _ := r.quoteAt(k)
	st.assignEnd, st.assignDepth = wordEnd(s[:lim], k, q, false), st.depth
	return true
}

// maxAssignValue bounds how far a value nested in another is read.
const maxAssignValue = 4096
