package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The facts a pre-pass over one script learns about the values its
// variables can hold, which decide whether a name reaching arithmetic
// provably holds an integer (see arith.go).

// nameFacts is what a script does with one variable name.
type nameFacts struct {
	topInt   int  // offset of its first top-level integer assignment, or -1
	topIdent int  // offset of its first top-level assignment of a plain name, or -1
	topOp    int  // offset of its first top-level assignment of a safe operand, or -1
	first    int  // offset of its first other occurrence, or -1
	nonInt   bool // some assignment may give it a value that is not an integer
	nonIdent bool // some assignment may give it a value that is not a plain name
	nonOp    bool // some assignment may give it a value that is not a safe operand (opValue)
	// topAssoc is the offset of its first top-level declare -A, or -1;
	// nonAssoc is set when something may leave it not associative
	// where it is used (see assocName).
	topAssoc int
	nonAssoc bool
}

// arithFacts is what a pre-pass over one script learned about the values
// its variables can hold.
type arithFacts struct {
	tainted bool // eval, source, a nameref or a computed name can set any variable
	// aside is set when some arithmetic or subscript may assign a variable
	// a number, perhaps a negative one (see assignsAside).
	aside bool
	depth int // trap actions and callbacks being walked, one inside another
	// trusts are the programs whose output an assignment was taken to
	// be a number from (x=$(wc -l)); a function of one of the names
	// makes every such value unknown.
	trusts []string
	// keysOf are the arrays whose keys a loop takes as integers (for i in
	// "${!a[@]}"): an associative array's keys are any text.
	keysOf []string
	// unsetsAny is set when an unset or a declaration names a variable
	// computed at run time, which may end any associative array.
	unsetsAny bool
	names     map[string]*nameFacts
	skip      map[*syntax.Word]bool
	// base is the offset in the script of the piece being walked
	// (see scriptInPieces): the parser counts from each piece's start.
	base int
}

// at is the offset of p in the script.
func (af *arithFacts) at(p syntax.Pos) int { return af.base + int(p.Offset()) }

func (af *arithFacts) name(n string) *nameFacts {
	nf := af.names[n]
	if nf == nil {
		nf = &nameFacts{topInt: -1, topIdent: -1, topOp: -1, first: -1, topAssoc: -1}
		if af.names == nil {
			af.names = map[string]*nameFacts{}
		}
		af.names[n] = nf
	}
	return nf
}

// seen records an occurrence of a name that is not a proving assignment.
func (af *arithFacts) seen(n string, at int) {
	nf := af.name(n)
	if nf.first < 0 || at < nf.first {
		nf.first = at
	}
}

// assigned records an assignment of a value of the given kinds.
func (af *arithFacts) assigned(n string, at int, isInt, isIdent, isOp, top bool) {
	nf := af.name(n)
	if !isInt {
		nf.nonInt = true
	}
	if !isIdent {
		nf.nonIdent = true
	}
	if !isOp {
		nf.nonOp = true
	}
	if top && isOp && (nf.topOp < 0 || at < nf.topOp) {
		nf.topOp = at
	}
	if top && isInt && (nf.topInt < 0 || at < nf.topInt) {
		nf.topInt = at
	}
	if top && isIdent && (nf.topIdent < 0 || at < nf.topIdent) {
		nf.topIdent = at
	}
	if !top {
		af.seen(n, at)
	}
}

// facts returns the arithmetic facts of the script sc was built from,
// computing them once if newScope did not.
func (e *eval) facts(sc *scope) *arithFacts {
	if sc == nil || sc.file == nil {
		return &arithFacts{tainted: true}
	}
	if sc.arith == nil {
		af, visit := factsVisitor(sc.file)
		walkEnter(sc.file, visit)
		sc.arith = af
	}
	return sc.arith
}

// join adds the facts of a later piece of the script (see
// scriptInPieces), whose offsets count from the script's start.
func (af *arithFacts) join(from *arithFacts) {
	af.tainted = af.tainted || from.tainted
	af.aside = af.aside || from.aside
	af.trusts = append(af.trusts, from.trusts...)
	af.keysOf = append(af.keysOf, from.keysOf...)
	af.unsetsAny = af.unsetsAny || from.unsetsAny
	for n, f := range from.names {
		nf := af.name(n)
		nf.topInt = firstAt(nf.topInt, f.topInt)
		nf.topIdent = firstAt(nf.topIdent, f.topIdent)
		nf.topOp = firstAt(nf.topOp, f.topOp)
		nf.first = firstAt(nf.first, f.first)
		nf.nonInt = nf.nonInt || f.nonInt
		nf.nonIdent = nf.nonIdent || f.nonIdent
		nf.nonOp = nf.nonOp || f.nonOp
		nf.topAssoc = firstAt(nf.topAssoc, f.topAssoc)
		nf.nonAssoc = nf.nonAssoc || f.nonAssoc
	}
}

// firstAt is the earlier of two offsets, either -1 for none.
func firstAt(a, b int) int {
	if a < 0 || b >= 0 && b < a {
		return b
	}
	return a
}

// declBuiltins are the builtins a declaration clause runs, which a
// function of the same name replaces.
var declBuiltins = set(`declare typeset export readonly local`)

// nameSetters are builtins that assign the variables they name.
var nameSetters = set(`read mapfile readarray printf getopts wait`)

// factsVisitor returns empty facts for f and the walk callback that
// fills them in. For a large script newScope runs it in its own walk of f,
// so the script is walked once for both; it prunes exactly the flat words,
// as newScope's callback does. Assignments that are direct statements of the script
// (not in a branch, loop body, function, pipeline or background job) run
// before anything later in the text, so a name whose first occurrence is
// such an integer assignment, and that is never assigned anything else,
// holds an integer wherever it is used.
func factsVisitor(f *syntax.File) (*arithFacts, func(syntax.Node) bool) {
	// Maps are made on first write: most scripts have no arithmetic.
	af := &arithFacts{}
	top := topStmt{rest: f.Stmts}
	valueKind := func(w *syntax.Word) (isInt, isIdent bool) {
		if w == nil {
			return true, false // x= is empty, which is 0
		}
		if v, ok := litValue(w); ok {
			return isIntLit(v), validName(v)
		}
		if len(w.Parts) == 1 {
			p := w.Parts[0]
			if q, ok := p.(*syntax.DblQuoted); ok && len(q.Parts) == 1 {
				p = q.Parts[0]
			}
			switch p := p.(type) {
			case *syntax.ArithmExp:
				return true, false
			case *syntax.CmdSubst:
				prog := numericProg(p)
				if prog != "" {
					af.trusts = append(af.trusts, prog) // unless a function shadows it
				}
				return prog != "", false
			case *syntax.ParamExp:
				// x=$!, x=${#s} and the like: bash's own integers.
				return simpleParam(p) && strings.Contains("#?$!", p.Param.Value) && len(p.Param.Value) == 1 || lengthParam(p), false
			}
		}
		return false, false
	}
	opKind := func(w *syntax.Word) bool {
		v, ok := litValue(w)
		return ok && opValue(v)
	}
	var visit func(syntax.Node) bool
	visit = func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && otherCall(ce) {
			return true // its words are walked; the call's checks read nothing
		}
		if !af.aside && assignsAside(n) {
			af.aside = true
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			top.stmt(n)
		case *syntax.Assign:
			atTop := top.assign(n)
			if n.Name == nil {
				if n.Naked && n.Value != nil {
					if _, ok := plainLit(n.Value); !ok {
						af.tainted = true // declare "$x"
					}
				}
				return true
			}
			name := n.Name.Value
			at := af.at(n.Name.Pos())
			if atTop && top.assoc && n.Index == nil {
				// declare -A a: not a use; what makes a's subscripts
				// strings from here on.
				nf := af.name(name)
				nf.topAssoc = firstAt(nf.topAssoc, at)
				if !n.Naked {
					nf.nonInt, nf.nonIdent, nf.nonOp = true, true, true
				}
				return true
			}
			if n.Naked {
				af.seen(name, at)
				return true
			}
			isInt, isIdent := valueKind(n.Value)
			isOp := n.Value != nil && opKind(n.Value)
			if n.Index != nil || n.Array != nil {
				isInt, isIdent, isOp = false, false, false
			}
			if n.Append {
				isIdent, isOp = false, false
			}
			af.assigned(name, at, isInt, isIdent, isOp, atTop && !n.Append && n.Index == nil && n.Array == nil)
		case *syntax.DeclClause:
			if n.Variant.Value != "export" && strings.ContainsRune(declFlags(n), 'n') {
				af.tainted = true
			}
			af.declNonAssoc(n, n == top.cmd && top.assoc)
		case *syntax.ForClause:
			switch l := n.Loop.(type) {
			case *syntax.WordIter:
				if l.Name == nil {
					break
				}
				if n.Select {
					af.assigned(l.Name.Value, af.at(l.Name.Pos()), false, false, false, false)
					break
				}
				allInt, allIdent, allOp := true, true, true
				for _, w := range l.Items {
					i, id := valueKind(w)
					i = i || braceInts(w) || af.arrayKeys(w) // for i in {1..5}, "${!a[@]}"
					// A glob item expands to names that begin as it does.
					allInt, allIdent, allOp = allInt && i, allIdent && id, allOp && opKind(w)
				}
				if len(l.Items) == 0 && !l.InPos.IsValid() {
					allInt, allIdent, allOp = false, false, false // for x; do: the positional parameters
				}
				af.assigned(l.Name.Value, af.at(l.Name.Pos()), allInt, allIdent, allOp, n == top.cmd)
			case *syntax.CStyleLoop:
				if b, ok := l.Init.(*syntax.BinaryArithm); ok && n == top.cmd && b.Op == syntax.Assgn {
					if x, ok := b.X.(*syntax.Word); ok && len(x.Parts) == 1 {
						if lit, ok := x.Parts[0].(*syntax.Lit); ok && validName(lit.Value) {
							if y, ok := b.Y.(*syntax.Word); ok {
								if v, ok := plainLit(y); ok && isIntLit(v) {
									af.assigned(lit.Value, af.at(x.Pos()), true, false, false, true)
									if af.skip == nil {
										af.skip = map[*syntax.Word]bool{}
									}
									af.skip[x] = true
								}
							}
						}
					}
				}
			}
		case *syntax.ParamExp:
			if n.Param != nil {
				af.seen(n.Param.Value, af.at(n.Param.Pos()))
				if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
					i, id := valueKind(n.Exp.Word)
					af.assigned(n.Param.Value, af.at(n.Param.Pos()), i, id, false, false)
				}
			}
		case *syntax.Word:
			if af.skip[n] {
				return false
			}
			if len(n.Parts) == 1 {
				if l, ok := n.Parts[0].(*syntax.Lit); ok {
					// A bare name in arithmetic, or any word that
					// could be one, counts as a use; so does a's in
					// a[x], as builtins that take names read it
					// (subscriptName, in one scan of the literal).
					v := l.Value
					if i := nameLen(v); i > 0 && (i == len(v) || v[i] == '[') {
						af.seen(v[:i], af.at(l.Pos()))
					}
					return false
				}
			}
			if a, ok := subscriptName(n); ok {
				af.seen(a, af.at(n.Pos())) // read 'a[x]': a use of a
			}
			if flatWord(n) {
				// What the walk below would record, without one: a flat
				// word's only facts are the names of its plain parameters.
				for _, p := range n.Parts {
					switch p := p.(type) {
					case *syntax.ParamExp:
						af.seen(p.Param.Value, af.at(p.Param.Pos()))
					case *syntax.DblQuoted:
						for _, q := range p.Parts {
							if pe, ok := q.(*syntax.ParamExp); ok {
								af.seen(pe.Param.Value, af.at(pe.Param.Pos()))
							}
						}
					}
				}
				return false
			}
		case *syntax.CallExpr:
			af.callNonAssoc(n)
			if code, ok := af.callFacts(n); ok {
				af.walkCode(code, visit)
			}
		case *syntax.FuncDecl:
			if n.Name != nil && declBuiltins[n.Name.Value] {
				// function typeset { :; }: its declarations run the
				// function and assign nothing, so no value is proved.
				af.tainted = true
			}
		case *syntax.CoprocClause:
			if n.Name != nil {
				if v, ok := plainLit(n.Name); ok {
					af.assigned(v, af.at(n.Name.Pos()), false, false, false, false)
				}
			}
		}
		return true
	}
	return af, visit
}

// walkCode applies visit to shell text that runs in this shell at times
// the script does not show (a trap action, a mapfile callback), so its
// assignments count as made anywhere. Text that does not parse, or is
// nested too deep, may assign anything.
func (af *arithFacts) walkCode(code string, visit func(syntax.Node) bool) {
	af.depth++
	base := af.base
	af.base = 0 // offsets in code count from its start, wherever it is
	defer func() { af.depth--; af.base = base }()
	if af.depth > maxNest || len(code) > maxInput || bracketDepth(code) > maxBrackets {
		af.tainted = true
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(code), "")
	if err != nil {
		af.tainted = true
		return
	}
	mendCoprocs(f, code)
	walkEnter(f, visit)
}

// callFacts records the names a builtin call assigns: read x, printf -v x,
// mapfile x, getopts s x, wait -p x; eval and source may assign anything.
// It returns the code a trap or a mapfile -C callback runs later in this
// shell, for the caller to walk.
func (af *arithFacts) callFacts(ce *syntax.CallExpr) (string, bool) {
	args := ce.Args
	for len(args) > 0 {
		v, ok := litValue(args[0])
		if !ok {
			return "", false
		}
		if v == "command" || v == "builtin" {
			args = args[1:]
			for len(args) > 0 {
				if o, ok := plainLit(args[0]); ok && strings.HasPrefix(o, "-") {
					args = args[1:]
					continue
				}
				break
			}
			continue
		}
		switch {
		case v == "eval" || v == "source" || v == ".":
			af.tainted = true
		case v == "declare" || v == "typeset" || v == "local" || v == "export" || v == "readonly":
			// Reached through command or builtin: its words assign, and
			// a nameref makes its target assigned through another name.
			for _, w := range args[1:] {
				s, ok := plainLit(w)
				if !ok || v != "export" && len(s) > 1 && (s[0] == '-' || s[0] == '+') && strings.ContainsRune(s, 'n') {
					af.tainted = true
					return "", false
				}
				if n, _, _ := strings.Cut(s, "="); validName(n) {
					af.assigned(n, af.at(w.Pos()), false, false, false, false)
				}
			}
		case v == "trap":
			vals, ok := litValues(args[1:])
			if !ok {
				af.tainted = true // an action computed at run time
				break
			}
			if ops := operands(vals); len(ops) >= 2 && ops[0] != "-" {
				return ops[0], true
			}
		case nameSetters[v]:
			for k, w := range args[1:] {
				if v == "printf" || v == "wait" {
					// printf assigns only the name after -v, wait only
					// the one after -p (a process id, so an integer;
					// a computed argument that could be -p is refused
					// where wait is classified).
					o, _ := litValue(args[k])
					if v == "printf" && o != "-v" || v == "wait" && o != "-p" {
						af.attachedNames(w)
						continue
					}
				}
				s, ok := litValue(w)
				if !ok {
					af.tainted = true
					continue
				}
				n, _, _ := strings.Cut(s, "[")
				if validName(n) {
					af.assigned(n, af.at(w.Pos()), false, false, false, false)
				}
				af.attachedNames(w)
			}
			if v == "mapfile" || v == "readarray" {
				vals, _ := litValues(args[1:])
				for i, o := range vals {
					if o == "--" || len(o) < 2 || o[0] != '-' {
						continue
					}
					if j := strings.IndexAny(o, "dnOsuCc"); j > 0 && o[j] == 'C' {
						if j+1 < len(o) {
							return o[j+1:], true
						}
						if i+1 < len(vals) {
							return vals[i+1], true
						}
					}
				}
			}
		}
		return "", false
	}
	return "", false
}

// attachedNames records the names an option word can carry attached:
// read -ax, printf -vx, wait -px assign x. Every name a suffix of the
// word spells counts, which can only add assignments.
func (af *arithFacts) attachedNames(w *syntax.Word) {
	s, ok := litValue(w)
	if !ok || len(s) < 3 || s[0] != '-' {
		return
	}
	for i := 2; i < len(s); i++ {
		if n, _, _ := strings.Cut(s[i:], "["); validName(n) {
			af.assigned(n, af.at(w.Pos()), false, false, false, false)
		}
	}
}

// litValues returns the values of words that are all literal.
func litValues(ws []*syntax.Word) ([]string, bool) {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		v, ok := litValue(w)
		if !ok {
			return out, false
		}
		out = append(out, v)
	}
	return out, true
}

// arrayKeys reports whether w is the list of an array's keys, "${!a[@]}"
// or ${!a[*]}, and remembers the array: its keys are integers unless the
// script declares it associative (see intName).
func (af *arithFacts) arrayKeys(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	p := w.Parts[0]
	if q, ok := p.(*syntax.DblQuoted); ok && len(q.Parts) == 1 {
		p = q.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	if !ok || !pe.Excl || pe.Names != 0 || pe.Slice != nil || pe.Repl != nil || pe.Exp != nil || pe.Param == nil {
		return false
	}
	if iw, ok := pe.Index.(*syntax.Word); !ok || len(iw.Parts) != 1 || !isAllIndex(iw.Parts[0]) {
		return false
	}
	af.keysOf = append(af.keysOf, pe.Param.Value)
	return true
}

// sureRedirs reports whether redirections cannot fail, so the statement
// they belong to runs whatever the machine holds: /dev/null, a
// here-document or here-string, a copy or close of a standard stream. A
// redirection that fails (a missing file, a closed descriptor) skips the
// declaration or loop it belongs to, and its variable keeps the value
// the environment gave it: declare x=5 <&3; (( x )).
func sureRedirs(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			continue
		}
		v, ok := litValue(r.Word)
		switch {
		case !ok:
			return false
		case r.Op == syntax.DplIn || r.Op == syntax.DplOut:
			if v != "0" && v != "1" && v != "2" && v != "-" {
				return false
			}
		case v != "/dev/null":
			return false
		}
	}
	return true
}
