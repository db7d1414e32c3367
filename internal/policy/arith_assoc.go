package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// An associative array's subscripts are strings, which bash does not
// evaluate as arithmetic: h[$k] is safe whatever k holds once h is
// declared -A. But -A is an attribute a declaration gives when it runs,
// in the scope it runs in, so a declaration somewhere in the script
// proves nothing about a use elsewhere: a[$k]=1; declare -A a evaluates
// the first subscript (a is an indexed array then), as does a use after
// a declare -A in a function never called, in a subshell or a branch not
// taken, or after unset a, or inside a function whose local a hides it.
// A name's subscripts count as strings only where the script provably
// made it associative first (assocName).

// assocName reports whether name's subscripts are strings wherever the
// script sc uses it: a direct statement of the script declares it -A
// before any other occurrence of the name, and nothing in the script may
// unset it, declare it again as another kind, or set variables unseen.
func (e *eval) assocName(sc *scope, name string) bool {
	if !sc.isAssoc(name) {
		return false
	}
	af := e.facts(sc)
	nf := af.names[name]
	if af.tainted || af.unsetsAny || nf == nil || nf.nonAssoc || nf.topAssoc < 0 {
		return false
	}
	return nf.first < 0 || nf.topAssoc < nf.first
}

// setsAssoc reports whether a declaration outside a function gives its
// names the associative attribute: declare -A, not +A (an error) and
// not local (an error outside a function).
func setsAssoc(d *syntax.DeclClause) bool {
	switch d.Variant.Value {
	case "declare", "typeset", "readonly":
	default:
		return false
	}
	for _, a := range d.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if v, ok := litValue(a.Value); ok && len(v) > 1 && v[0] == '-' && strings.ContainsRune(v, 'A') {
				return true
			}
		}
	}
	return false
}

// declNonAssoc records the names a declaration may make a variable of
// another kind (local a in a function hides a global associative array),
// unless it is a direct statement of the script giving them -A (topAssoc:
// see topStmt), which factsVisitor records as such. Printing them (-p)
// does not.
func (af *arithFacts) declNonAssoc(d *syntax.DeclClause, topAssoc bool) {
	flags := declFlags(d)
	if strings.ContainsRune(flags, 'p') {
		return
	}
	for _, a := range d.Args {
		if a.Name != nil && !(topAssoc && a.Index == nil) && !(strings.ContainsRune(flags, 'A') && d.Variant.Value != "local") {
			af.name(a.Name.Value).nonAssoc = true
		}
	}
}

// callNonAssoc records the names an unset removes (not one element of,
// but a[@] is the whole array), or a declaration that
// parses as a plain call (command local a) may declare again; a name
// computed at run time may be any.
func (af *arithFacts) callNonAssoc(ce *syntax.CallExpr) {
	args, ok := pastCommandBuiltin(ce.Args)
	if !ok || len(args) < 2 {
		return
	}
	cmd, _ := litValue(args[0])
	switch cmd {
	case "unset", "declare", "typeset", "local", "export", "readonly":
	default:
		return
	}
	for _, w := range args[1:] {
		s, ok := litValue(w)
		switch {
		case !ok:
			af.unsetsAny = true
		case s == "-p" || strings.HasPrefix(s, "-") && strings.ContainsRune(s, 'p'):
			return
		case strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+"):
		default:
			n, _, _ := strings.Cut(s, "=")
			n, sub, _ := strings.Cut(n, "[")
			if cmd == "unset" && sub != "" && sub != "@]" && sub != "*]" {
				continue // unset 'a[k]' removes one element
			}
			af.name(n).nonAssoc = true
		}
	}
}

// subscriptName returns the array a word names with a subscript in its
// text ('a[x]', "a[$k]"), as builtins that take variable names read it.
func subscriptName(w *syntax.Word) (string, bool) {
	if len(w.Parts) == 0 {
		return "", false
	}
	var s string
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		s = p.Value
	case *syntax.SglQuoted:
		s = p.Value
	case *syntax.DblQuoted:
		if len(p.Parts) == 0 {
			return "", false
		}
		l, ok := p.Parts[0].(*syntax.Lit)
		if !ok {
			return "", false
		}
		s = l.Value
	default:
		return "", false
	}
	n, _, ok := strings.Cut(s, "[")
	return n, ok && validName(n)
}

// nameLen is the length of the longest prefix of s that is a name
// (validName), 0 if none.
func nameLen(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return i
		}
	}
	return len(s)
}
