package audit

import "strings"

// Redirections that feed a reader: a here-string, the bodies of
// here-documents, and the operator they follow.

// stdinRedirect handles a '<' at i: the word after <<< and the bodies of
// here-documents are the secret of a command that reads one (bash reads
// the last of several, so every one counts). It returns where scanning
// resumes, or 0 to go on at i+1. Scanning goes on after a << or <<<
// operator, whose other '<'s redirect nothing of their own: the "<<"
// inside "<<<" is no here-document.
func (r *redactor) stdinRedirect(i int) int {
	if end := r.redirectAt(i); end > 0 {
		return end
	}
	if i+1 < len(r.s) && r.s[i+1] == '<' {
		if i+2 < len(r.s) && r.s[i+2] == '<' {
			return i + 3
		}
		return i + 2
	}
	return 0
}

// redirectAt is stdinRedirect but for the operator's length.
func (r *redactor) redirectAt(i int) int {
	s, st := r.s, &r.stdin
	if !strings.HasPrefix(s[i:], "<<") {
		if fd := r.dupSourceAt(i); fd > 0 && st.secret {
			r.readsFrom(fd) // exec 3<<< …; chpasswd <&3
			return 0
		}
		if fd := r.redirectFdAt(i); fd > 0 && st.fds&(1<<fd) == 0 {
			if k := skipBlanks(s, i+1); k > i+1 && strings.HasPrefix(s[k:], "<(") && k+1 >= r.procEnd {
				r.noteFdProcess(fd, k+1) // exec 3< <(echo …)
			}
		}
		// htpasswd -i f bob < <(echo secret)
		if k := skipBlanks(s, i+1); st.secret && k > i+1 && strings.HasPrefix(s[k:], "<(") {
			r.processSecret(k + 1)
		}
		// A program that reads a secret on its input reads it from a
		// file it is given as well: docker secret create x <(echo …),
		// restic -p <(echo …), wg set wg0 private-key <(echo …),
		// gcloud secrets versions add x --data-file=<(echo …).
		if st.secret && strings.HasPrefix(s[i:], "<(") {
			r.processSecret(i + 1)
		}
		// echo bob:… > /tmp/u; chpasswd < /tmp/u: the file it reads
		// its input from is a password file (redact_pwfiles.go).
		if k := skipBlanks(s, i+1); st.secret && k < len(s) && strings.IndexByte("(&>", s[i+1]) < 0 && (i == 0 || s[i-1] != '<') {
			r.readsPassword(k)
		}
		return 0
	}
	if fd := r.redirectFdAt(i); fd > 0 {
		// 3<<< secret for sshpass -d 3; another descriptor's text is
		// no input of the command.
		if st.fds&(1<<fd) == 0 {
			// Noted in case a reader takes its input from fd later.
			if strings.HasPrefix(s[i:], "<<<") {
				start, end := valueSpan(s, skipBlanks(s, i+3))
				r.noteFd(fd, start, end)
			} else {
				r.noteFdDoc(fd, i)
			}
			return 0
		}
	} else if !st.secret {
		// cat <<EOF | chpasswd: kept in case a reader follows.
		if strings.HasPrefix(s[i:], "<<<") {
			if start, end := valueSpan(s, skipBlanks(s, i+3)); end > start {
				if st.decoder {
					r.decodedFeed(start, end) // base64 -d <<< dXNlcjpwYXNz
				}
				r.feedSpan(span{start, end})
				if st.telnet {
					r.loneFeeds() // telnet h 23 <<< pw
				}
				if kind := loginInputOf(st.cmd); kind != noLoginInput {
					r.loginLines(kind, start, end, true, -1) // sqlplus /nolog <<< 'conn …'
				}
			}
		} else if st.docAt < 0 {
			st.docAt, st.docQ = i, r.enclosingQuote(i)
			if kind := loginInputOf(st.cmd); kind != noLoginInput {
				r.loginHeredocs(kind, i, st.docQ) // sqlplus /nolog <<EOF⏎connect …
			}
		}
		return 0
	}
	if strings.HasPrefix(s[i:], "<<<") {
		start, end := r.valueWord(skipBlanks(s, i+3), false)
		if end <= start || start < r.done {
			return 0
		}
		return r.replaceInput(start, end)
	}
	if st.heredocs {
		return 0
	}
	st.heredocs = true
	r.queueHeredocs(i, r.enclosingQuote(i))
	return 0
}

// enclosingQuote returns the quote of the string the operator at i sits
// in (sh -c '…', bash <<< "…"), or 0 at the top level or when the quote
// tracker is past i (the bodies then run to their delimiter lines or the
// end, redacting more, never less).
func (r *redactor) enclosingQuote(i int) byte {
	if q, ok := r.quoteAt(i); ok && (q == '\'' || q == '"') {
		return q
	}
	return 0
}

// queueHeredocs queues the bodies of the here-documents whose first
// operator is at i: it reads every delimiter on the rest of its line
// once, then the bodies after it in order, so the pass stays linear.
// Inside a string quoted with q, the inner shell ends a body at its
// delimiter followed by that string's closing quote too (bash -c 'chpasswd
// <<EOF⏎…⏎EOF'), which stays readable.
func (r *redactor) queueHeredocs(i int, q byte) {
	s := r.s
	eol, delims := heredocDelims(s, i)
	if eol < 0 {
		return
	}
	heredocBodies(s, eol, delims, q, func(b span) {
		if !r.stdin.userLines {
			if len(r.pending) == 0 || r.pending[len(r.pending)-1].to <= b.from {
				r.pending = append(r.pending, b)
			}
			return
		}
		userLineSpans(s, b.from, b.to, func(a, e int) {
			if len(r.pending) == 0 || r.pending[len(r.pending)-1].to <= a {
				r.pending = append(r.pending, span{a, e})
			}
		})
	})
}

// heredocDelims returns the line end after the operator at i and the
// delimiters of the here-documents on that line.
func heredocDelims(s string, i int) (int, []string) {
	eol := strings.IndexByte(s[i:], '\n')
	if eol < 0 {
		return -1, nil
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
	return eol, delims
}

// heredocBodies calls fn with each body of the here-documents whose
// delimiters are delims, starting after the line end eol, and returns
// where the last body's delimiter line ends (len(s) when it does not).
func heredocBodies(s string, eol int, delims []string, q byte, fn func(span)) int {
	body := eol + 1
	for _, delim := range delims {
		stop := body
		for stop < len(s) {
			e := strings.IndexByte(s[stop:], '\n')
			line := s[stop:]
			if e >= 0 {
				line = s[stop : stop+e]
			}
			if t := strings.TrimLeft(line, "\t"); t == delim || q != 0 && len(t) > len(delim) && t[len(delim)] == q && strings.HasPrefix(t, delim) {
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
		if end > body {
			fn(span{body, end})
		}
		// The next body starts after this one's delimiter line.
		if e := strings.IndexByte(s[min(stop, len(s)):], '\n'); e >= 0 {
			body = stop + e + 1
		} else {
			return len(s)
		}
	}
	return body
}
