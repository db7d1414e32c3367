package policy

import (
	"maps"
	"path"
	"slices"
	"strings"
)

// Relative names of files whose reading acts. A relative word is read
// against every directory the input can make current: cd /dev/pts && cat 1
// reads a terminal. Where the directory is one the classifier cannot name
// (a cd to a computed target, a cd that climbs from a start it does not
// know, any relative word on a host whose starting directory is unknown),
// the word is read as it is for warden's own paths: placed under every
// directory that holds such a file, it counts when it supplies at least
// two components of the name (cd "$d" && cat pts/1, cat 1/environ), or one
// once it climbs out of the unknown directory (cat ../../dev/pts/1 from a
// home directory). A single component from an unknown directory (cd "$d"
// && cat 1) is not taken as a device: every script's cat file would be.

// deviceRead notes a word that names a file whose reading acts. A
// relative one is kept for relReadVerdict, which reads it against the
// directories every cd in the input can make current.
func (e *eval) deviceRead(a arg, ctx cctx) {
	e.deviceReadAbs(a, ctx) // the absolute names in it: dd if=/dev/mem
	v := a.val
	if i := strings.IndexByte(v, '='); i > 0 && !strings.Contains(v[:i], "/") {
		v = v[i+1:] // dd if=pts/1, --file=pts/1
	}
	if !a.known || v == "" || strings.ContainsAny(v[:1], "/-~") {
		return
	}
	ps := e.paths
	if ps == nil { // cds are not followed: the directory is unknown
		e.deviceReadFar(v, a.glob, ctx)
		return
	}
	if ps.relReads == nil {
		ps.relReads = map[string]bool{}
	}
	if g, ok := ps.relReads[v]; ok || len(ps.relReads) < maxRelWords {
		ps.relReads[v] = g || a.glob
	} else {
		ps.relMore = true
	}
}

// relReadVerdict checks the relative names programs open against every
// directory a cd in the input can make current, and against directories
// the classifier cannot name.
func (e *eval) relReadVerdict() {
	ps := e.paths
	if ps == nil || len(ps.relReads) == 0 {
		return
	}
	if ps.cdMore {
		e.note(unresolvedTier, false, "too many cd targets to follow for the input's relative paths")
		return
	}
	dirs, unknown := e.cwds()
	far := unknown || ps.initial == ""
	var rels []string
	if far && ps.initial == "" {
		rels = e.relCwds()
	}
	for _, w := range slices.Sorted(maps.Keys(ps.relReads)) {
		glob := ps.relReads[w]
		for _, d := range dirs {
			if strings.HasPrefix(d, "/dev") || strings.HasPrefix(d, "/proc") || strings.HasPrefix(d, "/sys") {
				e.deviceReadAbs(arg{val: path.Join(d, w), known: true, glob: glob}, cctx{})
			}
		}
		if far {
			e.deviceReadFar(w, glob, cctx{})
			for _, d := range rels {
				e.deviceReadFar(path.Join(d, w), glob, cctx{})
			}
		}
	}
}

// deviceReadFar is deviceRead for a relative name w read from a directory
// the classifier cannot name. The name's first component is placed where
// that component stands in a file whose reading acts (pts under /dev, a
// process number under /proc), and the whole is checked there.
func (e *eval) deviceReadFar(w string, glob bool, ctx cctx) {
	rest, climbed := path.Clean(w), false
	for rest == ".." || strings.HasPrefix(rest, "../") {
		rest, climbed = strings.TrimPrefix(strings.TrimPrefix(rest, ".."), "/"), true
	}
	first, _, more := strings.Cut(rest, "/")
	if first == "" || first == "." || !climbed && !more {
		return
	}
	pattern := glob && globChar(rest)
	for _, d := range deviceDirs {
		if !d.matches(first, pattern) || !climbed && d.last {
			continue
		}
		f := d.parent + "/" + rest
		if !pattern {
			e.deviceReadAbs(arg{val: f, known: true}, ctx)
			continue
		}
		// A pattern counts where it matches such a file, not wherever
		// it falls under a directory of them: cd "$d"; grep x */*.conf.
		for _, s := range readActsSamples {
			if ok, _ := shellMatch(f, s); ok {
				e.note(TierMutate, ctx.covered, "%s may name %s, which %s", truncate(w, 96), s, readActs(s))
				return
			}
		}
	}
}

// A deviceDir is a component of the name of a file whose reading acts,
// and the directory it is in.
type deviceDir struct {
	parent, name string
	last         bool // the file itself, not a directory
}

// matches reports whether a relative name's first component can be d:
// any process number or self for a process's directory, any CPU's for
// cpu0.
func (d deviceDir) matches(first string, glob bool) bool {
	switch {
	case d.parent == "/proc" && d.name == "1":
		return strings.Trim(first, "0123456789") == "" || first == "self" || first == "thread-self" || glob && globChar(first)
	case strings.HasSuffix(d.parent, "/per_cpu") && d.name == "cpu0":
		return strings.HasPrefix(first, "cpu") || glob && globChar(first)
	case glob && globChar(first):
		ok, _ := shellMatch(first, d.name)
		return ok
	}
	return first == d.name
}

// deviceDirs are the components of the files readActsSamples names.
var deviceDirs = func() []deviceDir {
	seen := map[deviceDir]bool{}
	var out []deviceDir
	for _, s := range append(readActsSamples, "/dev/char/4:1") {
		parts := splitPath(s)
		for i, name := range parts {
			d := deviceDir{parent: "/" + strings.Join(parts[:i], "/"), name: name, last: i == len(parts)-1}
			d.parent = strings.TrimSuffix(d.parent, "/")
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	return out
}()
