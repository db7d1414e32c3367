package policy

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A variable's value is not known, and it may be empty: never set, or
// set from a command that printed nothing. rm -rf "$STEAMROOT/"* then
// removes /*, the bug that erased home directories; ShellCheck's SC2115
// asks for "${STEAMROOT:?}" there, which stops the shell instead. So a
// command the deny list refuses once its unknown variables are empty
// (rm -rf "$D/"*, chmod -R 000 "$D"/, rsync --delete into "$DEST/") is
// denied as that command is, with the fix in the reason.

// alwaysSet are the variables a shell or a login always sets to a
// non-empty value, so they are never read as empty.
var alwaysSet = set(`HOME PWD USER LOGNAME PATH SHELL UID EUID PPID HOSTNAME BASHPID RANDOM SECONDS
	LINENO BASH BASH_VERSION HOSTTYPE OSTYPE MACHTYPE IFS PS4 SHLVL`)

// emptyVarsDeny returns why the call, with every variable of unknown
// value in its words empty, would be denied, or "": by the deny list's
// tables or, when handled, by the program's handler (find -delete, find
// -exec rm), which classifies the call again with those words.
func (c *call) emptyVarsDeny(handled bool) string {
	// Only a word that keeps a slash once emptied can name what the deny
	// list refuses: "$D"/*, "$PREFIX/usr", "$HOME/$x" (~/).
	if !slices.ContainsFunc(c.args, func(a arg) bool {
		return !a.known && strings.IndexByte(a.val, '$') >= 0 && strings.IndexByte(a.val, '/') >= 0
	}) || !handled && !isDenyTrigger(c.name) {
		return ""
	}
	args := make([]arg, 0, len(c.args)+1)
	args = append(args, arg{val: c.path, known: true})
	var names []string
	for _, a := range c.args {
		if a.known {
			args = append(args, a)
			continue
		}
		v, ns, _, ok := c.emptiedArg(a)
		if !ok {
			return ""
		}
		args = append(args, arg{val: v, known: true, glob: a.glob})
		names = append(names, ns...)
	}
	if len(names) == 0 {
		return ""
	}
	why := ""
	if !handled {
		why = denyCheck(c.name, argVals(args[1:]))
	} else if _, _, deny := protectedArgs(c.name, c.args); !deny {
		// (Where the words as they are name warden's files, that
		// denial, made after the handler, says more.)
		s := c.e.fork()
		s.simple(args, c.ctx, "")
		if s.denied {
			why = s.denyWhy
		}
		s.release()
	}
	if why == "" {
		return ""
	}
	return why + emptiedWhy(names)
}

// emptiedArg returns the text of a, a word not known at parse time, with
// each variable of unknown value empty, the names it emptied, whether the
// word then vanishes (unquoted and empty: cd $D is cd), and whether it
// could tell.
func (c *call) emptiedArg(a arg) (string, []string, bool, bool) {
	w := c.e.wordOf(a.val)
	if w == nil {
		return "", nil, false, false
	}
	v, ns, ok := emptied(w.Parts, &c.ctx)
	if !ok {
		return "", nil, false, false
	}
	quoted := slices.ContainsFunc(w.Parts, func(p syntax.WordPart) bool {
		switch p.(type) {
		case *syntax.DblQuoted, *syntax.SglQuoted:
			return true
		}
		return false
	})
	return v, ns, v == "" && !quoted, true
}

// emptied returns the text parts give with each variable of unknown value
// empty (a default after :- or - in its place), the names it emptied, and
// whether it could tell: a substitution or another expansion can not, nor
// a variable guards say is set.
func emptied(parts []syntax.WordPart, ctx *cctx) (string, []string, bool) {
	sc := ctx.sc
	var b strings.Builder
	var names []string
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			v, ns, ok := emptied(p.Parts, ctx)
			if !ok {
				return "", nil, false
			}
			b.WriteString(v)
			names = append(names, ns...)
		case *syntax.CmdSubst:
			// What a command prints may be nothing too: rm -rf
			// "$(git rev-parse --show-toplevel)"/* outside a repository.
			name, ok := substName(p)
			if !ok {
				return "", nil, false
			}
			names = append(names, name)
		case *syntax.ParamExp:
			// ${D:1:2} of an empty D is empty, as are ${D%/} and
			// ${D,,} below; a replacement may insert text (${D/#/x}).
			if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Repl != nil ||
				p.NestedParam != nil || len(p.Modifiers) > 0 {
				return "", nil, false
			}
			name := p.Param.Value
			if guarded(name, ctx) {
				return "", nil, false // [ -n "$D" ] && …, : "${D:?}"; …
			}
			if name == "HOME" && p.Exp == nil {
				b.WriteString("~") // as criticalPath reads a home
				continue
			}
			if positional(name) {
				// Empty unless the script sets them: warden passes its
				// shell none, and a function may be called with none.
				if sc != nil && sc.setsPos {
					return "", nil, false
				}
			} else if !validName(name) || alwaysSet[name] || sc != nil && sc.setNotEmpty(name) {
				return "", nil, false
			}
			if p.Exp != nil {
				switch p.Exp.Op {
				case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
					if p.Exp.Word != nil {
						d, ok := plainLit(p.Exp.Word)
						if !ok {
							return "", nil, false
						}
						b.WriteString(d)
					}
				case syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
					syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.RemSmallPrefix, syntax.RemLargePrefix,
					syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
				default:
					return "", nil, false // ${x:?} stops the shell; ${x:=d} is d
				}
			}
			names = append(names, name)
		default:
			return "", nil, false
		}
	}
	return b.String(), names, true
}

// positional reports whether name is a positional parameter or all of
// them: 1, 10, @, *.
func positional(name string) bool {
	return name == "@" || name == "*" || name != "" && name != "0" && strings.Trim(name, "0123456789") == ""
}

// cdEmptied returns cd's target with its unknown variables empty, when
// that is a directory: cd "$D"/ is cd /, and cd $D is cd, to "~". cd "$D"
// stays where it was.
func (c *call) cdEmptied(ops []string) (string, bool) {
	for _, a := range c.args {
		if a.known || len(ops) == 0 || a.val != ops[0] || !strings.Contains(a.val, "$") {
			continue
		}
		v, ns, vanishes, ok := c.emptiedArg(a)
		switch {
		case !ok || len(ns) == 0:
		case vanishes:
			return "~", true
		case v != "":
			return v, true
		}
		break
	}
	return "", false
}

// knownNotEmpty reports whether vals, the literal values a script gives a
// variable, say it is set: some, and none of them empty (unset D and
// local D add an empty one).
func knownNotEmpty(vals []string) bool {
	return vals != nil && !slices.Contains(vals, "")
}

// setNotEmpty reports whether the script gives name a value everywhere it
// assigns one, and no empty one: literal values, or values that cannot be
// empty (D=${1:?usage}; rm -rf "$D"/* stops before rm when $1 is empty).
func (sc *scope) setNotEmpty(name string) bool {
	vals := sc.values(name)
	if knownNotEmpty(vals) && !sc.fromPositional(name, 0) {
		return true
	}
	n := sc.assigns[name]
	return n > 0 && sc.nonEmpty[name] == n && sc.onlyAssigned(name) && !slices.Contains(vals, "")
}

// maxDerivedDepth bounds how far fromPositional follows one name's
// value through others'.
const maxDerivedDepth = 4

// fromPositional reports whether name's values may be computed from
// positional parameters, whose values the scope takes from calls of the
// script's functions (f /srv gives $1 "/srv"): those are only values to
// try, and the script's own $1 may still be empty (D=$1; f /srv; rm -rf
// "$D"/*). Past the bounds it says yes.
func (sc *scope) fromPositional(name string, depth int) bool {
	if depth > maxDerivedDepth || len(sc.derived) >= maxDerived {
		return true
	}
	for _, d := range sc.derived {
		if d.name != name {
			continue
		}
		found := false
		syntax.Walk(d.w, func(n syntax.Node) bool {
			if pe, ok := n.(*syntax.ParamExp); ok && pe.Param != nil {
				found = found || positional(pe.Param.Value) ||
					pe.Param.Value != name && sc.fromPositional(pe.Param.Value, depth+1)
			}
			return !found
		})
		if found {
			return true
		}
	}
	return sc.outer != nil && sc.outer.fromPositional(name, depth+1)
}

// onlyAssigned reports whether name gets its values from assignments
// alone, which assigns counts: no loop, builtin or outer script sets it.
func (sc *scope) onlyAssigned(name string) bool {
	return sc.outer == nil && sc.loopNames[name] == 0 && !sc.byCall[name] && !sc.byCall[""]
}

// guarded reports whether a guard the walk passed (guards_empty.go) still
// holds where name is read: nothing but the one assignment before it sets
// name, and for a positional parameter, nothing moves them.
func guarded(name string, ctx *cctx) bool {
	sc := ctx.sc
	if guardsUnsure(sc) {
		return false
	}
	if !ctx.guards.has(name) && (sc == nil || ctx.topOf != sc || sc.topGuards[name] == 0 || sc.topGuards[name] >= int(ctx.top)) {
		return false
	}
	if positional(name) {
		return sc != nil && !sc.setsPos
	}
	return sc != nil && sc.assigns[name] <= 1 && sc.onlyAssigned(name)
}

// noteSetByCall records the names a builtin call may set other than by
// an assignment: read, mapfile, getopts, printf -v, wait -p; eval and
// source may set any.
func (sc *scope) noteSetByCall(ce *syntax.CallExpr) {
	name, _ := litValue(ce.Args[0])
	switch name {
	case "eval", "source", ".":
		sc.byCall = orMaps(sc.byCall, map[string]bool{"": true})
	case "printf":
		if v, ok := printfSets(ce.Args[1:]); ok {
			sc.noteByCall(v)
		}
	case "read", "mapfile", "readarray", "getopts", "wait":
		for _, w := range ce.Args[1:] {
			v, ok := litValue(w)
			if !ok {
				v = ""
			}
			if v == "" || validName(v) {
				sc.noteByCall(v)
			}
		}
	}
}

// noteByCall notes that a builtin may set name, "" for any.
func (sc *scope) noteByCall(name string) {
	if sc.byCall == nil {
		sc.byCall = map[string]bool{}
	}
	sc.byCall[name] = true
}

// printfSets returns the variable printf's -v sets, "" for any, and
// whether it sets one: -v NAME or -vNAME before the format, or a word
// there the parse cannot read, which may be -v. printf '%s\n' "$1" sets
// none.
func printfSets(args []*syntax.Word) (string, bool) {
	for i, w := range args {
		v, ok := plainLit(w)
		switch {
		case !ok:
			return "", true
		case v == "-v":
			if i+1 < len(args) {
				if n, ok := plainLit(args[i+1]); ok && validName(n) {
					return n, true
				}
			}
			return "", true
		case strings.HasPrefix(v, "-v"):
			if validName(v[2:]) {
				return v[2:], true
			}
			return "", true
		case v == "--" || !strings.HasPrefix(v, "-"):
			return "", false
		}
	}
	return "", false
}

// neverEmptyWord reports whether a word of these parts is never empty
// where the shell goes on: it has literal text, or expands ${D:?}, which
// stops the shell instead, a default of literal text (${D:-/srv},
// ${D:=/srv}), a variable the shell always sets, or the output of a
// program that always prints some.
func neverEmptyWord(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if p.Value != "" {
				return true
			}
		case *syntax.SglQuoted:
			if p.Value != "" {
				return true
			}
		case *syntax.DblQuoted:
			if neverEmptyWord(p.Parts) {
				return true
			}
		case *syntax.ParamExp:
			switch {
			case p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Repl != nil || p.Slice != nil || len(p.Modifiers) > 0:
			case p.Exp == nil:
				if alwaysSet[p.Param.Value] {
					return true
				}
			case p.Exp.Op == syntax.ErrorUnsetOrNull:
				return true
			case (p.Exp.Op == syntax.DefaultUnsetOrNull || p.Exp.Op == syntax.AssignUnsetOrNull) && p.Exp.Word != nil:
				if d, ok := plainLit(p.Exp.Word); ok && d != "" {
					return true
				}
			}
		case *syntax.CmdSubst:
			if _, mayBeEmpty := substName(p); !mayBeEmpty {
				return true
			}
		}
	}
	return false
}

// emptiedWhy says which of names, variables and substitutions (named
// "$(…)"), may be empty, and how to stop the shell there.
func emptiedWhy(names []string) string {
	slices.Sort(names)
	names = slices.Compact(names)
	var vars, substs []string
	for _, n := range names {
		if strings.HasPrefix(n, "$(") {
			substs = append(substs, n)
		} else if len(n) > 1 && positional(n) {
			vars = append(vars, "${"+n+"}") // $10 is $1 and a 0
		} else {
			vars = append(vars, "$"+n)
		}
	}
	switch {
	case len(substs) == 0:
		return fmt.Sprintf(" if %s is empty or unset (write ${%s:?} to stop there)", strings.Join(vars, " or "), names[0])
	case len(vars) == 0:
		return fmt.Sprintf(" if %s prints nothing (assign it to a variable and write ${VAR:?} to stop there)", strings.Join(substs, " or "))
	}
	return fmt.Sprintf(" if %s is empty or %s prints nothing (write ${VAR:?} to stop there)", strings.Join(vars, " or "), strings.Join(substs, " or "))
}

// neverEmpty are programs whose output, when they succeed, is never
// empty.
var neverEmpty = set(`pwd dirname date hostname id uname whoami logname nproc tty`)

// substName names a command substitution for emptiedWhy by its program,
// "$(git …)", and reports false for one whose output is never empty.
func substName(p *syntax.CmdSubst) (string, bool) {
	name := ""
	if len(p.Stmts) == 1 {
		if ce, ok := p.Stmts[0].Cmd.(*syntax.CallExpr); ok {
			name, _ = litCallName(ce)
		}
	}
	if neverEmpty[name] {
		return "", false
	}
	if name == "" || len(name) > 32 {
		return "$(…)", true
	}
	return "$(" + name + " …)", true
}
