package policy

import (
	"encoding/json"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// A JavaScript monorepo's tools run the scripts of its packages, not only
// of the directory they run in: npm run x --workspaces, pnpm -r run x,
// yarn workspaces foreach run x, lerna run x and turbo run x read each
// package's package.json. The packages are those the root's package.json
// "workspaces", pnpm-workspace.yaml's packages or lerna.json's packages
// name, as globs.

// maxWorkspaces is how many packages of a monorepo are read for one
// call; past it the call takes approval.
const maxWorkspaces = 256

// monorepoRunners run scripts across a monorepo's packages whatever their
// options; workspaceFlags make a package manager's call do so (or name one
// package of it, which may be any).
var (
	monorepoRunners = set(`lerna turbo nx rush`)
	workspaceFlags  = set(`-w --workspace -ws --workspaces --include-workspace-root -r --recursive --filter -F workspaces workspace foreach`)
	packageManagers = set(`npm pnpm yarn yarnpkg bun`)
)

// workspaceCall reports whether c runs the scripts of its monorepo's
// packages.
func (c *call) workspaceCall() bool {
	if monorepoRunners[c.name] {
		return true
	}
	if !packageManagers[c.name] {
		return false
	}
	if c.installs(localDepsOf[c.name]) {
		return true // an install at a monorepo's root runs its packages' install scripts
	}
	return slices.ContainsFunc(c.args, func(a arg) bool {
		name, _, _ := strings.Cut(a.val, "=")
		return a.known && workspaceFlags[name]
	})
}

// workspaceScripts meets the deny list with the package.json of each
// package of the monorepos dirs are in (the first directory up from each
// whose files name packages), and reports whether the call is still not
// denied.
func (c *call) workspaceScripts(dirs []string) bool {
	e := c.e
	var pkgs []string
	for _, d := range dirs {
		var globs []string
		root, ok := e.findUp(d, "a monorepo's root", func(d string) bool {
			globs = e.workspaceGlobs(d)
			return len(globs) > 0
		})
		if !ok {
			continue
		}
		for _, g := range globs {
			g = strings.ReplaceAll(g, "**", "*")
			ms, _ := filepath.Glob(localPath(root, path.Join(g, "package.json")))
			pkgs = append(pkgs, ms...)
		}
	}
	slices.Sort(pkgs)
	for _, p := range upTo(e, slices.Compact(pkgs), maxWorkspaces, "packages in its workspaces") {
		if !c.projectFile(p, false) {
			return false
		}
	}
	return true
}

// pnpmPackage is an entry of a YAML list: - 'packages/*'.
var pnpmPackage = regexp.MustCompile(`^\s*-\s+['"]?([^'"#\s]+)`)

// workspaceGlobs returns the package globs the monorepo root dir names:
// its package.json's workspaces (a list, or one under "packages"),
// pnpm-workspace.yaml's packages, lerna.json's packages. A glob starting
// with ! excludes, which is not followed: more is read, not less.
func (e *eval) workspaceGlobs(dir string) []string {
	var out []string
	var doc struct {
		Workspaces json.RawMessage `json:"workspaces"`
		Packages   []string        `json:"packages"`
	}
	for _, f := range []string{"package.json", "lerna.json"} {
		text, ok := e.readLocal(path.Join(dir, f))
		if !ok || json.Unmarshal([]byte(text), &doc) != nil {
			continue
		}
		out = append(out, doc.Packages...)
		var list []string
		var obj struct {
			Packages []string `json:"packages"`
		}
		if json.Unmarshal(doc.Workspaces, &list) == nil {
			out = append(out, list...)
		} else if json.Unmarshal(doc.Workspaces, &obj) == nil {
			out = append(out, obj.Packages...)
		}
		doc.Workspaces, doc.Packages = nil, nil
	}
	if text, ok := e.readLocal(path.Join(dir, "pnpm-workspace.yaml")); ok {
		in := false // in the packages list
		for _, line := range strings.Split(text, "\n") {
			if line != "" && line[0] != ' ' && line[0] != '\t' && line[0] != '-' && line[0] != '#' {
				in = strings.HasPrefix(line, "packages:")
			} else if m := pnpmPackage.FindStringSubmatch(line); in && m != nil {
				out = append(out, m[1])
			}
		}
	}
	return slices.DeleteFunc(out, func(g string) bool { return strings.HasPrefix(g, "!") || g == "" })
}
