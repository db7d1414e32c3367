package policy

import (
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// A for loop over literal words gives its variable exactly those values in
// its body, one pass each, unless something there assigns it again. The
// scope's values (scope.bindings) are flow-insensitive, so they only add
// findings; a loop's are exact, so a command in the body that uses the
// variable is read once with each value instead of once with an unknown
// word: for h in web1 web2; do ssh "$h" uptime; done reads as ssh web1
// and ssh web2, and for r in /srv/*/; do git -C "$r" status; done as git
// under /srv, rather than as a destination or project known only at run
// time. Nothing that could change the variable may be in the script:
//
//   - another for or select loop over the same name, an assignment to it,
//     ${v:=x}, arithmetic naming it, or a builtin that sets variables
//     (read, printf -v, mapfile, getopts, wait -p, unset, let, declare…)
//     or runs text as code (eval, trap, alias) with its name in its words;
//   - a sourced file, a nameref, an IFS change (which splits the value
//     differently), or nested code (sh -c's payload, whose loops these are
//     not);
//
// and the items must be literal words without braces or a leading ~ (which
// bash expands), at most maxAlts of them. A glob item is its pattern,
// read as a glob, and a value with glob characters or blanks only counts
// where every use is quoted, since unquoted the shell would split the
// names it matches.

// loopVar is an enclosing for loop's variable and its values.
type loopVar struct {
	name    string
	vals    []string
	pattern bool // an item is a pattern the shell expanded (read as a glob)
	quoted  bool // an item is a pattern or holds blanks: uses must be quoted
	splits  bool // an assigned value with blanks, which $name as a whole word splits into known fields
	sc      *scope
	outer   *loopVar
}

// loopFacts is what loopScan learns of a script, once.
type loopFacts struct {
	once  sync.Once
	dirty map[string]bool // watched names something else may assign
	any   bool            // a sourced file or an IFS change: nothing is exact
	top   map[string]topAssign
}

// topAssign is a variable's only assignment, a top-level statement of its
// own: name=literal.
type topAssign struct {
	val string
	top int // 1-based index of the statement, as cctx.top counts
}

// assigningBuiltins are the builtins that may set a variable named in
// their words, and code that runs text (whose every word counts).
var assigningBuiltins = map[string]bool{
	"read": false, "mapfile": false, "readarray": false, "printf": false, "getopts": false, "wait": false,
	"unset": false, "declare": false, "typeset": false, "local": false, "export": false, "readonly": false,
	"test": false, "[": false, "let": true, "eval": true, "trap": true, "alias": true,
}

// opStart reports whether a pattern's first character is one no name it
// matches can begin with '-' for: a letter, a digit or one of "/._:%,=".
func opStart(v string) bool {
	c := v[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("/._:%,=", c) >= 0
}

// oneLastChar reports whether the pattern v ends in its only wildcard,
// one that matches a single character (/dev/sd?, /dev/sd[a-z]) after a
// fixed prefix with no blanks: unquoted, every field of a name it
// matches, split or globbed again, begins with that prefix, so $d is as
// safe as "$d" (for d in /dev/sd?; do smartctl -H $d; done).
func oneLastChar(v string) bool {
	k := strings.IndexAny(v, "*?[")
	if k <= 0 || strings.ContainsAny(v[:k], " \t\n") {
		return false
	}
	w := v[k:]
	if w == "?" {
		return true
	}
	// A class without negation or blanks, ending the pattern: [a-z].
	return len(w) > 2 && w[0] == '[' && w[len(w)-1] == ']' && !strings.ContainsAny(w[1:len(w)-1], "*?[]!^ \t\n")
}

// loopExact reports whether every value the loop variable name gets in
// its loop's body is one of its items.
func (e *eval) loopExact(sc *scope, name string) bool {
	if sc == nil || sc.outer != nil || len(sc.nameref) > 0 || len(sc.intAttr) > 0 || sc.loopNames[name] != 1 ||
		name == "IFS" || implicitVars[name] || intSpecials[name] {
		return false
	}
	f := sc.scanLoops()
	if f.any || f.dirty[name] {
		return false
	}
	// What arith_facts.go finds: eval, source, a computed name, a
	// nameref, or arithmetic that may assign any variable a number.
	af := e.facts(sc)
	return !af.tainted && !af.aside
}

// scanLoops runs loopScan once for sc.
func (sc *scope) scanLoops() *loopFacts {
	f := &sc.loopFacts
	f.once.Do(func() { f.dirty, f.any, f.top = loopScan(sc.file, sc.loopNames, sc.assigns) })
	return f
}

// watchedName reports whether name is a loop's or is assigned once.
func watchedName(n string, loops, assigns map[string]int) bool {
	return loops[n] > 0 || assigns[n] == 1
}

// loopScan finds the watched names (loop variables and those assigned
// once) that f may set other than by their loop or their one assignment,
// whether it sources a file or sets IFS, and the assignments that are
// top-level statements of their own.
func loopScan(f *syntax.File, loops, assigns map[string]int) (map[string]bool, bool, map[string]topAssign) {
	dirty := map[string]bool{}
	src := false
	mark := func(n string) {
		if n == "IFS" {
			src = true
		} else if watchedName(n, loops, assigns) {
			dirty[n] = true
		}
	}
	top := map[string]topAssign{}
	for i, st := range f.Stmts {
		ce, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(ce.Args) > 0 || len(ce.Assigns) != 1 || len(st.Redirs) > 0 || st.Background || st.Coprocess || st.Negated {
			continue
		}
		a := ce.Assigns[0]
		if a.Name == nil || a.Append || a.Index != nil || a.Array != nil || a.Naked || a.Value == nil || assigns[a.Name.Value] != 1 {
			continue
		}
		if v, ok := plainLit(a.Value); ok && !strings.Contains(v, "~") {
			top[a.Name.Value] = topAssign{val: v, top: i + 1}
		}
	}
	// every marks each identifier in the text of n's words.
	every := func(n syntax.Node) {
		walk(n, func(m syntax.Node) bool {
			switch m := m.(type) {
			case *syntax.Lit:
				identifiers(m.Value, mark)
			case *syntax.SglQuoted:
				identifiers(m.Value, mark)
			}
			return true
		})
	}
	walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil && loops[n.Name.Value] > 0 {
				mark(n.Name.Value) // assigns counts the others
			}
			if n.Index != nil {
				every(n.Index)
			}
		case *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.LetClause, *syntax.CStyleLoop, *syntax.CoprocClause:
			every(n)
			return false
		case *syntax.DeclClause:
			every(n)
			return false
		case *syntax.TestClause:
			every(n) // [[ -v a[x=1] ]], [[ x -eq y ]] evaluate arithmetic
			return false
		case *syntax.Redirect:
			if n.N != nil {
				// exec {fd}>file puts the descriptor's number in fd.
				mark(strings.Trim(n.N.Value, "{}"))
			}
		case *syntax.ParamExp:
			if n.Param != nil && n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				mark(n.Param.Value)
			}
			if n.Index != nil {
				every(n.Index)
			}
			if n.Slice != nil {
				for _, x := range []syntax.ArithmExpr{n.Slice.Offset, n.Slice.Length} {
					if x != nil {
						every(x)
					}
				}
			}
		case *syntax.CallExpr:
			name, i := callName(n)
			switch {
			case name == "." || name == "source":
				src = true
			case i >= 0:
				code, known := assigningBuiltins[name]
				if !known {
					break
				}
				for _, w := range n.Args[i+1:] {
					if v, ok := plainLit(w); ok && strings.HasPrefix(v, "-") && !code {
						// An option's attached value (printf -vX, read -aX).
						for _, names := range []map[string]int{loops, assigns} {
							for l := range names {
								if strings.HasSuffix(v, l) && name != "test" && name != "[" {
									mark(l)
								}
							}
						}
						continue
					}
					every(w)
				}
			}
		}
		return true
	})
	return dirty, src, top
}

// callName returns the builtin a call runs, past command and builtin,
// and the index of its word; -1 when its name is not literal.
func callName(c *syntax.CallExpr) (string, int) {
	for i, w := range c.Args {
		v, ok := plainLit(w)
		if !ok {
			return "", -1
		}
		if v != "command" && v != "builtin" {
			return v, i
		}
	}
	return "", -1
}

// identifiers calls f with each shell identifier in s.
func identifiers(s string, f func(string)) {
	start := -1
	for i := 0; i <= len(s); i++ {
		c := byte(0)
		if i < len(s) {
			c = s[i]
		}
		word := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || start >= 0 && c >= '0' && c <= '9'
		switch {
		case word && start < 0:
			if i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
				continue // 3x is no name
			}
			start = i
		case !word && start >= 0:
			f(s[start:i])
			start = -1
		}
	}
}

// exactLoop returns the loop variable c's words bind in its body, or nil:
// the loop's items, when all are literal words and nothing else may assign
// the variable (see loopExact).
func (e *eval) exactLoop(c *syntax.ForClause, sc *scope, outer *loopVar) *loopVar {
	wi, ok := c.Loop.(*syntax.WordIter)
	if !ok || c.Select || wi.Name == nil || !wi.InPos.IsValid() || len(wi.Items) == 0 || len(wi.Items) > maxAlts ||
		!e.loopExact(sc, wi.Name.Value) {
		return nil
	}
	lv := &loopVar{name: wi.Name.Value, sc: sc, outer: outer, vals: make([]string, 0, len(wi.Items))}
	for _, w := range wi.Items {
		v, ok := plainLit(w)
		if !ok || hasBrace(w) || strings.HasPrefix(v, "~") {
			return nil
		}
		if strings.ContainsAny(v, "*?[ \t\n") {
			lv.pattern = true
			lv.quoted = lv.quoted || !oneLastChar(v)
			// A pattern that may match a name beginning with '-' would
			// be an option (for d in *; do smartctl "$d"), as opValue
			// says.
			if globChar(v) && !opStart(v) {
				return nil
			}
		}
		lv.vals = append(lv.vals, v)
	}
	return lv
}

// exactBinds returns the bindings of the variables ws use whose values
// are exact where they are used — the enclosing loops' (ctx.loops) and
// those a top-level statement before this one assigns once — one per
// combination of their values, and which of them hold patterns; nil when
// ws use none, a use is one the binding cannot stand for, or the
// combinations pass maxAlts.
func (e *eval) exactBinds(ws []*syntax.Word, ctx cctx, sc *scope) ([]map[string]string, map[string]bool) {
	var out []map[string]string
	var globs map[string]bool
	add := func(lv *loopVar) bool {
		used, ok := wordsUse(ws, lv.name, lv.quoted, lv.splits)
		if !ok {
			return false
		}
		if !used {
			return true
		}
		if out == nil {
			out = []map[string]string{{}}
		}
		if len(out)*len(lv.vals) > maxAlts {
			return false
		}
		out = product(out, lv.name, lv.vals)
		if lv.pattern {
			if globs == nil {
				globs = map[string]bool{}
			}
			globs[lv.name] = true
		}
		return true
	}
	var bound []string
	for lv := ctx.loops; lv != nil; lv = lv.outer {
		if lv.sc != sc {
			continue // a loop of the script around nested code
		}
		if !add(lv) {
			return nil, nil
		}
		bound = append(bound, lv.name)
	}
	if sc != nil && len(sc.assigns) > 0 && ctx.topOf == sc && ctx.top > 0 {
		bind := func(name string) bool {
			if name == "" || sc.assigns[name] != 1 || sc.loopNames[name] > 0 || slices.Contains(bound, name) {
				return true
			}
			ta, ok := e.assignExact(sc, name)
			if !ok || ta.top >= int(ctx.top) {
				return true
			}
			bound = append(bound, name)
			blanks := strings.ContainsAny(ta.val, " \t\n")
			return add(&loopVar{name: name, vals: []string{ta.val}, quoted: blanks, splits: blanks})
		}
		for _, w := range ws {
			if plainWord(w) {
				continue
			}
			for _, p := range w.Parts {
				if q, ok := p.(*syntax.DblQuoted); ok {
					for _, qp := range q.Parts {
						if !bind(paramName(qp)) {
							return nil, nil
						}
					}
				} else if !bind(paramName(p)) {
					return nil, nil
				}
			}
		}
	}
	return out, globs
}

// paramName returns the name a parameter expansion part expands, or "".
func paramName(p syntax.WordPart) string {
	if pe, ok := p.(*syntax.ParamExp); ok && pe.Param != nil {
		return pe.Param.Value
	}
	return ""
}

// assignExact returns the one assignment of name when it is a top-level
// statement of its own and nothing else in the script may set name (the
// conditions of loopExact): after that statement, name holds its value.
func (e *eval) assignExact(sc *scope, name string) (topAssign, bool) {
	if sc == nil || sc.outer != nil || len(sc.nameref) > 0 || len(sc.intAttr) > 0 || sc.assigns[name] != 1 ||
		sc.loopNames[name] > 0 || name == "IFS" || implicitVars[name] || intSpecials[name] {
		return topAssign{}, false
	}
	f := sc.scanLoops()
	ta, ok := f.top[name]
	if !ok || f.any || f.dirty[name] {
		return topAssign{}, false
	}
	af := e.facts(sc)
	return ta, !af.tainted && !af.aside
}

// wordsUse reports whether ws expand name, and false in ok when one use
// is not a part of a word or of its double quotes (inside $(…), an index
// or an operand), or is unquoted where quoted says every use must be,
// unless splits and the use is the whole word.
func wordsUse(ws []*syntax.Word, name string, quoted, splits bool) (used, ok bool) {
	ok = true
	for _, w := range ws {
		if plainWord(w) {
			continue
		}
		direct := 0
		for _, p := range w.Parts {
			switch p := p.(type) {
			case *syntax.ParamExp:
				if p.Param != nil && p.Param.Value == name {
					direct++
					// Unquoted, a value with blanks splits: read as
					// fields only where it is the whole word ($A, not
					// $A/x).
					ok = ok && (!quoted || splits && len(w.Parts) == 1 && simpleParam(p))
				}
			case *syntax.DblQuoted:
				for _, q := range p.Parts {
					if pe, is := q.(*syntax.ParamExp); is && pe.Param != nil && pe.Param.Value == name {
						direct++
					}
				}
			}
		}
		all := 0
		walk(w, func(n syntax.Node) bool {
			if pe, is := n.(*syntax.ParamExp); is && pe.Param != nil && pe.Param.Value == name {
				all++
			}
			return true
		})
		used = used || all > 0
		ok = ok && all == direct
	}
	return used, ok
}

// globUnderSafeDir reports whether the glob v can match only names under
// a directory no tier 1 write reaches: absolute, with a fixed directory
// before its first pattern that is no temporary directory and holds none,
// and no pattern that could match "..".
func globUnderSafeDir(v string) bool {
	if !strings.HasPrefix(v, "/") {
		return false
	}
	parts := strings.Split(path.Clean(v), "/")
	fixed := ""
	for i, p := range parts {
		if !globChar(p) {
			continue
		}
		if strings.HasPrefix(p, ".") || strings.HasPrefix(p, "[") || strings.HasPrefix(p, "\\") {
			return false
		}
		if fixed == "" {
			fixed = "/" + path.Join(parts[:i]...)
		}
	}
	if fixed == "" || fixed == "/" || agentDir(fixed) {
		return false
	}
	for _, t := range []string{"/tmp", "/var/tmp", "/dev/shm", "/dev/fd", "/proc"} {
		if Within(t, fixed) {
			return false
		}
	}
	return true
}
