package policy

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The values a word may take beyond the one reading that treats every
// variable as unknown: a path assembled from variables the script assigns
// (d=/etc; cat $d/warden/config.yaml), derived from them (g=$f,
// d=${p%/*}), or the default of an expansion (${x-/etc/…}). Each adds
// findings only: the unknown reading has already counted what is unknown.

// maxDerived caps the assignments whose values derive tries to compute.
const maxDerived = 64

// maxDerivedLen caps a derived value: v1="$v0 $v0"; v2="$v1 $v1"; …
// doubles per line, and 30 lines would be a value of a gigabyte. A
// longer value is not kept, and the variable is unknown.
const maxDerivedLen = 64 << 10

// derivedAssign is an assignment whose value uses other variables.
type derivedAssign struct {
	name string
	w    *syntax.Word
}

// noteDerived records an assignment of a word that is not a literal (the
// caller has tried) but may be computed from the literal values of the
// variables it uses.
func (sc *scope) noteDerived(a *syntax.Assign) {
	if a.Name == nil || a.Value == nil || a.Append || a.Index != nil || len(sc.derived) >= maxDerived {
		return
	}
	sc.derived = append(sc.derived, derivedAssign{a.Name.Value, a.Value})
}

// derive adds to each derived assignment's variable the values its word
// takes under every binding of the variables it uses, a few rounds so
// chains (f=…; g=$f; h=$g) settle.
func (sc *scope) derive(e *eval) {
	defer sc.caseValues()
	sc.deriveJoins()
	for round := 0; round < 3 && len(sc.derived) > 0; round++ {
		grew := false
		for _, d := range sc.derived {
			bs := sc.bindings([]*syntax.Word{d.w})
			if bs == nil {
				// No variable: the word may still be known, as the
				// output of a literal printf (f=$(printf /%s etc warden)).
				bs = []map[string]string{nil}
			}
			for _, b := range bs {
				r := resolver{e: e, sc: sc, bind: b}
				if v, ok := r.known(d.w); ok && len(v) <= maxDerivedLen && sc.addValue(d.name, v) {
					grew = true
				}
			}
		}
		if !grew {
			return
		}
	}
}

// caseValues adds to each variable declared -l or -u its values lower-
// and upper-cased.
func (sc *scope) caseValues() {
	for name := range sc.cased {
		for _, v := range slices.Clone(sc.vars[name]) {
			sc.addValue(name, strings.ToLower(v))
			sc.addValue(name, strings.ToUpper(v))
		}
	}
}

// addValue adds a value to name's, within the caps, and reports whether
// it was new.
func (sc *scope) addValue(name, v string) bool {
	if len(sc.vars) >= maxVars && sc.vars[name] == nil || len(sc.vars[name]) >= maxVarValues {
		return false
	}
	for _, have := range sc.vars[name] {
		if have == v {
			return false
		}
	}
	sc.vars[name] = append(sc.vars[name], v)
	return true
}

// known is lit for a word whose value is wholly known, without printing
// the source of one that is not.
func (r *resolver) known(w *syntax.Word) (string, bool) {
	var b strings.Builder
	a := arg{known: true}
	for _, p := range w.Parts {
		if !r.part(&b, p, false, &a) {
			return "", false
		}
	}
	return b.String(), true
}

// expandParam computes ${x…} with a pattern operator (${p%/*},
// ${p#?}, ${p/[X]/o}) for a variable bound to a trial value, as bash
// would: every operand must be literal or a bound variable.
func (r *resolver) expandParam(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || len(r.bind) == 0 {
		return "", false
	}
	if _, ok := r.bind[p.Param.Value]; !ok {
		return "", false
	}
	ok, bind := true, r.bind // the closure escapes: it must not hold r
	syntax.Walk(p, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ExtGlob:
			ok = false
		case *syntax.ParamExp:
			if n.Param == nil {
				ok = false
			} else if _, bound := bind[n.Param.Value]; !bound {
				ok = false
			}
		}
		return ok
	})
	if !ok || p.Excl || p.Flags != nil {
		return "", false
	}
	pairs := make([]string, 0, len(r.bind))
	for k, v := range r.bind {
		pairs = append(pairs, k+"="+v)
	}
	cfg := &expand.Config{Env: expand.ListEnviron(pairs...), NoUnset: true}
	s, err := expand.Literal(cfg, &syntax.Word{Parts: []syntax.WordPart{p}})
	return s, err == nil
}

// wordValues returns the values a word may take beyond its unknown
// reading: under each binding of the variables it uses, and with the
// defaults and alternates of its expansions taken (${x-/etc/…}).
func (e *eval) wordValues(w *syntax.Word, ctx cctx, sc *scope) []arg {
	var out []arg
	ws := []*syntax.Word{w}
	if alt := defaultsTaken(w); alt != nil {
		r := resolver{e: e, ctx: ctx, sc: sc}
		out = append(out, r.lit(alt))
		ws = append(ws, alt)
	}
	for _, x := range ws {
		for _, b := range sc.bindings([]*syntax.Word{x}) {
			r := resolver{e: e, ctx: ctx, sc: sc, bind: b}
			out = append(out, r.lit(x))
		}
	}
	return out
}

// defaultsTakenAll is defaultsTaken for the words of one command: nil if
// no word has a default or alternate to take.
func defaultsTakenAll(ws []*syntax.Word) []*syntax.Word {
	var out []*syntax.Word
	for i, w := range ws {
		alt := defaultsTaken(w)
		if alt == nil {
			if out != nil {
				out = append(out, w)
			}
			continue
		}
		if out == nil {
			out = append(make([]*syntax.Word, 0, len(ws)), ws[:i]...)
		}
		out = append(out, alt)
	}
	return out
}

// defaultsTaken returns w with each ${x-word}, ${x:-word}, ${x=word},
// ${x:=word}, ${x+word} and ${x:+word} replaced by its word, the value it
// has when x is unset (or set, for +), nested ones too; nil when w has
// none. The parser leaves the word as an expansion, so a path written as
// a default (cat ${CONF-/etc/warden/config.yaml}) is otherwise not read.
func defaultsTaken(w *syntax.Word) *syntax.Word {
	var parts []syntax.WordPart
	changed := false
	for round := 0; round < 3; round++ {
		src := w.Parts
		if parts != nil {
			src = parts
		}
		next, ok := takeDefaults(src)
		if !ok {
			break
		}
		parts, changed = next, true
	}
	if !changed {
		return nil
	}
	return &syntax.Word{Parts: parts}
}

// takeDefaults replaces each expansion with a default or alternate word
// in parts, inside double quotes too, by that word's parts.
func takeDefaults(parts []syntax.WordPart) ([]syntax.WordPart, bool) {
	if !hasDefault(parts) {
		return nil, false // most words: nothing to copy
	}
	var out []syntax.WordPart
	changed := false
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.ParamExp:
			if p.Exp != nil && p.Exp.Word != nil && takesDefault(p.Exp.Op) {
				out = append(out, p.Exp.Word.Parts...)
				changed = true
				continue
			}
		case *syntax.DblQuoted:
			if in, ok := takeDefaults(p.Parts); ok {
				q := *p
				q.Parts = in
				out = append(out, &q)
				changed = true
				continue
			}
		}
		out = append(out, p)
	}
	return out, changed
}

// hasDefault reports whether takeDefaults would change parts.
func hasDefault(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.ParamExp:
			if p.Exp != nil && p.Exp.Word != nil && takesDefault(p.Exp.Op) {
				return true
			}
		case *syntax.DblQuoted:
			if hasDefault(p.Parts) {
				return true
			}
		}
	}
	return false
}

func takesDefault(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
		syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return true
	}
	return false
}

// localURLPath returns the path of the piece of a URL after its scheme
// that names this machine: file://localhost/etc/… is /etc/… to curl.
func localURLPath(f string) (string, bool) {
	if !strings.HasPrefix(f, "//") || strings.HasPrefix(f, "///") {
		return "", false
	}
	host, rest, _ := strings.Cut(f[2:], "/")
	switch strings.TrimSuffix(strings.ToLower(host), ".") {
	case "localhost", "127.0.0.1", "[::1]":
		return "/" + rest, true
	}
	return "", false
}

// urlFilePath is the file a file: URL's path names, when that differs
// from its text: curl decodes %XX and drops a ?query and a #fragment
// (file:///etc/w%61rden/x?y is /etc/warden/x).
func urlFilePath(f string) (string, bool) {
	if !strings.ContainsAny(f, "%?#") {
		return "", false
	}
	if i := strings.IndexAny(f, "?#"); i >= 0 {
		f = f[:i]
	}
	if p, err := url.PathUnescape(f); err == nil {
		f = p
	}
	return f, f != ""
}

// defaultValues classifies a command again with the defaults of its
// expansions taken (cat ${CONF-/etc/…}), alone and under each binding of
// its variables (see call). It returns args, reused, for putArgs.
func (e *eval) defaultValues(ws []*syntax.Word, args []arg, ctx cctx, sc *scope, rtext string) []arg {
	alt := defaultsTakenAll(ws)
	if alt == nil {
		return args
	}
	r := resolver{e: e, ctx: ctx, sc: sc}
	args = r.appendAll(args[:0], alt)
	e.simple(args, ctx, rtext)
	for _, bind := range sc.bindings(alt) {
		r.bind = bind
		args = r.appendAll(args[:0], alt)
		e.simple(args, ctx, rtext)
	}
	return args
}

// indirectNames returns the names of the ${!y} expansions in w.
func indirectNames(w *syntax.Word) []string {
	return paramExps(w, func(p *syntax.ParamExp) (string, bool) { return p.Param.Value, p.Excl && p.Names == 0 })
}

// elementOrIndirect is the trial value of ${a[i]} (any element of a may
// be the one read) and of ${!y} (the variable y's value names), when the
// expansion has no other operator.
func (r *resolver) elementOrIndirect(p *syntax.ParamExp) (string, bool) {
	if v, ok := r.arraySlice(p); ok {
		return v, true
	}
	if p.Param == nil || p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Length || p.Width ||
		p.NestedParam != nil || p.Names != 0 || len(p.Modifiers) > 0 || p.Flags != nil {
		return "", false
	}
	v, ok := r.bind[p.Param.Value]
	if !ok && !p.Excl && p.Index != nil {
		// Only the element or the join is bound: read -a, ${a[-1]}.
		if key, isKey := indexKey(p); isKey {
			v, ok = r.bind[key]
		}
	}
	switch {
	case !ok:
		return "", false
	case p.Excl && p.Index == nil:
		v, ok = r.bind[v]
		return v, ok
	case !p.Excl && p.Index != nil:
		if key, isKey := indexKey(p); isKey {
			if ev, ok := r.bind[key]; ok {
				return ev, true // the element at that index, or all joined
			}
		}
		return v, true
	}
	return "", false
}

// refValue is the trial value of $r for a nameref r bound to the name of
// its target: the target's value, when it has one.
func (r *resolver) refValue(name, target string) (string, bool) {
	if r.sc == nil {
		return target, true
	}
	if _, ok := r.sc.nameref[name]; !ok {
		return target, true
	}
	v, ok := r.bind[target]
	return v, ok
}

// readValue records the values read NAME… takes from a literal
// here-string or here-document (read f <<< /etc/…) and mapfile's lines.
func (sc *scope) readValue(s *syntax.Stmt) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 || len(s.Redirs) == 0 {
		return
	}
	for _, text := range sc.stdinTexts(s.Redirs) {
		sc.readText(ce, text, false) // read d <<< /usr, read d < FILE the script wrote
	}
}

// readText records the values read NAME… takes from text: its first
// line (every line, for a loop that reads until the input ends), without
// the blanks default IFS trims, and with backslashes kept only under -r;
// for mapfile every line as an element.
func (sc *scope) readText(ce *syntax.CallExpr, text string, everyLine bool) {
	if len(ce.Args) < 2 {
		return
	}
	verb, _ := litValue(ce.Args[0])
	lines := verb == "mapfile" || verb == "readarray"
	if verb != "read" && !lines {
		return
	}
	vals, ok := litValues(ce.Args)
	if !ok {
		return
	}
	raw := lines // mapfile keeps backslashes
	var names []string
	array := false
	for i := 1; i < len(vals); i++ {
		v := vals[i]
		switch {
		case v == "-r" || lines && v == "-t":
			raw = true
		case !lines && (v == "-a" || v == "-ra") && i+1 < len(vals):
			// read -a NAME: the fields are its elements.
			array, raw = true, raw || v == "-ra"
		case !lines && (v == "-s" || v == "-e" || v == "-rs" || v == "-sr"):
			raw = raw || strings.Contains(v, "r")
		case strings.HasPrefix(v, "-"):
			return // options that change what is read, or take values
		default:
			names = append(names, v)
		}
	}
	if len(names) == 0 || (lines || array) && len(names) != 1 {
		return
	}
	for _, n := range names {
		if !validName(n) {
			return
		}
	}
	if !raw && strings.Contains(text, `\`) {
		return
	}
	if lines {
		// mapfile -t a <<< /etc/…: each line is an element.
		elems := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		for i, line := range elems {
			sc.addValue(names[0], line)
			sc.addValue(elementKey(names[0], i), line)
		}
		if raw { // without -t each element keeps its line end
			sc.noteArray(names[0], elems)
		}
		return
	}
	for n := 0; text != "" && n < maxVarValues; n++ {
		line, rest, _ := strings.Cut(text, "\n")
		sc.addValue(names[0], strings.Trim(line, " \t"))
		if len(names) > 1 || array || len(ce.Assigns) > 0 || len(sc.vars["IFS"]) > 0 {
			sc.readFields(ce, line, names, array)
		}
		if !everyLine {
			return
		}
		text = rest
	}
}

// pipeOutput is what s writes to a pipe, when that is statically known:
// a literal echo or printf, or a filter computing from known text
// (transform.go), ctx.stdin being what s reads.
func (e *eval) pipeOutput(s *syntax.Stmt, ctx cctx, sc *scope) stdinSrc {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return stdinSrc{kind: stdinUnknown}
	}
	if l, ok := ce.Args[0].Parts[0].(*syntax.Lit); ok && len(ce.Args[0].Parts) == 1 && (l.Value == "echo" || l.Value == "printf") && len(s.Redirs) == 0 {
		if out, ok := e.echoOutput(ce.Args, ctx, sc); ok {
			return stdinSrc{kind: stdinText, text: out + "\n"}
		}
		in := stdinSrc{kind: stdinUnknown}
		if out, ok := e.echoPatterns(ce.Args, ctx, sc); ok {
			in.alts = append(in.alts, out+"\n") // echo /* | xargs rm -rf
		}
		for _, bind := range sc.bindings(ce.Args) {
			if out, ok := e.echoOutputWith(ce.Args, ctx, sc, bind); ok && len(in.alts) < maxAlts {
				in.alts = append(in.alts, out+"\n") // x=re; echo "${x}boot" | sh
			}
		}
		return in
	}
	stages := 0
	if out, ok := e.stmtOutput(s, ctx.stdin, ctx, sc, &stages); ok {
		return stdinSrc{kind: stdinText, text: out}
	}
	in := stdinSrc{kind: stdinUnknown}
	if len(ce.Args) == 2 && len(s.Redirs) == 0 {
		if v, _ := litValue(ce.Args[0]); v == "cat" {
			if f, ok := litValue(ce.Args[1]); ok {
				in.alts = e.localAlts(f) // cat /srv/job | sh, written by an earlier call
			}
		}
	}
	return in
}

// elementKey is the name under which scope keeps the values of one
// element of an array: a[2].
func elementKey(name string, i int) string { return name + "[" + strconv.Itoa(i) + "]" }

// elementNames returns the element keys of the ${a[N]} expansions in w
// with a literal index.
func elementNames(w *syntax.Word) []string {
	return paramExps(w, func(p *syntax.ParamExp) (string, bool) {
		if p.Index == nil || p.Excl {
			return "", false
		}
		if k, ok := sliceKey(p); ok {
			return k, true
		}
		return indexKey(p)
	})
}

// cwdSubst spells the expansions that give the working directory as
// $PWD, which cwdWord reads.
var cwdSubst = strings.NewReplacer("${PWD}", "$PWD", "$(pwd)", "$PWD", "$(pwd -P)", "$PWD", "$(pwd -L)", "$PWD",
	"`pwd`", "$PWD", "$(realpath .)", "$PWD", "${DIRSTACK[0]}", "$PWD", "${DIRSTACK}", "$PWD", "$DIRSTACK", "$PWD",
	"${OLDPWD}", "$OLDPWD")

// cwdWord rewrites a piece of a word that begins with the working
// directory, $PWD, as ~+, which names the same directory (cd /root; cat
// $PWD/.local/state/warden/token), and one that begins with $OLDPWD as
// ~-.
func cwdWord(f string) (string, bool) {
	for _, p := range [...][2]string{{"$PWD", "~+"}, {"$OLDPWD", "~-"}} {
		rest, ok := strings.CutPrefix(f, p[0])
		if ok && (rest == "" || rest[0] == '/') && !strings.ContainsAny(rest, "$`") {
			return p[1] + rest, true
		}
	}
	return "", false
}

// setValues records the positional parameters set -- gives literal
// words: set -- /etc warden; cat "$1/$2/…".
func (sc *scope) setValues(ce *syntax.CallExpr) {
	if len(ce.Args) < 3 {
		return
	}
	if v, _ := litValue(ce.Args[0]); v != "set" {
		return
	}
	vals, ok := litValues(ce.Args)
	if !ok || vals[1] != "--" {
		return
	}
	for i, v := range vals[2:] {
		sc.addValue(strconv.Itoa(i+1), v)
	}
	sc.noteArray("*", vals[2:])
}

// printfValue records the value printf -v gives a variable when the
// format and its arguments are literal: printf -v p '%s/%s' /etc/warden
// config.yaml names what cat $p reads.
func (sc *scope) printfValue(s *syntax.Stmt) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 4 {
		return
	}
	if v, _ := litValue(ce.Args[0]); v != "printf" {
		return
	}
	vals, ok := litValues(ce.Args)
	if !ok || vals[1] != "-v" || !validName(vals[2]) {
		return
	}
	rest := vals[3:]
	if rest[0] == "--" {
		rest = rest[1:]
	}
	if len(rest) > 0 {
		sc.addValue(vals[2], printfOut(rest[0], rest[1:]))
	}
}
