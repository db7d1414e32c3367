package policy

import (
	"mvdan.cc/sh/v3/syntax"
)

// A script that stops on an empty variable before it uses one is not the
// SC2115 bug deny_emptyvars.go denies: : "${D:?}", [ -n "$D" ] && rm -rf
// "$D"/*, [ -z "$D" ] && exit 1, if [ -z "$D" ]; then exit 1; fi, and
// D=${1:?usage} all leave D set where the rm runs. Such a name is
// guarded: the statements after the guard in its list, or the commands
// after its test in an && (or, for -z, ||) chain, read it as not empty.
// A guard holds only where the shell cannot reach the use without it: in
// a subshell, a mixed && || chain or a branch, it is not read as one.
//
// A guard is what bash's builtins make of it: a script that declares a
// function named exit, return, test or [ (bash runs it instead of the
// builtin), or runs enable, alias, eval, source or trap, which can do
// the same, has none (see guardsUnsure). A function of the
// script that always exits (die() { echo "$*" >&2; exit 1; }) stops it
// as exit does, where a call of it runs the function (see exitsBefore).

// guard is a name the walk knows is not empty, in a list that shares
// its tail as contexts are copied.
type guard struct {
	name string
	next *guard
}

// has reports whether name is guarded.
func (g *guard) has(name string) bool {
	for ; g != nil; g = g.next {
		if g.name == name {
			return true
		}
	}
	return false
}

// with returns g and names.
func (g *guard) with(names []string) *guard {
	for _, n := range names {
		if !g.has(n) {
			g = &guard{n, g}
		}
	}
	return g
}

// maxGuarded bounds the names one statement guards.
const maxGuarded = 8

// topGuards returns, for each name a top-level statement of list guards,
// the 1-based index of the first that does. sc is the script's scope, or
// nil where it is not yet known: then no call of a function is read as
// exit.
func topGuards(list []*syntax.Stmt, sc *scope) map[string]int {
	var m map[string]int
	for i, s := range list {
		for _, n := range guardsAfter(s, false, sc, i+1) {
			if m == nil {
				m = map[string]int{}
			}
			if m[n] == 0 {
				m[n] = i + 1
			}
		}
	}
	return m
}

// guardsAfter returns the names s leaves set and not empty for the
// statements after it: a command that expands ${D:?}, a test that exits
// (or, in a function, returns) unless D is set ([ -z "$D" ] && exit,
// [ -n "$D" ] || return 1), or an if that does. s is in, or is, the
// top-level statement of sc's script at 1-based index top.
func guardsAfter(s *syntax.Stmt, inFunc bool, sc *scope, top int) []string {
	if s.Negated || s.Background || s.Coprocess {
		return nil
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		var names []string
		for _, a := range c.Assigns {
			if a.Value != nil {
				names = stopsEmpty(a.Value, names)
			}
		}
		for _, w := range c.Args {
			names = stopsEmpty(w, names)
		}
		return names
	case *syntax.BinaryCmd:
		if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt {
			return nil
		}
		// [ -z "$D" ] && exit 1 || echo ok: the shell gets past the
		// chain only past its first command, a guard.
		if names := guardsAfter(c.X, inFunc, sc, top); len(names) > 0 {
			return names
		}
		if !stops(c.Y, inFunc, sc, top) {
			return nil
		}
		switch c.Op {
		case syntax.AndStmt: // [ -z "$D" ] && exit 1: past it, the test was false
			return testedSet(c.X, false)
		case syntax.OrStmt: // [ -n "$D" ] || exit 1: past it, the test was true
			return testedSet(c.X, true)
		}
	case *syntax.IfClause:
		// if [ -z "$D" ]; then …; exit 1; fi: no else, or an else that
		// stops too.
		if len(c.Then) == 0 || !stops(c.Then[len(c.Then)-1], inFunc, sc, top) {
			return nil
		}
		if e := c.Else; e != nil && (e.Cond != nil || len(e.Then) == 0 || !stops(e.Then[len(e.Then)-1], inFunc, sc, top)) {
			return nil
		}
		if len(c.Cond) == 1 {
			return testedSet(c.Cond[0], false)
		}
	}
	return nil
}

// stopsEmpty adds to names the variables the word expands as ${D:?},
// which stops the shell when D is empty. A $(…) stops its own shell, not
// this one.
func stopsEmpty(w *syntax.Word, names []string) []string {
	return stopsEmptyParts(w.Parts, names)
}

func stopsEmptyParts(parts []syntax.WordPart, names []string) []string {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.DblQuoted:
			names = stopsEmptyParts(p.Parts, names)
		case *syntax.ParamExp:
			if p.Param != nil && p.Exp != nil && p.Exp.Op == syntax.ErrorUnsetOrNull && !p.Excl && !p.Length && p.Index == nil && len(names) < maxGuarded {
				names = append(names, p.Param.Value)
			}
		}
	}
	return names
}

// stops reports whether s always ends the script or function: exit,
// return in a function (outside one, bash only complains and goes on), a
// call of one of sc's functions that exits, or a group that ends in one.
func stops(s *syntax.Stmt, inFunc bool, sc *scope, top int) bool {
	if s.Negated || s.Background {
		return false
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return false
		}
		v, ok := litValue(c.Args[0])
		return ok && (v == "exit" || v == "return" && inFunc || sc.exitsBefore(v, top))
	case *syntax.Block:
		return len(c.Stmts) > 0 && stops(c.Stmts[len(c.Stmts)-1], inFunc, sc, top)
	}
	return false
}

// guardWords are the builtins a guard is read as.
var guardWords = [...]string{"exit", "return", "test", "["}

// guardsUnsure reports whether a guard may not be what it reads as in sc
// or a script around it: a function may take a guard word's place, or a
// command (enable -n exit, alias, eval) may change what one runs.
func guardsUnsure(sc *scope) bool {
	for ; sc != nil; sc = sc.outer {
		if sc.mayRebind || sc.manyFuncs {
			return true
		}
		for _, w := range guardWords {
			if _, ok := sc.funcAt[w]; ok {
				return true
			}
		}
	}
	return false
}

// exitsBefore reports whether a call of name, in or at the top-level
// statement of sc's script at 1-based index top, runs a function of the
// script that always exits: one declared once, by a top-level statement
// before top, whose body ends in exit and never returns.
func (sc *scope) exitsBefore(name string, top int) bool {
	if sc == nil || sc.mayUnset || sc.manyFuncs || sc.redeclared[name] {
		return false
	}
	if at := sc.funcTop[name]; at == 0 || at >= top {
		return false
	}
	return sc.exits[name]
}

// findExits fills sc.exits, once sc holds the whole script: each body is
// read once, however many guards call it.
func (sc *scope) findExits() {
	for name := range sc.funcTop {
		if i, ok := sc.funcAt[name]; ok && !sc.redeclared[name] && alwaysExits(sc.funcs[i].Body) {
			if sc.exits == nil {
				sc.exits = map[string]bool{}
			}
			sc.exits[name] = true
		}
	}
}

// alwaysExits reports whether a function body ends the script whenever
// it runs: it ends in exit, and no command in it may be return.
func alwaysExits(body *syntax.Stmt) bool {
	if !stops(body, false, nil, 0) {
		return false
	}
	returns := false
	syntax.Walk(body, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			if v, lit := litValue(ce.Args[0]); !lit || v == "return" {
				returns = true
			}
		}
		return !returns
	})
	return !returns
}

// testedSet returns the names that s, a [ ], test or [[ ]] of one
// variable, says are not empty when its outcome is the one given: -z "$D"
// and "$D" = "" false; -n "$D", -d "$D" (every file test is false on ""),
// "$D" and "$D" != "" true.
func testedSet(s *syntax.Stmt, outcome bool) []string {
	if s.Negated {
		outcome = !outcome
	}
	if len(s.Redirs) > 0 || s.Background {
		return nil
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 || len(c.Args) == 0 {
			return nil
		}
		name, ok := litValue(c.Args[0])
		args := c.Args[1:]
		switch {
		case !ok:
			return nil
		case name == "[":
			if len(args) == 0 {
				return nil
			}
			if v, ok := litValue(args[len(args)-1]); !ok || v != "]" {
				return nil
			}
			args = args[:len(args)-1]
		case name != "test":
			return nil
		}
		return bracketTest(args, outcome)
	case *syntax.TestClause:
		return clauseTest(c.X, outcome)
	}
	return nil
}

// bracketTest reads the words of a [ ] or test of one quoted variable.
// Unquoted, an empty $D vanishes and [ -n $D ] is true.
func bracketTest(args []*syntax.Word, outcome bool) []string {
	if len(args) > 0 {
		if v, ok := litValue(args[0]); ok && v == "!" {
			args, outcome = args[1:], !outcome
		}
	}
	switch len(args) {
	case 1: // [ "$D" ]: true when not empty
		if n := quotedVar(args[0]); n != "" && outcome {
			return []string{n}
		}
	case 2:
		op, ok := litValue(args[0])
		if n := quotedVar(args[1]); ok && n != "" && unarySays(op, outcome) {
			return []string{n}
		}
	case 3:
		op, ok := litValue(args[1])
		n := quotedVar(args[0])
		if e, eok := plainLit(args[2]); ok && eok && e == "" && n != "" && comparedSays(op, outcome) {
			return []string{n}
		}
	}
	return nil
}

// clauseTest reads a [[ ]] expression of one variable.
func clauseTest(x syntax.TestExpr, outcome bool) []string {
	switch x := x.(type) {
	case *syntax.Word: // [[ $D ]]
		if n := wordVar(x); n != "" && outcome {
			return []string{n}
		}
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			return clauseTest(x.X, !outcome)
		}
		w, ok := x.X.(*syntax.Word)
		if n := wordVar(w); ok && n != "" && unarySays(x.Op.String(), outcome) {
			return []string{n}
		}
	case *syntax.BinaryTest:
		w, ok := x.X.(*syntax.Word)
		e, eok := x.Y.(*syntax.Word)
		if !ok || !eok {
			return nil
		}
		if v, lit := plainLit(e); lit && v == "" && wordVar(w) != "" && comparedSays(x.Op.String(), outcome) {
			return []string{wordVar(w)}
		}
	case *syntax.ParenTest:
		return clauseTest(x.X, outcome)
	}
	return nil
}

// unarySays reports whether the unary test op with this outcome says its
// operand is not empty: -z false, or -n and the file tests, which are
// false on "", true.
func unarySays(op string, outcome bool) bool {
	switch op {
	case "-z":
		return !outcome
	case "-n", "-e", "-a", "-f", "-d", "-c", "-b", "-p", "-S", "-L", "-h", "-k", "-g", "-u", "-G", "-O", "-N", "-r", "-w", "-x", "-s":
		return outcome
	}
	return false
}

// comparedSays reports whether comparing with "" by op, with this
// outcome, says the operand is not empty.
func comparedSays(op string, outcome bool) bool {
	switch op {
	case "=", "==":
		return !outcome
	case "!=":
		return outcome
	}
	return false
}

// quotedVar returns the name of the variable w is, in double quotes
// ("$D", "${D}"), or "".
func quotedVar(w *syntax.Word) string {
	if w == nil || len(w.Parts) != 1 {
		return ""
	}
	q, ok := w.Parts[0].(*syntax.DblQuoted)
	if !ok || len(q.Parts) != 1 {
		return ""
	}
	return plainParam(q.Parts[0])
}

// wordVar returns the name of the variable w is, quoted or not, or "".
func wordVar(w *syntax.Word) string {
	if w == nil || len(w.Parts) != 1 {
		return ""
	}
	if n := quotedVar(w); n != "" {
		return n
	}
	return plainParam(w.Parts[0])
}

// plainParam returns the name an expansion that is empty exactly when
// its variable is expands: $D, ${D}, and, as set -u scripts spell it,
// ${D:-} and ${D-} (an empty default) or ${D:+x} (a text when set).
func plainParam(p syntax.WordPart) string {
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Excl || pe.Length || pe.Width || pe.Index != nil ||
		pe.Repl != nil || pe.Slice != nil || pe.Names != 0 || len(pe.Modifiers) > 0 || pe.NestedParam != nil {
		return ""
	}
	if x := pe.Exp; x != nil {
		v, lit := "", true
		if x.Word != nil {
			v, lit = plainLit(x.Word)
		}
		switch {
		case !lit:
			return ""
		case x.Op == syntax.DefaultUnset || x.Op == syntax.DefaultUnsetOrNull:
			if v != "" {
				return ""
			}
		case x.Op == syntax.AlternateUnsetOrNull:
			if v == "" {
				return ""
			}
		default:
			return ""
		}
	}
	return pe.Param.Value
}
