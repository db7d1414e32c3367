package sessions

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// An interpreter given code (python3 -c, perl -e, node script.js) or a
// shell given a script file runs code warden does not read, and that code
// may read the terminal as read does: after python3 -c 'input()', the
// line "echo \" is its input and "touch x" runs. policy already asks for
// approval of such a command; what is typed after it is then a line
// reader's (partial.go), adrift until Ctrl-C, since the approval was for
// the command, not for what it makes of the lines after it.

var unreadRules = readerRules{call: unreadCall, named: namesUnread, strict: true}

// unreadCode says why the complete commands text run code warden cannot
// read on the terminal, or returns "".
func unreadCode(text string) string {
	return splitsIn(text, 0, unreadRules)
}

func namesUnread(text string) bool {
	return some(tokens(text), func(t string) bool {
		b := progName(t)
		k, _ := readerKind(b)
		return k == 'c' || shells[b] || b == "sed" || b == "gsed"
	})
}

// unreadCall says why the simple command c runs code warden cannot read.
func unreadCall(c *syntax.CallExpr) string {
	vals := literals(c.Args)
	for i, v := range vals {
		if !runBy(vals, i) {
			continue
		}
		b, rest := progName(v), runArgs(vals, i)
		if onlyPrints(unversioned(b), rest) {
			continue
		}
		kind, _ := readerKind(b)
		switch {
		case kind == 'c' && !interpreterReads(b, rest):
			return b + " runs code warden does not read, which may read the lines typed next"
		case shells[b] && b != "busybox" && shellScript(rest):
			return b + " runs a script warden does not read, which may read the lines typed next"
		case (b == "sed" || b == "gsed") && sedRuns(rest):
			return b + "'s e runs commands on its own input, the terminal, which may read the lines typed next"
		}
	}
	return ""
}

// onlyPrints reports whether interpreter b, given rest, prints its
// version or usage and exits: asked to among its own options, before a
// script or code, whose arguments ("python3 s.py --help") are its own.
func onlyPrints(b string, rest []string) bool {
	for _, a := range rest {
		switch {
		case printsAndExits(b, a):
			return true
		case !strings.HasPrefix(a, "-") || a == "--" || len(a) > 1 && a[1] != '-' && strings.ContainsAny(a[1:], "ceEmrf"):
			return false
		}
	}
	return false
}

// shellScript reports whether a shell with arguments rest runs a script
// file: an operand before any -c.
func shellScript(rest []string) bool {
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		switch {
		case a == "-o" || a == "+o" || a == "-O" || a == "+O" || a == "--rcfile" || a == "--init-file":
			j++
		case a == "--":
			return j+1 < len(rest)
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "cs"):
			return false // a command string warden reads, or commands from the input
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
		default:
			return true
		}
	}
	return false
}

// sedCommand is a sed command that runs its argument or the pattern
// space as a shell command, after an optional address: GNU sed's e
// (1e head -n 1, /x/e, $e).
var sedCommand = regexp.MustCompile(`^[\s;{}]*(?:[0-9]+|\$|/(?:[^/\\]|\\.)*/)?(?:,(?:[0-9]+|\$|/(?:[^/\\]|\\.)*/))?\s*!?\s*e(?:\s|;|}|$)`)

// sedRuns reports whether sed with arguments rest may run a command: a
// script command e, or an s command's e flag (s/x/y/e). Its scripts are
// each word that is not an option, and the values of -e and --expression;
// a script file (-f) is not read, and counts.
func sedRuns(rest []string) bool {
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		switch {
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "--file="):
			return true
		case a == "-e" || a == "--expression":
			if j+1 < len(rest) && sedScriptRuns(rest[j+1]) {
				return true
			}
			j++
		case strings.HasPrefix(a, "--expression="):
			if sedScriptRuns(strings.TrimPrefix(a, "--expression=")) {
				return true
			}
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			// -ne 'script', -e1e, -nf file: a cluster's e or f takes the
			// rest of it, or the next word.
			k := strings.IndexAny(a, "ef")
			if k < 0 {
				continue
			}
			if a[k] == 'f' {
				return true
			}
			v := a[k+1:]
			if v == "" && j+1 < len(rest) {
				j++
				v = rest[j]
			}
			if sedScriptRuns(v) {
				return true
			}
		case sedScriptRuns(a):
			return true
		}
	}
	return false
}

// sedScriptRuns reports whether the sed script s may run a command. It
// looks at each command after ';', a newline or a brace, and at every s command's
// flags, erring towards finding one.
func sedScriptRuns(s string) bool {
	for _, c := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '\n' || r == '{' || r == '}' }) {
		if sedCommand.MatchString(c) {
			return true
		}
	}
	return sedSubstE(s)
}

// sedSubstE reports whether the script s holds an s command whose
// flags hold e (s/x/y/ge, s|a|b|e): every 's' followed by a delimiter
// is taken to start one.
func sedSubstE(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		d := s[i+1]
		if s[i] != 's' || d == '\\' || d == '\n' || d == ' ' || wordByte(d) {
			continue
		}
		j, fields := i+2, 0
		for ; j < len(s) && fields < 2; j++ {
			switch s[j] {
			case '\\':
				j++
			case d:
				fields++
			}
		}
		for ; fields == 2 && j < len(s) && strings.IndexByte("0123456789gpiImMe", s[j]) >= 0; j++ {
			if s[j] == 'e' {
				return true
			}
		}
	}
	return false
}
