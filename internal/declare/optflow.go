package declare

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A value assigned to a variable (x={{ .v }}, a for loop's word, an
// array's element, x=$(printf %s {{ .v }})) reaches every argument that
// variable is expanded into, so `x={{ .v }}; sort "$x" f` makes the value
// sort's option as surely as `sort {{ .v }} f`. Unquoted, the expansion is
// also split into words, and any of them may start with '-'
// (`sort $x f` with "a -o/etc/passwd"). Each argument a value reaches
// this way is checked as if the value were printed there.

// reach is one argument of prog a value reaches through a variable.
type reach struct {
	prog, via string
	// start: the value may begin the argument; split: the expansion
	// is unquoted, so every word after the value's first starts one.
	start, split bool
}

// check refuses the value if it would be an option where it reaches.
func (r reach) check(p placeholder) error {
	if p.mayOpt || p.from == "" {
		return nil
	}
	v := p.text
	if p.isWords {
		v = strings.Join(p.words, " ")
	}
	var texts []string
	if r.start {
		texts = append(texts, strings.TrimLeft(v, " \t\n"))
	}
	if r.split {
		fields := strings.Fields(v)
		// The first field is glued to what comes before the value unless
		// the value starts with a blank.
		if !r.start && len(fields) > 0 && !strings.ContainsRune(" \t\n", rune(v[0])) {
			fields = fields[1:]
		}
		texts = append(texts, fields...)
	}
	for _, w := range texts {
		if optionStart(w, r.prog) {
			return fmt.Errorf("parameter %s reaches an argument of %s through $%s, and a word of it starts with %q, which %s would read as an option; refused (the tool's command can put the expansion after `--`, attach it to its option as --name=\"$%s\", or declare the parameter option: true)", p.from, r.prog, r.via, w[:1], r.prog, r.via)
		}
	}
	return nil
}

// optionFlow finds, for each site, the arguments its value reaches
// through the variables arithFlow found it assigned to.
func optionFlow(f *syntax.File, s string, sites []site) {
	var stack []syntax.Node
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		pe, ok := n.(*syntax.ParamExp)
		if !ok || pe.Param == nil || pe.Length {
			return true
		}
		for i := range sites {
			st := &sites[i]
			if !reached(st.names, pe.Param.Value) {
				continue
			}
			for _, r := range reaches(stack, s) {
				r.via = pe.Param.Value
				r.start = r.start && valueStarts(f, s, st, pe.Param.Value)
				if !slices.Contains(st.reaches, r) {
					st.reaches = append(st.reaches, r)
				}
			}
		}
		return true
	})
}

// reaches lists the arguments the expansion at the top of stack lands in:
// the word of a simple command it is part of and, through $( … ), the
// words of the commands around that.
func reaches(stack []syntax.Node, s string) []reach {
	var out []reach
	pe := stack[len(stack)-1]
	quoted, subst := false, false
	for i := len(stack) - 2; i >= 1; i-- {
		switch x := stack[i].(type) {
		case *syntax.DblQuoted:
			quoted = true
		case *syntax.CmdSubst, *syntax.ProcSubst:
			// What the command prints is the word's text: it may start
			// it, and is split unless quoted outside.
			subst, quoted = true, false
		case *syntax.ParamExp:
			subst = true // ${y:-$x}: the value may start the word
		case *syntax.Word:
			call, ok := stack[i-1].(*syntax.CallExpr)
			if !ok {
				continue
			}
			idx := slices.Index(call.Args, x)
			if idx < 1 {
				continue
			}
			prog, ok := optionCommand(call, idx)
			if !ok {
				continue
			}
			before := s[int(x.Pos().Offset()):int(pe.Pos().Offset())]
			out = append(out, reach{prog: prog, start: subst || strings.Trim(before, `"`) == "", split: !quoted})
		}
	}
	return out
}

// valueStarts reports whether the site's value may begin name's text:
// false only when name is set nowhere but by assignments that hold the
// value after literal text (x=ab{{ .v }}).
func valueStarts(f *syntax.File, s string, st *site, name string) bool {
	prefixed, other := false, false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.WordIter:
			other = other || x.Name != nil && x.Name.Value == name
		case *syntax.Stmt:
			for _, set := range assignedBy(x) {
				other = other || covers(set, name)
			}
		case *syntax.Assign:
			if x.Name == nil || x.Name.Value != name {
				break
			}
			w := x.Value
			if w == nil || x.Array != nil || st.start < int(w.Pos().Offset()) || st.start >= int(w.End().Offset()) {
				other = true // an array's element, or held through another name
				break
			}
			before := s[int(w.Pos().Offset()):st.start]
			if strings.ContainsAny(before, "$`") || strings.Trim(before, `"'`) == "" {
				other = true
			} else {
				prefixed = true
			}
		}
		return !other
	})
	return other || !prefixed
}
