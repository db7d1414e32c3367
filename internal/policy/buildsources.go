package policy

import (
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Some build tools compile and run the project's source: go run, go test
// and go generate the module's Go code (the package named, the module's
// packages it imports, its tests, the commands of its //go:generate
// lines), cargo run, test and bench the crate's Rust code. A source file
// written since warden started, anywhere in the module or crate, meets
// the deny list as other languages' project code does (scanned as raw
// text, //go:generate lines read as commands).

// sourceTree is a kind of source tree: the file at its root, its source
// files' extension, the directories under it its tool builds nothing
// from besides those starting with . or _.
type sourceTree struct {
	marker, ext string
	skip        []string
}

var (
	goTree    = sourceTree{marker: "go.mod", ext: ".go", skip: []string{"testdata"}}
	cargoTree = sourceTree{marker: "Cargo.toml", ext: ".rs", skip: []string{"target"}}
)

// maxTreeEntries is how many directory entries of a tree are looked at for
// new source files, and maxTreeFiles how many of those are read; a call
// past either takes approval.
const (
	maxTreeEntries = 1 << 14
	maxTreeFiles   = 256
)

// sourceRuns returns the source tree c compiles and runs the code of:
// go run, go test and go generate a Go module's, cargo run, test and
// bench a crate's.
func sourceRuns(c *call) (sourceTree, bool) {
	ops := subOperands(c.name, c.vals())
	switch {
	case len(ops) == 0:
	case c.name == "go" && (ops[0] == "run" || ops[0] == "test" || ops[0] == "generate"):
		return goTree, true
	case c.name == "cargo" && (ops[0] == "run" || ops[0] == "r" || ops[0] == "test" || ops[0] == "t" || ops[0] == "bench"):
		return cargoTree, true
	}
	return sourceTree{}, false
}

// sourceCode meets the deny list with the new source files of the trees
// of kind tree that dirs, the directories c may run in and those its
// operands name, and the files it is given (go run /srv/x/main.go) are
// in. It reports whether the call is still not denied.
func (c *call) sourceCode(tree sourceTree, dirs, files []string) bool {
	for _, f := range files {
		if strings.HasSuffix(f, tree.ext) {
			dirs = append(dirs, path.Dir(f))
		}
	}
	var roots []string
	whole := map[string]bool{}
	for _, d := range dirs {
		root, w := c.e.treeRoot(tree, strings.TrimSuffix(d, "/..."))
		if !slices.Contains(roots, root) {
			roots = append(roots, root)
		}
		whole[root] = whole[root] || w
	}
	for i, root := range c.e.linkedTrees(tree, roots, dirs) {
		if !c.treeSources(tree, root, whole[root] || i >= len(roots)) {
			return false
		}
	}
	return true
}

// treeSources meets the deny list with the new source files of the tree
// at root, the directories under it too when whole, once per evaluation.
// It reports whether the call is still not denied.
func (c *call) treeSources(tree sourceTree, root string, whole bool) bool {
	if key := "\x00src\x00" + root; c.e.projectDirs[key] {
		return true
	} else {
		c.e.projectDirs[key] = true
	}
	srcs, complete := c.e.recentSources(tree, root, whole)
	if !complete {
		c.e.pastLimit(maxTreeFiles, "new source files or "+strconv.Itoa(maxTreeEntries)+" entries under "+truncate(root, 64))
	}
	for _, f := range srcs {
		if !c.projectFile(f, false) {
			return false
		}
	}
	return true
}

// treeRoot is the root of the tree dir is in, the first directory up from
// it with the tree's marker file (go.mod, Cargo.toml); or dir, and false,
// when there is none.
func (e *eval) treeRoot(tree sourceTree, dir string) (string, bool) {
	return e.findUp(dir, tree.marker, func(d string) bool { return fileExists(path.Join(d, tree.marker)) })
}

// recentSources returns the tree's source files changed since warden
// started in root, and with whole in the directories under it its tool
// builds from (not those it skips nor those starting with . or _), and
// whether it looked at all of them.
func (e *eval) recentSources(tree sourceTree, root string, whole bool) ([]string, bool) {
	if !strings.HasPrefix(root, "/") || unreadDir(root+"/") {
		return nil, true
	}
	var out []string
	looks, complete := 0, true
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case looks >= maxTreeEntries || len(out) > maxTreeFiles:
			complete = false
			return fs.SkipAll
		case e.protectedFile(p):
			if d.IsDir() {
				return fs.SkipDir // warden's own state: never read
			}
			return nil
		}
		looks++
		name := d.Name()
		if d.IsDir() {
			if p != root && (!whole || slices.Contains(tree.skip, name) || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, tree.ext) || !d.Type().IsRegular() {
			return nil
		}
		if fi, err := d.Info(); err == nil && e.changedSince(fi) {
			out = append(out, p)
		}
		return nil
	})
	if len(out) > maxTreeFiles {
		return out[:maxTreeFiles], false
	}
	return out, complete
}

// goGenerateLines returns the commands of a Go file's //go:generate lines.
func goGenerateLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(line), "//go:generate "); ok {
			out = append(out, cmd)
		}
	}
	return out
}
