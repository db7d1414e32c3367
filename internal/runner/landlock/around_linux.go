package landlock

import (
	"os"
	"path/filepath"

	"github.com/warden-mcp/warden/internal/runner"
)

// maxAroundDepth bounds the descent toward a hidden path.
const maxAroundDepth = 64

// grant is what an allowed folder becomes once warden's own files are
// kept out of it: Landlock rules reach everything beneath the directory
// they name, so a folder above a hidden path (/var/lib above the state
// dir, /etc above the config file) is granted only the right to list it,
// and each of its entries is granted in turn, but the hidden one.
type grant struct {
	// whole are folders with nothing hidden below them.
	whole []string
	// listed are the folders above a hidden path: listed, not read.
	listed []string
	// files are the plain entries of listed folders.
	files []string
}

// around splits folders into g around the hidden paths hide (real paths).
func around(folders, hide []string) grant {
	var g grant
	for _, f := range folders {
		g.add(f, hide, 0)
	}
	return g
}

func (g *grant) add(dir string, hide []string, depth int) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		g.whole = append(g.whole, dir) // missing: the rule ignores it
		return
	}
	above := false
	for _, h := range hide {
		if runner.Within(real, h) {
			return
		}
		if runner.Within(h, real) {
			above = true
		}
	}
	if !above {
		g.whole = append(g.whole, dir)
		return
	}
	if depth > maxAroundDepth {
		return
	}
	g.listed = append(g.listed, real)
	entries, err := os.ReadDir(real)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(real, e.Name())
		switch {
		case e.Type()&os.ModeSymlink != 0:
			// What it names is granted where it really lies, or not at all.
		case e.IsDir():
			g.add(p, hide, depth+1)
		case !hidden(p, hide):
			g.files = append(g.files, p)
		}
	}
}

// keepOut drops the files that are, or lie in, a hidden path.
func keepOut(files, hide []string) []string {
	var out []string
	for _, f := range files {
		real, err := filepath.EvalSymlinks(f)
		if err != nil {
			real = f
		}
		if !hidden(real, hide) {
			out = append(out, f)
		}
	}
	return out
}

func hidden(p string, hide []string) bool {
	for _, h := range hide {
		if runner.Within(p, h) {
			return true
		}
	}
	return false
}
