package policy

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// mendCoprocs repairs how the parser reads "coproc CMD ARGS" as a simple
// command. It takes words after the command name that look like
// assignments (coproc dd of=/dev/sda) for assignments of the command,
// which drops them from its arguments, and assignments before the name
// (coproc A=1 sysupgrade) for the command name. Bash reads both as any
// simple command: of=/dev/sda is dd's operand, A=1 goes to the
// environment and sysupgrade runs. src is the parsed text: most has no
// coproc, and then nothing is walked.
func mendCoprocs(f *syntax.File, src string) {
	if f == nil || !strings.Contains(src, "coproc") {
		return
	}
	walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CoprocClause); ok && c.Stmt != nil {
			mendCoprocName(c)
			if ce, ok := c.Stmt.Cmd.(*syntax.CallExpr); ok {
				mendCoprocCall(ce)
			}
		}
		return true
	})
}

// mendCoprocName gives a coprocess's name back to its command where
// bash reads none. Bash takes the word after coproc for a name only
// before a compound command (coproc NAME { …; }); the parser takes it for
// one before a redirection too, so "coproc reboot </dev/null" read as a
// coprocess named reboot that runs nothing, where bash runs reboot.
func mendCoprocName(c *syntax.CoprocClause) {
	if c.Name == nil {
		return
	}
	switch cmd := c.Stmt.Cmd.(type) {
	case nil:
		c.Stmt.Cmd = &syntax.CallExpr{Args: []*syntax.Word{c.Name}}
	case *syntax.CallExpr:
		cmd.Args = append([]*syntax.Word{c.Name}, cmd.Args...)
	default:
		return
	}
	c.Name = nil
}

// mendCoprocCall puts the words and assignments of ce where bash would.
func mendCoprocCall(ce *syntax.CallExpr) {
	// Leading words shaped NAME=… or NAME+=… are assignments.
	lead := 0
	for lead < len(ce.Args) {
		a, ok := wordAssign(ce.Args[lead])
		if !ok {
			break
		}
		ce.Assigns = append(ce.Assigns, a)
		lead++
	}
	ce.Args = ce.Args[lead:]
	if len(ce.Args) == 0 {
		return
	}
	// Assignments after the command name are its arguments.
	name := ce.Args[0].Pos()
	keep := ce.Assigns[:0]
	moved := false
	for _, a := range ce.Assigns {
		if w, ok := assignWord(a); ok && a.Pos().After(name) {
			ce.Args = append(ce.Args, w)
			moved = true
			continue
		}
		keep = append(keep, a)
	}
	ce.Assigns = keep
	if moved {
		slices.SortStableFunc(ce.Args, func(x, y *syntax.Word) int {
			return int(x.Pos().Offset()) - int(y.Pos().Offset())
		})
	}
}

// wordAssign reads w as an assignment when it starts with an unquoted
// NAME= or NAME+=.
func wordAssign(w *syntax.Word) (*syntax.Assign, bool) {
	if len(w.Parts) == 0 {
		return nil, false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return nil, false
	}
	eq := strings.IndexByte(l.Value, '=')
	if eq <= 0 {
		return nil, false
	}
	name, app := l.Value[:eq], false
	if strings.HasSuffix(name, "+") {
		name, app = name[:len(name)-1], true
	}
	if !validName(name) {
		return nil, false
	}
	at := func(k int) syntax.Pos {
		p := l.ValuePos
		return syntax.NewPos(p.Offset()+uint(k), p.Line(), p.Col()+uint(k))
	}
	a := &syntax.Assign{Append: app, Name: &syntax.Lit{ValuePos: l.ValuePos, ValueEnd: at(len(name)), Value: name}}
	rest := l.Value[eq+1:]
	parts := w.Parts[1:]
	if rest != "" {
		parts = append([]syntax.WordPart{&syntax.Lit{ValuePos: at(eq + 1), ValueEnd: l.ValueEnd, Value: rest}}, parts...)
	}
	if len(parts) > 0 {
		a.Value = &syntax.Word{Parts: parts}
	}
	return a, true
}

// assignWord writes a back as the word NAME=VALUE; an array or indexed
// assignment stays one.
func assignWord(a *syntax.Assign) (*syntax.Word, bool) {
	if a.Naked || a.Index != nil || a.Array != nil || a.Name == nil {
		return nil, false
	}
	op := "="
	if a.Append {
		op = "+="
	}
	head := &syntax.Lit{ValuePos: a.Name.ValuePos, ValueEnd: a.Name.ValueEnd, Value: a.Name.Value + op}
	w := &syntax.Word{Parts: []syntax.WordPart{head}}
	if a.Value == nil {
		return w, true
	}
	parts := a.Value.Parts
	if l, ok := firstLit(parts); ok {
		head.Value += l.Value
		head.ValueEnd = l.ValueEnd
		parts = parts[1:]
	}
	w.Parts = append(w.Parts, parts...)
	return w, true
}

func firstLit(parts []syntax.WordPart) (*syntax.Lit, bool) {
	if len(parts) == 0 {
		return nil, false
	}
	l, ok := parts[0].(*syntax.Lit)
	return l, ok
}

// ParseBash parses src as bash and mends what the parser reads otherwise
// than bash (mendCoprocs), as the classifier does, so that a caller
// walking its commands sees the ones bash runs.
func ParseBash(src string) (*syntax.File, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, err
	}
	mendCoprocs(f, src)
	return f, nil
}
