package audit

import "strings"

// A one-line script that prints what a pipe feeds a reader: awk
// 'BEGIN{print "bob:…"}' | chpasswd, perl -e 'print "…"' | sudo -S id,
// python3 -c 'print("bob:…")' | chpasswd. The script's code is what the
// interpreter writes, as an echo's words are: noted at the interpreter's
// name, fed when the pipe after it comes (a ';' or '|' inside the code's
// quotes does not lose it), replaced when a reader takes it.

// inlineCode returns the span of the code a script interpreter named w,
// whose words start at j, runs from its command line: awk's first
// operand, perl's, ruby's, node's or lua's -e, php's -r, python's -c.
// It returns an empty span for none (a script file, awk -f).
func inlineCode(s, w string, j int) span {
	var flags string
	switch w {
	case "awk", "gawk", "mawk", "nawk":
	case "perl", "ruby", "node", "nodejs", "lua":
		flags = "-e -E"
	case "php":
		flags = "-r"
	case "python", "python2", "python3":
		flags = "-c"
	default:
		return span{}
	}
	k, skip := j, false
	for n := 0; n < 16; n++ {
		k = skipBlanks(s, k)
		if k >= len(s) || strings.IndexByte("\n\r;|&)<>", s[k]) >= 0 {
			return span{}
		}
		e := shellWordEnd(s, k)
		if e <= k {
			return span{}
		}
		word := s[k:e]
		switch {
		case skip:
			skip = false
		case flags == "" && (word == "-f" || strings.HasPrefix(word, "--file")):
			return span{} // awk -f prog.awk: the code is in a file
		case flags == "" && (word == "-F" || word == "-v"):
			skip = true // awk -F: -v x=1: the next word is the option's
		case flags == "" && word[0] != '-':
			return span{k, e} // awk's program
		case flags != "" && (strings.Contains(" "+flags+" ", " "+word+" ") ||
			// perl -le, python3 -Ic: the flag last in a cluster.
			len(word) > 2 && word[0] == '-' && word[1] != '-' && strings.Contains(flags, "-"+word[len(word)-1:])):
			if c := skipBlanks(s, e); c < len(s) {
				if ce := shellWordEnd(s, c); ce > c {
					return span{c, ce}
				}
			}
			return span{}
		}
		k = e
	}
	return span{}
}

// codeBreak is stdinBreak's part for this rule at the break at i: a pipe
// after the code feeds it; any break after it forgets it.
func (r *redactor) codeBreak(pipe bool, i int) {
	st := &r.stdin
	if st.code.to == 0 || i < st.code.to {
		return // none, or a ';' or '|' inside the code's quotes
	}
	if pipe && printsLiteral(r.s[st.code.from:st.code.to]) {
		r.feedSpan(st.code)
	}
	st.code = span{}
}

// printsLiteral reports whether the code word c holds a string literal of
// its own, a quote inside its outer quotes: print "…" does, awk's
// '{print $1":"$2}' too; '{print}' and '$1 == "x"'-free filters of the
// input do not, and stay readable.
func printsLiteral(c string) bool {
	if len(c) < 2 {
		return false
	}
	inner := c[1 : len(c)-1]
	switch c[0] {
	case '\'':
		return strings.ContainsAny(inner, `"`)
	case '"':
		return strings.Contains(inner, `\"`) || strings.ContainsRune(inner, '\'')
	}
	return strings.ContainsAny(c, `"'`)
}
