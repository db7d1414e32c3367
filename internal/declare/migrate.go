package declare

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MCPShell reads its files leniently: a key in the wrong place is ignored
// without a word, so a sandbox written there never applied. warden refuses
// such a file; these hints say where each key belongs, and Fix moves the
// keys to a new file.

var indexRE = regexp.MustCompile(`\[[0-9]+\]`)

// normPath turns a key path into the form the hint table uses:
// mcp.tools[3].params.x → mcp.tools[].params.*
func normPath(path string) string {
	path = indexRE.ReplaceAllString(path, "[]")
	if i := strings.Index(path, ".params."); i >= 0 {
		rest := path[i+len(".params."):]
		if j := strings.IndexByte(rest, '.'); j >= 0 {
			path = path[:i] + ".params.*" + rest[j:]
		} else {
			path = path[:i] + ".params.*"
		}
	}
	return path
}

const fixable = "; `warden validate --fix FILE` moves it"

var misplaced = map[string]map[string]string{
	"": {
		"tools":       "`tools` belongs under `mcp:`" + fixable,
		"description": "`description` belongs under `mcp:`" + fixable,
		"run":         "`run` belongs under `mcp:`" + fixable,
	},
	"mcp": {
		"shell":   "`shell` belongs under `mcp.run:`" + fixable,
		"prompts": "`prompts` is a top-level section, not under `mcp:`" + fixable,
	},
	"mcp.tools[]": {
		"runners":       "`runners` belongs under `run:` (MCPShell ignores it here, so its sandbox never applied)" + fixable,
		"runner":        "`runner` is written `run.runners: [{name: …}]` (MCPShell ignores it here)" + fixable,
		"requirements":  "`requirements` belongs under each runner, `run.runners[].requirements` (MCPShell ignores it here, so the tool was served even without them)" + fixable,
		"prerequisites": "`prerequisites` is `requirements` under each runner, `run.runners[].requirements` (MCPShell ignores it)" + fixable,
		"command":       "`command` belongs under `run:`" + fixable,
		"env":           "`env` belongs under `run:` (MCPShell ignores it here, so the variables never reached the command)" + fixable,
		"timeout":       "`timeout` belongs under `run:` (MCPShell ignores it here, so no timeout applied)" + fixable,
		"prefix":        "`prefix` belongs under `output:`" + fixable,
		"shell":         "the shell is chosen per file, in `mcp.run.shell`; move it there by hand if every tool of the file agrees",
		"options":       "runner options belong under each runner, `run.runners[].options`; move them by hand to the runner they configure",
	},
	"mcp.tools[].run": {
		"runner":        "`runner` is written `runners: [{name: …}]` (MCPShell ignores a single `runner`, so the command ran unsandboxed)" + fixable,
		"requirements":  "`requirements` belongs under each runner, `runners[].requirements` (MCPShell ignores it here)" + fixable,
		"prerequisites": "`prerequisites` is `requirements` under each runner (MCPShell ignores it)" + fixable,
		"constraints":   "`constraints` belongs to the tool, beside `run:` (MCPShell ignores it here, so nothing was checked)" + fixable,
		"params":        "`params` belongs to the tool, beside `run:`" + fixable,
		"output":        "`output` belongs to the tool, beside `run:`" + fixable,
		"prefix":        "`prefix` belongs under the tool's `output:`" + fixable,
		"shell":         "the shell is chosen per file, in `mcp.run.shell`; move it there by hand if every tool of the file agrees",
	},
	"mcp.tools[].run.runners[]": {
		"os":            "`os` belongs under the runner's `requirements:`" + fixable,
		"executables":   "`executables` belongs under the runner's `requirements:`" + fixable,
		"prerequisites": "`prerequisites` is the runner's `requirements:`" + fixable,
	},
	"mcp.tools[].output": {
		"format": "MCPShell ignores `output.format` and so does warden (output is text); remove it" + fixable,
	},
	"mcp.tools[].params.*": {
		"enum":     "MCPShell ignores `enum`; write a constraint such as \"name in ['a', 'b']\"",
		"optional": "MCPShell ignores `optional`; parameters are optional unless `required: true`",
	},
}

// misplacedHint says where a key belongs when it is misplaced, or "".
func misplacedHint(path, key string) string {
	parent := normPath(path)
	if h := misplaced[parent][key]; h != "" {
		return h
	}
	if parent == "mcp.tools[].run.runners[]" {
		for _, k := range kinds {
			if _, ok := k.Options[key]; ok {
				return fmt.Sprintf("`%s` is a runner option and belongs under the runner's `options:`%s", key, fixable)
			}
		}
	}
	return ""
}

// FixFile moves misplaced keys of the file name into a new file beside
// it, never over an existing file, and returns the new file's path and
// what moved (or was left in place, and why). With nothing to move it
// writes nothing and returns "".
func FixFile(name string) (string, []string, error) {
	data, err := readBounded(name)
	if err != nil {
		return "", nil, err
	}
	out, moves, err := Fix(data)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %v", name, err)
	}
	if bytes.Equal(out, data) {
		return "", moves, nil
	}
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	for i := 1; i < 1000; i++ {
		path := base + ".fixed" + ext
		if i > 1 {
			path = fmt.Sprintf("%s.fixed-%d%s", base, i, ext)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", nil, err
		}
		if _, err := f.Write(out); err != nil {
			f.Close()
			return "", nil, err
		}
		return path, moves, f.Close()
	}
	return "", nil, fmt.Errorf("%s: no free name for the fixed file", name)
}

// Fix moves every misplaced key Fix knows to its place and returns the
// new text (data itself when nothing moved) and one line per move. A key
// whose destination is already set is left where it is, with a line
// saying so (the strict load then names it).
func Fix(data []byte) ([]byte, []string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil, errors.New("not a mapping")
	}
	m := &mover{}
	root := doc.Content[0]
	for _, k := range []string{"tools", "description", "run"} {
		if v := get(root, k); v != nil {
			m.move(root, k, ensure(root, "mcp"), k, "mcp."+k)
		}
	}
	mcp := get(root, "mcp")
	if mcp != nil && mcp.Kind == yaml.MappingNode {
		if get(mcp, "shell") != nil {
			m.move(mcp, "shell", ensure(mcp, "run"), "shell", "mcp.run.shell")
		}
		if get(mcp, "prompts") != nil {
			m.move(mcp, "prompts", root, "prompts", "prompts")
		}
		if tools := get(mcp, "tools"); tools != nil && tools.Kind == yaml.SequenceNode {
			for i, t := range tools.Content {
				if t.Kind == yaml.MappingNode {
					m.tool(t, fmt.Sprintf("mcp.tools[%d]", i))
				}
			}
		}
	}
	if !m.changed {
		return data, m.moves, nil
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), m.moves, nil
}

// mover records each move, and each key it had to leave in place.
type mover struct {
	moves   []string
	changed bool
}

func (m *mover) note(line int, from, to string) {
	m.changed = true
	m.moves = append(m.moves, fmt.Sprintf("moved line %d: %s → %s", line, from, to))
}

// move moves key of src to dst under dkey, unless dst has it already.
func (m *mover) move(src *yaml.Node, key string, dst *yaml.Node, dkey, to string) {
	if dst == nil || get(dst, dkey) != nil {
		if k := keyNode(src, key); k != nil {
			m.moves = append(m.moves, fmt.Sprintf("line %d: %s left in place: %s is already set (or not a mapping); merge them by hand", k.Line, key, to))
		}
		return
	}
	k, v := del(src, key)
	if k == nil {
		return
	}
	m.note(k.Line, key, to)
	k.Value = dkey
	dst.Content = append(dst.Content, k, v)
}

func (m *mover) tool(t *yaml.Node, path string) {
	for _, k := range []string{"command", "env", "timeout", "runners"} {
		if get(t, k) != nil {
			m.move(t, k, ensure(t, "run"), k, path+".run."+k)
		}
	}
	if get(t, "prefix") != nil {
		m.move(t, "prefix", ensure(t, "output"), "prefix", path+".output.prefix")
	}
	run := get(t, "run")
	if run != nil && run.Kind == yaml.MappingNode {
		for _, k := range []string{"constraints", "params", "output"} {
			if get(run, k) != nil {
				m.move(run, k, t, k, path+"."+k)
			}
		}
		if get(run, "prefix") != nil {
			m.move(run, "prefix", ensure(t, "output"), "prefix", path+".output.prefix")
		}
	}
	for _, holder := range []*yaml.Node{t, run} {
		if holder == nil || holder.Kind != yaml.MappingNode {
			continue
		}
		if v := get(holder, "runner"); v != nil && v.Kind == yaml.ScalarNode {
			r := ensure(t, "run")
			if get(r, "runners") == nil {
				k, _ := del(holder, "runner")
				m.note(k.Line, "runner", path+".run.runners[0].name")
				entry := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
				entry.Content = append(entry.Content, scalar("name"), v)
				r.Content = append(r.Content, scalar("runners"), &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{entry}})
			}
		}
		for _, key := range []string{"requirements", "prerequisites"} {
			v := get(holder, key)
			if v == nil || v.Kind != yaml.MappingNode {
				continue
			}
			k, _ := del(holder, key)
			r := ensure(t, "run")
			runners := get(r, "runners")
			if runners == nil {
				entry := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{scalar("name"), scalar("exec")}}
				runners = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{entry}}
				r.Content = append(r.Content, scalar("runners"), runners)
			}
			for _, rn := range runners.Content {
				if rn.Kind == yaml.MappingNode {
					mergeRequirements(ensure(rn, "requirements"), v)
				}
			}
			m.note(k.Line, key, path+".run.runners[].requirements")
		}
	}
	if out := get(t, "output"); out != nil && out.Kind == yaml.MappingNode {
		if k, _ := del(out, "format"); k != nil {
			m.note(k.Line, "output.format", "(removed: ignored by MCPShell and warden)")
		}
	}
	run = get(t, "run")
	if run == nil || run.Kind != yaml.MappingNode {
		return
	}
	runners := get(run, "runners")
	if runners == nil || runners.Kind != yaml.SequenceNode {
		return
	}
	for i, rn := range runners.Content {
		if rn.Kind != yaml.MappingNode {
			continue
		}
		rpath := fmt.Sprintf("%s.run.runners[%d]", path, i)
		if v := get(rn, "prerequisites"); v != nil && get(rn, "requirements") == nil {
			m.move(rn, "prerequisites", rn, "requirements", rpath+".requirements")
		}
		for _, k := range []string{"os", "executables"} {
			if get(rn, k) != nil {
				m.move(rn, k, ensure(rn, "requirements"), k, rpath+".requirements."+k)
			}
		}
		kind := kindByName(scalarValue(get(rn, "name")))
		if kind == nil {
			continue
		}
		var keys []string
		for j := 0; j+1 < len(rn.Content); j += 2 {
			if _, ok := kind.Options[rn.Content[j].Value]; ok {
				keys = append(keys, rn.Content[j].Value)
			}
		}
		for _, k := range keys {
			m.move(rn, k, ensure(rn, "options"), k, rpath+".options."+k)
		}
	}
}

// mergeRequirements adds to dst what src requires that dst does not
// state: the os when dst has none, and every executable.
func mergeRequirements(dst, src *yaml.Node) {
	if os := get(src, "os"); os != nil && get(dst, "os") == nil {
		dst.Content = append(dst.Content, scalar("os"), &yaml.Node{Kind: os.Kind, Tag: os.Tag, Value: os.Value})
	}
	ex := get(src, "executables")
	if ex == nil || ex.Kind != yaml.SequenceNode {
		return
	}
	have := get(dst, "executables")
	if have == nil || have.Kind != yaml.SequenceNode {
		have = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		dst.Content = append(dst.Content, scalar("executables"), have)
	}
	for _, e := range ex.Content {
		if !slices.ContainsFunc(have.Content, func(h *yaml.Node) bool { return h.Value == e.Value }) {
			have.Content = append(have.Content, &yaml.Node{Kind: e.Kind, Tag: e.Tag, Value: e.Value})
		}
	}
}

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func scalarValue(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

func get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func keyNode(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}

func del(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			k, v := m.Content[i], m.Content[i+1]
			m.Content = slices.Delete(m.Content, i, i+2)
			return k, v
		}
	}
	return nil, nil
}

// ensure returns m's mapping under key, adding an empty one if absent;
// nil if key holds something else.
func ensure(m *yaml.Node, key string) *yaml.Node {
	if v := get(m, key); v != nil {
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			v.Kind, v.Tag, v.Value = yaml.MappingNode, "!!map", ""
		}
		if v.Kind != yaml.MappingNode {
			return nil
		}
		return v
	}
	v := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	m.Content = append(m.Content, scalar(key), v)
	return v
}
