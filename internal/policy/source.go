package policy

import (
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// source prints a node as shell text.
func (e *eval) source(n syntax.Node) string {
	s, ok := "", false
	if w, isWord := n.(*syntax.Word); isWord {
		s, ok = flatSource(w)
	}
	if !ok {
		var b strings.Builder
		pr := e.printer
		if pr == nil { // an evaluation made only to resolve words (plainLit)
			pr = syntax.NewPrinter()
		}
		if err := pr.Print(&b, n); err != nil {
			return "?"
		}
		s = b.String()
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "?")
	}
	return s
}

// flatSource is what the printer makes of a word on one line made of
// literals, quoted strings and plain parameters ("$f", ${x}, 'a b'),
// most of the words whose value is unknown, without the printer's
// set-up and tab writer; ok is false for any other word. Text that
// printer or tab writer would change (a tab, a control character, the
// tab writer's escape byte, a trailing backslash) is left to them too.
func flatSource(w *syntax.Word) (s string, ok bool) {
	if len(w.Parts) == 0 || w.Pos().Line() != w.End().Line() {
		return "", false
	}
	n := 0
	for _, p := range w.Parts {
		if n, ok = flatLen(p, n); !ok {
			return "", false
		}
	}
	b := make([]byte, 0, n)
	for _, p := range w.Parts {
		b = appendFlat(b, p)
	}
	return string(b), true
}

// flatLen adds to n the length of the text of one part of a flat word,
// and reports whether flatSource can print it.
func flatLen(p syntax.WordPart, n int) (int, bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		return n + len(p.Value), plainText(p.Value)
	case *syntax.SglQuoted:
		return n + len(p.Value) + 3, plainText(p.Value)
	case *syntax.ParamExp:
		if !flatParam(p) || p.IsSet || p.Split != syntax.OptUnset || p.GlobSubst != syntax.OptUnset ||
			p.RcExpand != syntax.OptUnset || !plainText(p.Param.Value) {
			return n, false
		}
		return n + len(p.Param.Value) + 3, true
	case *syntax.DblQuoted:
		n += 3
		for _, q := range p.Parts {
			switch q.(type) {
			case *syntax.Lit, *syntax.ParamExp:
			default:
				return n, false
			}
			var ok bool
			if n, ok = flatLen(q, n); !ok {
				return n, false
			}
		}
		return n, true
	}
	return n, false
}

// appendFlat appends the text of one part flatLen accepted, as the
// printer writes it.
func appendFlat(b []byte, p syntax.WordPart) []byte {
	switch p := p.(type) {
	case *syntax.Lit:
		b = append(b, p.Value...)
	case *syntax.SglQuoted:
		if p.Dollar {
			b = append(b, '$')
		}
		b = append(b, '\'')
		b = append(b, p.Value...)
		b = append(b, '\'')
	case *syntax.ParamExp:
		b = append(b, '$')
		if !p.Short {
			b = append(b, '{')
		}
		b = append(b, p.Param.Value...)
		if !p.Short {
			b = append(b, '}')
		}
	case *syntax.DblQuoted:
		if p.Dollar {
			b = append(b, '$')
		}
		b = append(b, '"')
		for _, q := range p.Parts {
			b = appendFlat(b, q)
		}
		b = append(b, '"')
	}
	return b
}

// plainText reports whether the printer and its tab writer copy s as it
// is: no control character, no tab writer escape byte (0xff), and no
// trailing backslash, which the printer doubles when it is odd.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c == 0xff {
			return false
		}
	}
	return !strings.HasSuffix(s, `\`)
}
