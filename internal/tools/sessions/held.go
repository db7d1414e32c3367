package sessions

import (
	"context"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/session"
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

// Which shell is at its prompt matters too. A shell typed into the
// session ends into the shell that started it, which runs the rest of
// the line it was typed in: after "bash; head -n 1 >/dev/null", Ctrl-C
// reaches the nested bash at its prompt, and after "exit" head takes
// "echo \" and the shell runs the line after it alone, which warden read
// as echo's argument. And a shell running a builtin that reads the
// terminal (read, mapfile) looks the same as one at its prompt: after
// "perl -e '$SIG{INT}=\"IGNORE\"; sleep 3'; read -r x", Ctrl-C does not
// end the line, and once perl is done the shell's own read takes the
// next line. So the send after such a Ctrl-C goes on only where the shell
// at its prompt is one that the line which left the session adrift
// cannot still be running under: the shell that line was typed into (or
// the session's own), when the line reads the terminal with no builtin
// after another command; or any shell, when the line only starts a shell
// that ends it (sudo -i, "head -n 1; sh").

// episode is what warden knows of the lines entered since the session
// last went adrift, for the check after Ctrl-C.
type episode struct {
	// reader is the process group of the shell at its prompt that read
	// the line which left the session adrift, 0 where none did.
	reader int
	// text is the lines entered since, capped at maxOpen.
	text string
}

// stillHeld checks, for a session in state t whose Ctrl-C ended a wait
// for a program, that a shell it can take to be at its prompt reads the
// terminal again (ep: the lines that left it adrift). It returns t with
// that wait forgotten when one does or when the session has no terminal
// to ask (none, or it ended), and otherwise t and why the send cannot be
// known: a foreground warden fails to ask is not the shell's.
func (d *Deps) stillHeld(ctx context.Context, id string, t typing, ep episode) (typing, string) {
	if t.held == "" {
		return t, ""
	}
	fg := d.Registry.ProgramReads(ctx, id, heldWait)
	if !fg.Known {
		t.held = ""
		return t, ""
	}
	if !fg.Shell {
		return t, "a program that read the terminal before Ctrl-C (" + t.held + ") still holds it: it ignores Ctrl-C or reads keys " +
			"raw, so what is typed now goes to it, not the shell; end it with the keys it quits on in a writable session " +
			"(with approval), or close the session"
	}
	if why := afterCtrlC(ep, fg); why != "" {
		return t, why + " (" + t.held + "), so what is typed now may go to it, not the shell; close the session, " +
			"or approve what follows in a writable session"
	}
	t.held = ""
	return t, ""
}

// afterCtrlC says why the shell at its prompt that fg found cannot be
// taken to read what is typed next, after the lines of ep, or returns "".
func afterCtrlC(ep episode, fg session.Foreground) string {
	if endsInShell(ep.text) {
		return ""
	}
	if !fg.Own && (ep.reader == 0 || fg.Group != ep.reader) {
		return "a shell at its prompt has the terminal after Ctrl-C, but not the one the line that went adrift was " +
			"typed into, which may run more of that line once the shell it started ends"
	}
	if readsInBuiltin(ep.text) {
		return "the shell has the terminal after Ctrl-C, but it may be running a builtin of the line that went adrift " +
			"(read, mapfile), which a program before it may have kept Ctrl-C from ending"
	}
	return ""
}

// endsInShell reports whether text, a line or lines entered, only starts
// a shell (bash, sudo -i, su -) as its last command, with nothing after
// it: once that shell ends, so does the line.
func endsInShell(text string) bool {
	if text == "" || len(text) >= maxOpen {
		return false
	}
	f, err := policy.ParseBash(text)
	if err != nil || len(f.Stmts) == 0 {
		return false
	}
	last := f.Stmts[len(f.Stmts)-1]
	c, ok := last.Cmd.(*syntax.CallExpr)
	if !ok || last.Background || last.Coprocess || last.Negated || len(last.Redirs) > 0 {
		return false
	}
	vals := literals(c.Args)
	for i := range vals {
		if !runBy(vals, i) || i > 0 && strings.HasPrefix(vals[i], "-") {
			continue
		}
		b, rest := progName(vals[i]), vals[i+1:]
		if startsUserShell(b, rest) {
			// Neither a command for it (sudo -s CMD) nor a shell of
			// the line's choosing (su -s PROG).
			switch b {
			case "sudo", "doas":
				return len(operands(rest)) == 0
			case "su", "runuser":
				return !some(rest, func(a string) bool {
					return a == "-s" || strings.HasPrefix(a, "--sh") || len(a) > 2 && a[0] == '-' && a[1] == 's'
				})
			}
			return true
		}
		if wrapper[b] && i+1 < len(vals) {
			continue
		}
		return shells[b] && shellInteractive(vals[i+1:])
	}
	return false
}

// readsInBuiltin reports whether text runs a builtin that reads lines of
// its input (read, mapfile, readarray, select) together with any other
// command.
func readsInBuiltin(text string) bool {
	if len(text) >= maxOpen {
		return true
	}
	f, err := policy.ParseBash(text)
	if err != nil {
		return true
	}
	calls, reads := 0, false
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.ForClause); ok && c.Select {
			reads = true // select reads its answers
		}
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			calls++
			vals := literals(c.Args)
			for i, v := range vals {
				if i > 0 && !wrapper[progName(vals[0])] {
					break
				}
				switch progName(v) {
				case "read", "mapfile", "readarray", "eval":
					reads = true
				}
				// A name computed at run time may be any of them.
				reads = reads || i == 0 && (v == "" || strings.ContainsRune(v, 0))
			}
		}
		return true
	})
	return reads && calls > 1
}

// follow keeps tb's episode, before the send ty is typed into a session
// in state before: a send whose lines leave the session adrift starts
// one, read by the shell then at its prompt, and lines entered while it
// is adrift or held join it.
func (d *Deps) follow(ctx context.Context, id string, tb *tab, before typing, ty typed) {
	lines := strings.Join(ty.lines, "\n")
	switch {
	case before.adrift == "" && before.held == "" && ty.next.adrift != "" && len(ty.lines) > 0:
		tb.episode = episode{text: lines}
		if fg := d.Registry.ProgramReads(ctx, id, 0); fg.Shell {
			tb.episode.reader = fg.Group
		}
	case (before.adrift != "" || before.held != "") && len(ty.lines) > 0 && len(tb.episode.text) < maxOpen:
		tb.episode.text += "\n" + lines
	}
}
