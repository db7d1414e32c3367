package audit

import "strings"

// expect and its kin (autoexpect scripts, pexpect's sendline is a call
// loginCall reads) answer a password prompt with send: spawn ssh h;
// expect "password:"; send "pw\r".

// maxExpectLook bounds how far before a send the prompt and the spawn
// it answers are looked for, which keeps the pass linear.
const maxExpectLook = 512

// expectSend redacts the string that the send word s[i:j] (send,
// exp_send) types when it answers a secret's prompt, returning where
// scanning resumes, or 0. It does when the last pattern expected before
// it cues a secret in any spelling (assword, (P|p)ass, "New", "Retype",
// PIN, token, code), or when it is the first send to a spawned program
// that asks for one on its terminal (spawn sudo -k id; expect ":"; send
// …): what the pattern waits for is not known, so the worst is assumed.
func (r *redactor) expectSend(i, j int) int {
	s := r.s
	lo := max(0, i-maxExpectLook)
	before := s[lo:i]
	ex, sp := r.expectAt-1-lo, r.spawnAt-1-lo
	if ex < 0 && sp < 0 {
		return 0
	}
	switch {
	case ex >= 0 && ex > sp && secretPrompt(answeredPattern(before[ex+len("expect"):])):
	case sp >= 0 && spawnsPrompter(before[sp+len("spawn"):]) && loginSends(before[sp:]) &&
		(ex < sp || !namePrompt(answeredPattern(before[ex+len("expect"):]))):
	case ex >= 0 && sp > ex && secretPrompt(answeredPattern(before[ex+len("expect"):sp])):
		// expect assword in one block, spawn in another: as before.
	default:
		return 0
	}
	k := skipBlanks(s, j)
	for k > j && k+1 < len(s) && s[k] == '-' {
		// send's own options: -i ID, -s, -h, -raw, -null, --.
		e := shellWordEnd(s, k)
		opt := s[k:e]
		if k = skipBlanks(s, e); opt == "-i" && k > e {
			k = skipBlanks(s, shellWordEnd(s, k))
		}
		if opt == "--" {
			break
		}
	}
	if k == j || k >= len(s) {
		return 0
	}
	start, end := valueSpan(s, k)
	if end <= start || start < r.done {
		return 0
	}
	return r.replace(start, end, Redacted)
}

// secretPrompt reports whether the text after expect, its pattern, cues
// a secret: a password's prompt spelled any way a pattern spells it
// ([Pp]assword, (P|p)ass, assword:, passphrase), a PIN, token, code or
// key, or the new password's ("New", "Retype", "again", "Verify").
func secretPrompt(p string) bool {
	for _, w := range [...]string{"ass", "pin", "secret", "token", "otp", "code", "key", "new", "retype", "again", "verif", "confirm"} {
		if containsFold(p, w) {
			return true
		}
	}
	return false
}

// loginSends reports whether every send in the script text t, from a
// spawn on, answered a login name's prompt (or there is none): the next
// send to a program that asks for a password is its answer. A login asks
// a name or two (user, domain) first; past that the sends are commands.
func loginSends(t string) bool {
	for range 3 {
		x := max(lastWordIndex(t, "send"), lastWordIndex(t, "exp_send"))
		if x < 0 {
			return true
		}
		ex := lastWordIndex(t[:x], "expect")
		if ex < 0 || !namePrompt(answeredPattern(t[ex+len("expect"):x])) {
			return false
		}
		t = t[:ex]
	}
	return false
}

// answeredPattern returns the pattern a send answers out of the text p
// between expect and the send. A send inside an action of a block
// (expect { "yes/no" {send "yes\r"; exp_continue} "assword:" {send …} })
// answers the pattern before that action's '{', after the close of the
// action before it; a '}' followed by no pattern closes a braced pattern
// itself ({[Pp]assword:} {send …}), which belongs to it. A send outside
// any action (after the block's close) may answer any of its patterns:
// all of p.
func answeredPattern(p string) string {
	depth, o := 0, -1
	for k := len(p) - 1; k >= 0 && o < 0; k-- {
		switch p[k] {
		case '}':
			depth++
		case '{':
			if depth == 0 {
				o = k
			}
			depth--
		}
	}
	if o < 0 {
		return p
	}
	end := o
	for {
		x := strings.LastIndexByte(p[:end], '}')
		if x < 0 {
			return p[:o]
		}
		if strings.Trim(p[x+1:o], " \t\r\n{\\") != "" && strings.Trim(p[x+1:end], " \t\r\n{\\") != "" {
			return p[x+1 : o]
		}
		end = x
	}
}

// namePrompt reports whether an expect pattern waits for what is no
// secret: a login name ("Name", "login:", "Username"), ssh's question
// about a new host key ("yes/no", "continue connecting", "fingerprint",
// "authenticity") or another yes-or-no question ("[Y/n]", "Do you want
// to continue?").
func namePrompt(p string) bool {
	for _, w := range [...]string{"name", "login", "user", "yes", "continue", "fingerprint", "authenticity", "y/n"} {
		if containsFold(p, w) {
			return true
		}
	}
	return false
}

// spawnsPrompter reports whether the spawn line that starts l runs a
// program that asks for a password or passphrase on its terminal (ssh,
// su, sudo, passwd, mysql -p, gpg, …), itself or under a wrapper.
func spawnsPrompter(l string) bool {
	if e := strings.IndexAny(l, ";\n]}"); e >= 0 {
		l = l[:e]
	}
	for _, w := range strings.Fields(l) {
		w = strings.Trim(w, `"'{}`)
		switch w[strings.LastIndexByte(w, '/')+1:] {
		case "ssh", "scp", "sftp", "rsync", "telnet", "ftp", "lftp", "su", "sudo", "doas", "pkexec", "login",
			"passwd", "gpasswd", "kpasswd", "smbpasswd", "vncpasswd", "htpasswd", "htdigest", "mkpasswd",
			"kinit", "ssh-keygen", "ssh-add", "ssh-copy-id", "gpg", "gpg2", "openssl", "keytool", "cryptsetup",
			"mysql", "mariadb", "psql", "sqlplus", "mongosh", "mongo", "ldapsearch", "ldapmodify", "ldapadd",
			"ldappasswd", "smbclient", "net", "zip", "unzip", "7z", "git", "svn", "hg", "vault", "openconnect",
			"sshfs", "encfs", "gocryptfs", "veracrypt", "age", "ipmitool", "rdesktop", "xfreerdp", "vncviewer":
			return true
		}
	}
	return false
}

// lastWordIndex returns the index of the last w in s that stands as a
// word of its own (not exp_send's send, nor expected), or -1.
func lastWordIndex(s, w string) int {
	for e := len(s); e > 0; {
		x := strings.LastIndex(s[:e], w)
		if x < 0 {
			return -1
		}
		if (x == 0 || !wordByte[s[x-1]]) && (x+len(w) == len(s) || !wordByte[s[x+len(w)]]) {
			return x
		}
		e = x
	}
	return -1
}

// promptText reports whether the key s[i:sep] and its ':' end a quoted
// string of their own ("Password:", "New password: ", the prompt expect
// waits for), which takes no value; a shell word that goes on after the
// quote (-H 'X-Api-Key: 'S3cret) has its value there.
func promptText(s string, i, sep int) bool {
	if i == 0 || sep >= len(s) || s[sep] != ':' {
		return false
	}
	// The prompt may have words before the key: "New password:",
	// "Enter passphrase for key:".
	b := i
	for b > 0 && i-b < 40 && (isAlnum(s[b-1]) || s[b-1] == ' ') {
		b--
	}
	for b < i && s[b] == ' ' {
		b++
	}
	if b == 0 || (s[b-1] != '"' && s[b-1] != '\'') || b < i && s[i-1] != ' ' {
		return false
	}
	i = b
	k := sep + 1
	for k < len(s) && k-sep < 8 && s[k] == ' ' {
		k++
	}
	// The quote must end the shell word too: -H 'X-Api-Key: '+pw goes on.
	return k < len(s) && s[k] == s[i-1] && (k+1 == len(s) || strings.IndexByte(" \t\r\n;|&)", s[k+1]) >= 0)
}

// expectSendCall redacts the literal a send call (pexpect's
// c.sendline("…"), c.send(…), Ruby's PTY writer w.puts after an expect)
// named by s[i:j] types, when the prompt expected just before it asks for
// a password, passphrase or PIN; it returns where scanning resumes, or 0.
func (r *redactor) expectSendCall(i, j int) int {
	s := r.s
	before := s[max(0, i-160):i]
	// The last prompt expected before the call is the one it answers
	// (c.expect("Password:"); c.sendline(pw); c.expect("ftp>");
	// c.sendline("ls") types a command).
	x := strings.LastIndex(before, "expect")
	if x < 0 {
		return 0
	}
	if before = before[x:]; !containsFold(before, "assword") && !containsFold(before, "passphrase") && !containsFold(before, "pin") {
		return 0
	}
	k := skipBlanks(s, j+1)
	if k >= len(s) || !startsQuote(s, k) {
		return 0
	}
	start, end := valueSpan(s, k)
	if end <= start || start < r.done {
		return 0
	}
	return r.replace(start, end, Redacted)
}

// sendCall reports whether w, followed by '(', names a call that types
// text into a spawned program: pexpect's sendline and send, Ruby's puts
// and print on a PTY's writer.
func sendCall(w string) bool {
	e := strings.LastIndexByte(w, '.')
	if e < 0 {
		return false
	}
	switch w[e+1:] {
	case "sendline", "send", "puts", "print", "write":
		return true
	}
	return false
}

// promptAnswer redacts the answer that a prompt-keyed map gives the
// password prompt whose pattern ends in the word s[i:j] (pexpect's
// run(…, events={"assword": "…\n"}), {"Password: " => "…"} in Ruby,
// a JSON map of prompts to answers), and returns where scanning resumes,
// or 0. The pattern is any text ending in the word (assword, (?i)password:,
// Enter passphrase), the key's closing quote follows it, then ':' or '=>'
// and the quoted answer.
func (r *redactor) promptAnswer(i, j int) int {
	s := r.s
	w := strings.ToLower(strings.TrimRight(s[i:j], ".")) // assword.* is one word
	if !strings.HasSuffix(w, "assword") && !strings.HasSuffix(w, "asswd") && !strings.HasSuffix(w, "assphrase") && !strings.HasSuffix(w, "passcode") {
		return 0
	}
	k := j
	for k < len(s) && k-j < 8 && strings.IndexByte(":?* .)$", s[k]) >= 0 {
		k++ // the prompt's own end: "Password: ", "assword.*"
	}
	if k >= len(s) || s[k] != '"' && s[k] != '\'' {
		return 0
	}
	q := s[k]
	b := strings.LastIndexByte(s[max(0, i-40):i], q)
	if b < 0 || strings.ContainsAny(s[max(0, i-40)+b+1:i], "\n,{}") {
		return 0 // the key's opening quote, on the prompt's side of the map
	}
	k = skipBlanks(s, k+1)
	switch {
	case strings.HasPrefix(s[k:], "=>"):
		k += 2
	case k < len(s) && s[k] == ':':
		k++
	default:
		return 0
	}
	k = skipBlanks(s, k)
	if !startsQuote(s, k) {
		return 0
	}
	from, to := valueSpan(s, k)
	if to <= from || from < r.done {
		return 0
	}
	return r.replace(from, to, Redacted)
}
