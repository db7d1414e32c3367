package policy

import "mvdan.cc/sh/v3/syntax"

// maxLoopForks is how many literal items a for loop may start a
// background job for: a few hosts pinged at once, not a process table
// filled.
const maxLoopForks = 64

// loopForks raises a loop that starts background jobs (cmd &, coproc)
// an unbounded number of times — while and until loops, C-style for, a for
// over words known only at run time or over more than maxLoopForks — to
// tier 3: each pass leaves a process running, and the passes can fill the
// process table before any timeout (while :; do sleep 1 & done). A
// function's body is its own matter; a fork bomb is denied where it is
// defined.
func (e *eval) loopForks(c syntax.Command, ctx cctx, sc *scope) {
	var body []*syntax.Stmt
	switch c := c.(type) {
	case *syntax.WhileClause:
		body = c.Do
	case *syntax.ForClause:
		if wi, ok := c.Loop.(*syntax.WordIter); ok && boundedItems(wi) {
			return
		}
		body = c.Do
	default:
		return
	}
	if backgrounds(body, sc, 0) {
		e.note(TierDestructive, ctx.covered, "a loop that may run without bound starts background jobs on every pass, which can fill the process table")
	}
}

// backgrounds reports whether stmts start a background job, themselves
// or through a function of the script they call.
func backgrounds(stmts []*syntax.Stmt, sc *scope, depth int) bool {
	forks := false
	for _, s := range stmts {
		walk(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.FuncDecl:
				return false
			case *syntax.Stmt:
				forks = forks || n.Background || n.Coprocess || n.Disown
			case *syntax.CoprocClause:
				forks = true
			case *syntax.CallExpr:
				if len(n.Args) > 0 && depth < 4 && sc != nil {
					if name, ok := plainLit(n.Args[0]); ok {
						for _, d := range sc.funcs {
							if d.Name.Value == name && backgrounds([]*syntax.Stmt{d.Body}, sc, depth+1) {
								forks = true
							}
						}
					}
				}
			}
			return !forks
		})
		if forks {
			return true
		}
	}
	return false
}

// boundedItems reports whether a for loop's words are few literals: as
// many passes as words, none expanding to more.
func boundedItems(wi *syntax.WordIter) bool {
	if !wi.InPos.IsValid() {
		return false // for x; do …: the positional parameters
	}
	if len(wi.Items) > maxLoopForks {
		return false
	}
	for _, w := range wi.Items {
		if v, ok := litValue(w); !ok || isPattern(v) || hasBrace(w) {
			return false
		}
	}
	return true
}
