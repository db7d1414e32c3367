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

// readsPassword notes the file named by the word at k as one a password
// is read from.
func (r *redactor) readsPassword(k int) {
	s, f := r.s, &r.pwFiles
	if r.argv.second || k >= len(s) {
		return
	}
	e := shellWordEnd(s, k)
	if e == k || e-k > maxFilePath {
		return
	}
	if f.read == nil {
		f.read = map[string]bool{}
	}
	f.read[filePath(s[k:e])] = true
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
