package policy

import "mvdan.cc/sh/v3/syntax"

// walk is syntax.Walk: the same calls of f in the same order, f(nil) on
// leaving a node included. The chains the parser builds from flat text
// (a | b | …, a && b && …, elif …, f() g() …, time time …, $((1+1+…)),
// [[ ! ! … ]]) are walked with an explicit stack instead of recursion, so
// their length costs heap rather than goroutine stack, which Go grows by
// copying it: syntax.Walk takes 3 s over 1 MiB of nested function
// definitions, walk 15 ms, and a stack past its limit is a fatal error no
// recover catches. Other nodes are nested no deeper than the bracket,
// keyword and prefix caps allow.
func walk(root syntax.Node, f func(syntax.Node) bool) {
	w := walker{f: f}
	w.visit = w.delegated
	w.run(root)
}

type walker struct {
	f     func(syntax.Node) bool
	visit func(syntax.Node) bool // w.delegated, bound once
	stack []syntax.Node          // nil means "leave a node": call f(nil)
	cur   syntax.Node            // the node handed to syntax.Walk
}

// delegated is f for syntax.Walk, which hands chain nodes back to run.
func (w *walker) delegated(m syntax.Node) bool {
	if m != w.cur && m != nil && chainNode(m) {
		w.run(m)
		return false
	}
	return w.f(m)
}

func (w *walker) run(root syntax.Node) {
	base := len(w.stack)
	w.stack = append(w.stack, root)
	for len(w.stack) > base {
		n := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		if n == nil {
			w.f(nil)
			continue
		}
		if !chainNode(n) {
			prev := w.cur
			w.cur = n
			syntax.Walk(n, w.visit)
			w.cur = prev
			continue
		}
		if !w.f(n) {
			continue
		}
		stack := append(w.stack, nil)
		// Children are pushed last first, so they pop in syntax.Walk's order.
		switch n := n.(type) {
		case *syntax.Stmt:
			for i := len(n.Redirs) - 1; i >= 0; i-- {
				stack = append(stack, n.Redirs[i])
			}
			if n.Cmd != nil {
				stack = append(stack, n.Cmd)
			}
		case *syntax.BinaryCmd:
			stack = append(stack, n.Y, n.X)
		case *syntax.IfClause:
			if n.Else != nil {
				stack = append(stack, n.Else)
			}
			for i := len(n.Then) - 1; i >= 0; i-- {
				stack = append(stack, n.Then[i])
			}
			for i := len(n.Cond) - 1; i >= 0; i-- {
				stack = append(stack, n.Cond[i])
			}
		case *syntax.FuncDecl:
			stack = append(stack, n.Body)
			for i := len(n.Names) - 1; i >= 0; i-- {
				stack = append(stack, n.Names[i])
			}
			if n.Name != nil {
				stack = append(stack, n.Name)
			}
		case *syntax.TimeClause:
			if n.Stmt != nil {
				stack = append(stack, n.Stmt)
			}
		case *syntax.CoprocClause:
			stack = append(stack, n.Stmt)
			if n.Name != nil {
				stack = append(stack, n.Name)
			}
		case *syntax.BinaryArithm:
			stack = append(stack, n.Y, n.X)
		case *syntax.BinaryTest:
			stack = append(stack, n.Y, n.X)
		case *syntax.UnaryArithm:
			stack = append(stack, n.X)
		case *syntax.UnaryTest:
			stack = append(stack, n.X)
		}
		w.stack = stack
	}
}

// chainNode reports whether walk steps through n itself. Nodes carrying
// comments are left to syntax.Walk, which orders them among the children.
func chainNode(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Stmt:
		return len(n.Comments) == 0
	case *syntax.IfClause:
		return len(n.CondLast) == 0 && len(n.ThenLast) == 0 && len(n.Last) == 0
	case *syntax.BinaryCmd, *syntax.FuncDecl, *syntax.TimeClause, *syntax.CoprocClause,
		*syntax.BinaryArithm, *syntax.BinaryTest, *syntax.UnaryArithm, *syntax.UnaryTest:
		return true
	}
	return false
}
