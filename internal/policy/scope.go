package policy

import (
	"fmt"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// scope holds what a pre-pass over one parsed script learned: literal values
// its variables are assigned anywhere. It is flow-insensitive, so it is only
// used to add findings, never to lower a tier.
type scope struct {
	vars map[string][]string
}

const (
	maxVarValues = 8
	maxVars      = 256
)

func newScope(f *syntax.File) *scope {
	sc := &scope{vars: map[string][]string{}}
	add := func(name string, w *syntax.Word) {
		if w == nil || len(sc.vars) >= maxVars && sc.vars[name] == nil {
			return
		}
		v, ok := plainLit(w)
		if !ok || len(sc.vars[name]) >= maxVarValues {
			return
		}
		for _, have := range sc.vars[name] {
			if have == v {
				return
			}
		}
		sc.vars[name] = append(sc.vars[name], v)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			if n.Name != nil && !n.Append && n.Index == nil {
				add(n.Name.Value, n.Value)
			}
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil {
				for _, w := range wi.Items {
					add(wi.Name.Value, w)
				}
			}
		}
		return true
	})
	return sc
}

// plainLit returns the value of a word made only of literal and quoted parts.
func plainLit(w *syntax.Word) (string, bool) {
	r := resolver{e: &eval{}}
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
	if sc == nil || len(sc.vars) == 0 {
		return nil
	}
	var names []string
	var seen map[string]bool
	visit := func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.ParamExp:
			if n.Param != nil && !seen[n.Param.Value] && sc.vars[n.Param.Value] != nil {
				if seen == nil {
					seen = map[string]bool{}
				}
				seen[n.Param.Value] = true
				names = append(names, n.Param.Value)
			}
		}
		return true
	}
	for _, w := range ws {
		if !plainWord(w) { // a plain word names no variable
			syntax.Walk(w, visit)
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	out := []map[string]string{{}}
	for _, name := range names {
		var next []map[string]string
		for _, b := range out {
			for _, v := range sc.vars[name] {
				if len(next) >= maxAlts {
					break
				}
				nb := make(map[string]string, len(b)+1)
				for k, x := range b {
					nb[k] = x
				}
				nb[name] = v
				next = append(next, nb)
			}
		}
		out = next
	}
	return out
}

const maxFuncs = 256

// forkBombs finds functions that start copies of themselves in the
// background or in a pipeline, directly or through other functions:
// :(){ :|:& };: and every renaming of it. Plain recursion is TierDestructive.
func (e *eval) forkBombs(f *syntax.File, ctx cctx) {
	type fn struct {
		calls, forks map[string]bool
	}
	funcs := map[string]*fn{}
	syntax.Walk(f, func(n syntax.Node) bool {
		d, ok := n.(*syntax.FuncDecl)
		if !ok || d.Name == nil || len(funcs) >= maxFuncs {
			return true
		}
		x := &fn{calls: map[string]bool{}, forks: map[string]bool{}}
		funcs[d.Name.Value] = x
		var forking []bool
		depth := 0
		syntax.Walk(d.Body, func(n syntax.Node) bool {
			if n == nil {
				if forking[len(forking)-1] {
					depth--
				}
				forking = forking[:len(forking)-1]
				return true
			}
			fork := false
			switch n := n.(type) {
			case *syntax.Stmt:
				fork = n.Background || n.Coprocess || n.Disown
			case *syntax.BinaryCmd:
				fork = n.Op == syntax.Pipe || n.Op == syntax.PipeAll
			case *syntax.Subshell, *syntax.CmdSubst, *syntax.ProcSubst:
				fork = true
			case *syntax.CallExpr:
				if len(n.Args) > 0 {
					if name, ok := plainLit(n.Args[0]); ok {
						x.calls[name] = true
						if depth > 0 {
							x.forks[name] = true
						}
					}
				}
			}
			forking = append(forking, fork)
			if fork {
				depth++
			}
			return true
		})
		return true
	})
	if len(funcs) == 0 {
		return
	}
	// reaches reports whether calling from can lead to calling to.
	reaches := func(from, to string) bool {
		seen := map[string]bool{}
		stack := []string{from}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if n == to {
				return true
			}
			if seen[n] || funcs[n] == nil {
				continue
			}
			seen[n] = true
			for c := range funcs[n].calls {
				stack = append(stack, c)
			}
		}
		return false
	}
	names := make([]string, 0, len(funcs))
	for n := range funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		for g := range funcs[name].forks {
			if reaches(g, name) {
				e.deny(fmt.Sprintf("fork bomb: function %q starts copies of itself", name))
				return
			}
		}
		for g := range funcs[name].calls {
			if reaches(g, name) {
				e.note(TierDestructive, ctx.covered, "function %q calls itself recursively", name)
			}
		}
	}
}
