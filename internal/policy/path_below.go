package policy

import (
	"path"
	"strings"
)

// DeniedBelow is a PathPolicy's deny rules seen from one directory: which
// names relative to it a reader must not touch. Tools that read a tree
// through their own root (the snapshot engine, whose names are relative to
// a snapshot root or the live data) check every name they visit with it, so
// that no spelling of a denied path — a walk into it, a parent symlink
// resolved inside the root — reads what read_file refuses. Allow roots do
// not apply: the tree itself is the operator's grant.
//
// It is compiled once per tree and checks a name without allocating, since
// a walk checks every entry.
type DeniedBelow struct {
	// all is the rule that denies the base itself, when one does.
	all string
	// rel are the rules below the base, as components relative to it.
	rel []pathPattern
}

// Below compiles the deny rules that reach into the clean absolute
// directory base. A nil result denies nothing.
func (pp *PathPolicy) Below(base string) *DeniedBelow {
	if pp == nil {
		return nil
	}
	c, err := CleanPath(base)
	if err != nil {
		return &DeniedBelow{all: "not a clean absolute path"}
	}
	bp := splitPath(c)
	var d DeniedBelow
	for _, p := range pp.deny {
		if len(p.parts) <= len(bp) {
			if matchPrefix(p.parts, bp) {
				return &DeniedBelow{all: p.src}
			}
			continue
		}
		if matchPrefix(p.parts[:len(bp)], bp) {
			d.rel = append(d.rel, pathPattern{src: p.src, parts: p.parts[len(bp):]})
		}
	}
	if d.rel == nil {
		return nil
	}
	return &d
}

// Join adds o's rules to d's: a tree read as two bases at once (a
// snapshot is its own directory and a copy of the live data).
func (d *DeniedBelow) Join(o *DeniedBelow) *DeniedBelow {
	switch {
	case d == nil:
		return o
	case o == nil:
		return d
	case d.all != "":
		return d
	case o.all != "":
		return o
	}
	return &DeniedBelow{rel: append(append([]pathPattern(nil), d.rel...), o.rel...)}
}

// Under returns d's rules as seen from a directory that holds copies of
// the base at prefix, a list of components (patterns, "*" within one
// component) relative to that directory: the live data's own snapshot
// directory (.zfs/snapshot/*, .snapshots/*/snapshot) holds the live tree
// again below each snapshot's name.
func (d *DeniedBelow) Under(prefix []string) *DeniedBelow {
	if d == nil {
		return nil
	}
	if d.all != "" {
		return &DeniedBelow{rel: []pathPattern{{src: d.all, parts: prefix}}}
	}
	out := &DeniedBelow{rel: make([]pathPattern, 0, len(d.rel))}
	for _, p := range d.rel {
		parts := append(append(make([]string, 0, len(prefix)+len(p.parts)), prefix...), p.parts...)
		out.rel = append(out.rel, pathPattern{src: p.src, parts: parts})
	}
	return out
}

// EscapeGlob quotes the pattern characters of a literal name, for a
// component given to Under.
func EscapeGlob(name string) string { return escapeGlob(name) }

// Rule returns the deny rule that reaches rel, a clean slash-separated name
// relative to the base ("." for the base itself), or "" when none does.
func (d *DeniedBelow) Rule(rel string) string {
	if d == nil {
		return ""
	}
	if d.all != "" {
		return d.all
	}
	if rel == "." || rel == "" {
		return ""
	}
	for _, p := range d.rel {
		if matchRelPrefix(p.parts, rel) {
			return p.src
		}
	}
	return ""
}

// matchRelPrefix is matchPrefix over the components of rel, walked in
// place rather than split.
func matchRelPrefix(pat []string, rel string) bool {
	for _, pc := range pat {
		if rel == "" {
			return false
		}
		comp := rel
		if i := strings.IndexByte(rel, '/'); i >= 0 {
			comp, rel = rel[:i], rel[i+1:]
		} else {
			rel = ""
		}
		if !matchComponent(pc, comp) {
			return false
		}
	}
	return true
}

// matchComponent matches one name against one rule component; a literal
// component is compared, not matched.
func matchComponent(pat, name string) bool {
	if !strings.ContainsAny(pat, `*?[\\`) {
		return pat == name
	}
	ok, _ := path.Match(pat, name)
	return ok
}
