package declare

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/warden-mcp/warden/internal/policy"
)

// MaxFileBytes bounds one tool file.
const MaxFileBytes = 1 << 20

var (
	toolNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)
	envNameRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// promptNameRE matches what a default prompt name cannot contain.
	promptNameRE = regexp.MustCompile(`[^A-Za-z0-9_-]`)
)

// Error is one problem in a tool file, with where it is.
type Error struct {
	File string
	Line int
	// Key is the dotted path of the offending key.
	Key string
	Msg string
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Key, e.Msg)
}

// Set is every tool and prompt loaded from a list of files and
// directories.
type Set struct {
	Files []*File
	// Warnings are problems that do not stop loading (raw parameters).
	Warnings []string
}

// Tools returns every tool of every file, in load order.
func (s *Set) Tools() []*Tool {
	var out []*Tool
	for _, f := range s.Files {
		out = append(out, f.Tools...)
	}
	return out
}

// LoadPaths loads every file named, and every *.yaml and *.yml file
// directly inside every directory named, in lexical order. Any problem in
// any file fails the whole load, listing every problem found; a tool name
// defined twice, in one file or two, is a problem.
func LoadPaths(paths []string) (*Set, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("tools: %w", err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("tools: %w", err)
		}
		for _, e := range ents {
			if ext := filepath.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml") {
				files = append(files, filepath.Join(p, e.Name()))
			}
		}
	}
	set := &Set{}
	var errs []error
	seen := map[string]*Tool{}
	for _, name := range files {
		data, err := readBounded(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		f, warns, err := Parse(name, data)
		set.Warnings = append(set.Warnings, warns...)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, t := range f.Tools {
			if prev, ok := seen[t.Name]; ok {
				errs = append(errs, &Error{File: t.File, Line: t.Line, Key: "name", Msg: fmt.Sprintf("tool %q is already defined at %s:%d", t.Name, prev.File, prev.Line)})
				continue
			}
			seen[t.Name] = t
		}
		set.Files = append(set.Files, f)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return set, nil
}

func readBounded(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("tools: %w", err)
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(io.LimitReader(f, MaxFileBytes+1)); err != nil {
		return nil, fmt.Errorf("tools: read %s: %w", name, err)
	}
	if b.Len() > MaxFileBytes {
		return nil, fmt.Errorf("tools: %s is larger than %d bytes", name, MaxFileBytes)
	}
	return b.Bytes(), nil
}

// Parse strictly parses one tool file. Every error names the file, the
// line and the key. Warnings are returned even when there are errors.
func Parse(name string, data []byte) (*File, []string, error) {
	p := &parser{file: name}
	f := &File{Path: name, Shell: "/bin/sh"}
	p.f = f
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return nil, nil, &Error{File: name, Line: 1, Msg: "empty file: want an mcp section with tools"}
	}
	root := doc.Content[0]
	var mcp *yaml.Node
	p.mapping(root, "", map[string]func(k, v *yaml.Node){
		"mcp":     func(_, v *yaml.Node) { mcp = v },
		"prompts": func(k, v *yaml.Node) { f.Prompts = p.prompts(v, "prompts", name) },
	})
	if mcp == nil {
		p.errf(root, "", "missing the mcp section")
	} else {
		p.mcp(mcp, f)
	}
	if len(p.errs) > 0 {
		return nil, p.warns, errors.Join(p.errs...)
	}
	return f, p.warns, nil
}

type parser struct {
	file  string
	f     *File
	errs  []error
	warns []string
}

func (p *parser) errf(n *yaml.Node, key, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: n.Line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) warnf(n *yaml.Node, key, format string, args ...any) {
	p.warns = append(p.warns, (&Error{File: p.file, Line: n.Line, Key: key, Msg: fmt.Sprintf(format, args...)}).Error())
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// mapping walks a mapping node, calling the field's function for each
// key; a key with no function, a duplicate key or a non-mapping node is
// an error.
func (p *parser) mapping(n *yaml.Node, path string, fields map[string]func(k, v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return
		}
		p.errf(n, path, "must be a mapping")
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := join(path, k.Value)
		if seen[k.Value] {
			p.errf(k, key, "duplicate key")
			continue
		}
		seen[k.Value] = true
		fn, ok := fields[k.Value]
		if !ok {
			known := make([]string, 0, len(fields))
			for f := range fields {
				known = append(known, f)
			}
			slices.Sort(known)
			if h := misplacedHint(path, k.Value); h != "" {
				p.errf(k, key, "unknown key: %s", h)
				continue
			}
			sep := ":"
			if dym := didYouMean(k.Value, known); dym != "" {
				sep = dym
			}
			p.errf(k, key, "unknown key%s MCPShell ignores it, so it never took effect (known here: %s)", sep, strings.Join(known, ", "))
			continue
		}
		fn(k, v)
	}
}

// didYouMean suggests the known key closest to key, when it is close.
func didYouMean(key string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func (p *parser) str(n *yaml.Node, key string) string {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		if n.Kind == yaml.ScalarNode && (n.Tag == "!!int" || n.Tag == "!!float" || n.Tag == "!!bool") {
			p.errf(n, key, "must be a string (quote it)")
		} else {
			p.errf(n, key, "must be a string")
		}
		return ""
	}
	if strings.ContainsRune(n.Value, 0) {
		p.errf(n, key, "must not contain a NUL byte")
		return ""
	}
	return n.Value
}

func (p *parser) boolean(n *yaml.Node, key string) bool {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&b) != nil {
		p.errf(n, key, "must be true or false")
	}
	return b
}

func (p *parser) integer(n *yaml.Node, key string) int64 {
	var v int64
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&v) != nil {
		p.errf(n, key, "must be an integer")
	}
	return v
}

func (p *parser) strs(n *yaml.Node, key string) []string {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.errf(n, key, "must be a list of strings")
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, e := range n.Content {
		out = append(out, p.str(e, fmt.Sprintf("%s[%d]", key, i)))
	}
	return out
}

func (p *parser) prompts(n *yaml.Node, path, file string) *Prompts {
	pr := &Prompts{}
	p.mapping(n, path, map[string]func(k, v *yaml.Node){
		"name":        func(k, v *yaml.Node) { pr.Name = p.str(v, join(path, "name")) },
		"description": func(k, v *yaml.Node) { pr.Description = p.str(v, join(path, "description")) },
		"system":      func(k, v *yaml.Node) { pr.System = p.strs(v, join(path, "system")) },
		"user":        func(k, v *yaml.Node) { pr.User = p.strs(v, join(path, "user")) },
	})
	if pr.Name == "" {
		// The file's base name, made a valid name: ops.fixed.yaml
		// (what validate --fix writes) serves ops_fixed.
		base := filepath.Base(file)
		pr.Name = promptNameRE.ReplaceAllString(strings.TrimSuffix(base, filepath.Ext(base)), "_")
		if pr.Name == "" || !('A' <= pr.Name[0] && pr.Name[0] <= 'Z' || 'a' <= pr.Name[0] && pr.Name[0] <= 'z') {
			pr.Name = "p_" + pr.Name
		}
	}
	if !toolNameRE.MatchString(pr.Name) {
		p.errf(n, join(path, "name"), "prompt name %q must match %s", pr.Name, toolNameRE)
	}
	if len(pr.System)+len(pr.User) == 0 {
		p.errf(n, path, "has no system or user text")
	}
	return pr
}

func (p *parser) mcp(n *yaml.Node, f *File) {
	var tools *yaml.Node
	p.mapping(n, "mcp", map[string]func(k, v *yaml.Node){
		"description": func(_, v *yaml.Node) { f.Description = p.str(v, "mcp.description") },
		"run": func(_, v *yaml.Node) {
			p.mapping(v, "mcp.run", map[string]func(k, v *yaml.Node){
				"shell": func(_, v *yaml.Node) {
					if s := p.str(v, "mcp.run.shell"); s != "" {
						f.Shell = s
						if strings.ContainsAny(s, " \t\n'\"\\$`;&|<>") {
							p.errf(v, "mcp.run.shell", "must be a program name or absolute path, got %q", s)
						}
					}
				},
				"strict_templates": func(_, v *yaml.Node) { f.StrictTemplates = p.boolean(v, "mcp.run.strict_templates") },
			})
		},
		"tools": func(_, v *yaml.Node) { tools = v },
	})
	if tools == nil || tools.Kind != yaml.SequenceNode || len(tools.Content) == 0 {
		p.errf(n, "mcp.tools", "must be a non-empty list of tools")
		return
	}
	for i, tn := range tools.Content {
		if t := p.tool(tn, fmt.Sprintf("mcp.tools[%d]", i), f); t != nil {
			f.Tools = append(f.Tools, t)
		}
	}
	names := map[string]int{}
	for i, t := range f.Tools {
		if line, ok := names[t.Name]; ok {
			p.errs = append(p.errs, &Error{File: f.Path, Line: t.Line, Key: fmt.Sprintf("mcp.tools[%d].name", i), Msg: fmt.Sprintf("tool %q is already defined at line %d", t.Name, line)})
		}
		names[t.Name] = t.Line
	}
}

func (p *parser) tool(n *yaml.Node, path string, f *File) *Tool {
	t := &Tool{File: f.Path, Line: n.Line, shell: f.Shell}
	before := len(p.errs)
	var run, constraints *yaml.Node
	var params []*yaml.Node
	p.mapping(n, path, map[string]func(k, v *yaml.Node){
		"name":        func(_, v *yaml.Node) { t.Name = p.str(v, join(path, "name")) },
		"description": func(_, v *yaml.Node) { t.Description = p.str(v, join(path, "description")) },
		"params": func(_, v *yaml.Node) {
			if v.Kind != yaml.MappingNode {
				if v.Tag != "!!null" {
					p.errf(v, join(path, "params"), "must be a mapping of parameter names")
				}
				return
			}
			params = v.Content
		},
		"constraints": func(_, v *yaml.Node) { constraints = v },
		"run":         func(_, v *yaml.Node) { run = v },
		"output": func(_, v *yaml.Node) {
			p.mapping(v, join(path, "output"), map[string]func(k, v *yaml.Node){
				"prefix": func(_, v *yaml.Node) {
					if s := p.str(v, join(path, "output.prefix")); s != "" {
						t.Prefix = p.template(v, join(path, "output.prefix"), s, TemplateOptions{})
					}
				},
			})
		},
		"tier": func(_, v *yaml.Node) {
			tier := p.integer(v, join(path, "tier"))
			if tier < 0 || tier > 3 {
				p.errf(v, join(path, "tier"), "must be 0, 1, 2 or 3")
			}
			t.Tier = policy.Tier(tier)
		},
	})
	if !toolNameRE.MatchString(t.Name) {
		p.errf(n, join(path, "name"), "tool name %q must match %s", t.Name, toolNameRE)
	}
	if strings.TrimSpace(t.Description) == "" {
		p.errf(n, join(path, "description"), "is required")
	}
	names := map[string]bool{}
	for i := 0; i+1 < len(params); i += 2 {
		pm := p.param(params[i], params[i+1], join(path, "params."+params[i].Value))
		if pm != nil {
			names[pm.Name] = true
			t.Params = append(t.Params, pm)
		}
	}
	if constraints != nil {
		for i, s := range p.strs(constraints, join(path, "constraints")) {
			key := fmt.Sprintf("%s.constraints[%d]", path, i)
			c, err := compileConstraint(s, t.Params)
			if err != nil {
				p.errf(constraints.Content[i], key, "%v", err)
				continue
			}
			t.Constraints = append(t.Constraints, c)
		}
	}
	if run == nil {
		p.errf(n, join(path, "run"), "is required")
	} else {
		p.run(run, join(path, "run"), t)
	}
	if len(p.errs) > before {
		return nil
	}
	for _, pm := range t.Params {
		if pm.Raw {
			p.warnf(n, join(path, "params."+pm.Name), "raw: true: the value is inserted into the command without shell quoting; constrain it tightly")
		}
	}
	return t
}

var reservedParams = []string{"approval_token", "env"}

// argListName reports whether a parameter's name says it holds several
// arguments (args, arguments, flags, options, opts, or ending in _args or
// _flags): MCPShell pasted such a value into the command unquoted, so its
// shell split it into words, and its files are written for that.
func argListName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "args", "arguments", "argv", "flags", "options", "opts":
		return true
	}
	return strings.HasSuffix(n, "_args") || strings.HasSuffix(n, "_flags")
}

func (p *parser) param(kn, n *yaml.Node, path string) *Param {
	pm := &Param{Name: kn.Value, Type: TypeString, Line: kn.Line}
	if !envNameRE.MatchString(pm.Name) || slices.Contains(reservedParams, pm.Name) {
		p.errf(kn, path, "parameter name must be an identifier (letters, digits, _) and not %s", strings.Join(reservedParams, " or "))
		return nil
	}
	var def *yaml.Node
	splitSet := false
	p.mapping(n, path, map[string]func(k, v *yaml.Node){
		"type": func(_, v *yaml.Node) {
			pm.Type = ParamType(p.str(v, join(path, "type")))
			switch pm.Type {
			case TypeString, TypeNumber, TypeInteger, TypeBoolean, TypeArray:
			default:
				p.errf(v, join(path, "type"), "must be one of string, number, integer, boolean, array; got %q", pm.Type)
			}
		},
		"description": func(_, v *yaml.Node) { pm.Description = p.str(v, join(path, "description")) },
		"required":    func(_, v *yaml.Node) { pm.Required = p.boolean(v, join(path, "required")) },
		"default":     func(_, v *yaml.Node) { def = v },
		"raw":         func(_, v *yaml.Node) { pm.Raw = p.boolean(v, join(path, "raw")) },
		"option":      func(_, v *yaml.Node) { pm.Option = p.boolean(v, join(path, "option")) },
		"split": func(_, v *yaml.Node) {
			pm.Split = p.boolean(v, join(path, "split"))
			splitSet = true
		},
	})
	if def != nil {
		pm.Default = p.typed(def, join(path, "default"), pm.Type)
		if pm.Required {
			p.errf(def, join(path, "default"), "a required parameter cannot have a default")
		}
	}
	if pm.Raw && pm.Type != TypeString {
		p.errf(n, join(path, "raw"), "applies to string parameters only")
	}
	if pm.Split && (pm.Type != TypeString || pm.Raw) {
		if pm.Type == TypeArray {
			p.errf(n, join(path, "split"), "does not apply to an array: each element is one word already")
		} else {
			p.errf(n, join(path, "split"), "applies to string parameters that are not raw only")
		}
	}
	if pm.Option && pm.Type != TypeString && pm.Type != TypeArray {
		p.errf(n, join(path, "option"), "applies to string and array parameters only")
	}
	if !splitSet && pm.Type == TypeString && !pm.Raw && argListName(pm.Name) {
		pm.Split, pm.SplitByName = true, true
	}
	return pm
}

// typed decodes a scalar as a value of type t.
func (p *parser) typed(n *yaml.Node, key string, t ParamType) any {
	switch t {
	case TypeString:
		return p.str(n, key)
	case TypeBoolean:
		return p.boolean(n, key)
	case TypeInteger:
		return p.integer(n, key)
	case TypeArray:
		if n.Kind != yaml.SequenceNode {
			p.errf(n, key, "must be a list of strings")
			return []string{}
		}
		return p.strs(n, key)
	case TypeNumber:
		var v float64
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || n.Decode(&v) != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			p.errf(n, key, "must be a number")
		}
		return v
	}
	return nil
}

func (p *parser) run(n *yaml.Node, path string, t *Tool) {
	var runners *yaml.Node
	p.mapping(n, path, map[string]func(k, v *yaml.Node){
		"command": func(_, v *yaml.Node) {
			if s := p.str(v, join(path, "command")); s != "" {
				t.Run.Command = p.template(v, join(path, "command"), s, shellTemplate(t, t.shell))
			}
		},
		"env": func(_, v *yaml.Node) {
			for i, e := range p.strs(v, join(path, "env")) {
				key := fmt.Sprintf("%s.env[%d]", path, i)
				name, value, hasValue := strings.Cut(e, "=")
				if !envNameRE.MatchString(name) {
					p.errf(v.Content[i], key, "%q is not a variable name", name)
					continue
				}
				ev := EnvVar{Name: name}
				if hasValue {
					ev.Value = p.template(v.Content[i], key, value, TemplateOptions{})
				}
				t.Run.Env = append(t.Run.Env, ev)
			}
		},
		"timeout": func(_, v *yaml.Node) {
			s := p.str(v, join(path, "timeout"))
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				p.errf(v, join(path, "timeout"), "must be a positive duration like \"30s\", got %q", s)
			}
			t.Run.Timeout = d
		},
		"runners": func(_, v *yaml.Node) { runners = v },
	})
	if t.Run.Command == nil {
		p.errf(n, join(path, "command"), "is required")
	}
	if runners == nil {
		t.Run.Runners = []*RunnerSpec{{Name: "exec", Line: n.Line, kind: kindByName("exec"), Options: map[string]any{}}}
		return
	}
	if runners.Kind != yaml.SequenceNode || len(runners.Content) == 0 {
		p.errf(runners, join(path, "runners"), "must be a non-empty list")
		return
	}
	for i, rn := range runners.Content {
		if r := p.runner(rn, fmt.Sprintf("%s.runners[%d]", path, i), t); r != nil {
			t.Run.Runners = append(t.Run.Runners, r)
		}
	}
}

func (p *parser) runner(n *yaml.Node, path string, t *Tool) *RunnerSpec {
	r := &RunnerSpec{Line: n.Line, Options: map[string]any{}, optTemplates: map[string]*Template{}, listTmpls: map[string][]*Template{}}
	var opts *yaml.Node
	p.mapping(n, path, map[string]func(k, v *yaml.Node){
		"name": func(_, v *yaml.Node) { r.Name = p.str(v, join(path, "name")) },
		"requirements": func(_, v *yaml.Node) {
			p.mapping(v, join(path, "requirements"), map[string]func(k, v *yaml.Node){
				"os": func(_, v *yaml.Node) { r.OS = p.str(v, join(path, "requirements.os")) },
				"executables": func(_, v *yaml.Node) {
					r.Executables = p.strs(v, join(path, "requirements.executables"))
				},
			})
		},
		"options": func(_, v *yaml.Node) { opts = v },
	})
	r.kind = kindByName(r.Name)
	if r.kind == nil {
		p.errf(n, join(path, "name"), "unknown runner %q (known: %s)", r.Name, strings.Join(kindNames(), ", "))
		return nil
	}
	if opts != nil {
		p.options(opts, join(path, "options"), r, t)
	}
	return r
}

// options decodes a runner's options against its kind's option table.
func (p *parser) options(n *yaml.Node, path string, r *RunnerSpec, t *Tool) {
	fields := map[string]func(k, v *yaml.Node){}
	for name, ot := range r.kind.Options {
		key := join(path, name)
		fields[name] = func(_, v *yaml.Node) {
			switch ot {
			case OptBool:
				r.Options[name] = p.boolean(v, key)
			case OptInt:
				r.Options[name] = p.integer(v, key)
			case OptString, OptPath:
				s := p.str(v, key)
				r.Options[name] = s
				r.optTemplates[name] = p.template(v, key, s, optionTemplate(name, t))
			case OptStrings, OptPaths:
				list := p.strs(v, key)
				r.Options[name] = list
				for i, s := range list {
					r.listTmpls[name] = append(r.listTmpls[name], p.template(v.Content[i], fmt.Sprintf("%s[%d]", key, i), s, optionTemplate(name, t)))
				}
			}
		}
	}
	p.mapping(n, path, fields)
}

// template parses one template, recording an error at n on failure.
func (p *parser) template(n *yaml.Node, key, text string, o TemplateOptions) *Template {
	o.Strict = p.f.StrictTemplates
	t, err := ParseTemplateOptions(key, text, o)
	if err != nil {
		p.errf(n, key, "%v", err)
		return nil
	}
	return t
}
