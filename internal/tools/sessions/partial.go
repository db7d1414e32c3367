package sessions

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A program that reads part of a line from the terminal leaves the rest of
// it for the shell: after "read -n 4 x", typing "ls #touch x" runs
// "touch x". warden cannot tell how much such a program took, so what is
// typed after it is unknown until Ctrl-C ends it: the line that starts it
// must be the last thing in its send, and the session is adrift after it.
// The readers found are bash's read with -n, -N or -d, dd reading its
// input and head -c; a program that reads whole lines (cat, head -n, sed)
// leaves whole lines for the shell, which are classified as they are.

// splits says why text starts a program that reads part of a line from
// the terminal, or returns "".
func splits(text string) string {
	return splitsIn(text, 0)
}

func splitsIn(text string, depth int) string {
	if !mayRead(text) {
		return ""
	}
	if depth > rekeyDepth {
		// Too deep to read as shell: the mention counts, as in rekeysIn.
		return "a program that may read part of a line (read, dd, head -c) in strings nested too deep to follow"
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		return "a program that may read part of a line (read, dd, head -c) in a command warden cannot parse"
	}
	return splitsNode(f, text, depth)
}

// splitsNode is splitsIn over one node of text's syntax tree. A command
// whose input is redirected, or that reads a pipe, does not read the
// terminal.
func splitsNode(node syntax.Node, text string, depth int) string {
	why := ""
	syntax.Walk(node, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			if stdinRedirected(n) {
				return false
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				why = splitsNode(n.X, text, depth)
				return false
			}
		case *syntax.CallExpr:
			why = splitCall(n)
		case *syntax.Word:
			if v := literal(n); v != text && !isName(v) {
				why = splitsIn(v, depth+1)
			}
		}
		return why == ""
	})
	return why
}

// stdinRedirected reports whether s reads its standard input from a file
// or a here-document rather than the terminal.
func stdinRedirected(s *syntax.Stmt) bool {
	for _, r := range s.Redirs {
		if (r.N == nil || r.N.Value == "0") && (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut ||
			r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc) {
			return true
		}
	}
	return false
}

// mayRead reports whether text names one of the readers at all, so that
// most lines are not parsed twice.
func mayRead(text string) bool {
	if strings.ContainsAny(text, "*?[") {
		return true // a glob may name one
	}
	for _, t := range tokens(text) {
		switch path.Base(t) {
		case "read", "dd", "head":
			return true
		}
	}
	return false
}

// splitCall says why the simple command c reads part of a line.
func splitCall(c *syntax.CallExpr) string {
	vals := literals(c.Args)
	for i, v := range vals {
		rest := vals[i+1:]
		switch progName(v) {
		case "read":
			for _, a := range rest {
				if len(a) > 1 && a[0] == '-' && strings.ContainsAny(a, "nNd\x00") {
					return "read " + a + " reads part of a line and leaves the rest to the shell"
				}
				if a == "" || a[0] != '-' {
					break
				}
			}
		case "dd":
			in := ""
			for _, a := range rest {
				if v, ok := strings.CutPrefix(a, "if="); ok {
					in = v
				}
			}
			switch in {
			case "", "-", "/dev/stdin", "/dev/tty", "/dev/fd/0", "/proc/self/fd/0":
				return "dd reads its input in blocks, which may end inside a line, and leaves the rest to the shell"
			}
		case "head":
			bytes, files := false, false
			for j := 0; j < len(rest); j++ {
				a := rest[j]
				switch {
				case a == "-c" || a == "--bytes" || a == "-n" || a == "--lines":
					bytes = bytes || a == "-c" || a == "--bytes"
					j++
				case strings.HasPrefix(a, "--bytes") || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "c\x00"):
					bytes = true
				case a != "-" && !strings.HasPrefix(a, "-"):
					files = true
				}
			}
			if bytes && !files {
				return "head -c reads part of a line and leaves the rest to the shell"
			}
		}
	}
	return ""
}
