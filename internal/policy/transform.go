package policy

// What a command substitution or a pipe stage prints when a transforming
// filter (filters.go) reads literal text: $(base64 -d <<< …), $(echo … |
// rev), echo … | tr A-Z a-z | xargs cat. The output counts as the
// literals do: protected paths, the consumer's arguments and xargs see it.

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxFilterStages bounds the statements visited computing one pipeline:
// each command and each pipe joining two, so 16 commands (and the
// recursion down a long pipeline's left side stops as soon).
const maxFilterStages = 31

// filterWords strips what runs a program as itself (command, builtin,
// env without options, a path) and returns its name by base name.
func filterWords(vals []string) []string {
	for len(vals) > 1 && (vals[0] == "command" || vals[0] == "builtin" || vals[0] == "env") {
		vals = vals[1:]
	}
	if i := strings.LastIndexByte(vals[0], '/'); i >= 0 {
		vals = append([]string{vals[0][i+1:]}, vals[1:]...)
	}
	return vals
}

// filterHead reports whether a command's first word is literal and names
// a filter filterOut computes (or echo or printf), before any of its other
// words are resolved: most substitutions are of other programs and cost
// nothing more.
func filterHead(ce *syntax.CallExpr, sc *scope) bool {
	if len(ce.Args) == 0 || len(ce.Assigns) > 0 {
		return false
	}
	v, ok := litValue(ce.Args[0])
	if !ok || sc.shadowed(v) {
		return false
	}
	if v == "command" || v == "builtin" || v == "env" {
		if len(ce.Args) < 2 {
			return false
		}
		if v, ok = litValue(ce.Args[1]); !ok || sc.shadowed(path.Base(v)) {
			return false
		}
	}
	n := path.Base(v)
	return filterNames[n] || n == "echo" || n == "printf"
}

// stmtOutput is what s writes to standard output reading in, when that is
// known exactly. ok is false otherwise.
func (e *eval) stmtOutput(s *syntax.Stmt, in stdinSrc, ctx cctx, sc *scope, stages *int) (string, bool) {
	if s == nil || s.Background || s.Negated || ctx.depth > maxDepth {
		return "", false
	}
	*stages++
	if *stages > maxFilterStages {
		return "", false
	}
	switch c := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op != syntax.Pipe || len(s.Redirs) > 0 {
			return "", false
		}
		out, ok := e.stmtOutput(c.X, in, ctx, sc, stages)
		if !ok {
			return "", false
		}
		return e.stmtOutput(c.Y, stdinSrc{kind: stdinText, text: out}, ctx, sc, stages)
	case *syntax.CallExpr:
		if !filterHead(c, sc) {
			return "", false
		}
		ctx.depth += 8
		r := resolver{e: e, ctx: ctx, sc: sc}
		ws := c.Args
		for _, rd := range s.Redirs {
			if rd.Word != nil {
				ws = append(ws[:len(ws):len(ws)], rd.Word)
			}
		}
		if bs := sc.bindings(ws); len(bs) == 1 {
			// x=…; $(base64 -d <<< $x): the variables' one value each.
			r.bind = bs[0]
		}
		for _, rd := range s.Redirs {
			switch fd := redirFD(rd); {
			case fd == 0 && rd.Op == syntax.WordHdoc:
				v, ok := r.known(rd.Word)
				if !ok {
					return "", false
				}
				in = stdinSrc{kind: stdinText, text: v + "\n"}
			case fd == 0 && (rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc):
				if rd.Hdoc == nil {
					in = stdinSrc{kind: stdinText}
					break
				}
				v, ok := hdocText(rd.Hdoc)
				if !ok {
					return "", false
				}
				in = stdinSrc{kind: stdinText, text: v}
			case fd == 0 && rd.Op == syntax.RdrIn:
				// < FILE the script wrote: the last text it wrote there.
				ts := sc.stdinTexts([]*syntax.Redirect{rd})
				if len(ts) == 0 {
					return "", false
				}
				in = stdinSrc{kind: stdinText, text: ts[len(ts)-1]}
			case fd >= 2 && (rd.Op == syntax.RdrOut || rd.Op == syntax.AppOut || rd.Op == syntax.DplOut):
				// 2>/dev/null: not what the pipe carries.
			default:
				return "", false
			}
		}
		args := r.fieldsAll(c.Args)
		for _, a := range args {
			if !a.known || a.glob {
				return "", false
			}
		}
		if len(args) == 0 {
			return "", false
		}
		vals := filterWords(argVals(args))
		switch vals[0] {
		case "echo", "printf":
			out, ok := e.echoOutputWith(c.Args, ctx, sc, r.bind)
			return out + "\n", ok
		case "cat":
			if len(vals) == 2 && !strings.HasPrefix(vals[1], "-") {
				// cat FILE the script wrote: the last text it wrote.
				if ts := sc.fileTexts(vals[1]); len(ts) > 0 {
					return ts[len(ts)-1], true
				}
			}
		}
		return filterOut(vals, in.text, in.kind == stdinText)
	}
	return "", false
}

// substOutput is what a command substitution prints, without the line
// ends $(…) removes, when a filter computes it from literal text: a
// pipeline ($(echo … | base64 -d)), a filter reading a here-string
// ($(rev <<< …)) or naming its operands ($(dirname …)), and cd DIR &&
// pwd. The plain echo, printf and cat forms are printed.go's.
func (e *eval) substOutput(cs *syntax.CmdSubst, ctx cctx, sc *scope) (string, bool) {
	if e == nil || !e.substCall() {
		return "", false
	}
	defer e.substDone()
	switch len(cs.Stmts) {
	case 1:
	case 2:
		return cdPwd(cs.Stmts[0], cs.Stmts[1])
	default:
		return "", false
	}
	s := cs.Stmts[0]
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && b.Op == syntax.AndStmt && len(s.Redirs) == 0 && !s.Negated {
		return cdPwd(b.X, b.Y)
	}
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && len(s.Redirs) == 0 && len(ce.Args) > 0 {
		if v, _ := litValue(ce.Args[0]); v == "echo" || v == "printf" {
			return "", false // echoOutput has tried it
		}
	}
	stages := 0
	out, ok := e.stmtOutput(s, stdinSrc{kind: stdinUnknown}, ctx, sc, &stages)
	if !ok {
		return "", false
	}
	return strings.TrimRight(out, "\n"), true
}

// cdPwd is what cd DIR then pwd print: DIR, cleaned, for an absolute
// literal DIR (pwd -P, which resolves links, is not computed).
func cdPwd(a, b *syntax.Stmt) (string, bool) {
	ca, ok1 := a.Cmd.(*syntax.CallExpr)
	cb, ok2 := b.Cmd.(*syntax.CallExpr)
	if !ok1 || !ok2 || len(a.Redirs) > 0 || len(b.Redirs) > 0 || a.Negated || b.Negated {
		return "", false
	}
	va, ok1 := litValues(ca.Args)
	vb, ok2 := litValues(cb.Args)
	if !ok1 || !ok2 || len(va) != 2 || va[0] != "cd" || !strings.HasPrefix(va[1], "/") || len(ca.Assigns) > 0 {
		return "", false
	}
	if len(vb) == 0 || vb[0] != "pwd" || len(vb) > 2 || len(vb) == 2 && vb[1] != "-L" {
		return "", false
	}
	return path.Clean(va[1]), true
}
