package packs

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/warden-mcp/warden/internal/policy"
)

// Pack is one appliance family: how to recognise it on a host, the typed
// tools it brings, and the commands nothing may run on it.
type Pack struct {
	// Name identifies the pack (openwrt, asuswrt-merlin, synology, …).
	Name string `yaml:"name"`
	// Family is router, nas or firewall.
	Family      string `yaml:"family"`
	Description string `yaml:"description"`
	// Detect recognises the pack on a host.
	Detect Detect `yaml:"detect"`
	// Deny are regexes over each simple command (program basename and
	// arguments joined by single spaces), as policy.deny; on a host where
	// the pack is detected, and on every host not yet probed, a match
	// denies the call whatever the mode or approval.
	Deny  []string `yaml:"deny"`
	Tools []Tool   `yaml:"tools"`

	// builtin is set for the packs shipped in the binary.
	builtin bool
	// source is where the pack was read from, for errors and listings.
	source string
}

// Detect recognises a pack: Argv exits 0 and its output matches Match.
type Detect struct {
	Argv  []string `yaml:"argv"`
	Match string   `yaml:"match"`
	re    *regexp.Regexp
}

// Tool is one typed tool of a pack.
type Tool struct {
	Name        string `yaml:"name"`
	Title       string `yaml:"title"`
	Description string `yaml:"description"`
	// Tier is the least tier of a call; the classifier can raise it.
	Tier   int     `yaml:"tier"`
	Params []Param `yaml:"params"`
	Steps  []Step  `yaml:"steps"`
	// Parse names the parser that turns the steps' output into the
	// structured result.
	Parse string `yaml:"parse"`
	// Approval, only in built-in packs and only at tier 3, is what the
	// human approving the call reads. Such a tool's fixed argv is not
	// shown to the classifier (its deny list forbids the same words typed
	// into a shell: the typed tool is the approved way to do it).
	Approval string `yaml:"approval"`
	// Destructive marks the tool's annotations as destructive.
	Destructive bool `yaml:"destructive"`
}

// Step is one command a tool runs.
type Step struct {
	ID string `yaml:"id"`
	// Argv is the program and arguments; "{name}" inside a word is
	// replaced by the validated parameter of that name, "{each}" by each
	// word of the output of step Each. Nothing is ever run by a shell.
	Argv []string `yaml:"argv"`
	// Each names an earlier step whose output words (validated as
	// interface names) the step runs once for.
	Each string `yaml:"each"`
	// When runs the step only if every listed parameter has that value.
	When map[string]string `yaml:"when"`
	// Optional steps that fail leave their part unknown, with the reason,
	// instead of failing the call.
	Optional bool `yaml:"optional"`
	// Items, a regex with one group, picks the words a later step's Each
	// iterates over from this step's output; empty means every word.
	Items string `yaml:"items"`
	items *regexp.Regexp
}

// Param is one argument of a tool.
type Param struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// Kind is target (a host name or IP address), name (a service or
	// unit name: letters, digits, ., _ and -), int, or enum.
	Kind     string   `yaml:"kind"`
	Enum     []string `yaml:"enum"`
	Min      int      `yaml:"min"`
	Max      int      `yaml:"max"`
	Default  string   `yaml:"default"`
	Required bool     `yaml:"required"`
}

// Param kinds.
const (
	KindTarget = "target"
	KindInt    = "int"
	KindEnum   = "enum"
	KindName   = "name"
)

//go:embed builtin/*.yaml
var builtinFS embed.FS

// Builtin returns the packs shipped in the binary.
func Builtin() ([]*Pack, error) {
	names, err := fs.Glob(builtinFS, "builtin/*.yaml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []*Pack
	for _, n := range names {
		b, err := builtinFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		p, err := parsePack(b, "builtin:"+path.Base(n), true)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Options are the operator's choices about packs (config key packs).
type Options struct {
	// Files are operator pack files; a pack of a built-in's name replaces
	// it, any other adds to them.
	Files []string
	// Disable are tool names that are not registered at all.
	Disable []string
}

// Load returns the built-in packs with the operator's files applied, each
// validated; every problem is named with its file.
func Load(o Options) ([]*Pack, error) {
	packs, err := Builtin()
	if err != nil {
		return nil, fmt.Errorf("packs: built-in: %w", err)
	}
	for _, f := range o.Files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("packs: %w", err)
		}
		p, err := parsePack(b, f, false)
		if err != nil {
			return nil, err
		}
		replaced := false
		for i, q := range packs {
			if q.Name == p.Name {
				packs[i], replaced = p, true
			}
		}
		if !replaced {
			packs = append(packs, p)
		}
	}
	if err := checkShared(packs); err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, p := range packs {
		for _, t := range p.Tools {
			known[t.Name] = true
		}
	}
	for _, n := range o.Disable {
		if !known[n] && n != listTool {
			return nil, fmt.Errorf("packs.disable: %q is not a pack tool", n)
		}
	}
	return packs, nil
}

var (
	nameRe  = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,39}$`)
	toolRe  = regexp.MustCompile(`^[a-z][a-z0-9_]{0,47}$`)
	placeRe = regexp.MustCompile(`\{([a-z_]+)\}`)
)

// parsePack decodes and validates one pack file, strictly.
func parsePack(b []byte, source string, builtin bool) (*Pack, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	p := &Pack{}
	if err := dec.Decode(p); err != nil {
		return nil, fmt.Errorf("packs: %s: %w", source, err)
	}
	p.builtin, p.source = builtin, source
	if errs := p.validate(); len(errs) > 0 {
		return nil, fmt.Errorf("packs: %s: %w", source, errors.Join(errs...))
	}
	return p, nil
}

// validate names every problem of a pack.
func (p *Pack) validate() []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if !nameRe.MatchString(p.Name) {
		bad("name %q: lowercase letters, digits, - and _ only", p.Name)
	}
	switch p.Family {
	case "router", "nas", "firewall":
	default:
		bad("family %q: router, nas or firewall", p.Family)
	}
	if len(p.Detect.Argv) == 0 || p.Detect.Match == "" {
		bad("detect: argv and match are required")
	} else if re, err := regexp.Compile(p.Detect.Match); err != nil {
		bad("detect.match: %v", err)
	} else {
		p.Detect.re = re
	}
	for _, d := range p.Deny {
		if _, err := policy.New(policy.Rules{Deny: []string{d}}); err != nil {
			bad("deny: %v", err)
		}
	}
	seen := map[string]bool{}
	for i := range p.Tools {
		t := &p.Tools[i]
		where := fmt.Sprintf("tools[%d] %s", i, t.Name)
		if !toolRe.MatchString(t.Name) {
			bad("%s: name: lowercase letters, digits and _ only", where)
		}
		if seen[t.Name] {
			bad("%s: defined twice", where)
		}
		seen[t.Name] = true
		if t.Description == "" {
			bad("%s: description is required", where)
		}
		if t.Tier < 0 || t.Tier > 3 {
			bad("%s: tier %d: 0 to 3", where, t.Tier)
		}
		if t.Approval != "" && (!p.builtin || t.Tier != 3) {
			bad("%s: approval is only for tier-3 tools of built-in packs", where)
		}
		if _, ok := parsers[t.Parse]; !ok {
			bad("%s: parse %q: not a parser (%s)", where, t.Parse, strings.Join(parserNames(), ", "))
		}
		params := map[string]bool{}
		for _, q := range t.Params {
			params[q.Name] = true
			if q.Name == "host" || q.Name == approvalArg || !toolRe.MatchString(q.Name) {
				bad("%s: param %q: not a valid name", where, q.Name)
			}
			switch q.Kind {
			case KindTarget, KindName:
			case KindInt:
				if q.Min > q.Max {
					bad("%s: param %s: min above max", where, q.Name)
				}
			case KindEnum:
				if len(q.Enum) == 0 {
					bad("%s: param %s: enum needs values", where, q.Name)
				}
				for _, v := range q.Enum {
					if !safeWordRe.MatchString(v) {
						bad("%s: param %s: enum value %q: letters, digits, ., _ and - only", where, q.Name, v)
					}
				}
			default:
				bad("%s: param %s: kind %q: target, name, int or enum", where, q.Name, q.Kind)
			}
			if q.Default != "" {
				if _, err := q.check(q.Default); err != nil {
					bad("%s: param %s: default: %v", where, q.Name, err)
				}
			}
		}
		if len(t.Steps) == 0 {
			bad("%s: steps are required", where)
		}
		ids := map[string]bool{}
		for j, s := range t.Steps {
			if s.ID == "" || ids[s.ID] {
				bad("%s: step ids must be set and unique", where)
			}
			if len(s.Argv) == 0 {
				bad("%s: step %s: argv is required", where, s.ID)
			}
			if s.Items != "" {
				re, err := regexp.Compile(s.Items)
				if err != nil || re.NumSubexp() != 1 {
					bad("%s: step %s: items must be a regex with one group", where, s.ID)
				} else {
					t.Steps[j].items = re
				}
			}
			if s.Each != "" && !ids[s.Each] {
				bad("%s: step %s: each %q is not an earlier step", where, s.ID, s.Each)
			}
			for k := range s.When {
				if !params[k] {
					bad("%s: step %s: when %q is not a param", where, s.ID, k)
				}
			}
			for _, w := range s.Argv {
				for _, m := range placeRe.FindAllStringSubmatch(w, -1) {
					if m[1] == "each" {
						if s.Each == "" {
							bad("%s: step %s: {each} without each", where, s.ID)
						}
					} else if !params[m[1]] {
						bad("%s: step %s: {%s} is not a param", where, s.ID, m[1])
					}
				}
			}
			ids[s.ID] = true
		}
	}
	return errs
}

// checkShared checks that the tools of one name in several packs (each
// firmware's router_clients) take the same parameters, tier and result.
func checkShared(packs []*Pack) error {
	first := map[string]*Tool{}
	var errs []error
	for _, p := range packs {
		for i := range p.Tools {
			t := &p.Tools[i]
			f, ok := first[t.Name]
			if !ok {
				first[t.Name] = t
				continue
			}
			if f.Tier != t.Tier || parsers[f.Parse].kind != parsers[t.Parse].kind || !sameParams(f.Params, t.Params) {
				errs = append(errs, fmt.Errorf("packs: %s: tool %s differs from another pack's in tier, parameters or result", p.source, t.Name))
			}
		}
	}
	return errors.Join(errs...)
}

func sameParams(a, b []Param) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Kind != b[i].Kind || a[i].Required != b[i].Required {
			return false
		}
	}
	return true
}
