package declare

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"text/template"
	"text/template/parse"
	"unicode/utf8"

	"github.com/Masterminds/sprig/v3"
)

// Template is a parsed Go text/template. A shell template quotes every
// value an action prints for the shell context it lands in (see
// shellctx.go); other templates (output prefix, env values, runner
// options) print values as they are.
type Template struct {
	text string
	opts TemplateOptions
	tmpl *template.Template
}

// TemplateOptions say how a template renders.
type TemplateOptions struct {
	// Shell makes the template a shell command: values are quoted for
	// where they land and the result must parse as shell.
	Shell bool
	// ShellPath is the shell that runs the command (mcp.run.shell); it
	// chooses the dialect the command is parsed in.
	ShellPath string
	// Strict makes a key that is not a parameter an error instead of
	// rendering empty (mcp.run.strict_templates).
	Strict bool
	// Raw names string parameters printed unquoted.
	Raw map[string]bool
	// Split names string parameters printed as several shell words.
	Split map[string]bool
	// Check, in a plain template, refuses a value an action prints: the
	// text of a runner option must hold each value as one value.
	Check func(string) error
	// NoEnv, when set, says why the template may not call env at all.
	NoEnv string
	// Option names parameters whose values may be options of the
	// command they are arguments of, and Default holds the parameters'
	// defaults (optinject.go).
	Option  map[string]bool
	Default map[string]any
}

// Text returns the template's source.
func (t *Template) Text() string { return t.text }

// printFunc is the function appended to every output action: it receives
// the parameter name when the action prints a parameter unchanged ("" if
// not) and the value.
const printFunc = "_warden_print"

// maxRender bounds one rendered template, and the lists the bounded
// Sprig functions build.
const maxRender = 1 << 20

// funcs is the function set of templates, besides text/template's
// built-ins: Sprig's hermetic set (no env, expandenv, dates, randomness
// or DNS), with repeat, until, untilStep and seq bounded, and env replaced
// by a per-call function that reads only names the operator listed. In
// shell templates quote and squote make shell words, quoted for where they
// land, rather than Go-quoted strings the shell would read again.
func funcs(shell bool) template.FuncMap {
	fm := sprig.HermeticTxtFuncMap()
	delete(fm, "env")
	delete(fm, "expandenv")
	fm["repeat"] = func(count int, s string) (string, error) {
		if count < 0 || (len(s) > 0 && count > maxRender/len(s)) {
			return "", fmt.Errorf("repeat %d: more than %d bytes", count, maxRender)
		}
		return strings.Repeat(s, count), nil
	}
	until := fm["untilStep"].(func(int, int, int) []int)
	bounded := func(start, stop, step int) ([]int, error) {
		if step != 0 && (stop-start)/step > maxRender/8 {
			return nil, fmt.Errorf("list of more than %d numbers", maxRender/8)
		}
		return until(start, stop, step), nil
	}
	fm["untilStep"] = bounded
	fm["until"] = func(n int) ([]int, error) {
		if n < 0 {
			return bounded(0, n, -1)
		}
		return bounded(0, n, 1)
	}
	seq := fm["seq"].(func(...int) string)
	fm["seq"] = func(p ...int) (string, error) {
		lo, hi := 1, 0
		switch len(p) {
		case 1:
			hi = p[0]
		case 2:
			lo, hi = p[0], p[1]
		case 3:
			lo, hi = p[0], p[2]
		}
		if hi-lo > maxRender/8 || lo-hi > maxRender/8 {
			return "", fmt.Errorf("seq of more than %d numbers", maxRender/8)
		}
		return seq(p...), nil
	}
	fm["env"] = func(string) (string, error) { return "", errors.New("env is not available here") }
	if shell {
		fm["quote"] = func(v ...any) words { return wordsOf(v) }
		fm["squote"] = func(v ...any) words { return wordsOf(v) }
	}
	fm[printFunc] = func(_ string, v any) string { return str(v) }
	return fm
}

// words are shell words: printed in a shell template, each is quoted
// separately.
type words []string

func wordsOf(v []any) words {
	out := words{}
	for _, x := range v {
		if x != nil {
			out = append(out, str(x))
		}
	}
	return out
}

// str prints a value the way text/template would, except that a missing
// key (nil) prints nothing, as in MCPShell, instead of "<no value>".
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case words:
		return strings.Join(x, " ")
	case []string:
		return strings.Join(x, " ")
	}
	return fmt.Sprint(v)
}

// ParseTemplate parses text as a shell template (shell) or a plain one.
func ParseTemplate(name, text string, shell bool) (*Template, error) {
	return ParseTemplateOptions(name, text, TemplateOptions{Shell: shell})
}

// ParseTemplateOptions parses text. define, template and block actions
// are refused: a tool's command is one template.
func ParseTemplateOptions(name, text string, o TemplateOptions) (*Template, error) {
	if strings.ContainsRune(text, 0) {
		return nil, errors.New("template contains a NUL byte")
	}
	tm, err := template.New(name).Funcs(funcs(o.Shell)).Parse(text)
	if err != nil {
		return nil, fmt.Errorf("template: %v%s", strings.TrimPrefix(err.Error(), "template: "), funcHint(err.Error()))
	}
	if len(tm.Templates()) > 1 {
		return nil, errors.New("template: define and block are not allowed")
	}
	if tm.Tree == nil || tm.Tree.Root == nil {
		tm = template.Must(template.New(name).Funcs(funcs(o.Shell)).Parse(""))
	}
	if o.NoEnv != "" && callsEnv(tm.Tree.Root) {
		return nil, fmt.Errorf("template: env is not available here: %s", o.NoEnv)
	}
	if o.Shell {
		if err := envOnly(tm.Tree.Root); err != nil {
			return nil, err
		}
	}
	if err := walk(tm.Tree.Root); err != nil {
		return nil, err
	}
	if o.Strict {
		tm.Option("missingkey=error")
	} else {
		tm.Option("missingkey=zero")
	}
	if o.ShellPath == "" {
		o.ShellPath = "/bin/sh"
	}
	return &Template{text: text, opts: o, tmpl: tm}, nil
}

// funcHint explains a function Sprig has but warden leaves out.
func funcHint(msg string) string {
	for _, f := range []string{"expandenv", "now", "date", "dateInZone", "date_in_zone", "dateModify", "date_modify", "htmlDate", "htmlDateInZone", "randAlphaNum", "randAlpha", "randAscii", "randNumeric", "randBytes", "uuidv4", "getHostByName"} {
		if strings.Contains(msg, `function "`+f+`" not defined`) {
			if f == "expandenv" {
				return `; warden reads only names the operator lists: use env "NAME"`
			}
			return "; warden uses Sprig's hermetic functions only: a command must not depend on the clock, randomness or DNS (do that in the command itself)"
		}
	}
	return ""
}

// walk refuses template calls and appends the print function to every
// action that prints, with the parameter's name when the action prints a
// parameter unchanged.
func walk(n parse.Node) error {
	switch x := n.(type) {
	case *parse.ListNode:
		if x == nil {
			return nil
		}
		for _, c := range x.Nodes {
			if err := walk(c); err != nil {
				return err
			}
		}
	case *parse.ActionNode:
		if len(x.Pipe.Decl) == 0 {
			name := ""
			if len(x.Pipe.Cmds) == 1 && len(x.Pipe.Cmds[0].Args) == 1 {
				if f, ok := x.Pipe.Cmds[0].Args[0].(*parse.FieldNode); ok && len(f.Ident) == 1 {
					name = f.Ident[0]
				}
			}
			x.Pipe.Cmds = append(x.Pipe.Cmds, &parse.CommandNode{
				NodeType: parse.NodeCommand,
				Pos:      x.Pos,
				Args: []parse.Node{
					parse.NewIdentifier(printFunc).SetPos(x.Pos),
					&parse.StringNode{NodeType: parse.NodeString, Pos: x.Pos, Quoted: strconv.Quote(name), Text: name},
				},
			})
		}
	case *parse.IfNode:
		return walkBranch(&x.BranchNode)
	case *parse.RangeNode:
		return walkBranch(&x.BranchNode)
	case *parse.WithNode:
		return walkBranch(&x.BranchNode)
	case *parse.TemplateNode:
		return errors.New("template: template calls are not allowed")
	}
	return nil
}

func walkBranch(b *parse.BranchNode) error {
	if err := walk(b.List); err != nil {
		return err
	}
	return walk(b.ElseList)
}

// placeholder is one value printed by a shell template, kept aside until
// its shell context is known.
type placeholder struct {
	text string
	// name is the parameter printed unchanged, or "".
	name string
	// words is set for a split parameter or quote/squote: several words.
	words   words
	isWords bool
	// ref names the variable of warden's environment text came from
	// (env "NAME"): the command refers to it instead of holding it.
	ref string
	// from names the parameter whose value the text carries, and mayOpt
	// says it may be an option where it starts an argument
	// (optinject.go).
	from   string
	mayOpt bool
}

// renderer holds one render's state.
type renderer struct {
	opts TemplateOptions
	vals []placeholder
	// envs maps each value env returned to its name, and refs (Env.Refs)
	// collects the names printed as references.
	envs map[string]string
	refs map[string]string
	// data is the call's values.
	data map[string]any
	// anyOption is Env.AnyOption.
	anyOption bool
}

// print returns what an action prints: numbers and booleans as they
// are, a raw parameter unquoted, a missing key nothing, and anything else
// a sentinel replaced once its context is known.
func (r *renderer) print(name string, v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case bool:
		return strconv.FormatBool(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case int:
		return strconv.Itoa(x), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return "", errors.New("number is not finite")
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case words:
		for _, w := range x {
			if strings.ContainsRune(w, 0) || !utf8.ValidString(w) {
				return "", errors.New("value contains a NUL byte or is not valid UTF-8")
			}
		}
		if ref, ok := r.envs[strings.Join(x, "")]; ok && len(x) == 1 && r.refs != nil {
			// env "NAME" | quote: one word, the variable's.
			r.refs[ref] = x[0]
			r.vals = append(r.vals, placeholder{text: x[0], ref: ref})
			return sentinel(len(r.vals) - 1), nil
		}
		for _, w := range x {
			if err := r.envInside(w); err != nil {
				return "", err
			}
		}
		r.vals = append(r.vals, placeholder{words: x, isWords: true})
		r.optionSource(&r.vals[len(r.vals)-1])
		return sentinel(len(r.vals) - 1), nil
	case []string:
		// An array parameter: each element one word, never split again.
		for _, w := range x {
			if strings.ContainsRune(w, 0) || !utf8.ValidString(w) {
				return "", fmt.Errorf("parameter %s: an element contains a NUL byte or is not valid UTF-8", name)
			}
		}
		r.vals = append(r.vals, placeholder{text: strings.Join(x, " "), name: name, words: x, isWords: true})
		r.optionSource(&r.vals[len(r.vals)-1])
		return sentinel(len(r.vals) - 1), nil
	}
	s := str(v)
	if strings.ContainsRune(s, 0) {
		return "", errors.New("value contains a NUL byte")
	}
	if !utf8.ValidString(s) {
		// Arguments arrive as JSON, always UTF-8; the shell parser
		// refuses anything else.
		return "", errors.New("value is not valid UTF-8")
	}
	if ref, ok := r.envs[s]; ok && name == "" && r.refs != nil {
		r.refs[ref] = s
		r.vals = append(r.vals, placeholder{text: s, ref: ref})
		return sentinel(len(r.vals) - 1), nil
	}
	if name == "" {
		if err := r.envInside(s); err != nil {
			return "", err
		}
	}
	if name != "" && r.opts.Raw[name] {
		return s, nil
	}
	if name != "" && r.opts.Split[name] {
		w, err := splitWords(s)
		if err != nil {
			return "", fmt.Errorf("parameter %s: %v", name, err)
		}
		r.vals = append(r.vals, placeholder{text: s, name: name, words: w, isWords: true})
		r.optionSource(&r.vals[len(r.vals)-1])
		return sentinel(len(r.vals) - 1), nil
	}
	r.vals = append(r.vals, placeholder{text: s, name: name})
	r.optionSource(&r.vals[len(r.vals)-1])
	return sentinel(len(r.vals) - 1), nil
}

// minEnvInside is the shortest value of warden's environment looked for
// inside a printed text: a shorter one (a flag, a digit) is no secret and
// would match ordinary text.
const minEnvInside = 4

// envInside refuses a printed text that holds a value env returned
// without being that value alone ({{ quote (env "A") "x" }}, {{ printf
// "k=%s" (env "A") }}): it could not be a reference to the variable, so
// the value would be on the command line. Only where references are made
// (Env.Refs).
func (r *renderer) envInside(s string) error {
	if r.refs == nil {
		return nil
	}
	for v, name := range r.envs {
		if len(v) >= minEnvInside && strings.Contains(s, v) {
			return fmt.Errorf("env %q is printed inside another text, which would put its value on the command line: print {{ env %q }} alone and join it in the shell", name, name)
		}
	}
	return nil
}

// Env is what templates may read of warden's environment: only the names
// listed in run.env or by the operator (exec.env_passthrough).
type Env struct {
	Allowed map[string]bool
	Getenv  func(string) string
	// Any allows every name and records it in Read (validate, which does
	// not know the operator's list).
	Any bool
	// Shown refuses every name: the text is shown to the agent
	// (output.prefix), which must not read warden's environment.
	Shown bool
	Read  *[]string
	// Notes, when set (validate), collects what values a call will
	// refuse, instead of refusing the hostile sample values.
	Notes *[]string
	// Refs, when set, makes a shell template print what env returns as a
	// reference to its variable ("${NAME}") and records NAME and its value
	// here, for the caller to put in the program's environment: a command
	// line is every local user's to read (/proc/PID/cmdline, ps), a
	// program's environment only its own domain's.
	Refs map[string]string
	// AnyOption renders a value that starts an argument with '-' as any
	// other: only to find where a refused call's values would have stood
	// (Deps.refusedSecrets), never to run.
	AnyOption bool
	// Plain prints every value as it is, unquoted and unchecked: only to
	// find where a call's values stand when no quoted rendering can
	// (Deps.refusedSecrets), never to run.
	Plain bool
}

// limitedWriter fails once more than maxRender bytes are written.
type limitedWriter struct{ b strings.Builder }

func (w *limitedWriter) Write(p []byte) (int, error) {
	if w.b.Len()+len(p) > maxRender {
		return 0, fmt.Errorf("rendered text is larger than %d bytes", maxRender)
	}
	return w.b.Write(p)
}

// Render executes the template with data. A shell template quotes each
// printed value for the shell context it lands in, or fails saying why it
// cannot, and fails if the command is not valid shell.
func (t *Template) Render(data map[string]any, env Env) (string, error) {
	tm, err := t.tmpl.Clone()
	if err != nil {
		return "", err
	}
	r := &renderer{opts: t.opts, envs: map[string]string{}, refs: env.Refs, data: data, anyOption: env.AnyOption}
	fm := template.FuncMap{
		"env": func(name string) (string, error) {
			if env.Shown {
				return "", fmt.Errorf("env %q: this text is shown to the agent, which must not read warden's environment", name)
			}
			if env.Any {
				if env.Read != nil {
					*env.Read = append(*env.Read, name)
				}
				return "", nil
			}
			if !env.Allowed[name] {
				return "", fmt.Errorf("env %q: only names listed in run.env or exec.env_passthrough may be read", name)
			}
			if env.Getenv == nil {
				return "", nil
			}
			v := env.Getenv(name)
			if v != "" {
				r.envs[v] = name
			}
			return v, nil
		},
	}
	if env.Plain {
		fm[printFunc] = func(_ string, v any) (string, error) { return str(v), nil }
	} else if t.opts.Shell {
		fm[printFunc] = r.print
	} else if check := t.opts.Check; check != nil {
		fm[printFunc] = func(_ string, v any) (string, error) {
			s := str(v)
			// validate (Notes set) renders hostile values, which a
			// call refuses here; that is no fault of the template.
			if err := check(s); err != nil && env.Notes == nil {
				return "", err
			}
			return s, nil
		}
	}
	var w limitedWriter
	if err := tm.Funcs(fm).Execute(&w, data); err != nil {
		return "", fmt.Errorf("render: %v", strings.TrimPrefix(err.Error(), "template: "))
	}
	if !t.opts.Shell || env.Plain {
		return w.b.String(), nil
	}
	return quoteInContext(w.b.String(), r.vals, t.opts.ShellPath, env.Notes)
}

// escapeDouble escapes a value for the inside of double quotes.
func escapeDouble(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\', '"', '$', '`':
			b.WriteByte('\\')
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// splitWords splits a split parameter's value into words the way a shell
// reads unquoted text, without running anything: blanks separate words,
// '…' and "…" group them, a backslash escapes the next character, and
// everything else ($, `, ;, |, globs) is an ordinary character.
func splitWords(s string) (words, error) {
	out := words{}
	var cur strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\\':
			in = true
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					cur.WriteByte(s[i])
				}
			}
		case c == '\'':
			in = true
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated ' in value")
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			in = true
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New(`unterminated " in value`)
			}
		default:
			in = true
			cur.WriteByte(c)
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out, nil
}
