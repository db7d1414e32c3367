package policy

import (
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"
)

// An install builds the project's local dependencies, whose code runs as
// it does: npm install runs a file: or link: dependency's install
// scripts, pip install builds a directory's setup.py (named, -e, or in a
// requirements file), poetry and uv build a path dependency, bundler
// evaluates a path gem's gemspec. Each dependency's files meet the deny
// list as the project's own do, and its own local dependencies in turn,
// up to maxLinkedTrees of them.

// localDeps says where a program's local dependencies are named and what
// of theirs runs.
type localDeps struct {
	manifest string                          // the project's file naming them
	links    func(text, dir string) []string // the dependency directories it names
	files    []string                        // what of a dependency's runs
	verbs    map[string]bool                 // the subcommands that build them; nil is all
	bare     bool                            // the program alone installs (yarn)
}

var (
	npmDeps     = localDeps{manifest: "package.json", links: packageLinks, files: []string{"package.json"}, verbs: set(`install i ci add rebuild link update up`)}
	yarnDeps    = localDeps{manifest: "package.json", links: packageLinks, files: []string{"package.json"}, verbs: set(`install add up upgrade`), bare: true}
	pyDeps      = localDeps{manifest: "pyproject.toml", links: pathKeys, files: pipFiles, verbs: set(`install sync add lock update build run`)}
	pipDeps     = localDeps{files: pipFiles, verbs: set(`install download wheel`)} // its dependencies: pipDirs
	localDepsOf = map[string]localDeps{
		"npm": npmDeps, "pnpm": npmDeps, "bun": npmDeps, "yarn": yarnDeps, "yarnpkg": yarnDeps,
		"poetry": pyDeps, "uv": pyDeps, "pdm": pyDeps, "rye": pyDeps, "hatch": pyDeps, "pip": pipDeps, "pip3": pipDeps,
		"bundle": {manifest: "Gemfile", links: gemPaths, files: []string{"*.gemspec"}},
	}
)

// installs reports whether c builds its project's local dependencies.
func (c *call) installs(ld localDeps) bool {
	if ld.verbs == nil {
		return true
	}
	ops := subOperands(c.name, c.vals())
	if len(ops) == 0 {
		return ld.bare
	}
	return ld.verbs[ops[0]]
}

// localDepCode meets the deny list with what c's install runs of the
// local dependencies of the projects in dirs, and reports whether the
// call is still not denied.
func (c *call) localDepCode(dirs []string) bool {
	ld, ok := localDepsOf[c.name]
	if !ok || !c.installs(ld) {
		return true
	}
	e := c.e
	var deps []string
	if c.name == "pip" || c.name == "pip3" {
		deps = c.pipDirs(dirs)
	} else {
		for _, d := range dirs {
			if text, ok := e.readLocal(path.Join(d, ld.manifest)); ok {
				deps = append(deps, ld.links(text, d)...)
			}
		}
	}
	var seen []string
	for i := 0; i < len(deps); i++ {
		d := path.Clean(deps[i])
		if slices.Contains(seen, d) || slices.Contains(dirs, d) {
			continue
		}
		if len(seen) >= maxLinkedTrees {
			e.pastLimit(maxLinkedTrees, "local dependencies its install builds")
			return true
		}
		seen = append(seen, d)
		if _, ok := c.projectFilesIn(d, ld.files); !ok {
			return false
		}
		if ld.links != nil {
			if text, ok := e.readLocal(path.Join(d, ld.manifest)); ok {
				deps = append(deps, ld.links(text, d)...)
			}
		}
	}
	return true
}

// packageLinks returns the directories a package.json's dependencies name
// by path: file:, link: and portal: specs, and a path itself (../lib).
func packageLinks(text, dir string) []string {
	var doc map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &doc) != nil {
		return nil
	}
	var out []string
	for _, k := range []string{"dependencies", "devDependencies", "optionalDependencies", "peerDependencies", "overrides", "resolutions"} {
		var deps map[string]any
		if json.Unmarshal(doc[k], &deps) != nil {
			continue
		}
		for _, v := range deps {
			spec, ok := v.(string)
			if !ok {
				continue
			}
			for _, pre := range []string{"file:", "link:", "portal:"} {
				spec = strings.TrimPrefix(spec, pre)
			}
			if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || strings.HasPrefix(spec, "/") || spec == "." || spec == ".." {
				out = append(out, localPath(dir, spec))
			}
		}
	}
	return out
}

var (
	// pathKey is a TOML path key: lib = { path = "../lib" },
	// [dependencies.lib] path = "../lib".
	pathKey = regexp.MustCompile(`(?:^|[{,\s])path\s*=\s*["']([^"']+)["']`)
	// gemPath is a Gemfile's path option: path: '../x', :path => "../x".
	gemPath = regexp.MustCompile(`:?path(?::|\s*=>)\s*["']([^"']+)["']`)
)

// pathKeys returns the directories a pyproject.toml's path keys name.
func pathKeys(text, dir string) []string {
	var out []string
	for _, m := range pathKey.FindAllStringSubmatch(text, -1) {
		out = append(out, localPath(dir, m[1]))
	}
	return out
}

// gemPaths returns the directories a Gemfile's path options name.
func gemPaths(text, dir string) []string {
	var out []string
	for _, m := range gemPath.FindAllStringSubmatch(text, -1) {
		out = append(out, localPath(dir, m[1]))
	}
	return out
}

// maxRequirementFiles is how many requirements files (-r, and those they
// name) one pip call reads.
const maxRequirementFiles = 16

// pipDirs returns the directories pip install builds: its operands and
// -e values that are directories, and those its requirements and
// constraints files name, relative to each of dirs.
func (c *call) pipDirs(dirs []string) []string {
	e := c.e
	var out []string
	vals := append(c.optVals(c.args, "-e", "--editable"), operandArgs(c)...)
	var reqs []string
	addReq := func(p string) {
		if !slices.Contains(reqs, p) {
			reqs = append(reqs, p)
		}
	}
	for _, d := range dirs {
		for _, v := range vals {
			if v.known {
				out = append(out, localPath(d, strings.TrimPrefix(v.val, "file://")))
			}
		}
		for _, v := range c.optVals(c.args, "-r", "--requirement", "-c", "--constraint") {
			if v.known {
				addReq(localPath(d, v.val))
			}
		}
	}
	read := 0
	for i := 0; i < len(reqs); i++ {
		text, ok := e.readLocal(reqs[i])
		if !ok {
			continue
		}
		if read++; read > maxRequirementFiles {
			e.pastLimit(maxRequirementFiles, "requirements files")
			break
		}
		base := path.Dir(reqs[i])
		for _, line := range strings.Split(text, "\n") {
			f := strings.Fields(strings.SplitN(line, " #", 2)[0])
			switch {
			case len(f) == 0:
			case len(f) >= 2 && (f[0] == "-r" || f[0] == "--requirement" || f[0] == "-c" || f[0] == "--constraint"):
				addReq(localPath(base, f[1]))
			case len(f) >= 2 && (f[0] == "-e" || f[0] == "--editable"):
				out = append(out, localPath(base, strings.TrimPrefix(f[1], "file://")))
			case strings.HasPrefix(f[0], "./") || strings.HasPrefix(f[0], "../") || strings.HasPrefix(f[0], "/") || strings.HasPrefix(f[0], "file://"):
				out = append(out, localPath(base, strings.TrimPrefix(f[0], "file://")))
			}
		}
	}
	return slices.DeleteFunc(out, func(d string) bool { return !isDir(d) })
}

// operandArgs returns c's operands after its subcommand (pip install
// ../lib), as arguments.
func operandArgs(c *call) []arg {
	ops := subOperands(c.name, c.vals())
	if len(ops) < 2 {
		return nil
	}
	out := make([]arg, 0, len(ops)-1)
	for _, o := range ops[1:] {
		out = append(out, arg{val: o, known: true})
	}
	return out
}
