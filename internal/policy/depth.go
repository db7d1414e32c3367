package policy

// The parser nests as deep as the text does, so text nested past
// maxBrackets is refused before parsing (tooDeep). These scans bound
// that nesting without parsing: each is cheap and may overcount, never
// undercount.

// bracketDepth is an upper bound on the nesting of ( { [ and backquotes in
// src, ignoring quoting. It is cheap and runs before the parser.
func bracketDepth(src string) int {
	depth, most := 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{', '[':
			depth++
			if depth > most {
				most = depth
			}
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return most
}

// keywordDepth is an upper bound on the nesting of if, while, until, for,
// case and select in src; the parser recurses on each.
func keywordDepth(src string) int {
	depth, most := 0, 0
	// Words are split on ASCII separators only, so scanning bytes finds the
	// same words as scanning runes, without a slice of every word.
	for i := 0; i < len(src); {
		for i < len(src) && keywordSep(src[i]) {
			i++
		}
		j := i
		for j < len(src) && !keywordSep(src[j]) {
			j++
		}
		w := src[i:j]
		i = j
		switch w {
		case "if", "while", "until", "for", "case", "select":
			depth++
			if depth > most {
				most = depth
			}
		case "fi", "done", "esac":
			if depth > 0 {
				depth--
			}
		}
	}
	return most
}

func keywordSep(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '`'
}

// prefixDepth is an upper bound on the nesting of prefixes written one after
// another, which the parser nests by recursion: function headers
// (f() g ( ) … { :; }), negations ([[ ! ! … ]]), time and coproc. 4 MiB of
// function headers or negations overflows the parser's goroutine stack, a
// fatal error that no recover catches. A function's name before its "()"
// keeps a run going; any other word or token ends it. Quoting is ignored.
func prefixDepth(src string) int {
	// emptyParens reports whether src[i:] starts with "(", blanks, ")",
	// and returns the index after it.
	emptyParens := func(i int) (int, bool) {
		if i >= len(src) || src[i] != '(' {
			return i, false
		}
		for i++; i < len(src) && blank(src[i]); i++ {
		}
		return i + 1, i < len(src) && src[i] == ')'
	}
	run, most := 0, 0
	for i := 0; i < len(src); {
		if blank(src[i]) {
			i++
			continue
		}
		if j, ok := emptyParens(i); ok {
			run++
			most = max(most, run)
			i = j
			continue
		}
		j := i + 1
		for j < len(src) && !blank(src[j]) && src[j] != '(' && src[j] != ')' {
			j++
		}
		w := src[i:j]
		i = j
		if w == "!" || w == "time" || w == "coproc" {
			run++
			most = max(most, run)
			continue
		}
		k := j
		for k < len(src) && blank(src[k]) {
			k++
		}
		if _, name := emptyParens(k); !name {
			run = 0 // not a function's name
		}
	}
	return most
}

func blank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
