package policy

import (
	"fmt"
	"sort"

	"mvdan.cc/sh/v3/syntax"
)

// forkBombs finds functions that start copies of themselves in the
// background or in a pipeline, directly or through other functions:
// :(){ :|:& };: and every renaming of it. Plain recursion is TierDestructive.
//
// Only the declaration that stands for each name is read (see scope.funcs),
// so redefining one name many times, or nesting definitions, costs one walk
// of each body that counts, not one per definition.
func (e *eval) forkBombs(sc *scope, ctx cctx) {
	type fn struct {
		calls, forks map[string]bool
	}
	funcs := map[string]*fn{}
	for _, d := range sc.funcs {
		x := &fn{calls: map[string]bool{}, forks: map[string]bool{}}
		funcs[d.Name.Value] = x
		var forking []bool
		depth := 0
		walk(d.Body, func(n syntax.Node) bool {
			if n == nil {
				if forking[len(forking)-1] {
					depth--
				}
				forking = forking[:len(forking)-1]
				return true
			}
			if w, ok := n.(*syntax.Word); ok && flatWord(w) {
				return false // no call in it, and no f(nil) to balance
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
	}
	if len(funcs) == 0 {
		return
	}
	// callers[g] are the functions that call function g.
	callers := map[string][]string{}
	for n, x := range funcs {
		for c := range x.calls {
			if funcs[c] != nil {
				callers[c] = append(callers[c], n)
			}
		}
	}
	names := make([]string, 0, len(funcs))
	for n := range funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		// leads holds name and the functions from which it can be called:
		// a call of any of them can lead to a call of name. One backward
		// search per name, not one forward search per call.
		leads := map[string]bool{name: true}
		stack := []string{name}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, c := range callers[n] {
				if !leads[c] {
					leads[c] = true
					stack = append(stack, c)
				}
			}
		}
		for g := range funcs[name].forks {
			if leads[g] {
				e.deny(fmt.Sprintf("fork bomb: function %q starts copies of itself", name))
				return
			}
		}
		for g := range funcs[name].calls {
			if leads[g] {
				e.note(TierDestructive, ctx.covered, "function %q calls itself recursively", name)
				break
			}
		}
	}
}
