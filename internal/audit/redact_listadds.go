package audit

import "strings"

// Argv lists built over several statements: a = ["sshpass"]; a << "-p"
// << "…" (Ruby), a.push("-p", "…"), a += ["-p", "…"], a.extend([…]),
// push @a, "-p", "…" (Perl), a = %w[sshpass -p …]. The program is the
// list's first item, named in one statement; the options and their values
// are added in later ones, where the statement break has ended it. So the
// program a list names is kept (listProg) and taken up again where a later
// statement adds items to a list, until a command names another program.

// listHead reports whether the program word starting at i is the first
// item of a list: ["sshpass", …], ('mysql', …), %w[sshpass …], qw(…).
func listHead(s string, i int) bool {
	if i >= 2 && (s[i-1] == '"' || s[i-1] == '\'') {
		k := i - 1
		if s[k-1] == '\\' {
			k-- // ssh h "ruby -e 'a = [\"sshpass\"]'"
		}
		for k > 0 && i-k < 8 && (s[k-1] == ' ' || s[k-1] == '\t') {
			k--
		}
		return k > 0 && (s[k-1] == '[' || s[k-1] == '(')
	}
	return wordListStart(s, i)
}

// wordListStart reports whether a word list's bracket opens right before
// i: Ruby's %w[…], %w(…), %W[…], Perl's qw(…), qw[…], qw/…/.
func wordListStart(s string, i int) bool {
	if i < 3 || strings.IndexByte("[({/", s[i-1]) < 0 {
		return false
	}
	p := s[i-3 : i-1]
	return p == "%w" || p == "%W" || p == "qw" && (i == 3 || !wordByte[s[i-4]])
}

// listAddMethods add items to a list: Ruby's, JavaScript's and Perl's
// push, unshift and concat, Python's append, extend and insert.
var listAddMethods = [...]string{".push", ".append", ".extend", ".concat", ".insert", ".unshift", ".prepend", ".splice", ".<<",
	".add", ".addAll", ".Add", ".AddRange"}

// listAddAt reports whether the byte at i begins what a statement adds to
// a list with: an add method's '(' (a.push(, a.extend(), Ruby's "<< ",
// "+= [" or "+ [", or Perl's push's list (push @a, …; push(@a, …)).
func listAddAt(s string, i int) bool {
	switch s[i] {
	case '(':
		b := s[max(0, i-10):i]
		for _, m := range listAddMethods {
			if strings.HasSuffix(b, m) {
				return true
			}
		}
		return perlPush(s, i) && i+1 < len(s) && s[i+1] == '@'
	case '<':
		// a << "-p": a list's receiver, not bash's here-document,
		// which the quote tracker reads at the top level only.
		return strings.HasPrefix(s[i:], "<< ") && i >= 2 && s[i-1] == ' ' && (wordByte[s[i-2]] || s[i-2] == ']' || s[i-2] == ')')
	case '+':
		k := i + 1
		if k < len(s) && s[k] == '=' {
			k++
		}
		return i > 0 && (s[i-1] == ' ' || s[i-1] == ']') && listOpens(s, skipBlanks(s, k))
	case '=':
		// a = [*a, "-p", …], @c = (@c, "-p", …), a[1:1] = […],
		// a[2] = "…": the list assigned, or an item set by index.
		if i+1 < len(s) && s[i+1] == '=' || i > 0 && strings.IndexByte("=!<>", s[i-1]) >= 0 {
			return false // a comparison
		}
		k := skipBlanks(s, i+1)
		b := i
		for b > 0 && (s[b-1] == ' ' || s[b-1] == '\t') {
			b--
		}
		return listOpens(s, k) || b > 0 && s[b-1] == ']' && k < len(s) && (s[k] == '"' || s[k] == '\'')
	case '@':
		return i >= 5 && s[i-1] == ' ' && perlPush(s, i-1)
	}
	return false
}

// listOpens reports whether a list's items start at k: [, (, %w[, qw(.
func listOpens(s string, k int) bool {
	if k >= len(s) {
		return false
	}
	if s[k] == '[' || s[k] == '(' {
		return true
	}
	return k+3 < len(s) && wordListStart(s, k+3)
}

// perlPush reports whether Perl's push, unshift or splice ends right
// before i.
func perlPush(s string, i int) bool {
	for _, w := range [...]string{"push", "unshift", "splice"} {
		k := i - len(w)
		if k >= 0 && s[k:i] == w && (k == 0 || !wordByte[s[k-1]]) {
			return true
		}
	}
	return false
}

// listAdd takes up the program the last list named when the byte at i
// begins an addition to a list and no program is being read.
func (r *redactor) listAdd(i int) {
	if r.listProg != nil && r.prog == nil && listAddAt(r.s, i) {
		r.prog, r.nsubs, r.htN = r.listProg, 0, false
	}
}

// shovelNext returns the index just before the blank that precedes the
// next item Ruby's << adds after the item ending at k (a << "-p" << "…",
// a << "-p"; a << "…", one per line), or 0.
func shovelNext(s string, k int) int {
	lim := min(len(s), k+maxAddGap)
	j := skipBlanks(s, k)
	if j < lim && s[j] == ';' {
		j++
	}
	if j == skipBlanks(s, k) {
		if strings.HasPrefix(s[j:lim], "<< ") {
			return j + 1
		}
		if j >= lim || s[j] != '\n' && !strings.HasPrefix(s[j:], `\n`) {
			return 0
		}
	}
	// The next statement: its receiver, then <<.
	for j < lim && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r' || strings.HasPrefix(s[j:], `\n`)) {
		if s[j] == '\\' {
			j++
		}
		j++
	}
	b := j
	for j < lim && wordByte[s[j]] {
		j++
	}
	if j > b && strings.HasPrefix(s[j:lim], " << ") {
		return j + 2
	}
	return 0
}
