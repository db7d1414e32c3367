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
	echoAt int    // where the current echo's arguments start, or -1
	piped  span   // an echo's arguments that end at the pipe before this command
	secret bool   // the current command reads a secret on its input
}

// stdinWord looks at the word s[i:j] for this rule and returns where
// scanning resumes (j, unless a replacement was made).
func (r *redactor) stdinWord(i, j int) int {
	st, w := &r.stdin, r.s[i:j]
	if st.atCmd {
		st.atCmd, st.cmd = false, w
		if w == "echo" || w == "printf" {
			st.echoAt = j
		}
		if w != "chpasswd" {
			return j
		}
	}
	if st.secret || !readsSecretInput(st.cmd, w) {
		return j
	}
	st.secret = true
	if p := st.piped; p.to > p.from && p.from >= r.done {
		r.replace(p.from, p.to, Redacted)
	}
	return j
}

// readsSecretInput reports whether the word w of a command whose first
// word is cmd makes it read a password or token on its input.
func readsSecretInput(cmd, w string) bool {
	switch w {
	case "chpasswd", "--password-stdin", "--with-token", "--passphrase-fd=0", "--key-file=-":
		return true
	case "--stdin":
		return cmd == "sudo" || cmd == "passwd"
	}
	if len(w) > 1 && w[0] == '-' && w[1] != '-' {
		switch cmd {
		case "sudo":
			return strings.IndexByte(w, 'S') > 0
		case "htpasswd":
			return strings.IndexByte(w, 'i') > 0
		}
	}
	return false
}

// stdinBreak ends a command at byte c (a line end, ';', '|' or '&') at i.
func (r *redactor) stdinBreak(c byte, i int) {
	st := &r.stdin
	st.piped = span{}
	if c == '|' && st.echoAt >= 0 && !strings.HasPrefix(r.s[i:], "||") {
		from, to := skipBlanks(r.s, st.echoAt), i
		for to > from && (r.s[to-1] == ' ' || r.s[to-1] == '\t') {
			to--
		}
		st.piped = span{from, to}
	}
	st.atCmd, st.cmd, st.echoAt, st.secret = true, "", -1, false
}

// stdinRedirect handles a '<' at i: the word after <<< and the body of a
// here-document are the secret of a command that reads one. It returns
// where scanning resumes, or 0.
func (r *redactor) stdinRedirect(i int) int {
	s := r.s
	if !r.stdin.secret || !strings.HasPrefix(s[i:], "<<") {
		return 0
	}
	// One input per command: a second redirection does not scan again,
	// which keeps the pass linear.
	r.stdin.secret = false
	if strings.HasPrefix(s[i:], "<<<") {
		start, end := valueSpan(s, skipBlanks(s, i+3))
		if end <= start || start < r.done {
			return 0
		}
		return r.replace(start, end, Redacted)
	}
	k := i + 2
	if k < len(s) && s[k] == '-' {
		k++
	}
	start, end := valueSpan(s, skipBlanks(s, k))
	delim := s[start:end]
	nl := strings.IndexByte(s[end:], '\n')
	if delim == "" || nl < 0 {
		return 0
	}
	body := end + nl + 1
	stop := body
	for stop < len(s) {
		e := strings.IndexByte(s[stop:], '\n')
		line := s[stop:]
		if e >= 0 {
			line = s[stop : stop+e]
		}
		if strings.TrimLeft(line, "\t") == delim {
			break
		}
		if e < 0 {
			stop = len(s)
			break
		}
		stop += e + 1
	}
	if stop > body && (len(r.pending) == 0 || r.pending[len(r.pending)-1].to <= body) {
		r.pending = append(r.pending, span{body, stop})
	}
	return 0
}
