package declare

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A shell template is rendered with a sentinel in place of every value;
// the result is parsed as shell (a syntax error fails here, so validate
// finds it), the node around each sentinel says how the value must be
// quoted, and the values are put in. The command with the values in must
// then parse to the same structure as with the sentinels: a value that
// would end a here-document early, or anything else the quoting did not
// foresee, fails the call instead of running.

// A sentinel starts with @, which no variable name can contain, so text
// such as $name{{ .v }} keeps its variable; inside arithmetic, where @ is
// a syntax error, the text is parsed again with bare-name sentinels to
// say why a value cannot go there.
const sentinelPrefix = "@WARDENPH"

var (
	sentinelRE = regexp.MustCompile(sentinelPrefix + `([0-9]+)Z`)
	bareRE     = regexp.MustCompile(sentinelPrefix[1:] + `([0-9]+)Z`)
)

func sentinel(i int) string { return sentinelPrefix + strconv.Itoa(i) + "Z" }

// shellCtx is where in the shell text a value lands.
type shellCtx int

const (
	ctxWord           shellCtx = iota // an unquoted word
	ctxArg                            // an unquoted argument of a simple command
	ctxDouble                         // inside "…"
	ctxSingle                         // inside '…'
	ctxDollarSingle                   // inside $'…'
	ctxParamWord                      // the word of ${x:-…}, ${x#…}, ${x/…/…}, unquoted
	ctxParamWordDQ                    // the same inside "…"
	ctxHeredoc                        // the body of <<EOF
	ctxHeredocLiteral                 // the body of <<'EOF'
)

// site is one sentinel found in the parsed text.
type site struct {
	start, end int
	idx        int
	ctx        shellCtx
	refused    string
	// need and why: what the value must be at the call (shellflow.go).
	need need
	why  string
	// prog, when set, is the command of which the value starts an
	// argument, where a leading '-' makes it an option (optinject.go).
	prog string
	// names are the variables the value reaches (arithFlow), and reaches
	// the arguments it is expanded into (optionFlow).
	names   map[string]bool
	reaches []reach
}

// lang is the parser dialect for a shell path.
func lang(shell string) syntax.LangVariant {
	switch strings.TrimSuffix(filepath.Base(shell), ".exe") {
	case "sh", "dash", "ash", "busybox", "posh":
		return syntax.LangPOSIX
	case "mksh", "ksh", "lksh":
		return syntax.LangMirBSDKorn
	}
	return syntax.LangBash
}

func parseShell(src, shell string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(lang(shell)), syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
}

// quoteInContext replaces each sentinel in s with its value quoted for
// the shell context around it.
func quoteInContext(s string, vals []placeholder, shell string, notes *[]string) (string, error) {
	f, err := parseShell(s, shell)
	if err != nil {
		bare := strings.ReplaceAll(s, sentinelPrefix, sentinelPrefix[1:])
		if g, err := parseShell(bare, shell); err == nil && len(vals) > 0 {
			if sites, err := findSites(g, bare, len(vals), bareRE); err == nil {
				for _, st := range sites {
					if st.refused != "" {
						return "", errors.New(st.refused)
					}
				}
			}
		}
		return "", fmt.Errorf("not valid %s syntax: %v", filepath.Base(shell), shellErr(err, s))
	}
	if len(vals) == 0 {
		return s, nil
	}
	sites, err := findSites(f, s, len(vals), sentinelRE)
	if err != nil {
		return "", err
	}
	for _, st := range sites {
		if st.refused != "" {
			return "", errors.New(st.refused)
		}
	}
	arithFlow(f, sites)
	optionFlow(f, s, sites)
	var out strings.Builder
	prev := 0
	for _, st := range sites {
		if st.need != needNothing {
			p := vals[st.idx]
			who := "a parameter"
			if p.name != "" {
				who = "parameter " + p.name
			}
			texts := []string{p.text}
			if p.isWords {
				texts = p.words
			}
			for _, v := range texts {
				if bad := st.need.check(v); bad != "" {
					if notes == nil {
						return "", fmt.Errorf("%s %s; %s, refused", who, st.why, bad)
					}
				}
			}
			if notes != nil {
				*notes = append(*notes, fmt.Sprintf("%s %s: %s", who, st.why, st.need.rule()))
			}
		}
		if st.prog != "" && notes == nil {
			if err := checkOption(vals[st.idx], st.prog); err != nil {
				return "", err
			}
		}
		if notes == nil {
			for _, r := range st.reaches {
				if err := r.check(vals[st.idx]); err != nil {
					return "", err
				}
			}
		}
		q, err := quoteFor(vals[st.idx], st.ctx)
		if err != nil {
			return "", err
		}
		out.WriteString(s[prev:st.start])
		out.WriteString(q)
		prev = st.end
	}
	out.WriteString(s[prev:])
	res := out.String()
	g, err := parseShell(res, shell)
	refs := map[string]bool{}
	for _, p := range vals {
		if p.ref != "" {
			refs[p.ref] = true
		}
	}
	if err != nil || !slices.Equal(shape(f, refs), shape(g, refs)) {
		return "", errors.New("a value changes the structure of the command (for example it ends a here-document early); refused")
	}
	return res, nil
}

// shellErr makes a parse error readable: sentinels shown as {{…}}.
func shellErr(err error, _ string) string {
	return sentinelRE.ReplaceAllString(err.Error(), "{{…}}")
}

// shape is the command's structure: every node that is not a word or a
// part of one, in order.
func shape(f *syntax.File, refs map[string]bool) []string {
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case nil, *syntax.Word, *syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted:
		case *syntax.ParamExp:
			if !x.Short && x.Param != nil && refs[x.Param.Value] && x.Exp == nil && x.Repl == nil && x.Index == nil && x.Slice == nil && !x.Length && !x.Excl {
				break // a reference quoteFor printed (refFor)
			}
			out = append(out, reflect.TypeOf(n).String())
		default:
			out = append(out, reflect.TypeOf(n).String())
		}
		return true
	})
	return out
}

// findSites finds every sentinel and its context, in text order. A
// sentinel found in no word (a comment, say) is refused.
func findSites(f *syntax.File, s string, n int, re *regexp.Regexp) ([]site, error) {
	var sites []site
	var stack []syntax.Node
	seen := make([]bool, n)
	syntax.Walk(f, func(node syntax.Node) bool {
		if node == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, node)
		var start, end int
		switch x := node.(type) {
		case *syntax.Lit:
			start, end = int(x.Pos().Offset()), int(x.End().Offset())
		case *syntax.SglQuoted:
			start, end = int(x.Pos().Offset()), int(x.End().Offset())
		case *syntax.Comment:
			start, end = int(x.Pos().Offset()), int(x.End().Offset())
		default:
			return true
		}
		if start < 0 || end > len(s) || start > end {
			return true
		}
		for _, m := range re.FindAllStringSubmatchIndex(s[start:end], -1) {
			idx, _ := strconv.Atoi(s[start+m[2] : start+m[3]])
			if idx >= n || seen[idx] {
				continue
			}
			seen[idx] = true
			st := site{start: start + m[0], end: start + m[1], idx: idx}
			st.ctx, st.refused = classify(stack, s[:st.start])
			if st.refused == "" {
				st.prog, _ = optionPosition(stack, s, st.start)
			}
			if st.ctx == ctxArg && st.refused == "" {
				w := stack[len(stack)-2].(*syntax.Word)
				call := stack[len(stack)-3].(*syntax.CallExpr)
				st.why, st.need = argSink(call, slices.Index(call.Args, w), s[int(w.Pos().Offset()):st.start])
			}
			sites = append(sites, st)
		}
		return true
	})
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("value %d lands where warden cannot tell the shell context", i+1)
		}
	}
	// Every sentinel appears once; more matches mean the template's own
	// text contains one.
	if len(re.FindAllStringIndex(s, -1)) != n {
		return nil, fmt.Errorf("the command contains the reserved text %s", sentinelPrefix)
	}
	slices.SortFunc(sites, func(a, b site) int { return a.start - b.start })
	return sites, nil
}

// classify names the context of the innermost node of stack (a Lit,
// SglQuoted or Comment), or says why a value cannot go there.
func classify(stack []syntax.Node, before string) (shellCtx, string) {
	node := stack[len(stack)-1]
	// Anything inside backticks or arithmetic is refused, up to the
	// nearest $( … ), which starts a fresh command.
	for i := len(stack) - 2; i >= 0; i-- {
		switch x := stack[i].(type) {
		case *syntax.CmdSubst:
			if x.Backquotes {
				return 0, "a parameter is used inside backticks, where quoting depends on backslash rules; use $(…)"
			}
			i = -1
		case *syntax.ProcSubst:
			i = -1
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.BinaryArithm, *syntax.UnaryArithm, *syntax.ParenArithm, *syntax.CStyleLoop, *syntax.LetClause, *syntax.FlagsArithm:
			return 0, "a string parameter is used inside arithmetic ($((…)), ((…)), let, ${x:off:len}), where the shell evaluates it as an expression (and bash runs $(…) in it); declare the parameter type: integer"
		case *syntax.BinaryTest:
			if isArithTest(x.Op) {
				return 0, "a string parameter is compared with -eq, -lt, … inside [[ ]], where bash evaluates it as arithmetic (and runs $(…) in it); declare the parameter type: integer"
			}
		case *syntax.UnaryTest:
			if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
				return 0, "a parameter is the variable name of [[ -v ]], where bash evaluates an array subscript (and runs $(…) in it)"
			}
		}
	}
	switch x := node.(type) {
	case *syntax.Comment:
		return 0, "a parameter is used inside a shell comment"
	case *syntax.SglQuoted:
		if x.Dollar {
			return ctxDollarSingle, ""
		}
		return ctxSingle, ""
	}
	parent := stack[len(stack)-2]
	switch p := parent.(type) {
	case *syntax.DblQuoted:
		return ctxDouble, ""
	case *syntax.Word:
		if len(stack) < 3 {
			return ctxWord, ""
		}
		switch g := stack[len(stack)-3].(type) {
		case *syntax.CallExpr:
			if i := slices.Index(g.Args, p); i > 0 {
				if why, n := argSink(g, i, before[int(p.Pos().Offset()):]); n == needRefused {
					return 0, why
				}
				return ctxArg, ""
			}
			return ctxWord, ""
		case *syntax.Assign:
			switch {
			case g.Index == syntax.ArithmExpr(p):
				return 0, "a string parameter is used as an array index, which bash evaluates as arithmetic; declare it type: integer"
			case g.Naked:
				return 0, "a parameter is used as a variable name (declare, local, export, …)"
			}
			if len(stack) >= 4 {
				if d, ok := stack[len(stack)-4].(*syntax.DeclClause); ok {
					for _, a := range d.Args {
						if t, ok := litText(a.Value); a.Naked && ok && strings.HasPrefix(t, "-") && strings.Contains(t, "n") {
							return 0, "a parameter is the target of a nameref (declare -n), which bash reads as a variable name"
						}
					}
				}
			}
			return ctxWord, ""
		case *syntax.Redirect:
			if g.Hdoc == p {
				if quotedDelim(g.Word) {
					return ctxHeredocLiteral, ""
				}
				return ctxHeredoc, ""
			}
			return ctxWord, ""
		case *syntax.ParamExp:
			if !(g.Exp != nil && g.Exp.Word == p) && !(g.Repl != nil && (g.Repl.Orig == p || g.Repl.With == p)) {
				return 0, "a string parameter is used as an index, offset or length inside ${…}, where the shell evaluates it as arithmetic; declare it type: integer"
			}
			for i := len(stack) - 4; i >= 0; i-- {
				switch stack[i].(type) {
				case *syntax.DblQuoted:
					return ctxParamWordDQ, ""
				case *syntax.CmdSubst, *syntax.Stmt:
					return ctxParamWord, ""
				}
			}
			return ctxParamWord, ""
		}
		return ctxWord, ""
	case *syntax.ParamExp:
		return 0, "a parameter is used as a variable name inside ${…}"
	case *syntax.Assign:
		return 0, "a parameter is used as a variable name in an assignment"
	}
	return 0, fmt.Sprintf("a parameter is used as a name (%s), where it cannot be quoted", strings.TrimPrefix(reflect.TypeOf(parent).String(), "*syntax."))
}

// quotedDelim reports whether a here-document delimiter is quoted, which
// makes the body literal.
func quotedDelim(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			if strings.Contains(x.Value, `\`) {
				return true
			}
		}
	}
	return false
}

func single(v string) string { return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'" }

// quoteFor quotes one value for its context.
func quoteFor(p placeholder, c shellCtx) (string, error) {
	if p.ref != "" {
		if q, ok := refFor(p.ref, c); ok {
			return q, nil
		}
	}
	text := p.text
	if p.isWords {
		text = strings.Join(p.words, " ")
	}
	switch c {
	case ctxArg:
		if p.isWords {
			q := make([]string, len(p.words))
			for i, w := range p.words {
				q[i] = single(w)
			}
			return strings.Join(q, " "), nil
		}
		return single(text), nil
	case ctxWord, ctxParamWord:
		return single(text), nil
	case ctxDouble:
		return escapeDouble(text), nil
	case ctxSingle:
		return strings.ReplaceAll(text, "'", `'\''`), nil
	case ctxDollarSingle:
		return "'" + single(text) + "$'", nil
	case ctxParamWordDQ:
		return `"` + escapeDouble(text) + `"`, nil
	case ctxHeredoc:
		var b strings.Builder
		for i := 0; i < len(text); i++ {
			if strings.IndexByte("\\$`", text[i]) >= 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(text[i])
		}
		return b.String(), nil
	case ctxHeredocLiteral:
		return text, nil
	}
	return "", errors.New("unknown shell context")
}

// refFor refers to variable name in context c, where the shell expands it
// once to its value as one word, as quoteFor's quoting of the value
// would print it; a quoted here-document expands nothing, so there the
// value itself is printed.
func refFor(name string, c shellCtx) (string, bool) {
	v := "${" + name + "}"
	switch c {
	case ctxArg, ctxWord, ctxParamWord, ctxParamWordDQ:
		return `"` + v + `"`, true
	case ctxDouble, ctxHeredoc:
		return v, true
	case ctxSingle:
		return `'"` + v + `"'`, true
	case ctxDollarSingle:
		return `'"` + v + `"$'`, true
	}
	return "", false
}
