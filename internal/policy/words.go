package policy

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// arg is one field of a command line as far as it can be known statically.
type arg struct {
	val   string // the value after quote removal when known, else the source text
	known bool   // val is exactly what the program will receive
	glob  bool   // unquoted glob characters may expand it into other names
}

// unknownArg stands for an argument supplied at run time (xargs input,
// find's {}).
var unknownArg = arg{val: "{}"}

// resolver turns words into fields.
type resolver struct {
	e    *eval
	ctx  cctx
	sc   *scope
	bind map[string]string // trial values for variables
	// globs are the variables of bind whose values are patterns the shell
	// expanded: a for loop's glob items (loops_exact.go).
	globs map[string]bool
	// arrays are trial element lists for words that expand an array
	// whole (values_arrays.go).
	arrays map[string][]string
}

const (
	maxBraceFields = 64 // fields one word may brace-expand into
	maxBraceGroups = 8  // brace groups in one word
)

func (r *resolver) fieldsAll(ws []*syntax.Word) []arg {
	if len(ws) == 0 {
		return nil
	}
	return r.appendAll(make([]arg, 0, len(ws)), ws)
}

// appendAll appends the fields of the words ws to out.
func (r *resolver) appendAll(out []arg, ws []*syntax.Word) []arg {
	for _, w := range ws {
		out = r.appendFields(out, w)
	}
	return out
}

// appendFields expands one word into the fields the program would receive
// and appends them to out.
func (r *resolver) appendFields(out []arg, w *syntax.Word) []arg {
	if fs, ok := r.elementFields(w); ok {
		return append(out, fs...)
	}
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.ParamExp:
			if fs, ok := r.positionalAll(p, true); ok {
				return append(out, fs...)
			}
			if fs, ok := r.splitBound(p); ok {
				return append(out, fs...)
			}
		case *syntax.DblQuoted:
			if len(p.Parts) == 1 {
				if pe, ok := p.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == "@" {
					if fs, ok := r.positionalAll(pe, false); ok {
						return append(out, fs...)
					}
				}
			}
		case *syntax.CmdSubst:
			// Unquoted $(echo a b) splits into fields.
			s, ok := r.e.echoOutput(cmdSubstArgs(p), r.ctx, r.sc)
			if !ok {
				s, ok = r.e.substOutput(p, r.ctx, r.sc)
			}
			if ok {
				for _, f := range strings.Fields(s) {
					out = append(out, arg{val: f, known: true, glob: globChar(f)})
				}
				return out
			}
		}
	}
	if hasBrace(w) {
		cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), w.Parts...)}
		if syntax.SplitBraces(cp) {
			// Expansion cost grows with the number of brace groups;
			// past a few the word is unknowable, not worth the memory.
			if braceGroups(cp.Parts, 0) > maxBraceGroups {
				return append(out, arg{val: truncate(r.e.source(w), 256)})
			}
			return append(out, r.braceFields(w, cp)...)
		}
	}
	return append(out, r.lit(w))
}

// braceFields expands the braces of w, split into cp. It is apart from
// appendFields because the loop body is a closure: whatever it touches
// moves to the heap, on every call of the function holding it.
func (r *resolver) braceFields(w, cp *syntax.Word) []arg {
	res := *r // the closure keeps this copy, not the caller's resolver
	var out []arg
	for bw, err := range expand.BracesSeq(nil, cp) {
		if err != nil || len(out) >= maxBraceFields {
			return []arg{{val: res.e.source(w)}}
		}
		a := res.lit(bw)
		if a.known && a.val == "" && !quotedPart(bw.Parts) {
			continue // bash drops an unquoted empty field: {awk,} is one word, awk
		}
		out = append(out, a)
	}
	return out
}

// quotedPart reports whether parts hold a quoted string, which keeps an
// empty field ({a,""} is two fields, the second empty).
func quotedPart(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}

// braceGroups counts brace expansions in parts, stopping past the cap.
// (syntax.Walk does not visit BraceExp nodes.)
func braceGroups(parts []syntax.WordPart, n int) int {
	for _, p := range parts {
		if b, ok := p.(*syntax.BraceExp); ok {
			n++
			for _, w := range b.Elems {
				if n > maxBraceGroups {
					return n
				}
				n = braceGroups(w.Parts, n)
			}
		}
	}
	return n
}

func hasBrace(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.Contains(l.Value, "{") {
			return true
		}
	}
	return false
}

// positionalAll expands $@ and $* from known positional parameters; unquoted
// (glob), the shell then expands glob characters in each.
func (r *resolver) positionalAll(p *syntax.ParamExp, glob bool) ([]arg, bool) {
	if !knownPos(r.ctx, r.sc) || !simpleParam(p) || (p.Param.Value != "@" && p.Param.Value != "*") {
		return nil, false
	}
	var out []arg
	if len(r.ctx.pos) > 1 {
		for _, v := range r.ctx.pos[1:] {
			out = append(out, arg{val: v, known: true, glob: glob && globChar(v)})
		}
	}
	return out, true
}

// splitBound expands an unquoted $x whose trial value, or a known
// positional parameter, has blanks into the fields the shell splits it
// into (A="-rf /"; rm $A is rm -rf /),
// each a pattern where it has glob characters. A script that sets IFS
// once splits at its characters; one that sets it more often, at ones
// not known: then the word is not known.
func (r *resolver) splitBound(p *syntax.ParamExp) ([]arg, bool) {
	if !simpleParam(p) {
		return nil, false
	}
	v, ok := r.bind[p.Param.Value]
	if ok {
		v, ok = r.refValue(p.Param.Value, v)
	} else if n, err := strconv.Atoi(p.Param.Value); err == nil && n > 0 && n < 10 && knownPos(r.ctx, r.sc) {
		// sh -c 'rm $1' _ "-rf /": a known positional parameter.
		v, ok = "", true
		if n < len(r.ctx.pos) {
			v = r.ctx.pos[n]
		}
	}
	if !ok {
		return nil, false
	}
	ifs := " \t\n"
	if r.sc != nil {
		switch vs := r.sc.values("IFS"); len(vs) {
		case 0:
		case 1:
			ifs = vs[0] // IFS=,; x="-rf,/"; rm $x
		default:
			return []arg{{val: "$" + p.Param.Value}}, true
		}
	}
	if !strings.ContainsAny(v, ifs) {
		return nil, false
	}
	fields := readSplit(v, ifs, 0)
	var out []arg
	for _, f := range fields {
		out = append(out, arg{val: f, known: true, glob: globChar(f)})
	}
	return out, true
}

// simpleParam reports whether p is a plain $x or ${x} with no operators.
func simpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length && !p.Width && p.Index == nil &&
		p.Slice == nil && p.Repl == nil && p.Exp == nil && p.NestedParam == nil && p.Names == 0 && len(p.Modifiers) == 0
}

// lit resolves a word to one field.
func (r *resolver) lit(w *syntax.Word) arg {
	// Most words are one plain literal or quoted string: skip the builder.
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			if strings.IndexByte(p.Value, '\\') < 0 {
				return arg{val: p.Value, known: true, glob: globChar(p.Value)}
			}
		case *syntax.SglQuoted:
			if !p.Dollar {
				return arg{val: p.Value, known: true}
			}
		}
	}
	var b strings.Builder
	a := arg{known: true}
	for _, p := range w.Parts {
		if !r.part(&b, p, false, &a) {
			return arg{val: r.e.source(w), glob: a.glob}
		}
	}
	a.val = b.String()
	return a
}

// part appends the value of one word part and reports whether it is known.
func (r *resolver) part(b *strings.Builder, p syntax.WordPart, quoted bool, a *arg) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		v := p.Value
		if quoted {
			b.WriteString(unescapeDouble(v))
			return true
		}
		for i := 0; i < len(v); i++ {
			c := v[i]
			switch {
			case c == '\\' && i+1 < len(v):
				i++
				if v[i] != '\n' {
					b.WriteByte(v[i])
				}
			case c == '*' || c == '?' || c == '[':
				a.glob = true
				b.WriteByte(c)
			default:
				b.WriteByte(c)
			}
		}
		return true
	case *syntax.SglQuoted:
		if p.Dollar {
			b.WriteString(ansiC(p.Value))
		} else {
			b.WriteString(p.Value)
		}
		return true
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			if !r.part(b, q, true, a) {
				return false
			}
		}
		return true
	case *syntax.ParamExp:
		if !simpleParam(p) {
			v, ok := r.opParam(p)
			if !ok {
				v, ok = r.elementOrIndirect(p)
			}
			if !ok {
				v, ok = r.expandParam(p)
			}
			if ok {
				expanded(b, v, quoted, a)
				a.glob = a.glob || p.Param != nil && r.globs[p.Param.Value] && globChar(v)
			}
			return ok
		}
		name := p.Param.Value
		if v, ok := r.bind[name]; ok {
			if v, ok = r.refValue(name, v); !ok {
				return false
			}
			expanded(b, v, quoted, a)
			a.glob = a.glob || r.globs[name] && globChar(v)
			return true
		}
		if knownPos(r.ctx, r.sc) {
			if n, err := strconv.Atoi(name); err == nil && n >= 0 && n < 10 {
				if n < len(r.ctx.pos) {
					expanded(b, r.ctx.pos[n], quoted, a)
				}
				return true
			}
		}
		return false
	case *syntax.CmdSubst:
		if r.e == nil || r.e.substCalls >= maxSubstCalls {
			return false // see substCall
		}
		if pat, ok := compgenPattern(cmdSubstArgs(p)); ok {
			// The names the pattern matches, quoted or not.
			b.WriteString(pat)
			a.glob = true
			return true
		}
		out, ok := r.e.echoOutput(cmdSubstArgs(p), r.ctx, r.sc)
		if !ok {
			out, ok = catOutput(p)
		}
		if !ok {
			out, ok = readFileSubst(p, r.sc) // echo /var/lib > /tmp/l; … $(< /tmp/l)
		}
		if !ok {
			out, ok = r.e.substOutput(p, r.ctx, r.sc) // $(base64 -d <<< …)
		}
		if ok {
			expanded(b, out, quoted, a)
		}
		return ok
	case *syntax.ExtGlob:
		a.glob = true
		return false
	}
	return false
}

// expanded appends the value of an expansion. Unquoted, the shell then
// expands glob characters in it into file names: f='/etc/*'; cat $f.
func expanded(b *strings.Builder, v string, quoted bool, a *arg) {
	if !quoted && globChar(v) {
		a.glob = true
	}
	b.WriteString(v)
}

// globChar is strings.ContainsAny(s, "*?["), which for the short words of
// a command line takes a rune search of the set per byte: none of the
// three is part of a multi-byte character, so bytes can be compared.
func globChar(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '*' || c == '?' || c == '[' {
			return true
		}
	}
	return false
}

// unescapeDouble removes the backslashes a double-quoted string removes.
func unescapeDouble(v string) string {
	if !strings.Contains(v, "\\") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			switch v[i+1] {
			case '$', '`', '"', '\\':
				i++
				b.WriteByte(v[i])
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// ansiC decodes the escapes of a $'…' string (and echo -e): $'\x72eboot' is reboot.
func ansiC(v string) string {
	if !strings.Contains(v, "\\") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 >= len(v) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := v[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			j := i + 1
			for j < len(v) && j-i-1 < max && isHex(v[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			n, _ := strconv.ParseUint(v[i+1:j], 16, 32)
			if e == 'x' {
				b.WriteByte(byte(n))
			} else {
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(v) && j-i < 3 && v[j] >= '0' && v[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(v[i:j], 8, 32)
			b.WriteByte(byte(n))
			i = j - 1
		case 'c':
			if i+1 < len(v) {
				i++
				b.WriteByte(v[i] & 0x1f)
			}
		default:
			if e != '\\' && e != '\'' && e != '"' && e != '?' {
				b.WriteByte('\\')
			}
			b.WriteByte(e)
		}
	}
	return b.String()
}

// subst classifies every command substitution and process substitution
// inside a node: $(…), `…`, <(…), >(…), also inside ${x:-…}, $((…)) and
// [[ … ]].
func (e *eval) subst(n syntax.Node, ctx cctx, sc *scope) {
	if n == nil {
		return
	}
	if w, ok := n.(*syntax.Word); ok {
		if flat, injection := flatScan(w); flat {
			// What the walk below would find, without one.
			if injection {
				e.arithStrings(w, ctx)
			}
			return
		}
	}
	walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			c := ctx
			c.depth++
			c.stdin = ctx.stdin
			e.stmts(n.Stmts, c, sc)
			return false
		case *syntax.ProcSubst:
			c := ctx
			c.depth++
			c.stdin = stdinSrc{kind: stdinUnknown}
			e.loops++ // it runs beside the command that reads it
			e.stmts(n.Stmts, c, sc)
			e.loops--
			return false
		case *syntax.Lit:
			e.arithString(n, ctx)
		case *syntax.SglQuoted:
			e.arithString(n, ctx)
		case *syntax.ExtGlob:
			e.extGlob(n, ctx, sc)
			return false
		case *syntax.DblQuoted:
			e.quotedDefaults(n.Parts, ctx, sc)
		case *syntax.ArithmExp:
			e.arithExpr(n.X, ctx, sc, "$(( ))")
		case *syntax.ParamExp:
			e.paramArith(n, ctx, sc)
		}
		return true
	})
}

// extGlob classifies the substitutions in an extended glob pattern: bash
// expands @($(cmd)|x), !(`cmd`) and the like before matching, but the
// parser keeps the pattern as literal text. The text is parsed as a
// here-document body, where $(…), `…` and ${…} expand and quotes and
// | ( ) are plain characters.
func (e *eval) extGlob(g *syntax.ExtGlob, ctx cctx, sc *scope) {
	if g.Pattern != nil && strings.ContainsAny(g.Pattern.Value, "$`") {
		e.documentText(g.Pattern.Value, ctx, sc, "extended glob pattern")
	}
}

// quotedDefaults classifies the substitutions bash finds in single quotes
// inside a double-quoted ${x:-…}, ${x:+…}, ${x:=…} or ${x:?…}: there
// the quotes are plain characters, so "${x:-'$(cmd)'}" runs cmd, but the
// parser reads them as quoting.
func (e *eval) quotedDefaults(parts []syntax.WordPart, ctx cctx, sc *scope) {
	for _, p := range parts {
		pe, ok := p.(*syntax.ParamExp)
		if !ok || pe.Exp == nil || pe.Exp.Word == nil {
			continue
		}
		switch pe.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
			syntax.AssignUnset, syntax.AssignUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		default:
			continue
		}
		for _, q := range pe.Exp.Word.Parts {
			if sq, ok := q.(*syntax.SglQuoted); ok && strings.ContainsAny(sq.Value, "$`") {
				e.documentText(sq.Value, ctx, sc, "single quotes inside a double-quoted ${…}")
			}
		}
		e.quotedDefaults(pe.Exp.Word.Parts, ctx, sc)
	}
}

// documentText classifies the substitutions in text that bash expands
// as it would a here-document body: $(…), `…` and ${…} expand, quotes
// are plain characters.
func (e *eval) documentText(text string, ctx cctx, sc *scope, what string) {
	if ctx.depth++; ctx.depth > maxDepth {
		e.opaque = true
		e.note(TierDestructive, false, "%s nested too deeply to classify", what)
		return
	}
	w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(text))
	if err != nil {
		e.opaque = true
		e.note(TierDestructive, false, "%s %q does not parse: %s", what, truncate(text, 64), truncate(err.Error(), 120))
		return
	}
	e.subst(w, ctx, sc)
}

// plainWord reports whether w holds only literal and single-quoted parts,
// so it can contain no substitution.
func plainWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		default:
			return false
		}
	}
	return true
}

// flatWord reports whether w holds only literals, quoted strings and plain
// parameters ($x, ${x}), so no substitution; most words do.
func flatWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.ParamExp:
			if !flatParam(p) {
				return false
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
				case *syntax.ParamExp:
					if !flatParam(q) {
						return false
					}
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func flatParam(p *syntax.ParamExp) bool { return p.Flags == nil && simpleParam(p) }

// flatScan reports, in one pass over w's parts, flatWord(w) and, for a
// flat word, whether arithInjection holds for any text a walk of it
// visits: its literals, quoted strings and parameter names.
func flatScan(w *syntax.Word) (flat, injection bool) {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			injection = injection || arithInjection(p.Value)
		case *syntax.SglQuoted:
			injection = injection || arithInjection(p.Value) || p.Dollar && arithInjection(ansiC(p.Value))
		case *syntax.ParamExp:
			if !flatParam(p) {
				return false, false
			}
			injection = injection || arithInjection(p.Param.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					injection = injection || arithInjection(q.Value)
				case *syntax.ParamExp:
					if !flatParam(q) {
						return false, false
					}
					injection = injection || arithInjection(q.Param.Value)
				default:
					return false, false
				}
			}
		default:
			return false, false
		}
	}
	return true, injection
}

// arithInjection reports whether s looks like a[$(cmd)], which bash runs
// when the string is evaluated arithmetically ((( x )), [[ x -eq 1 ]]).
func arithInjection(s string) bool {
	if strings.IndexByte(s, '[') < 0 {
		return false
	}
	s = strings.ReplaceAll(s, `\`, "")
	i := strings.IndexByte(s, '[')
	for i >= 0 {
		rest := strings.TrimLeft(s[i+1:], " \t")
		if strings.HasPrefix(rest, "$(") || strings.HasPrefix(rest, "`") {
			return true
		}
		j := strings.IndexByte(s[i+1:], '[')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// usesLastWord reports whether words use $_, the last word of the command
// before.
func usesLastWord(ws []*syntax.Word) bool {
	return slices.ContainsFunc(ws, func(w *syntax.Word) bool {
		return !plainWord(w) && usesDirectly(w.Parts, func(n string) bool { return n == "_" })
	})
}

// usesDirectly reports whether parts, or the parts of their double
// quotes, expand a variable named says — not one inside $(…), an index or
// an operator's word.
func usesDirectly(parts []syntax.WordPart, named func(string) bool) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.ParamExp:
			if p.Param != nil && named(p.Param.Value) {
				return true
			}
		case *syntax.DblQuoted:
			if usesDirectly(p.Parts, named) {
				return true
			}
		}
	}
	return false
}

// wordOf parses the source text of one word with the evaluation's
// parser, or returns nil.
func (e *eval) wordOf(src string) *syntax.Word {
	if len(src) > 4096 {
		return nil
	}
	f, err := e.parser(false).Parse(strings.NewReader(": "+src), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 2 {
		return nil
	}
	return ce.Args[1]
}
