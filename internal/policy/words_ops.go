package policy

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// opParam is the value of ${x…} with one operator applied to a variable
// assigned a literal value, where the result needs no pattern matching:
// case changes (${x,,} ${x^^} ${x,} ${x^}), substrings with literal
// offsets (${x:1} ${x:1:5}), and removal or replacement of literal text
// (${x#X} ${x%%X} ${x/X/Y} ${x//X/Y} ${x/#X/Y} ${x/%X/Y}). A path spelled
// through them is then checked like any other word (x=/ETC/WARDEN/…;
// cat ${x,,}). Anything else is unknown, as before.
func (r *resolver) opParam(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Flags != nil || p.Excl || p.Length || p.Width || p.IsSet || p.NestedParam != nil ||
		p.Index != nil || len(p.Modifiers) > 0 || p.Names != 0 {
		return "", false
	}
	v, ok := r.bind[p.Param.Value]
	if !ok {
		return "", false
	}
	switch {
	case p.Exp != nil && p.Slice == nil && p.Repl == nil:
		pat, ok := literalPattern(p.Exp.Word)
		if !ok {
			return "", false
		}
		switch p.Exp.Op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix:
			return strings.TrimPrefix(v, pat), true
		case syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			return strings.TrimSuffix(v, pat), true
		case syntax.UpperAll, syntax.LowerAll, syntax.UpperFirst, syntax.LowerFirst:
			if pat != "" || !asciiOnly(v) {
				return "", false
			}
			return changeCase(v, p.Exp.Op), true
		}
	case p.Slice != nil && p.Exp == nil && p.Repl == nil:
		off, ok := literalInt(p.Slice.Offset)
		if !ok || off > len(v) {
			return "", false
		}
		v = v[off:]
		if p.Slice.Length != nil {
			n, ok := literalInt(p.Slice.Length)
			if !ok {
				return "", false
			}
			v = v[:min(n, len(v))]
		}
		return v, true
	case p.Repl != nil && p.Exp == nil && p.Slice == nil:
		orig, ok1 := literalPattern(p.Repl.Orig)
		with, ok2 := literalPattern(p.Repl.With)
		if !ok1 || !ok2 || strings.Contains(with, "&") || orig == "" {
			return "", false
		}
		// A leading # or % anchors the match only unquoted.
		if l, isLit := p.Repl.Orig.Parts[0].(*syntax.Lit); (orig[0] == '#' || orig[0] == '%') && (!isLit || l.Value == "" || l.Value[0] != orig[0]) {
			return "", false
		}
		switch {
		case p.Repl.All && (orig[0] == '#' || orig[0] == '%'):
			return "", false
		case p.Repl.All:
			return strings.ReplaceAll(v, orig, with), true
		case orig[0] == '#':
			if strings.HasPrefix(v, orig[1:]) {
				return with + v[len(orig)-1:], true
			}
			return v, true
		case orig[0] == '%':
			if strings.HasSuffix(v, orig[1:]) {
				return v[:len(v)-len(orig)+1] + with, true
			}
			return v, true
		}
		return strings.Replace(v, orig, with, 1), true
	}
	return "", false
}

// literalPattern returns the text of a word of plain literals and single
// quotes with nothing a pattern would read specially; a nil word is "".
func literalPattern(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, `\*?[]()!+@|`) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// literalInt is a non-negative decimal arithmetic operand written as one
// literal.
func literalInt(x syntax.ArithmExpr) (int, bool) {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return 0, false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || l.Value == "" || l.Value[0] == '0' && len(l.Value) > 1 {
		return 0, false
	}
	n, err := strconv.Atoi(l.Value)
	if err != nil || n < 0 || n > MaxPathBytes {
		return 0, false
	}
	return n, true
}

func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// changeCase applies ^^ ,, ^ or , to ASCII text.
func changeCase(v string, op syntax.ParExpOperator) string {
	switch op {
	case syntax.UpperAll:
		return strings.ToUpper(v)
	case syntax.LowerAll:
		return strings.ToLower(v)
	}
	if v == "" {
		return v
	}
	if op == syntax.UpperFirst {
		return strings.ToUpper(v[:1]) + v[1:]
	}
	return strings.ToLower(v[:1]) + v[1:]
}
