package declare

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates arithmetic recursively: the text of a variable used in
// $((…)), ((…)), let, [[ x -eq y ]], an array index or a declare -i
// variable is itself evaluated, and an array subscript in it runs $(…).
// Quoting cannot help once a value is the text of such a variable, so a
// value that flows into one by assignment is refused; so are values given
// to builtins that read a variable name (read, printf -v, test -v, unset,
// …) or that run their argument as code (eval, sh -c, source).

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func isArithTest(op syntax.BinTestOperator) bool {
	switch op {
	case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
		return true
	}
	return false
}

// litText is a word's text when it is one plain literal.
func litText(w *syntax.Word) (string, bool) {
	if w == nil || len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return "", false
	}
	return l.Value, true
}

var shells = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "ash": true, "busybox": true}

var declBuiltins = map[string]bool{"declare": true, "typeset": true, "local": true, "export": true, "readonly": true, "nameref": true}

// need is what a value must be, at the call, to go where the template
// puts it.
type need int

const (
	needNothing need = iota
	needRefused      // never: refused whatever the value
	needName         // no [, $ or ` (bash evaluates array subscripts)
	needInert        // letters, digits and _./:=@%+,- only (shell code)
)

var inertRE = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]*$`)

// check reports whether v may go where n says, and why not.
func (n need) check(v string) string {
	switch n {
	case needName:
		if strings.ContainsAny(v, "[$`") {
			return "the value contains [, $ or `"
		}
	case needInert:
		if !inertRE.MatchString(v) {
			return "the value has characters other than letters, digits and _./:=@%+,-"
		}
	}
	return ""
}

func (n need) rule() string {
	if n == needInert {
		return "calls whose value has characters other than letters, digits and _./:=@%+,- are refused"
	}
	return "calls whose value contains [, $ or ` are refused"
}

var codeFlag = regexp.MustCompile(`^-[A-Za-z]*c[A-Za-z]*$`)

// argSink says what argument i of call (whose word holds the value's
// sentinel, text before it in prefix) needs, and why.
func argSink(call *syntax.CallExpr, i int, prefix string) (string, need) {
	name, ok := litText(call.Args[0])
	if !ok {
		return "", needNothing
	}
	name = strings.TrimSuffix(name[strings.LastIndexByte(name, '/')+1:], ".exe")
	prev, _ := litText(call.Args[i-1])
	switch {
	case name == "eval":
		return "is given to eval, which runs it as shell code whatever the quoting", needInert
	case shells[name] && codeFlag.MatchString(prev):
		return fmt.Sprintf("is the command string of %s %s, which runs it as shell code whatever the quoting", name, prev), needInert
	case name == "source" || name == ".":
		return "a parameter names a script for " + name + " to run", needRefused
	case name == "printf" && prev == "-v", (name == "test" || name == "[") && (prev == "-v" || prev == "-R"):
		return fmt.Sprintf("is the variable name of %s %s, where bash evaluates an array subscript (and runs $(…) in it)", name, prev), needName
	case name == "read":
		switch prev {
		case "-p", "-d", "-i", "-t", "-n", "-N", "-u":
			return "", needNothing
		}
		return "is a variable name for read, where bash evaluates an array subscript (and runs $(…) in it)", needName
	case name == "unset" || name == "mapfile" || name == "readarray" || name == "getopts" || name == "let" || name == "wait":
		return fmt.Sprintf("is an argument of %s, which bash reads as a variable name or arithmetic (and runs $(…) in an array subscript)", name), needName
	case declBuiltins[name] && !strings.Contains(prefix, "="):
		return "is a variable name for " + name + ", where bash evaluates an array subscript", needName
	}
	return "", needNothing
}

// arithFlow finds the names each value reaches by assignment or a for
// loop (site.names), and values that reach arithmetic through them:
// assigned (directly or through other variables) to a name that is then
// used in arithmetic, or to a variable declared integer. Such a value
// must not contain [, $ or `: it sets each one's need and reason.
func arithFlow(f *syntax.File, sites []site) {
	// flows reports whether n's value carries the site's value or a
	// name's. Inside $( … ) only a value printed as it is counts: an
	// argument of echo or printf, input of cat, a here-string or
	// here-document (X=$(echo "$V" | sed …)), not X=$(grep -c "$V" f).
	flows := func(n syntax.Node, st site, names map[string]bool) bool {
		found := false
		var stack []syntax.Node
		syntax.Walk(n, func(x syntax.Node) bool {
			if x == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			if found {
				return false
			}
			if c, ok := x.(*syntax.CallExpr); ok && slices.ContainsFunc(stack, func(a syntax.Node) bool { _, ok := a.(*syntax.CmdSubst); return ok }) && !printsValue(c) {
				return false
			}
			switch v := x.(type) {
			case *syntax.ParamExp:
				if v.Param != nil && reached(names, v.Param.Value) {
					found = true
				}
			case *syntax.Lit, *syntax.SglQuoted:
				if st.start >= int(x.Pos().Offset()) && st.start < int(x.End().Offset()) {
					found = true
				}
			}
			stack = append(stack, x)
			return true
		})
		return found
	}
	var assigns []*syntax.Assign
	var iters []*syntax.WordIter
	var setters []setter
	integers := map[string]bool{}
	syntax.Walk(f, func(x syntax.Node) bool {
		switch n := x.(type) {
		case *syntax.Assign:
			assigns = append(assigns, n)
		case *syntax.WordIter:
			iters = append(iters, n)
		case *syntax.Stmt:
			if names := assignedBy(n); len(names) > 0 {
				setters = append(setters, setter{n, names})
			}
		case *syntax.DeclClause:
			isInt := false
			for _, a := range n.Args {
				if t, ok := litText(a.Value); a.Naked && ok && strings.HasPrefix(t, "-") && strings.ContainsAny(t, "in") {
					isInt = true
				}
			}
			if isInt {
				for _, a := range n.Args {
					if a.Name != nil {
						integers[a.Name.Value] = true
					}
				}
			}
		}
		return true
	})
	// Each value's tainted names, then the names they reach.
	for i := range sites {
		st := &sites[i]
		tainted := map[string]bool{}
		for changed := true; changed; {
			changed = false
			for _, a := range assigns {
				if a.Name == nil || tainted[a.Name.Value] {
					continue
				}
				var v syntax.Node
				switch {
				case a.Value != nil:
					v = a.Value
				case a.Array != nil:
					v = a.Array
				}
				if v != nil && flows(v, *st, tainted) {
					tainted[a.Name.Value] = true
					changed = true
				}
			}
			for _, it := range iters {
				if it.Name == nil || tainted[it.Name.Value] {
					continue
				}
				for _, w := range it.Items {
					if flows(w, *st, tainted) {
						tainted[it.Name.Value] = true
						changed = true
						break
					}
				}
			}
			for _, set := range setters {
				if flows(set.stmt, *st, tainted) {
					for _, name := range set.names {
						if !tainted[name] {
							tainted[name] = true
							changed = true
						}
					}
				}
			}
		}
		st.names = tainted
		if name := arithName(f, tainted, integers); name != "" && st.need == needNothing {
			st.need = needName
			st.why = fmt.Sprintf("is assigned to %s, which bash evaluates as arithmetic (running $(…) in an array subscript)", name)
		}
	}
}

// setter is a command that sets variables from its words or input.
type setter struct {
	stmt  *syntax.Stmt
	names []string
}

// assignedBy names the variables a statement's command sets from what it
// is given: read's and mapfile's names (REPLY, MAPFILE when none), printf
// -v's, and set's positional parameters ("@" stands for them all). Every
// plain name among the words counts; a name too many only checks more.
func assignedBy(st *syntax.Stmt) []string {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	name, _ := litText(call.Args[0])
	var names []string
	switch name {
	case "set":
		return []string{"@"}
	case "read":
		names = []string{"REPLY"}
	case "mapfile", "readarray":
		names = []string{"MAPFILE"}
	case "printf":
	default:
		return nil
	}
	for _, a := range call.Args[1:] {
		if t, ok := litText(a); ok && identRE.MatchString(t) {
			names = append(names, t)
		}
	}
	return names
}

// reached reports whether name is among names: "@" there stands for
// every positional parameter.
func reached(names map[string]bool, name string) bool {
	return names[name] || names["@"] && covers("@", name)
}

// covers reports whether setting set sets name: itself, or for "@" (set
// --) every positional parameter.
func covers(set, name string) bool {
	if set != "@" || name == "" {
		return set == name
	}
	return name == "@" || name == "*" || strings.Trim(name, "0123456789") == ""
}

// printsValue reports whether a command prints its arguments as they
// are: echo, printf or cat.
func printsValue(call *syntax.CallExpr) bool {
	if len(call.Args) == 0 {
		return false
	}
	name, _ := litText(call.Args[0])
	return name == "echo" || name == "printf" || name == "cat"
}

// arithName returns a tainted name that is declared integer or used in
// arithmetic, or "".
func arithName(f *syntax.File, tainted, integers map[string]bool) string {
	if len(tainted) == 0 {
		return ""
	}
	for name := range tainted {
		if integers[name] {
			return name
		}
	}
	// Names used in arithmetic: variables and bare words.
	var used []string
	collect := func(n syntax.Node) {
		if n == nil {
			return
		}
		syntax.Walk(n, func(x syntax.Node) bool {
			switch v := x.(type) {
			case *syntax.ParamExp:
				if v.Param != nil {
					used = append(used, v.Param.Value)
				}
			case *syntax.Lit:
				if identRE.MatchString(v.Value) {
					used = append(used, v.Value)
				}
			}
			return true
		})
	}
	syntax.Walk(f, func(x syntax.Node) bool {
		switch n := x.(type) {
		case *syntax.ArithmExp:
			collect(n.X)
		case *syntax.ArithmCmd:
			collect(n.X)
		case *syntax.LetClause:
			for _, e := range n.Exprs {
				collect(e)
			}
		case *syntax.CStyleLoop:
			collect(n.Init)
			collect(n.Cond)
			collect(n.Post)
		case *syntax.BinaryTest:
			if isArithTest(n.Op) {
				collect(n.X)
				collect(n.Y)
			}
		case *syntax.UnaryTest:
			if n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar {
				collect(n.X)
			}
		case *syntax.ParamExp:
			collect(n.Index)
			if n.Slice != nil {
				collect(n.Slice.Offset)
				collect(n.Slice.Length)
			}
		case *syntax.Assign:
			collect(n.Index)
		}
		return true
	})
	for _, name := range used {
		if reached(tainted, name) {
			return name
		}
	}
	return ""
}
