package declare

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"text/template"
	"text/template/parse"
)

// Template is a parsed Go text/template. A shell template quotes every
// value an action prints for the shell context it lands in; other
// templates (output prefix, env values, runner options) print values as
// they are.
type Template struct {
	text  string
	shell bool
	tmpl  *template.Template
}

// Text returns the template's source.
func (t *Template) Text() string { return t.text }

// quoteFunc is the function appended to every output action of a shell
// template.
const quoteFunc = "_warden_quote"

// baseFuncs is the documented function set of templates, besides
// text/template's built-ins (and, or, not, eq, ne, lt, le, gt, ge, len,
// index, print, printf, println). env is replaced per call: it reads only
// names listed in run.env.
func baseFuncs() template.FuncMap {
	return template.FuncMap{
		"lower":      func(s any) string { return strings.ToLower(str(s)) },
		"upper":      func(s any) string { return strings.ToUpper(str(s)) },
		"trim":       func(s any) string { return strings.TrimSpace(str(s)) },
		"trimPrefix": func(prefix, s any) string { return strings.TrimPrefix(str(s), str(prefix)) },
		"trimSuffix": func(suffix, s any) string { return strings.TrimSuffix(str(s), str(suffix)) },
		"replace":    func(old, new, s any) string { return strings.ReplaceAll(str(s), str(old), str(new)) },
		"contains":   func(sub, s any) bool { return strings.Contains(str(s), str(sub)) },
		"hasPrefix":  func(prefix, s any) bool { return strings.HasPrefix(str(s), str(prefix)) },
		"hasSuffix":  func(suffix, s any) bool { return strings.HasSuffix(str(s), str(suffix)) },
		"split":      func(sep, s any) []string { return strings.Split(str(s), str(sep)) },
		"join":       func(sep any, list []string) string { return strings.Join(list, str(sep)) },
		"default": func(def any, v ...any) any {
			if len(v) == 0 || isZero(v[0]) {
				return def
			}
			return v[0]
		},
		"env":     func(string) (string, error) { return "", errors.New("env is not available here") },
		quoteFunc: func(v any) string { return fmt.Sprint(v) },
	}
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case rawString:
		return string(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func isZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case rawString:
		return x == ""
	case bool:
		return !x
	case int64:
		return x == 0
	case float64:
		return x == 0
	}
	return false
}

// rawString is the value of a parameter declared raw: a shell template
// prints it unquoted when an action prints it unchanged.
type rawString string

// ParseTemplate parses text. define, template and block actions are
// refused: a tool's command is one template.
func ParseTemplate(name, text string, shell bool) (*Template, error) {
	if strings.ContainsRune(text, 0) {
		return nil, errors.New("template contains a NUL byte")
	}
	tm, err := template.New(name).Option("missingkey=error").Funcs(baseFuncs()).Parse(text)
	if err != nil {
		return nil, fmt.Errorf("template: %v", strings.TrimPrefix(err.Error(), "template: "))
	}
	if len(tm.Templates()) > 1 {
		return nil, errors.New("template: define and block are not allowed")
	}
	if tm.Tree == nil || tm.Tree.Root == nil {
		tm = template.Must(template.New(name).Funcs(baseFuncs()).Parse(""))
	}
	if err := walk(tm.Tree.Root, shell); err != nil {
		return nil, err
	}
	return &Template{text: text, shell: shell, tmpl: tm}, nil
}

// walk refuses template calls and, in a shell template, appends the
// quoting function to every action that prints.
func walk(n parse.Node, shell bool) error {
	switch x := n.(type) {
	case *parse.ListNode:
		if x == nil {
			return nil
		}
		for _, c := range x.Nodes {
			if err := walk(c, shell); err != nil {
				return err
			}
		}
	case *parse.ActionNode:
		if shell && len(x.Pipe.Decl) == 0 {
			x.Pipe.Cmds = append(x.Pipe.Cmds, &parse.CommandNode{
				NodeType: parse.NodeCommand,
				Pos:      x.Pos,
				Args:     []parse.Node{parse.NewIdentifier(quoteFunc).SetPos(x.Pos)},
			})
		}
	case *parse.IfNode:
		return walkBranch(&x.BranchNode, shell)
	case *parse.RangeNode:
		return walkBranch(&x.BranchNode, shell)
	case *parse.WithNode:
		return walkBranch(&x.BranchNode, shell)
	case *parse.TemplateNode:
		return errors.New("template: template calls are not allowed")
	}
	return nil
}

func walkBranch(b *parse.BranchNode, shell bool) error {
	if err := walk(b.List, shell); err != nil {
		return err
	}
	return walk(b.ElseList, shell)
}

// renderer holds one render's state: the values printed by shell actions,
// kept aside until their context is known.
type renderer struct {
	vals []string
}

// mark returns a placeholder for a printed value; numbers, booleans and
// raw values are printed as they are.
func (r *renderer) mark(v any) (string, error) {
	switch x := v.(type) {
	case rawString:
		if strings.ContainsRune(string(x), 0) {
			return "", errors.New("value contains a NUL byte")
		}
		return string(x), nil
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
	}
	s := str(v)
	if strings.ContainsRune(s, 0) {
		return "", errors.New("value contains a NUL byte")
	}
	r.vals = append(r.vals, s)
	return "\x00" + strconv.Itoa(len(r.vals)-1) + "\x00", nil
}

// Env is what templates may read of warden's environment: only the names
// listed in run.env.
type Env struct {
	Allowed map[string]bool
	Getenv  func(string) string
}

// Render executes the template with data. A shell template quotes each
// printed value for where it lands: single-quoted outside quotes,
// backslash-escaped inside double quotes, and closed and reopened inside
// single quotes; a value landing anywhere else (backticks, ${…}, $((…)),
// $'…', a comment, or after a here-document) is an error, never
// inserted.
func (t *Template) Render(data map[string]any, env Env) (string, error) {
	tm, err := t.tmpl.Clone()
	if err != nil {
		return "", err
	}
	r := &renderer{}
	funcs := template.FuncMap{
		"env": func(name string) (string, error) {
			if !env.Allowed[name] {
				return "", fmt.Errorf("env %q: only names listed in run.env may be read", name)
			}
			if env.Getenv == nil {
				return "", nil
			}
			return env.Getenv(name), nil
		},
	}
	if t.shell {
		funcs[quoteFunc] = r.mark
	}
	var b strings.Builder
	if err := tm.Funcs(funcs).Execute(&b, data); err != nil {
		return "", fmt.Errorf("render: %v", strings.TrimPrefix(err.Error(), "template: "))
	}
	if !t.shell {
		return b.String(), nil
	}
	return quoteInContext(b.String(), r.vals)
}

// frame kinds of the shell context scanner.
const (
	ctxSubst  = iota // $( … ): a full command context
	ctxDouble        // " … "
	ctxSingle        // ' … '
	ctxOther         // backticks, ${ … }, $(( … )): values refused
	ctxComment
)

// quoteInContext replaces each placeholder in s with its value quoted for
// the shell context around it. The scanner tracks quotes and command
// substitutions; where it cannot be sure of the context it refuses.
func quoteInContext(s string, vals []string) (string, error) {
	var (
		out   strings.Builder
		stack []int
		lost  string // why the context can no longer be known
	)
	top := func() int {
		if len(stack) == 0 {
			return ctxSubst
		}
		return stack[len(stack)-1]
	}
	wordStart := func(i int) bool {
		if i == 0 {
			return true
		}
		return strings.IndexByte(" \t\n;&|()<>", s[i-1]) >= 0
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 0 {
			end := strings.IndexByte(s[i+1:], 0)
			idx, _ := strconv.Atoi(s[i+1 : i+1+end])
			i += end + 1
			v := vals[idx]
			switch {
			case lost != "":
				return "", fmt.Errorf("a parameter is used after %s, where warden cannot tell how to quote it; move it earlier or declare the parameter raw", lost)
			case top() == ctxSubst:
				out.WriteString("'" + strings.ReplaceAll(v, "'", `'\''`) + "'")
			case top() == ctxDouble:
				out.WriteString(escapeDouble(v))
			case top() == ctxSingle:
				out.WriteString(strings.ReplaceAll(v, "'", `'\''`))
			case top() == ctxComment:
				return "", errors.New("a parameter is used inside a shell comment")
			default:
				return "", errors.New("a parameter is used inside backticks, ${…} or $((…)), where warden cannot quote it; use $(…) or declare the parameter raw")
			}
			continue
		}
		out.WriteByte(c)
		next := byte(0)
		if i+1 < len(s) {
			next = s[i+1]
		}
		switch top() {
		case ctxSingle:
			if c == '\'' {
				stack = stack[:len(stack)-1]
			}
		case ctxComment:
			if c == '\n' {
				stack = stack[:len(stack)-1]
			}
		case ctxDouble:
			switch {
			case c == '\\' && next != 0:
				out.WriteByte(next)
				i++
			case c == '"':
				stack = stack[:len(stack)-1]
			case c == '`':
				lost = "backticks"
				stack = append(stack, ctxOther)
			case c == '$' && next == '(':
				out.WriteByte(next)
				i++
				if i+1 < len(s) && s[i+1] == '(' {
					lost = "$((…))"
					stack = append(stack, ctxOther)
				} else {
					stack = append(stack, ctxSubst)
				}
			case c == '$' && next == '{':
				lost = "${…}"
				stack = append(stack, ctxOther)
			}
		case ctxSubst:
			switch {
			case c == '\\' && next != 0:
				out.WriteByte(next)
				i++
			case c == '\'':
				stack = append(stack, ctxSingle)
			case c == '"':
				stack = append(stack, ctxDouble)
			case c == '`':
				lost = "backticks"
				stack = append(stack, ctxOther)
			case c == '#' && wordStart(i):
				stack = append(stack, ctxComment)
			case c == '<' && next == '<':
				lost = "a here-document"
			case c == '$' && next == '\'':
				lost = "$'…'"
			case c == '$' && next == '{':
				lost = "${…}"
				stack = append(stack, ctxOther)
			case c == '$' && next == '(':
				out.WriteByte(next)
				i++
				if i+1 < len(s) && s[i+1] == '(' {
					lost = "$((…))"
					stack = append(stack, ctxOther)
				} else {
					stack = append(stack, ctxSubst)
				}
			case c == '(' && len(stack) > 0:
				lost = "a parenthesis inside $(…)"
			case c == ')' && len(stack) > 0:
				stack = stack[:len(stack)-1]
			case c == 'c' && len(stack) > 0 && wordStart(i) && strings.HasPrefix(s[i:], "case") && (i+4 == len(s) || strings.IndexByte(" \t\n", s[i+4]) >= 0):
				lost = "case inside $(…)"
			}
		case ctxOther:
			// The context is lost for good; keep copying.
		}
	}
	return out.String(), nil
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

// sampleValues are values of every type, for validate: the defaults where
// given, and for strings a hostile value, so a command that could not
// quote it fails validation rather than a call.
func sampleValues(t *Tool, hostile bool) map[string]any {
	vals := map[string]any{}
	for _, p := range t.Params {
		var v any
		switch p.Type {
		case TypeString:
			v = "/srv/sample"
			if hostile {
				v = "'; id; '$(id)`id`\n\"x\""
			}
			if p.Raw {
				v = rawString("sample")
			}
		case TypeInteger:
			v = int64(1)
		case TypeNumber:
			v = 1.5
		case TypeBoolean:
			v = true
		}
		if p.Default != nil && !hostile {
			v, _ = typedValue(p, p.Default)
		}
		vals[p.Name] = v
	}
	return vals
}

// Validate renders every template of the tool with sample values and
// with hostile ones, reporting the first that fails.
func (t *Tool) Validate() error {
	env := Env{Allowed: map[string]bool{}}
	for _, e := range t.Run.Env {
		env.Allowed[e.Name] = true
	}
	for _, hostile := range []bool{false, true} {
		vals := sampleValues(t, hostile)
		if _, err := t.Run.Command.Render(vals, env); err != nil {
			return fmt.Errorf("run.command: %v", err)
		}
		if t.Prefix != nil {
			if _, err := t.Prefix.Render(vals, env); err != nil {
				return fmt.Errorf("output.prefix: %v", err)
			}
		}
		for _, e := range t.Run.Env {
			if e.Value != nil {
				if _, err := e.Value.Render(vals, env); err != nil {
					return fmt.Errorf("run.env %s: %v", e.Name, err)
				}
			}
		}
		for _, r := range t.Run.Runners {
			for name, tm := range r.optTemplates {
				if _, err := tm.Render(vals, env); err != nil {
					return fmt.Errorf("runner %s option %s: %v", r.Name, name, err)
				}
			}
			for name, tms := range r.listTmpls {
				for _, tm := range tms {
					if _, err := tm.Render(vals, env); err != nil {
						return fmt.Errorf("runner %s option %s: %v", r.Name, name, err)
					}
				}
			}
		}
	}
	return nil
}
