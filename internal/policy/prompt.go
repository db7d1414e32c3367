package policy

// A shell at its prompt runs what its startup files put there: a prompt
// that shows the repository's branch and state (bash's __git_ps1, zsh's
// vcs_info, oh-my-zsh's themes, starship) runs git status in the
// directory the last command left the shell in, and git runs what that
// repository's .git/config names (core.fsmonitor). So a line that only
// moves an interactive shell into a directory a tier 1 write may have
// filled, or starts one there, runs that file's programs, though its
// text is a cd. Input.Prompt marks text typed to such a shell where
// nothing else holds what it runs (an SSH host's session, a writable
// one); a read-only local session's programs the kernel confines.

// promptDir raises the verdict of in, typed to (or starting) an
// interactive shell, when it moves that shell into a temporary directory
// or one known only at run time, or starts it (no text) in a temporary
// one. A line that does not move the shell leaves it where an earlier,
// already classified, move or start put it.
func (e *eval) promptDir(in *Input, start cdMark) {
	if !in.Prompt || e.paths == nil {
		return
	}
	if e.cdMark() == start {
		if in.Command == "" && TemporaryDir(in.Dir) {
			e.note(TierDestructive, false, "a shell at its prompt may run git there (a prompt that shows the repository's state), "+
				"which runs what the repository's .git/config names, and %s is a temporary directory", truncate(in.Dir, 64))
		}
		return
	}
	if where := e.agentCwdOf(true); where != "" {
		e.note(TierDestructive, false, "a shell at its prompt may run git there (a prompt that shows the repository's state), "+
			"which runs what the repository's .git/config names, and %s", where)
	}
}

// cdMark is how far the input's moves have gone: the working directories
// it started in are moves too, so a text moves the shell when the mark
// after it differs from the mark before.
type cdMark struct {
	n, moves            int
	unknown, glob, back bool
}

// cdMark returns the input's mark now.
func (e *eval) cdMark() cdMark {
	ps := e.paths
	if ps == nil {
		return cdMark{}
	}
	return cdMark{len(ps.cds), ps.moves, ps.cdUnknown, ps.cdSafeGlob, ps.back}
}
