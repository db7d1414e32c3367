package audit

import "strings"

// expect and its kin (autoexpect scripts, pexpect's sendline is a call
// loginCall reads) answer a password prompt with send: spawn ssh h;
// expect "password:"; send "pw\r".

// expectSend redacts the string that the send word ending at j types,
// when the prompt expected just before it asks for a password or
// passphrase, returning where scanning resumes, or 0.
func (r *redactor) expectSend(j int) int {
	s := r.s
	before := s[max(0, j-4-160) : j-4]
	if !containsFold(before, "expect") || !containsFold(before, "assword") && !containsFold(before, "passphrase") && !containsFold(before, "pin") {
		return 0
	}
	k := skipBlanks(s, j)
	if k == j || k >= len(s) {
		return 0
	}
	if s[k] == '-' && k+2 < len(s) && s[k+1] == '-' && (s[k+2] == ' ' || s[k+2] == '\t') {
		k = skipBlanks(s, k+2) // send -- "pw\r"
	}
	start, end := valueSpan(s, k)
	if end <= start || start < r.done {
		return 0
	}
	return r.replace(start, end, Redacted)
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
