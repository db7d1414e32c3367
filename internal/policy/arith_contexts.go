package policy

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// arithExpr checks every operand of an arithmetic expression.
func (e *eval) arithExpr(x syntax.ArithmExpr, ctx cctx, sc *scope, what string) {
	stack := []syntax.ArithmExpr{x}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n := n.(type) {
		case *syntax.BinaryArithm:
			if n.Op == syntax.Assgn && plainName(n.X) {
				// x = … assigns without reading x, but sets it as any
				// assignment does: (( PATH = 1 )) makes ls run ./1/ls.
				e.boundName(arg{val: n.X.(*syntax.Word).Lit(), known: true}, ctx, what)
				stack = append(stack, n.Y)
				continue
			}
			stack = append(stack, n.Y, n.X)
		case *syntax.UnaryArithm:
			stack = append(stack, n.X)
		case *syntax.ParenArithm:
			stack = append(stack, n.X)
		case *syntax.Word:
			if !e.arithWordSafe(n, ctx, sc) {
				e.note(arithTier, ctx.covered, "%s: %s", what, arithWhy)
				return
			}
		}
	}
}

// plainName reports whether an arithmetic operand is a bare variable name.
func plainName(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && validName(l.Value)
}

// arithContext checks the arithmetic in a compound command: (( )), let,
// for (( ; ; )) and the integer comparisons and -v of [[ ]].
func (e *eval) arithContext(c syntax.Command, ctx cctx, sc *scope) {
	switch c := c.(type) {
	case *syntax.ArithmCmd:
		e.arithExpr(c.X, ctx, sc, "(( ))")
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			e.arithExpr(x, ctx, sc, "let")
		}
	case *syntax.ForClause:
		e.loopArith(c, ctx, sc)
		if l, ok := c.Loop.(*syntax.CStyleLoop); ok {
			for _, x := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
				if x != nil {
					e.arithExpr(x, ctx, sc, "for (( ))")
				}
			}
		}
	case *syntax.TestClause:
		e.testArith(c.X, ctx, sc)
	}
}

// testArith checks [[ ]]: the operands of -eq, -ne, -lt, -le, -gt and -ge
// are evaluated as arithmetic, and -v and -R evaluate a subscript.
func (e *eval) testArith(x syntax.TestExpr, ctx cctx, sc *scope) {
	stack := []syntax.TestExpr{x}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n := n.(type) {
		case *syntax.BinaryTest:
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				for _, o := range []syntax.TestExpr{n.X, n.Y} {
					if w, ok := o.(*syntax.Word); ok && !e.arithWordSafe(w, ctx, sc) {
						e.note(arithTier, ctx.covered, "[[ %s ]]: %s", n.Op, arithWhy)
						return
					}
				}
			case syntax.AndTest, syntax.OrTest:
				stack = append(stack, n.Y, n.X)
			}
		case *syntax.UnaryTest:
			if n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar {
				if w, ok := n.X.(*syntax.Word); ok {
					r := resolver{e: e, ctx: ctx, sc: sc}
					e.nameArg(r.lit(w), ctx, "[[ "+n.Op.String()+" ]]")
				}
				continue
			}
			stack = append(stack, n.X)
		case *syntax.ParenTest:
			stack = append(stack, n.X)
		}
	}
}

// nameArg checks a word a builtin takes as a variable name (read x,
// printf -v x, [[ -v x ]], unset x): a name computed at run time can be
// a[$(cmd)], whose subscript is evaluated.
func (e *eval) nameArg(a arg, ctx cctx, what string) {
	if !a.known {
		e.note(arithTier, ctx.covered, "%s: a variable name computed at run time can carry an array subscript that runs commands", what)
		return
	}
	name, sub, ok := strings.Cut(a.val, "[")
	if !ok {
		return
	}
	if !validName(name) || !strings.HasSuffix(sub, "]") || !e.arithTextSafe(strings.TrimSuffix(sub, "]"), ctx.sc) {
		if e.assocName(ctx.sc, name) && !strings.ContainsAny(sub, "$`") {
			return
		}
		e.note(arithTier, ctx.covered, "%s: the subscript of %q is evaluated as arithmetic", what, truncate(a.val, 64))
	}
}

// paramArith checks the arithmetic of a parameter expansion: an indexed
// array's subscript, ${s:offset:length}, and ${!x} indirection.
func (e *eval) paramArith(p *syntax.ParamExp, ctx cctx, sc *scope) {
	if p.Param == nil {
		return
	}
	if p.Index != nil && !e.assocName(sc, p.Param.Value) {
		if w, ok := p.Index.(*syntax.Word); !ok || !(len(w.Parts) == 1 && isAllIndex(w.Parts[0])) {
			e.arithExpr(p.Index, ctx, sc, "array subscript")
		}
	}
	if p.Slice != nil {
		if p.Slice.Offset != nil {
			e.arithExpr(p.Slice.Offset, ctx, sc, "${…:offset}")
		}
		if p.Slice.Length != nil {
			e.arithExpr(p.Slice.Length, ctx, sc, "${…:offset:length}")
		}
	}
	if p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) && p.Index == nil {
		w := p.Exp.Word
		if w == nil {
			w = &syntax.Word{}
		}
		e.assignedWord(p.Param.Value, w, ctx, sc, "${"+p.Param.Value+":=…}")
		e.boundName(arg{val: p.Param.Value, known: true}, ctx, "${"+p.Param.Value+":=…}")
	}
	if p.Exp != nil && p.Exp.Op == syntax.OtherParamOps && p.Exp.Word != nil && p.Exp.Word.Lit() == "P" {
		e.promptExpansion(p.Param.Value, ctx, sc)
	}
	// ${!x} and ${!a[i]} expand the variable x or a[i] names; ${!a[@]}
	// lists a's keys instead.
	allKeys := false
	if w, ok := p.Index.(*syntax.Word); ok && len(w.Parts) == 1 && isAllIndex(w.Parts[0]) {
		allKeys = true
	}
	if p.Excl && p.Names == 0 && !allKeys && (p.Index != nil || !e.identName(sc, p.Param.Value)) {
		e.note(arithTier, ctx.covered, "${!%s}: indirect expansion of a value not known at parse time can run commands (array subscripts in it expand $(…))", p.Param.Value)
	}
}

// promptExpansion checks ${x@P}, which expands the value of x as a prompt
// string: the command substitutions in it run. The literal values the
// script gives x are classified as the code they are; any other value is
// unknown code, unless x provably holds an integer.
func (e *eval) promptExpansion(name string, ctx cctx, sc *scope) {
	if e.intName(sc, name) {
		return
	}
	e.note(arithTier, ctx.covered, "${%s@P}: prompt expansion runs the command substitutions in a value not known at parse time", name)
	if sc == nil {
		return
	}
	for _, v := range sc.values(name) {
		if strings.ContainsAny(v, "$`") {
			c := ctx
			c.nest++
			e.script(v, c, "prompt expansion")
		}
	}
}

func isAllIndex(p syntax.WordPart) bool {
	l, ok := p.(*syntax.Lit)
	return ok && (l.Value == "@" || l.Value == "*")
}

// assignArith checks the arithmetic of an assignment: an array subscript,
// and the value of a variable declared -i (or of one declared so anywhere
// in the script), which is evaluated.
func (e *eval) assignArith(a *syntax.Assign, intAttr bool, ctx cctx, sc *scope) {
	if a.Name == nil {
		return
	}
	assoc := e.assocName(sc, a.Name.Value)
	if a.Index != nil && !assoc {
		e.arithExpr(a.Index, ctx, sc, "array subscript")
	}
	if a.Array != nil {
		for _, el := range a.Array.Elems {
			if el.Index != nil && !assoc {
				e.arithExpr(el.Index, ctx, sc, "array subscript")
			}
		}
	}
	if intAttr && a.Value != nil && !e.arithWordSafe(a.Value, ctx, sc) {
		e.note(arithTier, ctx.covered, "assignment to integer variable %s: %s", a.Name.Value, arithWhy)
	}
	if a.Value != nil {
		e.assignedWord(a.Name.Value, a.Value, ctx, sc, "assignment")
	}
	if a.Array != nil {
		for _, el := range a.Array.Elems {
			if el.Value != nil {
				e.assignedWord(a.Name.Value, el.Value, ctx, sc, "array assignment")
			}
		}
	}
}

// assignedWord checks a word assigned to name wherever bash evaluates the
// value it is given (see scope.assignEvals): an assignment, a for loop's
// items, ${name:=word}.
func (e *eval) assignedWord(name string, w *syntax.Word, ctx cctx, sc *scope, what string) {
	arith, ref := sc.assignEvals(name)
	arith = arith || zshIntSpecial(ctx, name)
	if arith && !e.intWord(w, ctx, sc) {
		e.note(arithTier, ctx.covered, "%s to integer variable %s: %s", what, name, arithWhy)
	}
	if ref {
		r := resolver{e: e, ctx: ctx, sc: sc}
		v := r.lit(w)
		e.nameArg(v, ctx, what+" to nameref "+name)
		e.boundName(v, ctx, what+" to nameref "+name)
	}
}

// assignedText checks a value a builtin assigns to name at run time (read,
// mapfile, printf -v): known text, or unknown.
func (e *eval) assignedText(name string, v arg, ctx cctx, what string) {
	name, _, _ = strings.Cut(name, "[")
	arith, ref := ctx.sc.assignEvals(name)
	arith = arith || zshIntSpecial(ctx, name)
	if arith && !(v.known && e.arithTextSafe(v.val, ctx.sc)) {
		e.note(arithTier, ctx.covered, "%s into integer variable %s: %s", what, name, arithWhy)
	}
	if ref {
		if v.known {
			v.val = strings.TrimSpace(v.val)
		}
		e.nameArg(v, ctx, what+" into nameref "+name)
	}
}

// intWord reports whether a word can only compute when evaluated as
// arithmetic: arithWordSafe, or a brace expansion of integers ({1..5}).
func (e *eval) intWord(w *syntax.Word, ctx cctx, sc *scope) bool {
	return e.arithWordSafe(w, ctx, sc) || braceInts(w)
}

// loopArith checks the items of a for or select loop whose variable bash
// evaluates on assignment: as arithmetic for an integer variable, as a
// variable name for any nameref (each item becomes what it names). A
// select loop's variable is set from what the user types.
func (e *eval) loopArith(c *syntax.ForClause, ctx cctx, sc *scope) {
	l, ok := c.Loop.(*syntax.WordIter)
	if !ok || l.Name == nil || sc == nil {
		return
	}
	name := l.Name.Value
	arith, _ := sc.assignEvals(name)
	arith = arith || zshIntSpecial(ctx, name)
	_, ref := sc.nameref[name]
	if !arith && !ref {
		return
	}
	what := "for loop"
	if c.Select || len(l.Items) == 0 && !l.InPos.IsValid() {
		what = "loop over run-time values"
		if arith {
			e.note(arithTier, ctx.covered, "%s into integer variable %s: %s", what, name, arithWhy)
		}
		if ref {
			e.nameArg(arg{val: "$" + name}, ctx, what+" into nameref "+name)
		}
		return
	}
	r := resolver{e: e, ctx: ctx, sc: sc}
	for _, w := range l.Items {
		if arith && !e.intWord(w, ctx, sc) {
			e.note(arithTier, ctx.covered, "%s into integer variable %s: %s", what, name, arithWhy)
		}
		if ref {
			for _, f := range r.appendFields(nil, w) {
				e.nameArg(f, ctx, what+" into nameref "+name)
			}
		}
	}
}

// braceInts reports whether w is one literal whose brace expansion gives
// only integers: {1..5}, 1{0,5}, {10..1..2}.
func braceInts(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.Trim(l.Value, "0123456789{}.,-+") != "" || !strings.Contains(l.Value, "{") {
		return false
	}
	cp := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: l.Value}}}
	if !syntax.SplitBraces(cp) || braceGroups(cp.Parts, 0) > maxBraceGroups {
		return false
	}
	n := 0
	for bw, err := range expand.BracesSeq(nil, cp) {
		n++
		v, ok := plainLit(bw)
		if err != nil || n > maxBraceFields || !ok || !isIntLit(v) {
			return false
		}
	}
	return true
}

// trustedOutput are the programs whose output the classifier computes
// (echo, printf) or takes to be a number (numericProg).
var trustedOutput = set(`echo printf nproc seq wc id date grep egrep fgrep pgrep`)

// declArith checks declare, typeset, local, export and readonly: values of
// -i variables are evaluated, a -n nameref can name a[$(cmd)], and a
// variable name computed at run time can carry a subscript.
func (e *eval) declArith(d *syntax.DeclClause, ctx cctx, sc *scope) {
	flags := ""
	for _, a := range d.Args {
		if a.Naked && a.Name != nil && a.Index != nil {
			// declare a[$(cmd)]: the word is expanded, so cmd runs,
			// though bash then refuses the name.
			e.subst(a.Index, ctx, sc)
		}
		if a.Naked && a.Name == nil && a.Value != nil {
			r := resolver{e: e, ctx: ctx, sc: sc}
			v := r.lit(a.Value)
			switch {
			case v.known && len(v.val) > 1 && (v.val[0] == '-' || v.val[0] == '+'):
				flags += v.val[1:]
			default:
				e.nameArg(v, ctx, d.Variant.Value)
			}
		}
	}
	intAttr := strings.ContainsAny(flags, "iFE") // zsh's -F and -E: floats, evaluated as -i's integers are
	nameref := strings.ContainsRune(flags, 'n') && d.Variant.Value != "export"
	exportsFunc := strings.ContainsRune(flags, 'f') && (d.Variant.Value == "export" || strings.ContainsRune(flags, 'x'))
	for _, a := range d.Args {
		if exportsFunc && a.Naked && a.Name != nil && trustedOutput[a.Name.Value] {
			e.note(TierDestructive, ctx.covered, "%s -f %s: a function exported under the name of a program whose output is trusted (echo x | sh) runs instead of it in every child bash", d.Variant.Value, a.Name.Value)
		}
		if exportsFunc && a.Naked && a.Name != nil && declBuiltins[a.Name.Value] {
			e.note(TierDestructive, ctx.covered, "%s -f %s: a function exported under the name of a declaration builtin runs instead of it in every child bash, whose declarations then assign nothing", d.Variant.Value, a.Name.Value)
		}
		if a.Name == nil || a.Naked {
			continue
		}
		e.assignArith(a, intAttr, ctx, sc)
		if nameref && a.Value != nil {
			r := resolver{e: e, ctx: ctx, sc: sc}
			v := r.lit(a.Value)
			e.nameArg(v, ctx, d.Variant.Value+" -n")
			e.boundName(v, ctx, d.Variant.Value+" -n")
		}
	}
}

// arithStrings runs arithString over the literal text of a word.
func (e *eval) arithStrings(w *syntax.Word, ctx cctx) {
	for _, p := range w.Parts {
		if q, ok := p.(*syntax.DblQuoted); ok {
			for _, x := range q.Parts {
				e.arithString(x, ctx)
			}
			continue
		}
		e.arithString(p, ctx)
	}
}

// arithString notes a literal string shaped like a[$(cmd)], which runs cmd
// wherever bash evaluates it as arithmetic, and classifies cmd.
func (e *eval) arithString(p syntax.WordPart, ctx cctx) {
	var s string
	switch p := p.(type) {
	case *syntax.Lit:
		s = p.Value
	case *syntax.SglQuoted:
		s = p.Value
		if p.Dollar {
			s = ansiC(s)
		}
	default:
		return
	}
	if !arithInjection(s) {
		return
	}
	e.note(TierDestructive, false, "array subscript with command substitution in a string can run code when evaluated arithmetically")
	ctx.nest++
	e.script(strings.ReplaceAll(s, `\`, ""), ctx, "array subscript")
}
