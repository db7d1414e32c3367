package audit

import "strings"

// A program's name as bash spells it. The redactor reads words as runs of
// word bytes, but bash runs the same program for /usr/bin/kinit, ./kinit,
// "$HOME"/bin/kinit, \kinit, 'kinit', k\init and ki'ni't: the last path
// component of the shell word, quotes and backslashes removed. Every rule
// that knows a program by its name (the stdin readers, wrappers, option
// rules) sees that name, so no spelling hides the program from them.

// maxSpelled bounds how far back a spelled name is read, so the pass stays
// linear: only the word run that ends a shell word looks back, once.
const maxSpelled = 256

// spelledByte marks the bytes a program's path or name can be spelled
// with besides word bytes.
func spelledByte(c byte) bool {
	return wordByte[c] || c == '/' || c == '\\' || c == '\'' || c == '"' || c == '~' || c == '$' || c == '{' || c == '}'
}

// spelledName returns the name that the shell word ending with the word
// run s[i:j] gives a program, and where that shell word starts (after
// its opening quotes), when the word is spelled with more than the run:
// /usr/bin/kinit, \kinit, k\init, ki'ni't. Otherwise it returns "".
func (r *redactor) spelledName(i, j int) (string, int) {
	s := r.s
	if i == 0 || s[i-1] != '/' && s[i-1] != '\\' && s[i-1] != '\'' && s[i-1] != '"' {
		return "", i
	}
	e := j
	for e < len(s) && (s[e] == '\'' || s[e] == '"') {
		e++
	}
	if e < len(s) && strings.IndexByte(" \t\n\r;|&)`<>", s[e]) < 0 {
		return "", i // the word goes on: /usr/bin/x.d/…, k\in\it
	}
	k := i
	for k > 0 && i-k < maxSpelled && spelledByte(s[k-1]) {
		k--
	}
	if k > 0 && !startsWord(s, k) {
		return "", i // FOO=/usr/bin/kinit, a value
	}
	for k < i && (s[k] == '\'' || s[k] == '"') {
		k++ // the shell word, or the string a shell runs, starts after
	}
	word := s[k:e]
	if slash := strings.LastIndexByte(word, '/'); slash >= 0 {
		word = word[slash+1:]
	}
	if len(word) == j-i && k == i {
		return "", i // 'kinit': the run is the word
	}
	var b strings.Builder
	for p := 0; p < len(word); p++ {
		switch c := word[p]; {
		case c == '\\' || c == '\'' || c == '"':
		case wordByte[c]:
			b.WriteByte(c)
		default:
			return "", i // $prog, ${p}kinit: no name it always has
		}
	}
	if b.Len() == 0 || b.String()[0] == '-' {
		return "", i
	}
	return b.String(), k
}

// nameGoesOn reports whether the word run s[i:j], where a command's name
// is expected, is only the start of the shell word that names it
// (k\init, ki'ni't, ./kinit, usr/bin/kinit): the name is read at the
// word's last run instead.
func (r *redactor) nameGoesOn(i, j int) bool {
	s, st := r.s, &r.stdin
	if !st.atCmd && !st.wrapper || s[i] == '-' {
		return false
	}
	if strings.HasPrefix(s[j:], `'\''`) {
		// sh -c 'sh -c '\''… | chpasswd'\''': in a top-level '…', the
		// idiom is the quote of the script one shell down, which ends
		// the name.
		if q, ok := r.quoteAt(i); ok && q == '\'' {
			return false
		}
	}
	e := j
	for e < len(s) && (s[e] == '\'' || s[e] == '"') {
		e++
	}
	if e >= len(s) {
		return false
	}
	switch c := s[e]; {
	case c == '/':
		return true
	case c == '\\':
		b := e
		for b < len(s) && b-e < 16 && s[b] == '\\' {
			b++
		}
		if e == j && b < len(s) && s[b] == '"' && (b-e)%2 == 1 {
			// ssh h "sh -c \"… | chpasswd\"": in a top-level "…", \" (or
			// \\\" two shells down) is the quote of a script a shell
			// runs, which ends the name.
			if q, ok := r.quoteAt(i); ok && q == '"' {
				return false
			}
		}
		return e+1 < len(s) && s[e+1] != '\n'
	case wordByte[c]:
		return e > j
	}
	return false
}
