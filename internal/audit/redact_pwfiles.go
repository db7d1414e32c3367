package audit

import (
	"slices"
	"strings"
)

// Passwords written to a plain-named file that the same command then
// gives a program to read its password from: echo PW > /tmp/p; sshpass
// -f /tmp/p ssh h, rsync --password-file=/tmp/p, cryptsetup
// --key-file=/tmp/k, openssl -passin file:/tmp/p, 7z -p"$(cat f)". The
// file's name says nothing, so what is written there is known secret
// only when the option is read; the second pass (redactFound) redacts it.

// pwFileState is what the first pass learns: the literals echo or
// printf wrote into each file, and the files a password is read from.
type pwFileState struct {
	written map[string][]span
	read    map[string]bool
	// docsRead is where the here-document bodies wroteFed read end.
	docsRead int
	// spans are the second pass's literals to redact, in order.
	spans []span
}

// maxFilePath bounds the paths remembered.
const maxFilePath = 256

// filePath is the path a shell word names, for matching: quotes and a
// leading ./ removed.
func filePath(w string) string {
	w = strings.Map(func(c rune) rune {
		if c == '\'' || c == '"' {
			return -1
		}
		return c
	}, w)
	return strings.TrimPrefix(w, "./")
}

// wrote notes that the command's echo or printf writes s[from:to] into
// the plain file named by the word s[k:e].
func (r *redactor) wrote(k, e int, lit span) {
	f := &r.pwFiles
	if r.argv.second || e-k > maxFilePath || lit.to <= lit.from {
		return
	}
	if f.written == nil {
		f.written = map[string][]span{}
	}
	p := filePath(r.s[k:e])
	f.written[p] = append(f.written[p], lit)
}

// writesPlain notes the plain file named by the word s[k:e] as one the
// current command writes what it is fed or prints into; wroteFed records
// that text when the command ends.
func (r *redactor) writesPlain(k, e int) {
	st := &r.stdin
	if r.argv.second || e <= k || e-k > maxFilePath || r.s[k] == '-' || st.nouts == len(st.outs) {
		return
	}
	p := filePath(r.s[k:e])
	if p == "" || strings.HasPrefix(p, "/dev/") {
		return
	}
	st.outs[st.nouts] = p
	st.nouts++
}

// wroteFed notes what the command ending at i was fed or printed (here-
// strings, the pipeline's echo, its own echo or printf, here-document
// bodies) as written into each file writesPlain noted.
func (r *redactor) wroteFed(i int) {
	s, st := r.s, &r.stdin
	if st.nouts == 0 {
		return
	}
	var lits []span
	lits = append(lits, st.feed[:st.nfeed]...)
	if st.echoAt >= 0 {
		lit := echoed(s, st.echoAt, i)
		for lit.to > lit.from && (s[lit.to-1] == '"' || s[lit.to-1] == '\'') && strings.Count(s[lit.from:lit.to], s[lit.to-1:lit.to])%2 == 1 {
			lit.to-- // ssh h "> ~/.token printf %s pw": the close of the strings the command sits in
		}
		lits = append(lits, lit)
	}
	if st.docAt >= r.pwFiles.docsRead && st.docAt < i {
		// Each byte is read for bodies once: an operator inside a body
		// read before (or on a line without end) is body text.
		r.pwFiles.docsRead = len(s)
		if eol, delims := heredocDelims(s, st.docAt); eol >= 0 {
			r.pwFiles.docsRead = heredocBodies(s, eol, delims, 0, func(b span) { lits = append(lits, b) })
		}
	}
	f := &r.pwFiles
	for _, p := range st.outs[:st.nouts] {
		for _, lit := range lits {
			if lit.to > lit.from {
				if f.written == nil {
					f.written = map[string][]span{}
				}
				f.written[p] = append(f.written[p], lit)
			}
		}
	}
}

// readsPassword notes the file named by the word at k as one a password
// is read from.
func (r *redactor) readsPassword(k int) {
	s := r.s
	if r.argv.second || k >= len(s) {
		return
	}
	e := shellWordEnd(s, k)
	if e == k || e-k > maxFilePath {
		return
	}
	r.passwordPath(s[k:e])
}

// passwordPath notes the file named by the word w as one a password is
// read from.
func (r *redactor) passwordPath(w string) {
	f := &r.pwFiles
	if r.argv.second || w == "" || len(w) > maxFilePath {
		return
	}
	if f.read == nil {
		f.read = map[string]bool{}
	}
	f.read[filePath(w)] = true
}

// secretSpans returns the literals written into files a password is
// read from, in order.
func (f *pwFileState) secretSpans() []span {
	var out []span
	for p := range f.read {
		out = append(out, f.written[p]...)
	}
	slices.SortFunc(out, func(a, b span) int { return a.from - b.from })
	return out
}

// passwordFileOption reports whether an option or variable name (--password-file,
// -passfile, --vault-password-file, --key-file, RESTIC_PASSWORD_FILE)
// names a file a secret is read from.
func passwordFileOption(w string) bool {
	if len(w) < 5 || len(w) > 64 || w[len(w)-1]|0x20 != 'e' {
		return false
	}
	if w == "-kfile" {
		return true // openssl enc -kfile
	}
	var buf [64]byte
	n := 0
	for k := 0; k < len(w); k++ {
		if c := w[k]; c != '-' && c != '_' && c != '.' {
			buf[n] = c | 0x20
			n++
		}
	}
	name := string(buf[:n])
	for _, suf := range [...]string{"passwordfile", "passwdfile", "passfile", "passphrasefile", "pwfile",
		"keyfile", "secretfile", "tokenfile", "pinfile"} {
		if strings.HasSuffix(name, suf) {
			return suf != "keyfile" || w[0] == '-' // --key-file, not SSL_KEY_FILE=cert.key's kin
		}
	}
	return false
}

// passwordFileWord reads the word s[i:j] as an option naming a password
// file and notes the file it names.
func (r *redactor) passwordFileWord(i, j int) {
	s := r.s
	if r.argv.second || j >= len(s) {
		return
	}
	w := s[i:j]
	switch {
	case w == "file" && s[j] == ':' && passinBefore(s, i):
		r.readsPassword(j + 1) // openssl -passin file:/tmp/p
	case strings.HasPrefix(w, "-f") && r.prog != nil && r.prog == lookupProgram("sshpass"):
		if len(w) > 2 {
			r.readsPassword(i + 2) // sshpass -f/tmp/p
		} else {
			r.readsPassword(skipBlanks(s, j))
		}
	case w == "--vault-id":
		// ansible --vault-id label@/tmp/p
		k := j + 1
		if s[j] != '=' {
			k = skipBlanks(s, j)
		}
		e := shellWordEnd(s, k)
		if at := strings.IndexByte(s[k:e], '@'); at >= 0 {
			r.readsPassword(k + at + 1)
		}
	case s[j] == '=' && askpassName(w):
		// SUDO_ASKPASS=/tmp/ap sudo -A …: the program prints the
		// password, so what was written into it is the secret.
		r.readsPassword(j + 1)
	case passwordFileOption(w):
		switch {
		case s[j] == '=':
			r.readsPassword(j + 1)
		case w[0] == '-' && (s[j] == ' ' || s[j] == '\t'):
			if k := skipBlanks(s, j); k < len(s) && s[k] != '-' {
				r.readsPassword(k)
			}
		}
	}
}

// passinBefore reports whether the word before i is openssl's -passin,
// -passout or -pass (or -kfile's kin), whose file: value names a file.
func passinBefore(s string, i int) bool {
	k := i
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t' || s[k-1] == '=') {
		k--
	}
	b := max(0, k-16)
	w := s[b:k]
	if x := strings.LastIndexAny(w, " \t'\""); x >= 0 {
		w = w[x+1:]
	}
	switch strings.TrimLeft(w, "-") {
	case "passin", "passout", "pass", "password", "passwd":
		return true
	}
	return false
}

// catInSecret notes the file a command substitution reads inside a
// replaced secret: -p"$(cat /tmp/p)", --password=$(< /tmp/p).
func (r *redactor) catInSecret(from, to int) {
	s := r.s
	for k := from; k < to; {
		x := strings.Index(s[k:to], "$(")
		if x < 0 {
			return
		}
		k += x + 2
		switch {
		case strings.HasPrefix(s[k:to], "cat "):
			r.readsPassword(skipBlanks(s, k+4))
		case strings.HasPrefix(s[k:to], "<"):
			r.readsPassword(skipBlanks(s, k+1))
		}
	}
}

// askpassName reports whether the variable or setting w names a program
// that prints a password when asked (SUDO_ASKPASS, SSH_ASKPASS,
// GIT_ASKPASS, git's core.askPass): the path it is given is where the
// password is, not the password.
func askpassName(w string) bool {
	return len(w) >= 7 && strings.EqualFold(w[len(w)-7:], "askpass") && (len(w) == 7 || w[len(w)-8] == '_' || w[len(w)-8] == '.')
}
