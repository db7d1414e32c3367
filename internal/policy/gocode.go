package policy

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// go run, go test and go generate compile and run the module's Go code:
// the package named, the module's packages it imports, its tests, and
// the commands of its //go:generate lines. A .go file written since
// warden started, anywhere in the module, meets the deny list as other
// languages' project code does (scanned as raw text, its //go:generate
// lines read as commands).

// maxGoEntries is how many directory entries of a module are looked at
// for new Go files, and maxGoFiles how many of those are read; a call
// past either takes approval.
const (
	maxGoEntries = 1 << 14
	maxGoFiles   = 256
)

// goRuns reports whether the go call c compiles and runs the module's
// code: go run, go test, go generate.
func goRuns(c *call) bool {
	ops := subOperands("go", c.vals())
	return len(ops) > 0 && (ops[0] == "run" || ops[0] == "test" || ops[0] == "generate")
}

// goCode meets the deny list with the new Go files of the modules of
// dirs, the directories go may run in and those its operands name, and of
// the files it is given (go run /srv/x/main.go). It reports whether the
// call is still not denied.
func (c *call) goCode(dirs, files []string) bool {
	for _, f := range files {
		if strings.HasSuffix(f, ".go") {
			dirs = append(dirs, path.Dir(f))
		}
	}
	for _, d := range dirs {
		root, module := goModRoot(strings.TrimSuffix(d, "/..."))
		if key := "\x00go\x00" + root; c.e.projectDirs[key] {
			continue
		} else {
			c.e.projectDirs[key] = true
		}
		gos, complete := c.e.recentGoFiles(root, module)
		if !complete {
			c.e.pastLimit(maxGoFiles, "new Go files or "+strconv.Itoa(maxGoEntries)+" entries in the module at "+truncate(root, 64))
		}
		for _, f := range gos {
			if !c.projectFile(f, false) {
				return false
			}
		}
	}
	return true
}

// goModRoot is the root of the Go module dir is in, the first directory
// up from it with a go.mod; or dir, and false, when there is none.
func goModRoot(dir string) (string, bool) {
	for d, up := path.Clean(dir), 0; up < maxRepoUp; d, up = path.Dir(d), up+1 {
		if fi, err := os.Stat(path.Join(d, "go.mod")); err == nil && fi.Mode().IsRegular() {
			return d, true
		}
		if d == "/" || d == "." {
			break
		}
	}
	return dir, false
}

// recentGoFiles returns the .go files changed since warden started in
// root, and with module in the directories under it the go command builds
// from (not those named testdata or starting with . or _), and whether it
// looked at all of them.
func (e *eval) recentGoFiles(root string, module bool) ([]string, bool) {
	if !strings.HasPrefix(root, "/") || unreadDir(root+"/") {
		return nil, true
	}
	var out []string
	looks, complete := 0, true
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case looks >= maxGoEntries || len(out) > maxGoFiles:
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
			if p != root && (!module || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || !d.Type().IsRegular() {
			return nil
		}
		if fi, err := d.Info(); err == nil && !changed(fi).Before(e.p.since.Add(-time.Second)) {
			out = append(out, p)
		}
		return nil
	})
	if len(out) > maxGoFiles {
		return out[:maxGoFiles], false
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
