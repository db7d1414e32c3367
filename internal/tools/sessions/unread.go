package sessions

import (
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
		return k == 'c' || shells[b]
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
