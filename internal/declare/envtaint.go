package declare

import (
	"fmt"
	"slices"
	"text/template/parse"
)

// In a shell template, what env returns reaches the command as a
// reference to its variable ("${NAME}") only when an action prints it
// unchanged: the renderer knows the value and prints the name instead.
// Any function between env and the print (upper, b64enc, trunc, replace,
// printf, index, slice, a range over its characters, a comparison in an
// if) makes another text, which the renderer cannot tell from any other,
// and which went onto the command line — every local process's to read —
// as it was. So a shell template may use env's value in these forms only,
// and any other is refused when the template is parsed:
//
//	{{ env "NAME" }}, {{ (env "NAME") }}, {{ env "NAME" | quote }},
//	{{ quote (env "NAME") }}, {{ env "NAME" | default "x" }},
//	{{ $k := env "NAME" }} … {{ $k }}, {{ with env "NAME" }}{{ . }}{{ end }},
//	{{ if env "NAME" }}…{{ end }} (whether it is set, not what it is).
//
// The rule is on the template's tree, not on the functions it calls, so
// every function and pipeline is covered: a variable or a with's dot that
// holds env's value is env's value wherever it is used.

// envTaint is what holds env's value at a point of the template: the
// variables assigned from it and whether dot is it.
type envTaint struct {
	vars map[string]bool
	dot  bool
}

// envOnly refuses every use of env's value in the tree but the forms
// above.
func envOnly(root *parse.ListNode) error {
	return envTaint{vars: map[string]bool{}}.list(root)
}

func (e envTaint) list(l *parse.ListNode) error {
	if l == nil {
		return nil
	}
	for _, n := range l.Nodes {
		if err := e.node(n); err != nil {
			return err
		}
	}
	return nil
}

func (e envTaint) node(n parse.Node) error {
	switch x := n.(type) {
	case *parse.ActionNode:
		if len(x.Pipe.Decl) > 0 {
			return e.decl(x.Pipe)
		}
		if e.uses(x.Pipe) && !e.printed(x.Pipe) {
			return envMisused(x.Pipe)
		}
	case *parse.IfNode:
		if err := e.cond(x.Pipe); err != nil {
			return err
		}
		return e.branch(&x.BranchNode, e)
	case *parse.WithNode:
		// with sets dot to its pipeline's value, declared or not.
		inner := envTaint{vars: e.vars}
		if e.uses(x.Pipe) {
			if !e.source(x.Pipe) {
				return envMisused(x.Pipe)
			}
			inner.dot = true
			for _, v := range x.Pipe.Decl {
				e.vars[v.Ident[0]] = true
			}
		}
		return e.branch(&x.BranchNode, inner)
	case *parse.RangeNode:
		if e.uses(x.Pipe) {
			return fmt.Errorf("template: %s: ranges over env's value, printing parts of it that could be no reference to its variable; print {{ env \"NAME\" }} alone and work on it in the shell", x.Pipe)
		}
		// Inside a range dot is an element of the range's own list.
		return e.branch(&x.BranchNode, envTaint{vars: e.vars})
	}
	return nil
}

// branch checks a branch's lists, its main list with dot as inner says.
func (e envTaint) branch(b *parse.BranchNode, inner envTaint) error {
	if err := inner.list(b.List); err != nil {
		return err
	}
	return e.list(b.ElseList)
}

// cond admits an if's condition that tests env's value as a whole (is it
// set), and nothing else made of it.
func (e envTaint) cond(p *parse.PipeNode) error {
	if len(p.Decl) > 0 {
		return e.decl(p)
	}
	if e.uses(p) && !e.source(p) {
		return envMisused(p)
	}
	return nil
}

// decl notes variables declared or assigned from env's value unchanged,
// and refuses any other declaration that uses it.
func (e envTaint) decl(p *parse.PipeNode) error {
	if !e.uses(p) {
		// A variable once env's value stays one: a template's scopes
		// may shadow it, and being too careful costs a refusal only.
		return nil
	}
	if !e.source(p) {
		return envMisused(p)
	}
	for _, v := range p.Decl {
		e.vars[v.Ident[0]] = true
	}
	return nil
}

// uses reports whether n calls env or reads what holds its value.
func (e envTaint) uses(n parse.Node) bool {
	switch x := n.(type) {
	case *parse.PipeNode:
		if x == nil {
			return false
		}
		for _, c := range x.Cmds {
			if e.uses(c) {
				return true
			}
		}
	case *parse.CommandNode:
		for _, a := range x.Args {
			if e.uses(a) {
				return true
			}
		}
	case *parse.ChainNode:
		return e.uses(x.Node)
	case *parse.IdentifierNode:
		return x.Ident == "env"
	case *parse.VariableNode:
		return e.vars[x.Ident[0]]
	case *parse.DotNode:
		return e.dot
	case *parse.FieldNode:
		return e.dot // .x of dot
	}
	return false
}

// holder reports whether a is env's value as it is: a call env NAME, a
// variable or dot holding it, or a parenthesised pipeline that is one.
func (e envTaint) holder(a parse.Node) bool {
	switch x := a.(type) {
	case *parse.VariableNode:
		return len(x.Ident) == 1 && e.vars[x.Ident[0]]
	case *parse.DotNode:
		return e.dot
	case *parse.PipeNode:
		return e.printed(x)
	}
	return false
}

// source reports whether p is env's value unchanged: env NAME (NAME not
// made of env itself), a holder, or either followed by `default X`.
func (e envTaint) source(p *parse.PipeNode) bool {
	if len(p.Cmds) == 0 {
		return false
	}
	c := p.Cmds[0]
	switch {
	case len(c.Args) == 2 && isIdent(c.Args[0], "env") && !e.uses(c.Args[1]):
	case len(c.Args) == 1 && e.holder(c.Args[0]):
	default:
		return false
	}
	for _, c := range p.Cmds[1:] {
		if !(len(c.Args) == 2 && isIdent(c.Args[0], "default") && !e.uses(c.Args[1])) {
			return false
		}
	}
	return true
}

// printed reports whether the action's pipeline p prints env's value as
// one word the renderer refers to: a source, quoted or not
// (`env "K" | quote`, `quote (env "K")`).
func (e envTaint) printed(p *parse.PipeNode) bool {
	if len(p.Decl) > 0 || len(p.Cmds) == 0 {
		return false
	}
	cmds := p.Cmds
	for len(cmds) > 1 && len(cmds[len(cmds)-1].Args) == 1 && isQuote(cmds[len(cmds)-1].Args[0]) {
		cmds = cmds[:len(cmds)-1]
	}
	if len(cmds) == 1 && len(cmds[0].Args) == 2 && isQuote(cmds[0].Args[0]) {
		return e.holder(cmds[0].Args[1])
	}
	return e.source(&parse.PipeNode{NodeType: parse.NodePipe, Cmds: cmds})
}

func isIdent(n parse.Node, name string) bool {
	id, ok := n.(*parse.IdentifierNode)
	return ok && id.Ident == name
}

func isQuote(n parse.Node) bool { return isIdent(n, "quote") || isIdent(n, "squote") }

func envMisused(p *parse.PipeNode) error {
	return fmt.Errorf(`template: {{ %s }}: env's value may only be printed as it is ({{ env "NAME" }}, optionally | quote), which the command then reads from the program's environment; any function applied to it (upper, b64enc, printf, trunc, a comparison, …) makes a text that would be on the command line, which every local process can read: print it alone and transform it in the shell`, p)
}

// callsEnv reports whether any action, condition or range of the tree
// calls env.
func callsEnv(n parse.Node) bool {
	e := envTaint{}
	switch x := n.(type) {
	case *parse.ListNode:
		if x == nil {
			return false
		}
		return slices.ContainsFunc(x.Nodes, callsEnv)
	case *parse.ActionNode:
		return e.uses(x.Pipe)
	case *parse.IfNode:
		return e.uses(x.Pipe) || callsEnv(x.List) || callsEnv(x.ElseList)
	case *parse.WithNode:
		return e.uses(x.Pipe) || callsEnv(x.List) || callsEnv(x.ElseList)
	case *parse.RangeNode:
		return e.uses(x.Pipe) || callsEnv(x.List) || callsEnv(x.ElseList)
	}
	return false
}
