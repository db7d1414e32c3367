package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// scopeVerb reports whether name is a command whose calls the pre-pass
// (newScope and factsVisitor) reads past the first word: the
// declarations and builtins that give variables attributes or values
// (callAttrs, callNonAssoc, callFacts, setValues, readValue, printfValue,
// assignsAside), move the positional parameters (movesPositionals), run
// code in this shell (codeAttrs, hiddenCodeMovesPos) or may remove a
// function or give a name another meaning (noteFuncRemover: unset,
// alias). command and builtin are here because every
// check looks past them. A switch rather than a set: it is asked of
// every call, and hashing the name cost more than the checks it spares.
func scopeVerb(name string) bool {
	switch name {
	case "command", "builtin", "declare", "typeset", "local", "export", "readonly", "unset", "enable",
		"set", "shift", "eval", "source", ".", "trap", "mapfile", "readarray", "read", "printf",
		"getopts", "wait", "test", "[", "alias":
		return true
	}
	return false
}

// otherCall reports whether ce is a call none of the pre-pass's call
// checks reads: no words, or a first word that is a plain literal naming
// none of scopeVerb's. Most calls of a script are of programs such as
// grep, ls or awk, for which each check would only have read the name
// again (TestOtherCallsLearnNothing).
func otherCall(ce *syntax.CallExpr) bool {
	name, ok := litCallName(ce)
	return ok && !scopeVerb(name)
}

// otherStmt reports whether s is a call otherCall skips whose
// statement-level checks (codeAttrs, readValue, noteFile, printfValue)
// read nothing either: they read the same commands, and noteFile what
// echo, cat and tee write to a file.
func otherStmt(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	name, ok := litCallName(ce)
	switch {
	case !ok || scopeVerb(name):
		return false
	case name == "echo" || name == "cat" || name == "tee":
		return len(s.Redirs) == 0
	}
	return true
}

// litCallName returns the first word of ce when it is a plain literal, and
// "" for a call of no words (x=1).
func litCallName(ce *syntax.CallExpr) (string, bool) {
	if len(ce.Args) == 0 {
		return "", true
	}
	if len(ce.Args[0].Parts) != 1 {
		return "", false
	}
	l, ok := ce.Args[0].Parts[0].(*syntax.Lit)
	if !ok || strings.IndexByte(l.Value, '\\') >= 0 {
		return "", false
	}
	return l.Value, true
}

// movesPositionals reports whether a call can change the positional
// parameters: shift, or set with an operand or -- (set -- a b, set x);
// the argument of set -o is an option name, not an operand.
func movesPositionals(ce *syntax.CallExpr) bool {
	args, ok := pastCommandBuiltin(ce.Args)
	if !ok {
		return false // a computed program name is refused where it runs
	}
	if len(args) == 0 {
		return false
	}
	switch v, _ := litValue(args[0]); v {
	case "shift":
		return true
	case "set":
	default:
		return false
	}
	for i := 1; i < len(args); i++ {
		o, ok := litValue(args[i])
		if !ok || o == "-" || o == "--" || len(o) < 2 || o[0] != '-' && o[0] != '+' {
			return true
		}
		if strings.ContainsRune(o, 'o') {
			i++ // set -o NAME, set -euo pipefail
		}
	}
	return false
}

// hiddenCodeMovesPos reports whether a call runs code in this shell that
// the pre-pass does not walk and that may change the positional
// parameters: a sourced file, or eval text, a trap action or a mapfile
// callback that sets or shifts them or is not known at parse time
// (eval set -- "$x").
func hiddenCodeMovesPos(ce *syntax.CallExpr, depth int) bool {
	args, ok := pastCommandBuiltin(ce.Args)
	if !ok || len(args) == 0 {
		return false
	}
	switch v, _ := litValue(args[0]); v {
	case "source", ".":
		return true
	case "eval", "trap", "mapfile", "readarray":
	default:
		return false
	}
	code, ok := sameShellCode(ce)
	if !ok {
		// No code (trap -p, mapfile without -C), or code computed
		// at run time.
		_, known := litValues(args[1:])
		return !known
	}
	if depth > maxNest {
		return true
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(code), "")
	if err != nil {
		return true
	}
	mendCoprocs(f, code)
	moves := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && (movesPositionals(c) || hiddenCodeMovesPos(c, depth+1)) {
			moves = true
		}
		return !moves
	})
	return moves
}
