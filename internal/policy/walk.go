package policy

import (
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// walk is syntax.Walk: the same calls of f in the same order, f(nil) on
// leaving a node included. It walks with an explicit stack instead of
// recursion, so the chains the parser builds from flat text (a | b | …,
// a && b && …, elif …, f() g() …, time time …, $((1+1+…)), [[ ! ! … ]])
// cost heap rather than goroutine stack, which Go grows by copying it:
// syntax.Walk takes 3 s over 1 MiB of nested function definitions, walk
// 15 ms, and a stack past its limit is a fatal error no recover catches.
// It also spares each node syntax.Walk's call and a second indirect call
// of f: the pre-pass of every script visits every node of it.
func walk(root syntax.Node, f func(syntax.Node) bool) {
	walkWith(root, f, true)
}

// walkEnter is walk without the calls f(nil) on leaving a node, for the
// visitors that ignore them: the pre-pass over every node of a script
// spares a push, a pop and a call for each.
func walkEnter(root syntax.Node, f func(syntax.Node) bool) {
	walkWith(root, f, false)
}

func walkWith(root syntax.Node, f func(syntax.Node) bool, leave bool) {
	sp, _ := walkStacks.Get().(*[]syntax.Node)
	if sp == nil {
		sp = new([]syntax.Node)
	}
	w := walker{f: f, stack: (*sp)[:0], leave: leave}
	w.run(root)
	if cap(w.stack) > maxPooledStack {
		return
	}
	clear(w.stack[:w.high]) // hold no tree while pooled
	*sp = w.stack[:0]
	walkStacks.Put(sp)
}

// walkStacks holds walk's stacks between calls, up to maxPooledStack
// nodes: most walks are of one word, shorter than making a stack for each.
var walkStacks sync.Pool

const maxPooledStack = 1024

type walker struct {
	f     func(syntax.Node) bool
	stack []syntax.Node // leaveNode means "leave a node": call f(nil)
	high  int           // the most the stack has held
	leave bool          // call f(nil) on leaving a node
}

// leaveNode marks on the stack where f(nil) is due. It is in no tree.
var leaveNode syntax.Node = &syntax.Comment{}

// push adds the children of a node, last first, so they pop in
// syntax.Walk's order. A nil interface is pushed as is: popped, it
// goes to syntax.Walk, which fails on it as it would have.
func pushList[N syntax.Node](stack []syntax.Node, list []N) []syntax.Node {
	for i := len(list) - 1; i >= 0; i-- {
		stack = append(stack, list[i])
	}
	return stack
}

// stmtRest stands on the stack for the statements of a long list still to
// walk, so that a script of many statements needs a stack as deep as its
// nesting rather than as long as the list.
type stmtRest struct{ list []*syntax.Stmt }

func (*stmtRest) Pos() syntax.Pos { return syntax.Pos{} }
func (*stmtRest) End() syntax.Pos { return syntax.Pos{} }

func pushStmts(stack []syntax.Node, list []*syntax.Stmt) []syntax.Node {
	if len(list) <= 16 {
		return pushList(stack, list)
	}
	return append(stack, &stmtRest{list})
}

func pushComments(stack []syntax.Node, list []syntax.Comment) []syntax.Node {
	for i := len(list) - 1; i >= 0; i-- {
		stack = append(stack, &list[i])
	}
	return stack
}

func (w *walker) run(root syntax.Node) {
	w.stack = append(w.stack, root)
	for len(w.stack) > 0 {
		n := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		switch {
		case n == leaveNode:
			w.f(nil)
			continue
		case n == nil:
			// syntax.Walk(nil) calls f(nil), then fails on the node.
			syntax.Walk(n, w.f)
			continue
		}
		if r, ok := n.(*stmtRest); ok {
			n = r.list[0]
			if r.list = r.list[1:]; len(r.list) > 0 {
				w.stack = append(w.stack, r)
			}
		}
		if !w.f(n) {
			continue
		}
		w.stack = push(w.stack, n, w.leave)
		w.high = max(w.high, len(w.stack))
	}
}

// push adds the leave marker, if leave is set, and then the children of
// n, as syntax.Walk visits them, to the stack.
func push(stack []syntax.Node, n syntax.Node, leave bool) []syntax.Node {
	if leave {
		stack = append(stack, leaveNode)
	}
	switch n := n.(type) {
	case *syntax.Stmt:
		// syntax.Walk defers the first comment past the statement's end
		// until after leaving it, and skips the rest.
		before := len(n.Comments)
		for i, c := range n.Comments {
			if !n.End().After(c.Pos()) {
				stack = deferComment(stack, &n.Comments[i], leave)
				before = i
				break
			}
		}
		stack = pushList(stack, n.Redirs)
		if n.Cmd != nil {
			stack = append(stack, n.Cmd)
		}
		stack = pushComments(stack, n.Comments[:before])
	case *syntax.CaseItem:
		before := len(n.Comments)
		for i, c := range n.Comments {
			if c.Pos().After(n.Pos()) {
				stack = deferComment(stack, &n.Comments[i], leave)
				before = i
				break
			}
		}
		stack = pushComments(stack, n.Last)
		stack = pushStmts(stack, n.Stmts)
		stack = pushList(stack, n.Patterns)
		stack = pushComments(stack, n.Comments[:before])
	case *syntax.ArrayElem:
		before := len(n.Comments)
		for i, c := range n.Comments {
			if c.Pos().After(n.Pos()) {
				stack = deferComment(stack, &n.Comments[i], leave)
				before = i
				break
			}
		}
		if n.Value != nil {
			stack = append(stack, n.Value)
		}
		if n.Index != nil {
			stack = append(stack, n.Index)
		}
		stack = pushComments(stack, n.Comments[:before])
	case *syntax.File:
		stack = pushComments(stack, n.Last)
		stack = pushStmts(stack, n.Stmts)
	case *syntax.Comment, *syntax.Lit, *syntax.SglQuoted:
	case *syntax.Assign:
		if n.Array != nil {
			stack = append(stack, n.Array)
		}
		if n.Index != nil {
			stack = append(stack, n.Index)
		}
		if n.Value != nil {
			stack = append(stack, n.Value)
		}
		if n.Name != nil {
			stack = append(stack, n.Name)
		}
	case *syntax.Redirect:
		if n.Hdoc != nil {
			stack = append(stack, n.Hdoc)
		}
		stack = append(stack, n.Word)
		if n.N != nil {
			stack = append(stack, n.N)
		}
	case *syntax.CallExpr:
		stack = pushList(stack, n.Args)
		stack = pushList(stack, n.Assigns)
	case *syntax.Subshell:
		stack = pushComments(stack, n.Last)
		stack = pushStmts(stack, n.Stmts)
	case *syntax.Block:
		stack = pushComments(stack, n.Last)
		stack = pushStmts(stack, n.Stmts)
	case *syntax.IfClause:
		if n.Else != nil {
			stack = append(stack, n.Else)
		}
		stack = pushComments(stack, n.Last)
		stack = pushComments(stack, n.ThenLast)
		stack = pushStmts(stack, n.Then)
		stack = pushComments(stack, n.CondLast)
		stack = pushStmts(stack, n.Cond)
	case *syntax.WhileClause:
		stack = pushComments(stack, n.DoLast)
		stack = pushStmts(stack, n.Do)
		stack = pushComments(stack, n.CondLast)
		stack = pushStmts(stack, n.Cond)
	case *syntax.ForClause:
		stack = pushComments(stack, n.DoLast)
		stack = pushStmts(stack, n.Do)
		stack = append(stack, n.Loop)
	case *syntax.WordIter:
		stack = pushList(stack, n.Items)
		stack = append(stack, n.Name)
	case *syntax.CStyleLoop:
		if n.Post != nil {
			stack = append(stack, n.Post)
		}
		if n.Cond != nil {
			stack = append(stack, n.Cond)
		}
		if n.Init != nil {
			stack = append(stack, n.Init)
		}
	case *syntax.BinaryCmd:
		stack = append(stack, n.Y, n.X)
	case *syntax.FuncDecl:
		stack = append(stack, n.Body)
		stack = pushList(stack, n.Names)
		if n.Name != nil {
			stack = append(stack, n.Name)
		}
	case *syntax.Word:
		stack = pushList(stack, n.Parts)
	case *syntax.DblQuoted:
		stack = pushList(stack, n.Parts)
	case *syntax.CmdSubst:
		stack = pushComments(stack, n.Last)
		stack = pushStmts(stack, n.Stmts)
	case *syntax.ParamExp:
		if n.Exp != nil && n.Exp.Word != nil {
			stack = append(stack, n.Exp.Word)
		}
		if n.Repl != nil {
			if n.Repl.With != nil {
				stack = append(stack, n.Repl.With)
			}
			if n.Repl.Orig != nil {
				stack = append(stack, n.Repl.Orig)
			}
		}
		if n.Slice != nil {
			if n.Slice.Length != nil {
				stack = append(stack, n.Slice.Length)
			}
			if n.Slice.Offset != nil {
				stack = append(stack, n.Slice.Offset)
			}
		}
		if n.Index != nil {
			stack = append(stack, n.Index)
		}
		if n.NestedParam != nil {
			stack = append(stack, n.NestedParam)
		}
		if n.Param != nil {
			stack = append(stack, n.Param)
		}
		if n.Flags != nil {
			stack = append(stack, n.Flags)
		}
	case *syntax.ArithmExp:
		stack = append(stack, n.X)
	case *syntax.ArithmCmd:
		stack = append(stack, n.X)
	case *syntax.BinaryArithm:
		stack = append(stack, n.Y, n.X)
	case *syntax.BinaryTest:
		stack = append(stack, n.Y, n.X)
	case *syntax.UnaryArithm:
		stack = append(stack, n.X)
	case *syntax.UnaryTest:
		stack = append(stack, n.X)
	case *syntax.ParenArithm:
		stack = append(stack, n.X)
	case *syntax.FlagsArithm:
		if n.X != nil {
			stack = append(stack, n.X)
		}
		stack = append(stack, n.Flags)
	case *syntax.ParenTest:
		stack = append(stack, n.X)
	case *syntax.CaseClause:
		stack = pushComments(stack, n.Last)
		stack = pushList(stack, n.Items)
		stack = append(stack, n.Word)
	case *syntax.TestClause:
		stack = append(stack, n.X)
	case *syntax.DeclClause:
		stack = pushList(stack, n.Args)
	case *syntax.ArrayExpr:
		stack = pushComments(stack, n.Last)
		stack = pushList(stack, n.Elems)
	case *syntax.ExtGlob:
		stack = append(stack, n.Pattern)
	case *syntax.ProcSubst:
		stack = pushComments(stack, n.Last)
		stack = pushStmts(stack, n.Stmts)
	case *syntax.TimeClause:
		if n.Stmt != nil {
			stack = append(stack, n.Stmt)
		}
	case *syntax.CoprocClause:
		stack = append(stack, n.Stmt)
		if n.Name != nil {
			stack = append(stack, n.Name)
		}
	case *syntax.LetClause:
		stack = pushList(stack, n.Exprs)
	case *syntax.TestDecl:
		stack = append(stack, n.Body, n.Description)
	default:
		// syntax.Walk fails on a node type it does not know; let it.
		if leave {
			stack = stack[:len(stack)-1]
		}
		syntax.Walk(n, func(syntax.Node) bool { return true })
	}
	return stack
}

// deferComment puts c under the leave marker on top of the stack, or
// under the children still to push: walked after leaving the node, as
// syntax.Walk's deferred walk of it.
func deferComment(stack []syntax.Node, c *syntax.Comment, leave bool) []syntax.Node {
	if !leave {
		return append(stack, c)
	}
	stack[len(stack)-1] = c
	return append(stack, leaveNode)
}
