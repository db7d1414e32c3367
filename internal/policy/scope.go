package policy

import (
	"slices"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// scope holds what a pre-pass over one parsed script learned: literal values
// its variables are assigned anywhere, and its function declarations. It is
// flow-insensitive, so it is only used to add findings, never to lower a tier.
type scope struct {
	vars map[string][]string
	// funcs is the declaration forkBombs reads for each of the first
	// maxFuncs function names: the last one seen before the cap filled.
	funcs []*syntax.FuncDecl
	file  *syntax.File
	arith *arithFacts // filled in by newScope's walk, or on first use by facts
	// intAttr and assoc are the names declared -i (every assignment is
	// evaluated as arithmetic) and -A (subscripts are strings); nil if none.
	intAttr, assoc map[string]bool
	// cased are the names declared -l or -u, whose every value bash
	// lower- or upper-cases: declare -l d=/ETC/WARDEN names /etc/warden.
	cased map[string]bool
	// nameref holds the names declared -n, true for one declared without
	// a value somewhere (its next assignment names its target); refs the
	// literal targets declarations give them.
	nameref map[string]bool
	refs    map[string][]string
	// derived are the assignments whose values derive computes from
	// the values of the variables they use (see values.go).
	derived []derivedAssign
	// outer is the scope of the script around nested code (see inherit).
	outer *scope
	// movesPos is set when the script can change its positional
	// parameters (set --, shift) or has functions, whose bodies see
	// their own: then the caller's known $1… do not hold inside it.
	movesPos bool
	// setsPos is set when a call other than a function's can change
	// them: where it is not, $1… at the top level are empty.
	setsPos bool
	// funcAt holds the names of the functions the script declares
	// (see funcs); manyFuncs is set when there were more than it keeps.
	funcAt    map[string]int
	manyFuncs bool
	// redeclared are the names of funcs declared more than once; exits
	// those of the functions that always exit (findExits).
	redeclared map[string]bool
	exits      map[string]bool
	// funcTop and mayUnset say which calls reach the script's own
	// functions (see funcs.go): the first top-level statement declaring
	// each name, and whether anything may remove a function again;
	// funcTopAny counts declarations with the function keyword too.
	funcTop, funcTopAny map[string]int
	mayUnset            bool
	// mayRebind is set when a command may change what a name runs other
	// than by removing a function: enable -n exit, alias, or the text of
	// eval, source or trap.
	mayRebind bool
	bgTop     int // first top-level statement run in the background (funcs.go)
	// calls and arrays are what deriveJoins reads (values_split.go):
	// calls that may be of the script's functions, and arrays assigned
	// literal lists in order; joined is set once it has.
	calls  []posCall
	arrays map[string][][]string
	joined bool
	// files holds the literal text the script writes to each file it
	// names (names_lists.go).
	files map[string][]string
	// loopNames counts the for and select loops over each name, assigns
	// the assignments to each (up to maxVars names), and loopFacts is
	// what loopExact learns of the rest (loops_exact.go).
	loopNames map[string]int
	assigns   map[string]int
	loopFacts loopFacts
	// nonEmpty counts the assignments to each name of assigns whose value
	// cannot be empty (D=/srv, D=${1:?usage}, D=${1:-/srv}); byCall holds
	// the names a builtin may set instead (read D, printf -v D, mapfile
	// D), "" for any (eval, source, a name not literal).
	nonEmpty map[string]int
	byCall   map[string]bool
	// topGuards holds, for each name a top-level statement stops the
	// script on when empty, the 1-based index of the first such statement
	// (guards_empty.go): read from every statement at once, so pieces
	// walked apart see the guards of the ones before them.
	topGuards map[string]int
}

const (
	maxVarValues = 8
	maxVars      = 256
)

// eagerFacts is the script size from which newScope collects the arithmetic
// facts in its own walk, sparing facts a second walk of the whole tree;
// smaller scripts, which mostly have no arithmetic, leave them to facts.
const eagerFacts = 64 << 10

// newScope walks f, or, when f is the statements of pieces (see
// scriptInPieces), each piece, which places its nodes in the script.
func newScope(f *syntax.File, size int, pieces ...*piece) *scope {
	sc := &scope{vars: map[string][]string{}, file: f}
	// add records a literal value of name; it reports false for a
	// value that is not one.
	add := func(name string, w *syntax.Word) bool {
		if w == nil || len(sc.vars) >= maxVars && sc.vars[name] == nil {
			return true
		}
		v, ok := plainLit(w)
		if !ok {
			return false
		}
		sc.addValue(name, v)
		return true
	}
	funcAt := map[string]int{} // index in sc.funcs of each name's declaration
	sc.funcAt = funcAt
	var last *syntax.Word // the last word of the command before, which $_ expands to
	var facts func(syntax.Node) bool
	if size >= eagerFacts {
		sc.arith, facts = factsVisitor(f)
	}
	visit := func(n syntax.Node) bool {
		if facts != nil && !facts(n) {
			return false // a flat word, which the switch below prunes too
		}
		switch n := n.(type) {
		case *syntax.Word:
			return !flatWord(n) // no assignment or function in a flat word's parts
		case *syntax.Assign:
			if n.Name != nil && (len(sc.assigns) < maxVars || sc.assigns[n.Name.Value] > 0) {
				if sc.assigns == nil {
					sc.assigns = map[string]int{}
				}
				sc.assigns[n.Name.Value]++
				if n.Array == nil && n.Index == nil && !n.Append && n.Value != nil && neverEmptyWord(n.Value.Parts) {
					if sc.nonEmpty == nil {
						sc.nonEmpty = map[string]int{}
					}
					sc.nonEmpty[n.Name.Value]++
				}
			}
			switch {
			case n.Name == nil:
			case n.Array != nil:
				// Any element may be the one read: ${a[i]}, $a, ${a[@]};
				// and the one at a literal index is a[i]'s.
				next := 0
				var elems []string // in order, while all are literal
				allLit := true
				for _, el := range n.Array.Elems {
					if allLit && el.Index == nil && el.Value != nil {
						v, ok := plainLit(el.Value)
						elems, allLit = append(elems, v), ok
					} else {
						allLit = false
					}
					if el.Index != nil {
						next = -1
						if i, ok := literalInt(el.Index); ok {
							next = i
						}
					}
					if el.Value != nil {
						add(n.Name.Value, el.Value)
						if next >= 0 && !n.Append {
							add(elementKey(n.Name.Value, next), el.Value)
						}
					}
					if next >= 0 {
						next++
					}
				}
				switch {
				case allLit && n.Append:
					// a+=(x y) continues each list a was given before.
					for _, l := range slices.Clone(sc.arrays[n.Name.Value]) {
						sc.noteArray(n.Name.Value, append(slices.Clip(l), elems...))
					}
				case allLit:
					sc.noteArray(n.Name.Value, elems)
				}
			case n.Index != nil:
				add(n.Name.Value, n.Value)
				if i, ok := literalInt(n.Index); ok {
					add(elementKey(n.Name.Value, i), n.Value)
				}
			case !n.Append:
				if n.Value == nil && n.Name.Value == "IFS" {
					sc.addValue("IFS", "") // IFS= joins "${a[*]}" with nothing
				}
				if !add(n.Name.Value, n.Value) {
					sc.noteDerived(n)
				}
			case n.Value != nil:
				// p+=/config.yaml continues each value p was given before.
				if v, ok := plainLit(n.Value); ok {
					for _, old := range slices.Clone(sc.vars[n.Name.Value]) {
						sc.addValue(n.Name.Value, old+v)
					}
				}
			}
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				if sc.loopNames == nil {
					sc.loopNames = map[string]int{}
				}
				sc.loopNames[wi.Name.Value]++
				for _, w := range wi.Items {
					if add(wi.Name.Value, w) {
						continue
					}
					sc.noteDerivedWord(wi.Name.Value, w) // for x in "$@", $d/*
					if out, rel, ok := listingItem(w); ok && (!rel || prefixedUses(n.Do, []string{wi.Name.Value})) {
						for v := range strings.SplitSeq(strings.TrimSuffix(out, "\n"), "\n") {
							sc.addValue(wi.Name.Value, v) // for d in $(ls /usr)
						}
					}
				}
				if len(wi.Items) == 0 && !wi.InPos.IsValid() {
					sc.noteDerivedWord(wi.Name.Value, allPositionals) // for x; do
				}
			}
		case *syntax.BinaryCmd:
			if n.Op != syntax.Pipe {
				break // a && b: no need to look at b
			}
			if lineReader(n.Y) != nil {
				if text, ok := litOutput(n.X); ok {
					sc.loopReads(n.Y, text, true) // echo /var/lib | while read d
				} else if ts, ok := sc.catTexts(n.X); ok {
					for _, t := range ts {
						sc.loopReads(n.Y, t, true) // cat /tmp/l | while read d
					}
				} else if text, rel, ok := listingOutput(n.X); ok && (!rel || readsPrefixed(n.Y)) {
					sc.loopReads(n.Y, text, true) // ls /usr | while read d
				}
			}
		case *syntax.DeclClause:
			sc.declAttrs(n)
		case *syntax.Stmt:
			if otherStmt(n) {
				break // a call of grep, ls, …: nothing below reads it
			}
			sc.codeAttrs(n, 0)
			sc.readValue(n)
			sc.loopReads(n, "", false)
			sc.noteFile(n)
			sc.printfValue(n)
		case *syntax.CallExpr:
			// $_ is the last word of the command before: : /; rm -rf $_.
			if last != nil && usesLastWord(n.Args) {
				if v, ok := plainLit(last); ok && v != "" {
					sc.addValue("_", v)
				}
			}
			last = nil
			if k := len(n.Args); k > 0 && plainWord(n.Args[k-1]) {
				last = n.Args[k-1]
			}
			sc.noteCall(n)
			if otherCall(n) {
				break
			}
			sc.callAttrs(n)
			sc.setValues(n)
			sc.noteSetByCall(n)
			if movesPositionals(n) || hiddenCodeMovesPos(n, 0) {
				sc.movesPos, sc.setsPos = true, true
			}
			sc.noteFuncRemover(n)
		case *syntax.FuncDecl:
			sc.movesPos = true
			if n.Name == nil {
				break
			}
			if _, ok := funcAt[n.Name.Value]; !ok && len(funcAt) >= maxFuncs {
				sc.manyFuncs = true
				break
			}
			if i, ok := funcAt[n.Name.Value]; ok {
				sc.funcs[i] = n // a redefinition replaces the function
				sc.redeclare(n.Name.Value)
			} else {
				funcAt[n.Name.Value] = len(sc.funcs)
				sc.funcs = append(sc.funcs, n)
			}
		}
		return true
	}
	sc.funcTop, sc.funcTopAny = topFuncs(f)
	sc.bgTop = firstBackground(f)
	if len(pieces) == 0 {
		walkEnter(f, visit)
		return sc
	}
	for _, pc := range pieces {
		if sc.arith != nil {
			sc.arith.base = pc.base
		}
		walkEnter(pc.file, visit)
	}
	if sc.arith != nil {
		sc.arith.base = 0
	}
	return sc
}

// joinScopes returns the scope of f, the statements of pieces, from the
// pieces' own scopes: what newScope learns over the pieces in order. It
// reports false when a piece's or the sum's caps filled, past which what
// newScope keeps depends on the order of the whole script.
func joinScopes(f *syntax.File, pieces []*piece) (*scope, bool) {
	sc := &scope{vars: map[string][]string{}, file: f, funcAt: map[string]int{}, arith: &arithFacts{}}
	top := 0 // the top-level statements of the pieces before this one
	for _, pc := range pieces {
		from := pc.sc
		if from.manyFuncs || from.arith == nil {
			return nil, false
		}
		// A piece's statements are numbered from its own first; the
		// first piece to declare a function or start a job has the
		// script's first.
		for name, i := range from.funcTop {
			sc.funcTop = firstDecl(sc.funcTop, name, top+i)
		}
		for name, i := range from.funcTopAny {
			sc.funcTopAny = firstDecl(sc.funcTopAny, name, top+i)
		}
		if sc.bgTop == 0 && from.bgTop > 0 {
			sc.bgTop = top + from.bgTop
		}
		top += len(pc.file.Stmts)
		for name, vals := range from.vars {
			if len(vals) >= maxVarValues {
				return nil, false
			}
			for _, v := range vals {
				if !slices.Contains(sc.vars[name], v) {
					sc.vars[name] = append(sc.vars[name], v)
				}
			}
		}
		for n := range from.redeclared {
			sc.redeclare(n)
		}
		for _, d := range from.funcs {
			if i, ok := sc.funcAt[d.Name.Value]; ok {
				sc.funcs[i] = d
				sc.redeclare(d.Name.Value)
			} else {
				sc.funcAt[d.Name.Value] = len(sc.funcs)
				sc.funcs = append(sc.funcs, d)
			}
		}
		sc.intAttr = orMaps(sc.intAttr, from.intAttr)
		sc.assoc = orMaps(sc.assoc, from.assoc)
		sc.cased = orMaps(sc.cased, from.cased)
		sc.nameref = orMaps(sc.nameref, from.nameref)
		for n, ts := range from.refs {
			for _, t := range ts {
				sc.addAttrs("n", "declare", n, false, t)
			}
		}
		sc.movesPos = sc.movesPos || from.movesPos
		sc.setsPos = sc.setsPos || from.setsPos
		for _, d := range from.derived {
			if len(sc.derived) < maxDerived {
				sc.derived = append(sc.derived, d)
			}
		}
		for _, c := range from.calls {
			if len(sc.calls) < maxCalls {
				sc.calls = append(sc.calls, c)
			}
		}
		for f, ts := range from.files {
			for _, t := range ts {
				if sc.files == nil {
					sc.files = map[string][]string{}
				}
				if len(sc.files) < maxFiles || sc.files[f] != nil {
					sc.files[f] = append(sc.files[f], t)
				}
			}
		}
		for name, lists := range from.arrays {
			for _, l := range lists {
				sc.noteArray(name, l)
			}
		}
		sc.mayUnset = sc.mayUnset || from.mayUnset
		sc.mayRebind = sc.mayRebind || from.mayRebind
		sc.arith.join(from.arith)
		for n, k := range from.loopNames {
			if sc.loopNames == nil {
				sc.loopNames = map[string]int{}
			}
			sc.loopNames[n] += k
		}
		if len(from.assigns) >= maxVars {
			return nil, false // a piece past the cap counted only the names it saw first
		}
		for n, k := range from.assigns {
			if sc.assigns == nil {
				sc.assigns = map[string]int{}
			}
			if len(sc.assigns) >= maxVars && sc.assigns[n] == 0 {
				return nil, false
			}
			sc.assigns[n] += k
		}
		for n, k := range from.nonEmpty {
			if sc.nonEmpty == nil {
				sc.nonEmpty = map[string]int{}
			}
			sc.nonEmpty[n] += k
		}
		sc.byCall = orMaps(sc.byCall, from.byCall)
	}
	if len(sc.vars) >= maxVars || len(sc.funcs) > maxFuncs {
		return nil, false
	}
	for _, vals := range sc.vars {
		if len(vals) > maxVarValues {
			return nil, false
		}
	}
	return sc, true
}

// inherit adds to the scope of nested code (eval's words, a trap action,
// sh -c's payload) what the script around it declares: code run in the
// same shell shares its variables' attributes and values, so declare -i
// x; eval 'x=$1' evaluates $1. A flow-insensitive scope takes them for a
// child shell too, which only adds findings.
func (sc *scope) inherit(parent *scope) {
	if parent == nil || parent == sc {
		return
	}
	sc.intAttr = orMaps(sc.intAttr, parent.intAttr)
	sc.cased = orMaps(sc.cased, parent.cased)
	sc.nameref = orMaps(sc.nameref, parent.nameref)
	for n, ts := range parent.refs {
		for _, t := range ts {
			sc.addAttrs("n", "declare", n, false, t)
		}
	}
	// The values the script gives its variables reach the nested code
	// too: export F=/etc/…; sh -c 'cat $F'.
	sc.outer = parent
}

// values are the literal values the script, or the script around nested
// code, gives name.
func (sc *scope) values(name string) []string {
	own := sc.vars[name]
	if sc.outer == nil {
		return own
	}
	outer := sc.outer.values(name)
	switch {
	case len(outer) == 0:
		return own
	case len(own) == 0:
		return outer
	}
	return append(slices.Clip(own), outer...)
}

// orMaps adds the names of from to m, each true if it is in either.
func orMaps(m, from map[string]bool) map[string]bool {
	for k, v := range from {
		if m == nil {
			m = map[string]bool{}
		}
		m[k] = m[k] || v
	}
	return m
}

// substInQuotes reports whether the parts of a double-quoted string hold a
// $(…), or a parameter expansion with an operand that may.
func substInQuotes(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.CmdSubst:
			return true
		case *syntax.ParamExp:
			if !simpleParam(p) {
				return true
			}
		}
	}
	return false
}

// plainLit returns the value of a word made only of literal and quoted parts.
func plainLit(w *syntax.Word) (string, bool) {
	// Most words are one literal without a backslash, which is its own
	// value; skip the resolver and its allocations for them.
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && strings.IndexByte(l.Value, '\\') < 0 {
			return l.Value, true
		}
	}
	// Only a $(…) in double quotes, or in a parameter's operand there,
	// makes the resolver reach for an eval (echoOutput); the rest of the
	// words ("$f" most) spare making one, which is large.
	r := resolver{}
	for _, p := range w.Parts {
		if q, ok := p.(*syntax.DblQuoted); ok && substInQuotes(q.Parts) {
			r.e = &eval{substNest: 1, substCalls: maxSubstCalls - 1} // one $(…), not one inside it
			break
		}
	}
	a := arg{known: true}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted:
		default:
			return "", false
		}
		if !r.part(&b, p, false, &a) {
			return "", false
		}
	}
	return b.String(), true
}

// bindings returns trial variable bindings for the words of one command:
// every combination of the literal values assigned to the variables they
// use, up to maxAlts.
func (sc *scope) bindings(ws []*syntax.Word) []map[string]string {
	if sc == nil || len(sc.vars) == 0 && sc.outer == nil {
		return nil
	}
	var names []string
	var seen map[string]bool // past a few names; before, names is searched
	use := func(name string) {
		if seen != nil {
			if seen[name] {
				return
			}
		} else if slices.Contains(names, name) {
			return
		}
		if sc.values(name) == nil {
			return
		}
		names = append(names, name)
		if seen != nil {
			seen[name] = true
		} else if len(names) > 8 {
			seen = make(map[string]bool, 2*len(names))
			for _, n := range names {
				seen[n] = true
			}
		}
	}
	for _, w := range ws {
		switch {
		case plainWord(w): // names no variable
		case flatWord(w):
			for _, p := range w.Parts {
				switch p := p.(type) {
				case *syntax.ParamExp:
					use(p.Param.Value)
				case *syntax.DblQuoted:
					for _, q := range p.Parts {
						if pe, ok := q.(*syntax.ParamExp); ok {
							use(pe.Param.Value)
						}
					}
				}
			}
		default:
			for _, name := range paramNames(w) {
				use(name)
			}
			for _, name := range elementNames(w) {
				use(name)
			}
			for _, name := range indirectNames(w) {
				// ${!y} and a nameref read the variable y's value names.
				for _, v := range sc.values(name) {
					use(v)
				}
			}
		}
	}
	for i := 0; i < len(names) && len(sc.nameref) > 0; i++ {
		if _, ok := sc.nameref[names[i]]; ok {
			for _, v := range sc.values(names[i]) {
				use(v)
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	out := []map[string]string{nil} // one binding of nothing, copied below
	for _, name := range names {
		out = product(out, name, sc.values(name))
	}
	return out
}

// product extends each binding of out with each of vals for name, up to
// maxAlts bindings.
func product[V any](out []map[string]V, name string, vals []V) []map[string]V {
	next := make([]map[string]V, 0, min(maxAlts, len(out)*len(vals)))
	for _, b := range out {
		for _, v := range vals {
			if len(next) >= maxAlts {
				return next
			}
			nb := make(map[string]V, len(b)+1)
			for k, x := range b {
				nb[k] = x
			}
			nb[name] = v
			next = append(next, nb)
		}
	}
	return next
}

// paramNames returns the names of the parameters w expands, in order,
// leaving out those inside command and process substitutions.
func paramNames(w *syntax.Word) []string {
	return paramExps(w, func(p *syntax.ParamExp) (string, bool) { return p.Param.Value, true })
}

// paramExps returns what pick makes of each parameter expansion w holds,
// in order, leaving out those inside command and process substitutions.
func paramExps(w *syntax.Word, pick func(*syntax.ParamExp) (string, bool)) []string {
	var names []string
	walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.ParamExp:
			if n.Param == nil {
				break
			}
			if s, ok := pick(n); ok {
				names = append(names, s)
			}
		}
		return true
	})
	return names
}

const maxFuncs = 256

// knownPos reports whether the positional parameters ctx carries are
// what the script sc sees where it uses them.
func knownPos(ctx cctx, sc *scope) bool {
	return ctx.hasPos && !(sc != nil && sc.movesPos) && !(ctx.sc != nil && ctx.sc.movesPos)
}

// redeclare notes that a function named name is declared again.
func (sc *scope) redeclare(name string) {
	if sc.redeclared == nil {
		sc.redeclared = map[string]bool{}
	}
	sc.redeclared[name] = true
}

// shadowed reports whether the script may declare a function named name,
// which then runs instead of the builtin or program: echo() { …; } makes
// echo's output anything.
func (sc *scope) shadowed(name string) bool {
	if sc == nil {
		return false
	}
	_, ok := sc.funcAt[name]
	return ok || sc.manyFuncs
}

// pastCommandBuiltin returns a simple command's words after any leading
// command or builtin and their options (command -p declare -i n), and
// false when a word up to there is not a literal.
func pastCommandBuiltin(args []*syntax.Word) ([]*syntax.Word, bool) {
	for len(args) > 0 {
		v, ok := litValue(args[0])
		if !ok {
			return args, false
		}
		if v != "command" && v != "builtin" {
			break
		}
		args = args[1:]
		for len(args) > 0 {
			if o, ok := litValue(args[0]); ok && len(o) > 1 && o[0] == '-' {
				args = args[1:]
				continue
			}
			break
		}
	}
	return args, true
}
