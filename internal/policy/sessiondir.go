package policy

// A session's shell keeps its working directory from one send to the
// next, and each send is classified alone: after "cd /tmp/x" in one send,
// "python3 -m json.tool f" or "git status" in the next runs in /tmp/x,
// which that send's text does not show. The sessions tool asks MovesDir of
// each send and, once one may have moved the shell, classifies later sends
// with a working directory known only at run time (Input.Dir ".").

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
	moved := e.opaque || ps != nil && (len(ps.cds) > 0 || ps.cdUnknown || ps.back)
	e.release()
	return moved
}
