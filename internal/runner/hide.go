package runner

import (
	"path/filepath"
	"slices"
	"strings"
)

// RealPaths returns the paths that exist among paths, each as the kernel
// reaches it (symlinks resolved), without duplicates or paths inside another. Sandbox runners keep
// these out of the sandbox: warden's own files, which the kernel
// confinement keeps from every other child, and which a sandbox runner's
// own binds and rules would otherwise expose (bubblewrap binds /etc; an
// allowed folder may be an ancestor of the state dir, or a symlink to it).
func RealPaths(paths []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || seen[real] {
			continue
		}
		seen[real] = true
		out = append(out, real)
	}
	// A path inside another is hidden with it; covering it again inside
	// a covered directory would fail (bubblewrap cannot make a mount
	// point in its read-only tmpfs).
	return slices.DeleteFunc(out, func(p string) bool {
		return slices.ContainsFunc(out, func(q string) bool { return q != p && Within(p, q) })
	})
}

// Within reports whether the clean absolute path p is dir or lies below
// it, comparing whole components.
func Within(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}
