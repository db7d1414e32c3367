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
	if k, v, ok := strings.Cut(w, "="); ok && (strings.HasPrefix(k, "-") || !strings.Contains(k, "/")) {
		w = v // --target-directory=DIR, of=FILE
	}
	if w == "" || strings.HasPrefix(w, "-") {
		return
	}
	if sensitivePath(strings.ToLower(w)) {
		e.opaque = true
	}
	e.noteWrittenName(path.Base(w))
}

// noteWrittenName keeps n, the name of a path written.
func (e *eval) noteWrittenName(n string) {
	if e.written == nil {
		e.written = map[string]bool{}
	}
	if len(e.written) < maxWrittenNames || e.written[n] {
		e.written[n] = true
	} else {
		e.manyWritten = true
	}
}

// wroteName reports whether the call may have written a file named n
// (the last element of its path) before now.
func (e *eval) wroteName(n string) bool {
	return e.manyWritten || e.written[path.Base(n)]
}

// noteWrittenArgs keeps the names the arguments of a program that
// writes the files it names (fileWriters) name (noteWritten), but a
// program's that cannot change what a file holds. A wrapper's (sudo -u
// app sh -c …) are not kept: they name programs, not files. A tree
// copier given a directory to copy (cp -r src/. ~/bin, rsync -a hooks/
// .git/hooks, mv) writes names it does not name: every name is then
// taken for one written, and the files under the directory meet the
// deny list as those find lists do (noteListed).
func (e *eval) noteWrittenArgs(name string, args []arg) {
	if !fileWriters[name] || contentKeepers[name] {
		return
	}
	last := -1
	for i, a := range args {
		if a.known {
			e.noteWritten(a.val)
			if !strings.HasPrefix(a.val, "-") {
				last = i
			}
		}
	}
	if !e.local || !treeCopier(name, args) {
		return
	}
	for _, a := range args[:max(last, 0)] {
		if !a.known || strings.HasPrefix(a.val, "-") {
			continue
		}
		for _, d := range e.localDirs(a.val) {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				e.manyWritten = true
				e.noteListed([]string{d})
			}
		}
	}
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
	switch {
	case e.ranNames == nil || e.ranNames[n]:
	case len(e.ranNames) < maxWrittenNames:
		e.ranNames[n] = true
	default:
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
