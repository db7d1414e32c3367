package policy

import (
	"path"
	"strings"
)

// A session's shell keeps its working directory from one send to the
// next, and each send is classified alone: after "cd /tmp/x" in one send,
// "python3 -m json.tool f" or "git status" in the next runs in /tmp/x,
// which that send's text does not show. The sessions tool asks DirsAfter
// of each send for every directory its shell may then be in, and
// classifies the next send as starting in any of them (Input.Dir and
// Input.Dirs); once one is known only at run time, later sends start in
// a directory known only at run time (Input.Dir ".").

// MovesDir reports whether shell text, run by a shell that reads more
// text afterwards, may leave that shell in another working directory than
// it started in: a cd or pushd anywhere in it (in a subshell too, which
// it does not tell apart), cd - or popd, which go back to a directory an
// earlier text may have made current, or code the classifier cannot read,
// which may hold one.
func MovesDir(text string) bool {
	if text == "" {
		return false
	}
	e := newEval(&Policy{protect: &protection{}})
	e.input(&Input{Command: text})
	ps := e.paths
	moved := e.opaque || ps != nil && (len(ps.cds) > 0 || ps.cdUnknown || ps.cdSafeGlob || ps.back)
	e.release()
	return moved
}

// DirsAfter returns the directories a shell that may be in any of dirs
// may be in after it runs text, and false when one is known only at run
// time. "" in dirs is a start nothing names (a session started without a
// cwd), which a relative cd leaves for anywhere; "." is one known only at
// run time. The shell may stay where it was (a cd that fails, or runs in a
// subshell), so every one of dirs is kept.
func DirsAfter(text string, dirs []string) ([]string, bool) {
	if slicesHas(dirs, ".") {
		return nil, false
	}
	if !MovesDir(text) {
		return dirs, true
	}
	in := Input{Command: text}
	if len(dirs) > 0 {
		in.Dir, in.Dirs = dirs[0], dirs[1:]
	}
	e := newEval(&Policy{protect: &protection{}})
	defer e.release()
	e.input(&in)
	ps := e.paths
	if ps == nil || e.opaque || ps.cdUnknown || ps.cdSafeGlob || ps.back {
		return nil, false
	}
	named := ps.initial != ""
	for _, d := range in.Dirs {
		named = named || strings.HasPrefix(d, "/")
	}
	for _, t := range ps.cds {
		if !strings.HasPrefix(t.val, "/") && (strings.HasPrefix(t.val, "~") || !named) {
			return nil, false // cd x from a start nothing names is anywhere
		}
	}
	out, unknown := e.cwds()
	if unknown || len(out) >= maxCwds {
		return nil, false
	}
	if ps.initial == "" {
		out = append([]string{""}, out...) // a cd that did not run leaves it there
	}
	for i, d := range out {
		out[i] = path.Clean(d)
		if d == "" {
			out[i] = ""
		}
	}
	return out, true
}
