package policy

import (
	"os"
	"path"
	"strings"
)

// Files the call writes, by name. A writer whose content the walk does
// not see (cp evil ~/bin/tool, install, ln -sf, rsync, dd, another
// program's output redirected) may put any code where a later command
// of the same call runs it: a bare name the search path finds there
// (tool, once the call puts ~/bin on PATH or when it is already), a
// project file its tool reads (a Makefile, a git hook), a file a
// variable makes a shell load (BASH_ENV). The walk keeps the last
// element of each path a file writer (fileWriters), an option that
// writes a file (curl -o, gcc -o) or an output redirection names; the
// run of a file so named counts as a script run (settleScriptRuns), so
// beside the write the call is opaque and its text and the files it
// names meet the deny list. A write to a sensitive file (a shell's
// start-up file, /etc/profile.d, a hook, a unit) leaves the call opaque
// whatever runs after it: what is put there runs later, outside the
// call.

// maxWrittenNames is how many names the walk keeps; past it, every name
// is taken for one written.
const maxWrittenNames = 1024

// noteWritten keeps the name of the path w that a file writer, an
// option or an output redirection names.
func (e *eval) noteWritten(w string) {
	w, ok := writtenPath(w)
	if !ok {
		return
	}
	if sensitivePath(strings.ToLower(w)) {
		e.opaque = true
	}
	e.noteWrittenName(path.Base(w))
}

// writtenPath returns the path a writer's word names: the value of
// --target-directory=DIR or of=FILE, none for an option.
func writtenPath(w string) (string, bool) {
	if k, v, ok := strings.Cut(w, "="); ok && (strings.HasPrefix(k, "-") || !strings.Contains(k, "/")) {
		w = v
	}
	return w, w != "" && !strings.HasPrefix(w, "-")
}

// noteWrittenName keeps n, the name of a path written.
func (e *eval) noteWrittenName(n string) {
	if !keepBounded(&e.written, n) {
		e.manyWritten = true
	}
}

// keepBounded adds k to the set *m, made when nil, of at most
// maxWrittenNames members, and reports whether the set holds it: false
// when it was full.
func keepBounded[K comparable](m *map[K]bool, k K) bool {
	switch {
	case (*m)[k]:
	case len(*m) >= maxWrittenNames:
		return false
	case *m == nil:
		*m = map[K]bool{k: true}
	default:
		(*m)[k] = true
	}
	return true
}

// wroteName reports whether the call may have written a file named n
// (the last element of its path) before now.
func (e *eval) wroteName(n string) bool {
	return e.manyWritten || e.written[path.Base(n)]
}

// noteWrittenArgs keeps the names the arguments of a program that
// writes the files it names (fileWriters) name (noteWritten), but a
// program's that cannot change what a file holds. A wrapper's (sudo -u
// app sh -c …) are not kept: they name programs, not files. A glob
// names the files it matches now. A tree copier given a directory to copy
// (cp -r src/. ~/bin, rsync -a hooks/ .git/hooks, mv) writes the names
// under it (treeNames), and the files under it meet the deny list as
// those find lists do (noteListed).
func (e *eval) noteWrittenArgs(name string, args []arg) {
	if !fileWriters[name] || contentKeepers[name] || removers[name] {
		return
	}
	tree := e.local && treeCopier(name, args)
	last := -1
	for i, a := range args {
		if a.known && !strings.HasPrefix(a.val, "-") {
			last = i
		}
	}
	for i, a := range args {
		switch {
		case !a.known:
		case a.glob && isPattern(a.val) && e.local:
			ms := e.globPrograms(a.val)
			if len(ms) == 0 || len(ms) >= maxProgramGlobs {
				e.manyWritten = true // past the budget, or a name the shell keeps
			}
			for _, m := range ms {
				e.noteWrittenName(path.Base(m))
				if tree {
					e.treeNames(m)
				}
			}
		default:
			e.noteWritten(a.val)
			if tree && i < last && !strings.HasPrefix(a.val, "-") {
				for _, d := range e.localDirs(a.val) {
					e.treeNames(d)
				}
			}
		}
	}
}

// removers are the file writers that leave no content anyone chose: a
// file removed, emptied or overwritten with noise runs nothing.
var removers = set(`rm unlink shred truncate`)

// maxTreeNames is how many names under a directory copied whole the
// walk keeps, four levels down; past them, every name is taken for one
// written.
const maxTreeNames = 256

// treeNames keeps the names under d, when it is a directory, as written
// (a copy of d puts them in the target), and has the files under it
// read as find's listed ones are.
func (e *eval) treeNames(d string) {
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		return
	}
	e.noteListed([]string{d})
	n := 0
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		ents, _ := os.ReadDir(dir)
		for _, ent := range ents {
			if n++; n > maxTreeNames {
				e.manyWritten = true
				return
			}
			e.noteWrittenName(ent.Name())
			if ent.IsDir() && depth < 4 {
				walk(path.Join(dir, ent.Name()), depth+1)
			}
		}
	}
	walk(d, 1)
}

// treeCopier reports whether the program name, given args, copies a
// directory given to it with what it holds: mv, and cp and rsync asked
// to recurse (-r, -R, -a, --recursive, --archive, in a cluster too).
func treeCopier(name string, args []arg) bool {
	switch name {
	case "mv":
		return true
	case "cp", "rsync":
		for _, a := range args {
			switch v := a.val; {
			case !a.known:
				return true
			case v == "--recursive" || v == "--archive":
				return true
			case len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v, "rRa"):
				return true
			}
		}
	}
	return false
}

// codeValuesWritten counts as a script run each file a variable that
// makes programs load code names (BASH_ENV=~/env.sh bash -c …, a
// PYTHONPATH entry) that the call may write.
func (e *eval) codeValuesWritten() {
	for _, v := range e.codeValues {
		for _, f := range strings.Split(v, ":") {
			if f != "" && e.wroteName(f) {
				e.noteScriptRun(f)
				if e.unreadRun(f, false) {
					e.unreadFinding(unreadUse{w: f})
				}
				return
			}
		}
	}
}

// noteRanName keeps, in the walk of a piece of a script cut in pieces
// (inPieces), the name n of a file it runs or reads as code by that
// name: a write of that name in an earlier piece makes it a script run
// when the pieces are joined (absorb), as one walk of the whole script
// would have found.
func (e *eval) noteRanName(n string) {
	if e.ranNames != nil && !keepBounded(&e.ranNames, n) {
		e.manyRan = true
	}
}

// joinRuns counts as a script run a name the walk of s, the next piece,
// ran a file by that an earlier piece wrote.
func (e *eval) joinRuns(s *eval) {
	if len(e.written) == 0 && !e.manyWritten {
		return
	}
	if s.manyRan {
		e.noteScriptRun("")
		return
	}
	for n := range s.ranNames {
		if e.wroteName(n) {
			e.noteScriptRun(n)
			return
		}
	}
}

// shellBuiltins are the builtins every shell warden runs has, which it
// runs without looking on PATH: a file of that name the call writes is
// not what runs, unless a program runs the name (env echo, sudo test).
var shellBuiltins = set(`echo printf test [ true false pwd kill cd read export set unset shift exit return eval exec . :
	alias unalias umask ulimit wait jobs fg bg trap type hash command getopts times readonly local`)
