package policy

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Arithmetic evaluation in bash and ksh is recursive: a variable named in
// an arithmetic context ((( x )), $(( x )), [[ x -eq 1 ]], let, array
// subscripts, ${s:x}, declare -i, …) has its value evaluated as an
// expression in turn, and an array subscript inside that value expands
// command substitutions: x='a[$(reboot)]'; (( x )) runs reboot. So a value
// that is not known at parse time reaching arithmetic is unknown code,
// arithTier like any other. Integer literals, $#, $?, ${#x}, and variables this
// script provably assigns only integer literals before any use stay as
// they are.

// arithTier is the tier of a value not known at parse time reaching a
// context bash evaluates as arithmetic or as a variable name: it can run
// any command, as eval "$x" can, so it is unknown code.
const arithTier = TierDestructive

const arithWhy = "arithmetic on a value not known at parse time can run commands (array subscripts in it expand $(…))"

// litValue is plainLit without an allocation for a word of one plain literal.
func litValue(w *syntax.Word) (string, bool) {
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && strings.IndexByte(l.Value, '\\') < 0 {
			return l.Value, true
		}
	}
	return plainLit(w)
}

// declFlags returns the option letters of a declare, typeset, local,
// export or readonly: "ia" for declare -i -a.
func declFlags(d *syntax.DeclClause) string {
	flags := ""
	for _, a := range d.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if v, ok := litValue(a.Value); ok && len(v) > 1 && (v[0] == '-' || v[0] == '+') {
				flags += v[1:]
			}
		}
	}
	return flags
}

// declAttrs records the names a declaration gives the integer,
// associative or nameref attribute. An option word computed at run time
// (declare -$(echo i) x, declare $o x) may give any of them.
func (sc *scope) declAttrs(d *syntax.DeclClause) {
	flags := declFlags(d)
	for _, a := range d.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			if _, ok := litValue(a.Value); !ok {
				flags += "in"
			}
		}
	}
	for _, x := range d.Args {
		if x.Name != nil {
			target := ""
			if x.Value != nil {
				target, _ = litValue(x.Value)
			}
			sc.addAttrs(flags, d.Variant.Value, x.Name.Value, x.Naked || x.Value == nil, target)
		}
	}
}

// callAttrs is declAttrs for a declaration that parses as a plain call:
// one reached through command or builtin (command declare -i n), or
// with a quoted name (\declare -i n).
func (sc *scope) callAttrs(ce *syntax.CallExpr) {
	args, ok := pastCommandBuiltin(ce.Args)
	if !ok || len(args) < 2 {
		return
	}
	variant, _ := litValue(args[0])
	switch variant {
	case "declare", "typeset", "local", "export", "readonly":
	case "unset":
		sc.unsets(args[1:])
		return
	default:
		return
	}
	flags := ""
	for _, w := range args[1:] {
		s, ok := litValue(w)
		switch {
		case !ok:
			flags += "in" // may be an option computed at run time
		case len(s) > 1 && (s[0] == '-' || s[0] == '+'):
			flags += s[1:]
		}
	}
	for _, w := range args[1:] {
		s, ok := litValue(w)
		if !ok || len(s) > 0 && (s[0] == '-' || s[0] == '+') {
			continue
		}
		n, target, bound := strings.Cut(s, "=")
		n, _, _ = strings.Cut(n, "[")
		sc.addAttrs(flags, variant, n, !bound, target)
	}
}

// unsets records that the variables unset names (not its -f functions)
// may be empty afterwards.
func (sc *scope) unsets(args []*syntax.Word) {
	funcs := false
	for _, w := range args {
		s, ok := litValue(w)
		switch {
		case !ok:
		case s == "-f":
			funcs = true
		case s == "-v" || s == "-n" || s == "--":
		case !funcs && validName(s):
			sc.addValue(s, "")
		}
	}
}

// addAttrs records the attributes flags give name; unbound is set when
// the declaration gives it no value, and target is a nameref's literal
// value.
func (sc *scope) addAttrs(flags, variant, name string, unbound bool, target string) {
	if unbound && (variant == "local" || variant != "export" && variant != "readonly" && !strings.ContainsRune(flags, 'g')) {
		// local D, and declare D in a function, make D a new variable
		// with no value.
		sc.addValue(name, "")
	}
	mark := func(m *map[string]bool, v bool) {
		if *m == nil {
			*m = map[string]bool{}
		}
		(*m)[name] = (*m)[name] || v
	}
	if strings.ContainsAny(flags, "iFE") {
		// zsh's float attributes (typeset -F, -E) evaluate what is
		// assigned as -i does; bash's -F lists functions.
		mark(&sc.intAttr, true)
	}
	if strings.ContainsRune(flags, 'A') {
		mark(&sc.assoc, true)
	}
	if strings.ContainsAny(flags, "lu") {
		mark(&sc.cased, true)
	}
	if strings.ContainsRune(flags, 'n') && variant != "export" {
		mark(&sc.nameref, unbound)
		if target != "" && len(sc.refs[name]) < maxVarValues {
			if sc.refs == nil {
				sc.refs = map[string][]string{}
			}
			sc.refs[name] = append(sc.refs[name], target)
		}
	}
}

// arithSpecials are bash's own variables whose assignment evaluates the
// value as arithmetic, like a variable declared -i: OPTIND=$x runs the
// command substitutions in a subscript in $x.
// UID and EUID are among them for another reason: a shell that finds
// them in its environment keeps that value, which intSpecials trusts to
// be an integer, so giving them any other value is the same risk.
// SECONDS becomes an integer variable the first time it is read, and
// BASHPID is one whose += evaluates what it appends. An interactive
// shell (a session) evaluates MAILCHECK when it is assigned.
var arithSpecials = set(`OPTIND RANDOM SRANDOM HISTCMD UID EUID SECONDS BASHPID MAILCHECK`)

// assignEvals reports how bash evaluates a value assigned to name: as
// arithmetic (declared -i anywhere in the script, or one of
// arithSpecials), or as a variable name (a nameref declared somewhere
// without a value, whose next assignment sets what it names).
func (sc *scope) assignEvals(name string) (arith, ref bool) {
	if sc == nil {
		return arithSpecials[name], false
	}
	return sc.intTarget(name, 0), sc.nameref[name]
}

// intTarget reports whether bash evaluates a value assigned to name as
// arithmetic: an integer variable, one declared -i through a nameref to
// it (declare -n r=x; declare -i r), or a nameref whose target is one
// (declare -i x; declare -n r=x; r=$1 assigns x). Chains of namerefs
// are followed a few steps; past them, any may be.
func (sc *scope) intTarget(name string, depth int) bool {
	if arithSpecials[name] || sc.intAttr[name] {
		return true
	}
	if len(sc.nameref) == 0 {
		return false
	}
	if depth > maxNest {
		return true
	}
	for r := range sc.intAttr {
		if _, ok := sc.nameref[r]; ok && slices.Contains(sc.refTargets(r), name) {
			return true
		}
	}
	if _, ok := sc.nameref[name]; ok {
		for _, t := range sc.refTargets(name) {
			t, _, _ = strings.Cut(t, "[")
			if t != name && sc.intTarget(t, depth+1) {
				return true
			}
		}
	}
	return false
}

// refTargets are the literal names a nameref is given: in its
// declaration, or assigned to it while it names nothing (declare -n r;
// r=x).
func (sc *scope) refTargets(name string) []string {
	return append(slices.Clip(sc.refs[name]), sc.values(name)...)
}

// isAssoc reports whether the script declares name -A anywhere: it may
// be associative somewhere (see assocName for where it surely is).
func (sc *scope) isAssoc(name string) bool { return sc != nil && sc.assoc[name] }

// intName reports whether the variable name provably holds an integer
// wherever the script sc uses it.
func (e *eval) intName(sc *scope, name string) bool {
	af := e.facts(sc)
	if af.tainted {
		return false
	}
	for _, a := range af.keysOf {
		if sc.isAssoc(a) {
			return false // its keys, taken as integers, are any text
		}
	}
	for _, p := range af.trusts {
		if sc.shadowed(p) {
			return false
		}
	}
	nf := af.names[name]
	if nf == nil || implicitVars[name] {
		// Never assigned here: the environment's, unless bash keeps it
		// an integer itself. Or set by bash behind the script's back.
		return intSpecials[name]
	}
	if nf.nonInt {
		return false
	}
	if intSpecials[name] {
		return true
	}
	return nf.topInt >= 0 && (nf.first < 0 || nf.topInt < nf.first)
}

// identName reports whether the variable provably holds a plain variable
// name wherever it is used (for ${!x}).
func (e *eval) identName(sc *scope, name string) bool {
	af := e.facts(sc)
	nf := af.names[name]
	if af.tainted || nf == nil || nf.nonIdent || implicitVars[name] {
		return false
	}
	return nf.topIdent >= 0 && (nf.first < 0 || nf.topIdent < nf.first)
}

// opName reports whether the variable provably holds one word that
// cannot begin with '-' wherever it is used (see opValue): every value the
// script gives it is such a literal or glob, the first given at its top
// level before any use (for d in /dev/sd?; do …).
func (e *eval) opName(sc *scope, name string) bool {
	af := e.facts(sc)
	nf := af.names[name]
	if af.tainted || af.aside || nf == nil || nf.nonOp || implicitVars[name] {
		return false
	}
	return nf.topOp >= 0 && (nf.first < 0 || nf.topOp < nf.first)
}

// implicitVars are variables bash sets itself as a side effect of other
// commands, to text from input, arguments or the command line: $_ after
// every command, REPLY (read, select), MAPFILE, OPTARG, BASH_REMATCH, …
// A literal assignment to one proves nothing about its value later.
var implicitVars = set(`_ REPLY MAPFILE OPTARG BASH_REMATCH BASH_COMMAND BASH_ARGV BASH_SOURCE
	BASH_EXECUTION_STRING FUNCNAME PWD OLDPWD DIRSTACK COMP_LINE COMP_WORDS COMPREPLY READLINE_LINE`)

// intSpecials are variables bash keeps integers whatever the environment says.
var intSpecials = set(`RANDOM SRANDOM LINENO SECONDS BASHPID PPID UID EUID EPOCHSECONDS BASH_SUBSHELL OPTIND`)

// isIntLit reports whether s is a bash integer constant: decimal, octal,
// 0x hex or base#digits, optionally signed and blank-padded; empty is 0.
func isIntLit(s string) bool {
	s = strings.Trim(s, " \t\n")
	if s == "" {
		return true
	}
	if s[0] == '-' || s[0] == '+' {
		s = s[1:]
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	if b, digits, ok := strings.Cut(s, "#"); ok {
		if _, err := strconv.Atoi(b); err != nil || digits == "" {
			return false
		}
		return strings.Trim(digits, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@_") == ""
	}
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return strings.Trim(s[2:], "0123456789abcdefABCDEF") == ""
	}
	return strings.Trim(s, "0123456789") == ""
}

// arithTextSafe reports whether text evaluated as arithmetic can only
// compute: numbers, operators and names that hold integers. Subscripts,
// expansions and quotes are not safe.
func (e *eval) arithTextSafe(s string, sc *scope) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || strings.IndexByte("+-*/%<>=!&|^~?:(),.", c) >= 0:
			// '.' only in a number: zsh's floats (1.5), an error in bash.
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (isAlnum(s[j]) || s[j] == '#' || s[j] == '@' || s[j] == '_') {
				j++
			}
			if !isIntLit(s[i:j]) {
				return false
			}
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(s) && (isAlnum(s[j]) || s[j] == '_') {
				j++
			}
			if !e.intName(sc, s[i:j]) && !e.lvalue(s, j, sc, s[i:j]) {
				return false
			}
			i = j
		default:
			return false
		}
	}
	return true
}

// lvalue reports whether the name ending at j is assigned with a plain
// "=" (a = 1 + 2), whose old value is not evaluated; not a name whose
// setting changes what programs run (HOME=1 in [[ HOME=1 -eq 1 ]] or
// let "PATH=1" sets PATH as PATH=1 does: see boundNameMatters); not through a
// nameref, which names another variable (perhaps a subscript), and not
// with an operator such as +=, which reads the value first. Where eval or
// a computed name could have declared any nameref, none is plain.
func (e *eval) lvalue(s string, j int, sc *scope, name string) bool {
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j >= len(s) || s[j] != '=' || j+1 < len(s) && s[j+1] == '=' || boundNameMatters(name) {
		return false
	}
	if sc == nil {
		return true
	}
	_, isRef := sc.nameref[name]
	return !isRef && !e.facts(sc).tainted
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// arithWordSafe reports whether a word reaching arithmetic can only compute.
func (e *eval) arithWordSafe(w *syntax.Word, ctx cctx, sc *scope) bool {
	for _, p := range w.Parts {
		if !e.arithPartSafe(p, ctx, sc) {
			return false
		}
	}
	return true
}

func (e *eval) arithPartSafe(p syntax.WordPart, ctx cctx, sc *scope) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		return e.arithTextSafe(p.Value, sc)
	case *syntax.SglQuoted:
		return !p.Dollar && e.arithTextSafe(p.Value, sc)
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			if !e.arithPartSafe(q, ctx, sc) {
				return false
			}
		}
		return true
	case *syntax.ArithmExp:
		return true // an integer; its own expression is checked where it is walked
	case *syntax.ParamExp:
		if lengthParam(p) {
			return true // ${#x}, ${#a[@]}: a length; a subscript is checked where it is walked
		}
		if p.Param == nil || p.Excl || p.Width || p.Index != nil || p.Slice != nil || p.Repl != nil ||
			p.Exp != nil || p.NestedParam != nil || p.Names != 0 || len(p.Modifiers) > 0 {
			return false
		}
		name := p.Param.Value
		if p.Length {
			return true
		}
		switch name {
		case "#", "?", "$", "!":
			return true
		}
		if n, err := strconv.Atoi(name); err == nil {
			return knownPos(ctx, sc) && n < len(ctx.pos) && e.arithTextSafe(ctx.pos[n], sc)
		}
		return e.intName(sc, name)
	case *syntax.CmdSubst:
		if numericOut(p, sc) {
			return true
		}
		out, ok := e.echoOutput(cmdSubstArgs(p), ctx, sc)
		return ok && e.arithTextSafe(out, sc)
	}
	return false
}

// lengthParam reports whether p is ${#x} or ${#a[…]}: a length, whatever
// x holds.
func lengthParam(p *syntax.ParamExp) bool {
	return p.Length && p.Param != nil && !p.Excl && p.Slice == nil && p.Repl == nil && p.Exp == nil && p.NestedParam == nil
}

// numericOut reports whether a command substitution prints only a number:
// wc reading its input, nproc, id -u/-g, date +%s, grep -c and pgrep -c on
// at most one input, tr -dc 0-9 (which deletes all but digits). Anything after the number would be evaluated too.
// A function of the same name in the script prints what it likes; see
// numericProg.
func numericOut(cs *syntax.CmdSubst, sc *scope) bool {
	p := numericProg(cs)
	return p != "" && !sc.shadowed(p)
}

// numericProg is the program a command substitution that prints only a
// number runs (numericOut), or "".
func numericProg(cs *syntax.CmdSubst) string {
	if len(cs.Stmts) != 1 {
		return ""
	}
	s := cs.Stmts[0]
	for {
		b, ok := s.Cmd.(*syntax.BinaryCmd)
		if !ok || b.Op != syntax.Pipe {
			break
		}
		s = b.Y
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || len(ce.Assigns) > 0 {
		return ""
	}
	var vals []string
	for _, w := range ce.Args {
		v, ok := plainLit(w)
		if !ok {
			return ""
		}
		vals = append(vals, v)
	}
	ops := operands(vals[1:])
	numeric := false
	switch vals[0] {
	case "nproc":
		numeric = true
	case "seq":
		// Unsigned integer bounds and no format or separator: only
		// digits and line ends, which arithmetic cannot run.
		numeric = len(ops) > 0
		for _, v := range vals[1:] {
			if v != "-w" && strings.Trim(v, "0123456789") != "" {
				numeric = false
			}
		}
	case "wc":
		// --files0-from prints the file names it reads, which can be
		// a[$(cmd)].
		numeric = len(ops) == 0 && !strings.Contains(strings.Join(vals[1:], " "), "--files0")
	case "id":
		numeric = len(ops) == 0 && !hasFlag(vals[1:], 'n', "--name") && (hasFlag(vals[1:], 'u', "--user") || hasFlag(vals[1:], 'g', "--group"))
	case "date":
		numeric = len(ops) == 1 && strings.Trim(ops[0], "+%sYmdHMSjuwyNV") == ""
	case "stat":
		numeric = statNumeric(vals[1:])
	case "tr":
		numeric = trDigits(vals[1:])
	case "grep", "egrep", "fgrep", "pgrep":
		// One input, named in the text: with a glob or -H the output
		// holds file names, which can be a[$(cmd)].
		numeric = hasFlag(vals[1:], 'c', "--count") && len(ops) <= 2 && !hasFlag(vals[1:], 'r', "--recursive") &&
			!hasFlag(vals[1:], 'R', "") && !hasFlag(vals[1:], 'H', "--with-filename") && !strings.ContainsAny(strings.Join(ops, ""), "*?[")
	}
	if !numeric {
		return ""
	}
	return vals[0]
}

// codeAttrs records the attributes that literal code this shell runs
// declares: eval's words, a trap action, a mapfile -C callback, a here-
// document or here-string given to source /dev/stdin. eval 'declare -i
// x'; x=$1 evaluates $1 as surely as declare -i x does, so the pre-pass
// reads that code too. Code that does not parse is refused where it is
// classified.
func (sc *scope) codeAttrs(s *syntax.Stmt, depth int) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok {
		return
	}
	code, ok := sameShellCode(ce)
	if !ok {
		code, ok = sourcedInput(s, ce)
	}
	if !ok || depth > maxNest || len(code) > maxInput || bracketDepth(code) > maxBrackets {
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(code), "")
	if err != nil {
		return
	}
	mendCoprocs(f, code)
	walkEnter(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.DeclClause:
			sc.declAttrs(n)
		case *syntax.CallExpr:
			sc.callAttrs(n)
		case *syntax.Stmt:
			sc.codeAttrs(n, depth+1)
		}
		return true
	})
}

// sourcedInput returns the literal text source or . reads from its
// standard input: source /dev/stdin <<< 'declare -i x'.
func sourcedInput(s *syntax.Stmt, ce *syntax.CallExpr) (string, bool) {
	args, ok := pastCommandBuiltin(ce.Args)
	if !ok || len(args) < 2 {
		return "", false
	}
	if v, _ := litValue(args[0]); v != "source" && v != "." {
		return "", false
	}
	if f, _ := litValue(args[1]); f != "/dev/stdin" && f != "/dev/fd/0" && f != "/proc/self/fd/0" {
		return "", false
	}
	text, found := "", false
	for _, r := range s.Redirs {
		if redirFD(r) != 0 {
			continue
		}
		switch r.Op {
		case syntax.WordHdoc:
			text, found = litValue(r.Word)
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc == nil {
				text, found = "", true
			} else {
				text, found = hdocText(r.Hdoc)
			}
		default:
			found = false
		}
	}
	return text, found
}

// sameShellCode returns the literal code a call runs in this shell: the
// words of eval, joined as eval joins them, a trap action or a mapfile -C
// callback.
func sameShellCode(ce *syntax.CallExpr) (string, bool) {
	args, ok := pastCommandBuiltin(ce.Args)
	if !ok || len(args) < 2 {
		return "", false
	}
	switch v, _ := litValue(args[0]); v {
	case "eval":
		vals, ok := litValues(args[1:])
		return strings.Join(vals, " "), ok
	case "trap", "mapfile", "readarray":
		return (&arithFacts{}).callFacts(&syntax.CallExpr{Args: args})
	}
	return "", false
}

// statNumeric reports whether stat's arguments print only numbers: a
// format of decimal fields (size, inode, owner ids, links, blocks, times)
// and spaces, about files rather than the file system (-f, whose %i is
// hex).
func statNumeric(args []string) bool {
	format := ""
	for i, a := range args {
		switch {
		case a == "-f" || a == "--file-system" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a[1:], 'f'):
			return false
		case a == "-c" || a == "--format" || a == "--printf":
			if i+1 < len(args) {
				format = args[i+1]
			}
		case strings.HasPrefix(a, "--format=") || strings.HasPrefix(a, "--printf="):
			_, format, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			format = a[2:]
		}
	}
	if format == "" {
		return false
	}
	for i := 0; i < len(format); i++ {
		switch c := format[i]; {
		case c == ' ':
		case c == '%' && i+1 < len(format) && strings.IndexByte("siughbBoXYZWd", format[i+1]) >= 0:
			i++
		default:
			return false
		}
	}
	return true
}

// trDigits reports whether tr's arguments delete every character but
// digits and line ends (tr -dc '0-9', tr -cd '[:digit:]\n'): its output
// then holds nothing arithmetic can run.
func trDigits(args []string) bool {
	del, comp := false, false
	var sets []string
	for _, a := range args {
		switch a {
		case "-d", "--delete":
			del = true
		case "-c", "-C", "--complement":
			comp = true
		case "-dc", "-cd", "-dC", "-Cd":
			del, comp = true, true
		default:
			if strings.HasPrefix(a, "-") {
				return false
			}
			sets = append(sets, a)
		}
	}
	if !del || !comp || len(sets) != 1 {
		return false
	}
	rest := strings.NewReplacer("[:digit:]", "", `\n`, "", "\n", "").Replace(sets[0])
	return strings.Trim(rest, "0123456789-") == "" && !strings.HasPrefix(sets[0], "-")
}
