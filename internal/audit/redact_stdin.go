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
	// heredocs: the command's here-document bodies have been found.
	heredocs bool
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
	st.atCmd, st.cmd, st.echoAt, st.secret, st.heredocs = true, "", -1, false, false
}

// stdinRedirect handles a '<' at i: the word after <<< and the bodies of
// here-documents are the secret of a command that reads one (bash reads
// the last of several, so every one counts). It returns where scanning
// resumes, or 0.
func (r *redactor) stdinRedirect(i int) int {
	s, st := r.s, &r.stdin
	if !st.secret || !strings.HasPrefix(s[i:], "<<") {
		return 0
	}
	if strings.HasPrefix(s[i:], "<<<") {
		start, end := r.valueWord(skipBlanks(s, i+3), false)
		if end <= start || start < r.done {
			return 0
		}
		return r.replace(start, end, Redacted)
	}
	if st.heredocs {
		return 0
	}
	// The first here-document of the command: read every delimiter on
	// the rest of its line once, then the bodies after it in order, so
	// the pass stays linear.
	st.heredocs = true
	eol := strings.IndexByte(s[i:], '\n')
	if eol < 0 {
		return 0
	}
	eol += i
	var delims []string
	for k := i; k < eol; k++ {
		if s[k] != '<' || !strings.HasPrefix(s[k:], "<<") || strings.HasPrefix(s[k:], "<<<") {
			continue
		}
		k += 2
		if k < eol && s[k] == '-' {
			k++
		}
		start, end := valueSpan(s, skipBlanks(s, k))
		if end > start && end <= eol {
			delims = append(delims, s[start:end])
		}
		k = end
	}
	body := eol + 1
	for _, delim := range delims {
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
		end := stop
		if end > body && s[end-1] == '\n' {
			end-- // keep the line end before the delimiter
		}
		if end > body && (len(r.pending) == 0 || r.pending[len(r.pending)-1].to <= body) {
			r.pending = append(r.pending, span{body, end})
		}
		// The next body starts after this one's delimiter line.
		if e := strings.IndexByte(s[min(stop, len(s)):], '\n'); e >= 0 {
			body = stop + e + 1
		} else {
			break
		}
	}
	return 0
}
