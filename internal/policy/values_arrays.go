package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A word that is all of an array's elements ("${a[@]}", ${a[*]}) gives
// the program every element at once: a=(-rf /); rm "${a[@]}" is rm -rf
// /, which no reading of one element at a time shows. Each literal list
// the script assigns the array is tried as such a reading; like the
// other values a script gives, it only adds findings.

// allElements returns the array a word expands whole, and whether the
// expansion is quoted: "${a[@]}", or unquoted ${a[@]} or ${a[*]}, whose
// elements split further; "$@" and $* are the array "*".
func allElements(w *syntax.Word) (string, bool, bool) {
	if len(w.Parts) != 1 {
		return "", false, false
	}
	quoted := false
	part := w.Parts[0]
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		quoted, part = true, dq.Parts[0]
	}
	p, ok := part.(*syntax.ParamExp)
	if !ok || p.Param == nil || p.Excl || p.Length || p.Slice != nil || p.Repl != nil || p.Exp != nil ||
		p.NestedParam != nil || len(p.Modifiers) > 0 {
		return "", false, false
	}
	if p.Index == nil && (p.Param.Value == "@" || p.Param.Value == "*" && !quoted) {
		return "*", quoted, true // "$@", $*: the positional parameters set -- lists
	}
	iw, ok := p.Index.(*syntax.Word)
	if !ok {
		return "", false, false
	}
	switch v, _ := litValue(iw); {
	case v == "@":
	case v == "*" && !quoted:
	default:
		return "", false, false
	}
	return p.Param.Value, quoted, true
}

// arrayReadings returns, for the words of a call, each way of giving the
// arrays they expand whole one of the literal lists the script assigns
// them, up to maxAlts.
func arrayReadings(ws []*syntax.Word, sc *scope) []map[string][]string {
	if sc == nil || len(sc.arrays) == 0 {
		return nil
	}
	var out []map[string][]string
	for _, w := range ws {
		name, _, ok := allElements(w)
		if !ok || len(sc.arrays[name]) == 0 {
			continue
		}
		if out == nil {
			out = []map[string][]string{{}}
		}
		if _, done := out[0][name]; done {
			continue
		}
		if len(out)*len(sc.arrays[name]) > maxAlts {
			return out
		}
		out = product(out, name, sc.arrays[name])
	}
	return out
}

// elementFields expands w, a word allElements reads, with the elements
// of r.arrays.
func (r *resolver) elementFields(w *syntax.Word) ([]arg, bool) {
	if r.arrays == nil {
		return nil, false
	}
	name, quoted, ok := allElements(w)
	if !ok {
		return nil, false
	}
	elems, ok := r.arrays[name]
	if !ok {
		return nil, false
	}
	var out []arg
	for _, el := range elems {
		if quoted {
			out = append(out, arg{val: el, known: true})
			continue
		}
		for _, f := range strings.Fields(el) {
			out = append(out, arg{val: f, known: true, glob: globChar(f)})
		}
	}
	return out, true
}
