package policy

import (
	"path"
	"strconv"
	"strings"
)

// A descriptor is a name for what it was opened on, and one opened on a
// directory names everything under it: exec 3</etc; cat
// /dev/fd/3/warden/config.yaml reads the config, and so do
// /proc/self/fd/3/… and /proc/$$/fd/3/… (cat inherits descriptor 3), and
// cat /dev/stdin/warden/config.yaml </etc. What follows the descriptor is
// checked under each directory a redirection of the input opened on it,
// and as a path known only in part, since the descriptor may have been
// opened elsewhere.
//
// /dev/fd, /dev/stdin, /dev/stdout and /dev/stderr are links into
// /proc/self/fd, so a ".." right after /dev/fd climbs to /proc/self:
// /dev/fd/../cwd is the working directory and /dev/fd/../root the root.

// descLinks are the names that are links into /proc/self/fd.
var descLinks = [...]struct{ from, to string }{
	{"/dev/fd", "/proc/self/fd"},
	{"/dev/stdin", "/proc/self/fd/0"},
	{"/dev/stdout", "/proc/self/fd/1"},
	{"/dev/stderr", "/proc/self/fd/2"},
}

const maxFdDirs = 16

// descCanon returns a lexically cleaned absolute path with a leading
// descriptor link spelt through /proc/self/fd, and the ".." that climb
// within /proc's own directories taken: /dev/fd/../cwd is
// /proc/self/cwd. A ".." after a link (root, cwd, exe, fd/N) is kept, as
// only the file system can take it.
func descCanon(p string) string {
	p = lexClean(p)
	for _, l := range descLinks {
		if p == l.from || strings.HasPrefix(p, l.from+"/") {
			p = l.to + p[len(l.from):]
			break
		}
	}
	if !strings.HasPrefix(p, "/proc/") {
		return p
	}
	var out []string
	parts := splitPath(p)
	for i, c := range parts {
		if procLinked(out) {
			out = append(out, parts[i:]...)
			break
		}
		if c == ".." {
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			continue
		}
		out = append(out, c)
	}
	return "/" + strings.Join(out, "/")
}

// procLinked reports whether the components of a path under /proc end in
// one of a process's links: root, cwd, exe or fd/N, directly or under
// task/T.
func procLinked(parts []string) bool {
	if len(parts) < 3 || parts[0] != "proc" {
		return false
	}
	i := 2
	if parts[2] == "task" && len(parts) >= 5 {
		i = 4
	}
	switch {
	case len(parts) == i+1:
		return parts[i] == "root" || parts[i] == "cwd" || parts[i] == "exe"
	case len(parts) == i+2:
		return parts[i] == "fd"
	}
	return false
}

// procFD splits a canonical path through a process's descriptor,
// /proc/P/fd/N/rest or /proc/P/task/T/fd/N/rest, into N and rest.
func procFD(p string) (fd, rest string, ok bool) {
	parts := splitPath(p)
	if len(parts) < 4 || parts[0] != "proc" {
		return "", "", false
	}
	i := 2
	if parts[2] == "task" && len(parts) >= 6 {
		i = 4
	}
	if parts[i] != "fd" || len(parts) < i+2 {
		return "", "", false
	}
	return parts[i+1], strings.Join(parts[i+2:], "/"), true
}

// descPath checks a known absolute path or pattern through a descriptor
// link, and reports whether it denied the word.
func (e *eval) descPath(f string, glob bool, ctx cctx, word string) bool {
	c := descCanon(f)
	if c == lexClean(f) && !strings.HasPrefix(c, "/proc/") {
		return false
	}
	fd, rest, ok := procFD(c)
	if !ok {
		return c != lexClean(f) && e.procPath(c, glob, ctx, word)
	}
	if rest == "" {
		return false
	}
	for _, d := range e.fdDirs(fd) {
		if e.checkAbs(path.Clean(d+"/"+rest), glob, ctx, word) {
			return true
		}
	}
	e.partialPath("$D/"+rest, ctx)
	return false
}

// descPartial checks a path known only in part through a descriptor
// link (/proc/$$/fd/3/…), and reports whether it did.
func (e *eval) descPartial(f string, ctx cctx) bool {
	if !strings.HasPrefix(f, "/") {
		return false
	}
	c := descCanon(f)
	fd, rest, ok := procFD(c)
	if !ok || rest == "" {
		return false
	}
	if !strings.ContainsAny(rest, "$`") {
		for _, d := range e.fdDirs(fd) {
			e.absPath(path.Clean(d+"/"+rest), isPattern(rest), ctx, f)
			if e.denied {
				return true
			}
		}
	}
	e.partialPath("$D/"+rest, ctx)
	return true
}

// fdDirs returns what the input's redirections opened on descriptor fd:
// for a number, that descriptor's and the named ones' ({fd}<…); for a
// descriptor known only at run time or a pattern, every one.
func (e *eval) fdDirs(fd string) []string {
	ps := e.paths
	if ps == nil || len(ps.fdDirs) == 0 {
		return nil
	}
	if isFD(fd) && fd != "-" {
		return append(append([]string(nil), ps.fdDirs[fd]...), ps.fdDirs[""]...)
	}
	var out []string
	for _, ds := range ps.fdDirs {
		out = append(out, ds...)
	}
	return out
}

// openedFD remembers that a redirection opened descriptor fd (-1 for a
// named one) for reading on t, which may be a directory.
func (e *eval) openedFD(fd int, t arg) {
	ps := e.pathsFor()
	if ps == nil || !t.known || t.glob {
		return
	}
	v := e.homePath(t.val)
	if !strings.HasPrefix(v, "/") {
		return
	}
	key := ""
	if fd >= 0 {
		key = strconv.Itoa(fd)
	}
	if ps.fdDirs == nil {
		ps.fdDirs = map[string][]string{}
	}
	if len(ps.fdDirs[key]) < maxFdDirs {
		ps.fdDirs[key] = append(ps.fdDirs[key], path.Clean(v))
	}
}
