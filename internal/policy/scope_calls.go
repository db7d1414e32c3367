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
// function (noteFuncRemover). command and builtin are here because every
// check looks past them. A switch rather than a set: it is asked of
// every call, and hashing the name cost more than the checks it spares.
func scopeVerb(name string) bool {
	switch name {
	case "command", "builtin", "declare", "typeset", "local", "export", "readonly", "unset", "enable",
		"set", "shift", "eval", "source", ".", "trap", "mapfile", "readarray", "read", "printf",
		"getopts", "wait", "test", "[":
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
