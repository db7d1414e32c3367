package config

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// checker walks a YAML document against the type it decodes into and
// collects every problem at once: unknown keys (with the closest known
// key), keys given twice, values of the wrong kind, durations and numbers
// that do not parse. It speaks in warden.yaml's terms — "a list", "an
// integer", "a duration like 60s" — never in Go type names, and records the
// line of every key so later validation can point at it.
type checker struct {
	file  string
	lines map[string]int
	probs Problems
}

var (
	durationType   = reflect.TypeFor[Duration]()
	mechanismsType = reflect.TypeFor[Mechanisms]()
)

func (k *checker) bad(line int, key, format string, args ...any) {
	k.probs = append(k.probs, Problem{File: k.file, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

// syntaxProblem turns a YAML syntax error into a problem with its line.
func syntaxProblem(file string, err error) Problem {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	p := Problem{File: file, Msg: msg}
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		p.Line, _ = strconv.Atoi(m[1])
		p.Msg = strings.TrimPrefix(msg, m[0])
	}
	p.Msg = goTypeRE.ReplaceAllString(p.Msg, "")
	return p
}

var (
	lineRE = regexp.MustCompile(`^line (\d+): `)
	// goTypeRE strips what a decoder error says about Go types, should one
	// ever get past the checker.
	goTypeRE = regexp.MustCompile(` (in type|into) [\w.*\[\]]+`)
)

// what names a node's kind the way the user wrote it.
func what(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return strconv.Quote(n.Value)
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// walk checks n against t and reports whether n can be decoded; bad
// entries inside a list or mapping are reported and dropped from the tree,
// so that the rest decodes and is validated too.
func (k *checker) walk(n *yaml.Node, t reflect.Type, key string) bool {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if key != "" {
		if _, ok := k.lines[key]; !ok {
			k.lines[key] = n.Line
		}
	}
	if isNull(n) {
		return true
	}
	if t == mechanismsType {
		ok := n.Kind == yaml.ScalarNode
		if n.Kind == yaml.SequenceNode {
			ok = true
			for _, item := range n.Content {
				ok = ok && item.Kind == yaml.ScalarNode
			}
		}
		if !ok {
			k.bad(n.Line, key, "must be a mechanism (token, elicit, console) or a list of them, not %s", what(n))
		}
		return ok
	}
	if t == durationType {
		if n.Kind != yaml.ScalarNode {
			k.bad(n.Line, key, "must be a duration like 60s or 5m, not %s", what(n))
			return false
		}
		if _, err := time.ParseDuration(n.Value); err != nil {
			k.bad(n.Line, key, "%q is not a duration; write a number with a unit, like 60s, 5m or 1h30m", n.Value)
			return false
		}
		return true
	}
	switch t.Kind() {
	case reflect.Pointer:
		return k.walk(n, t.Elem(), key)
	case reflect.Struct:
		return k.mapping(n, t, key)
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			k.bad(n.Line, key, "must be a mapping of names to values, not %s", what(n))
			return false
		}
		seen := map[string]int{}
		var kept []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			sub := join(key, kn.Value)
			if prev, dup := seen[kn.Value]; dup {
				k.bad(kn.Line, sub, "given twice (first on line %d)", prev)
				continue
			}
			seen[kn.Value] = kn.Line
			k.lines[sub] = kn.Line
			if kn.Kind != yaml.ScalarNode {
				k.bad(kn.Line, key, "a key must be a name, not %s", what(kn))
				continue
			}
			if k.walk(vn, t.Elem(), sub) {
				kept = append(kept, kn, vn)
			}
		}
		n.Content = kept
		return true
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			k.bad(n.Line, key, "must be a list, not %s", what(n))
			return false
		}
		var kept []*yaml.Node
		for i, item := range n.Content {
			if k.walk(item, t.Elem(), fmt.Sprintf("%s[%d]", key, i)) {
				kept = append(kept, item)
			}
		}
		n.Content = kept
		return true
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			k.bad(n.Line, key, "must be a single value, not %s", what(n))
			return false
		}
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
			k.bad(n.Line, key, "%s is not true or false", what(n))
			return false
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		var v int64
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&v) != nil {
			k.bad(n.Line, key, "%s is not a whole number", what(n))
			return false
		}
	case reflect.Float32, reflect.Float64:
		var v float64
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") || n.Decode(&v) != nil {
			k.bad(n.Line, key, "%s is not a number", what(n))
			return false
		}
	}
	return true
}

// mapping checks a mapping against a struct's yaml keys.
func (k *checker) mapping(n *yaml.Node, t reflect.Type, key string) bool {
	if n.Kind != yaml.MappingNode {
		if key == "" {
			k.bad(n.Line, "", "the file must be a mapping of keys such as mode: and http:, not %s", what(n))
			return false
		}
		k.bad(n.Line, key, "must be a mapping of keys, not %s", what(n))
		return false
	}
	fields := map[string]reflect.Type{}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		fields[name] = f.Type
		names = append(names, name)
	}
	seen := map[string]int{}
	var kept []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		sub := join(key, kn.Value)
		ft, ok := fields[kn.Value]
		switch {
		case kn.Kind != yaml.ScalarNode:
			k.bad(kn.Line, key, "a key must be a name, not %s", what(kn))
		case !ok:
			k.bad(kn.Line, sub, "unknown key%s", suggest(kn.Value, names))
		case seen[kn.Value] > 0:
			k.bad(kn.Line, sub, "given twice (first on line %d)", seen[kn.Value])
		default:
			seen[kn.Value] = kn.Line
			k.lines[sub] = kn.Line
			if k.walk(vn, ft, sub) {
				kept = append(kept, kn, vn)
			}
		}
	}
	n.Content = kept
	return true
}

func join(key, name string) string {
	if key == "" {
		return name
	}
	return key + "." + name
}

// suggest says which known key an unknown one was probably meant to be,
// or lists the keys allowed there when none is close.
func suggest(got string, known []string) string {
	best, dist := "", -1
	for _, k := range known {
		d := editDistance(strings.ToLower(got), k)
		if dist < 0 || d < dist {
			best, dist = k, d
		}
	}
	if best != "" && dist <= max(2, len(got)/3) {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	sorted := append([]string(nil), known...)
	sort.Strings(sorted)
	return "; the keys here are " + strings.Join(sorted, ", ")
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
