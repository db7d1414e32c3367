package policy

import "strings"

// awkCode returns the code of an awk program with the text of its string
// literals ("…") and regular expression literals (/…/) emptied and its
// comments removed, so that a '|' or the word system inside a pattern
// (/nologin|false/, /filesystem/) is not read as a pipe or a call.
//
// A '/' starts a regular expression only where an operand cannot end
// before it: at the start, or after an operator, '(', ',', '{', ';' or a
// line end — not after a name, a number, ')', ']', '$' or "++"/"--",
// where it divides. Where the reading is unsure it keeps the text as
// code, which only finds more: brackets are not tracked (gawk's /[/]x/
// ends the expression later than here, never earlier), and an unclosed
// literal leaves the rest of the program as code.
func awkCode(p string) string {
	var b strings.Builder
	prev := byte('\n') // last significant byte of code
	prev2 := byte(0)
	for i := 0; i < len(p); i++ {
		ch := p[i]
		switch {
		case ch == '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
			if i < len(p) {
				b.WriteByte('\n')
				prev, prev2 = '\n', prev
			}
			continue
		case ch == '"' || ch == '/' && awkRegexStart(prev, prev2):
			end := awkLiteralEnd(p, i, ch)
			if end < 0 {
				b.WriteString(p[i:])
				return b.String()
			}
			b.WriteByte(ch)
			b.WriteByte(ch)
			i = end
			prev, prev2 = 'x', prev // a literal is an operand
			continue
		}
		b.WriteByte(ch)
		if ch != ' ' && ch != '\t' {
			prev, prev2 = ch, prev
		}
	}
	return b.String()
}

// awkRegexStart reports whether a '/' after prev (and prev2 before it)
// starts a regular expression rather than dividing.
func awkRegexStart(prev, prev2 byte) bool {
	if (prev == '+' || prev == '-') && prev2 == prev {
		return false // x++ / y
	}
	return strings.IndexByte("\n(,{};!~&|=<>?:+-*%^[", prev) >= 0
}

// awkLiteralEnd returns the index of the quote or slash that closes the
// literal opened at p[i], or -1. A backslash escapes the next byte; a
// regular expression or string does not span lines.
func awkLiteralEnd(p string, i int, q byte) int {
	for j := i + 1; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case q:
			return j
		case '\n':
			return -1
		}
	}
	return -1
}

// awkWord reports whether code has the name w as a whole word.
func awkWord(code, w string) bool {
	for k := 0; ; {
		i := strings.Index(code[k:], w)
		if i < 0 {
			return false
		}
		i += k
		before := i == 0 || !isAwkIdent(code[i-1])
		after := i+len(w) >= len(code) || !isAwkIdent(code[i+len(w)])
		if before && after {
			return true
		}
		k = i + 1
	}
}

func isAwkIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// awkWritesRunLater reports whether an awk program p, printing to files,
// writes one whose text a program runs later: a cron table, a start-up
// file in a home (ENVIRON["HOME"] "/.bashrc" too).
func awkWritesRunLater(p string, files []string) bool {
	if len(files) == 0 && !strings.Contains(p, ">") {
		return false
	}
	for _, f := range files {
		if runsLaterArg(arg{val: f, known: true}) {
			return true
		}
	}
	for _, f := range awkPartialPaths(p) {
		if strings.HasPrefix(f, "$HOME/") && homeDotfile(f) {
			return true
		}
	}
	return false
}

// awkPartialPaths returns the string literals of an awk program that
// begin with "/" and follow an operand they are joined to: in
// ENVIRON["HOME"] "/.local/state/x" or d "/x" the literal is the rest of
// a path known only in part. The home's own spelling comes back as
// "$HOME/…", any other operand's as "$A/…".
func awkPartialPaths(p string) []string {
	var out []string
	for i := 0; i < len(p) && len(out) < maxAlts; i++ {
		if p[i] != '"' {
			continue
		}
		end := awkLiteralEnd(p, i, '"')
		if end < 0 {
			break
		}
		lit := p[i+1 : end]
		before := strings.TrimRight(p[:i], " \t")
		if strings.HasPrefix(lit, "/") && before != "" {
			switch c := before[len(before)-1]; {
			case strings.HasSuffix(before, `ENVIRON["HOME"]`):
				out = append(out, "$HOME"+lit)
			case c == ']' || c == ')' || isAwkIdent(c) && !awkKeywordEnd(before):
				out = append(out, "$A"+lit)
			}
		}
		i = end
	}
	return out
}

// awkKeywordEnd reports whether text ends in a keyword after which a
// literal starts an expression rather than joining one (print "/x").
func awkKeywordEnd(text string) bool {
	for _, k := range []string{"print", "printf", "return", "in", "getline"} {
		if strings.HasSuffix(text, k) && (len(text) == len(k) || !isAwkIdent(text[len(text)-len(k)-1])) {
			return true
		}
	}
	return false
}
