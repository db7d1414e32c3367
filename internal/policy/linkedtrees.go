package policy

import (
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// A build brings in source trees besides the module or crate it runs in:
// a Go module's replace directives that name a directory and the modules
// its workspace (go.work) uses; a crate's path dependencies, its
// workspace's members and the workspace it belongs to. Their code is
// built as the tree's own: go run with replace => ../lib runs ../lib's
// init functions, cargo build runs a path dependency's build.rs and
// compiles with its procedural macros.

// maxLinkedTrees is how many trees builds bring in are read for one call;
// past it the call takes approval.
const maxLinkedTrees = 16

// linkedTrees returns roots and, after them, the trees their builds bring
// in, and the trees those bring in, each once. from are the directories
// the call may run in, up from which go finds its go.work.
func (e *eval) linkedTrees(tree sourceTree, roots, from []string) []string {
	out := slices.Clone(roots)
	n := len(out)
	add := func(links []string) bool {
		for _, l := range links {
			if slices.Contains(out, l) || !fileExists(path.Join(l, tree.marker)) {
				continue
			}
			if len(out)-n >= maxLinkedTrees {
				e.pastLimit(maxLinkedTrees, "source trees its build brings in")
				return false
			}
			out = append(out, l)
		}
		return true
	}
	if tree.marker == goTree.marker {
		for _, d := range from {
			if w, ok := e.findUp(d, "go.work", func(d string) bool { return fileExists(path.Join(d, "go.work")) }); ok {
				if text, ok := e.readLocal(path.Join(w, "go.work")); ok && !add(goLinks(text, w)) {
					return out
				}
			}
		}
	}
	for i := 0; i < len(out); i++ {
		text, ok := e.readLocal(path.Join(out[i], tree.marker))
		if !ok {
			continue
		}
		var links []string
		if tree.marker == goTree.marker {
			links = goLinks(text, out[i])
		} else {
			links = e.crateLinks(text, out[i])
		}
		if !add(links) {
			break
		}
	}
	return out
}

// goLinks returns the directories a go.mod's or go.work's use directives
// and its replace directives that name a directory (./x, ../x, /x) give,
// relative to dir.
func goLinks(text, dir string) []string {
	var out []string
	block := "" // the directive of the ( … ) block the line is in
	for _, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "//")
		line = strings.TrimSpace(line)
		if line == ")" {
			block = ""
			continue
		}
		verb := block
		if verb == "" {
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			verb, line = f[0], strings.TrimSpace(line[len(f[0]):])
			if line == "(" {
				block = verb
				continue
			}
		}
		var p string
		switch verb {
		case "use":
			p = line
		case "replace":
			_, p, _ = strings.Cut(line, "=>")
		}
		f := strings.Fields(p)
		if len(f) == 0 {
			continue
		}
		p = strings.Trim(f[0], "\"`")
		if verb == "use" || p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
			out = append(out, localPath(dir, p))
		}
	}
	return out
}

var (
	// crateWorkspace is a package's workspace key.
	crateWorkspace = regexp.MustCompile(`(?m)^\s*workspace\s*=\s*["']([^"']+)["']`)
	// crateMembers is a workspace's members array.
	crateMembers = regexp.MustCompile(`(?s)\bmembers\s*=\s*\[([^\]]*)\]`)
	tomlString   = regexp.MustCompile(`["']([^"']+)["']`)
	// procMacro is a crate's [lib] proc-macro key.
	procMacro = regexp.MustCompile(`(?m)^\s*proc[-_]macro\s*=\s*true`)
)

// crateLinks returns the crates a Cargo.toml in dir links to: its path
// dependencies, its workspace's members (their globs expanded) and the
// workspace it belongs to, named by its workspace key or the first
// Cargo.toml up from dir with a [workspace] table.
func (e *eval) crateLinks(text, dir string) []string {
	out := pathKeys(text, dir)
	for _, m := range crateWorkspace.FindAllStringSubmatch(text, -1) {
		out = append(out, localPath(dir, m[1]))
	}
	for _, m := range crateMembers.FindAllStringSubmatch(text, -1) {
		for _, s := range tomlString.FindAllStringSubmatch(m[1], -1) {
			p := localPath(dir, s[1])
			if !strings.ContainsAny(s[1], "*?[") {
				out = append(out, p)
			} else if ms, err := filepath.Glob(p); err == nil {
				out = append(out, ms...) // bounded as linked trees
			}
		}
	}
	if ws, ok := e.findUp(path.Dir(dir), "a workspace", func(d string) bool {
		text, ok := e.readLocal(path.Join(d, "Cargo.toml"))
		return ok && strings.Contains(text, "[workspace]")
	}); ok && dir != "/" {
		out = append(out, ws)
	}
	return out
}
