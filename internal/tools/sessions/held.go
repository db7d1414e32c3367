package sessions

import (
	"context"
	"time"
)

// Ctrl-C ends what a line reader or a program warden cannot follow left
// unknown (partial.go, unknown.go) only if the program lets it: one that
// ignores or catches SIGINT, or reads keys raw, where Ctrl-C is a key
// (ncdu, fzf, a TUI, a script with trap '' INT), is still reading after
// it. Typed to it, "echo 'q touch x; echo '" quits ncdu at its q and
// leaves the shell " touch x; echo '", which warden read as one echo. A
// terminal shows which process group reads it (a remote one's is asked on
// the far side, session/sshstart), so the first send after such a Ctrl-C
// goes on only once the session's shell, or a shell typed into it, has
// the terminal back at its prompt.

// heldWait is how long a send waits for the shell to have the terminal
// back after Ctrl-C: a command may take a moment to end.
const heldWait = 2 * time.Second

// stillHeld checks, for a session in state t whose Ctrl-C ended a wait
// for a program, that its shell reads the terminal again. It returns t
// with that wait forgotten when the shell does or when the session has no
// terminal to ask (none, or it ended), and otherwise t and why the send
// cannot be known: a foreground warden fails to ask is not the shell's.
func (d *Deps) stillHeld(ctx context.Context, id string, t typing) (typing, string) {
	if t.held == "" {
		return t, ""
	}
	reads, known := d.Registry.ProgramReads(ctx, id, heldWait)
	if !known || reads {
		t.held = ""
		return t, ""
	}
	return t, "a program that read the terminal before Ctrl-C (" + t.held + ") still holds it: it ignores Ctrl-C or reads keys " +
		"raw, so what is typed now goes to it, not the shell; end it with the keys it quits on in a writable session " +
		"(with approval), or close the session"
}
