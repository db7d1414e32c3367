package sessions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// A new interactive shell reads startup files before its first prompt,
// and those may change its key bindings (bind, an inputrc), its prompt
// and PROMPT_COMMAND, its aliases and functions, or its traps, as source
// does in the running shell (rekey.go). The default files are the
// session's own; a shell told to read others — bash --rcfile or
// --init-file, ENV for sh, dash and bash in POSIX mode, HOME for
// ~/.bashrc and ~/.inputrc — runs a file warden has not seen, so that
// "ls" typed next may be a macro or an alias. A variable given to the new
// shell alone stays set for all it reads, as if set in the session. Such a
// start ends the model as a key change does.

// interactiveShells are the shells that read startup files when started
// interactively.
var interactiveShells = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "ksh": true,
	"mksh": true, "lksh": true, "ksh93": true, "oksh": true, "loksh": true, "posh": true, "rbash": true}

// startupVars are the variables that name a shell's startup files.
var startupVars = map[string]bool{"ENV": true, "HOME": true, "BASH_ENV": true, "INPUTRC": true}

// configuredShell says why the word vals[i] of the simple command c starts
// an interactive shell that reads startup files other than the session's,
// or returns "".
func configuredShell(c *syntax.CallExpr, vals []string, i int) string {
	b := progName(vals[i])
	if b == "busybox" && i+1 < len(vals) && interactiveShells[progName(vals[i+1])] {
		return "" // judged at the shell's own word
	}
	if !interactiveShells[b] || i > 0 && !wrapper[progName(vals[0])] {
		return ""
	}
	rest := vals[i+1:]
	if !shellInteractive(rest) {
		return ""
	}
	const why = " starts an interactive shell that first runs a startup file warden has not seen, " +
		"which may change its key bindings, prompt, aliases or traps"
	for _, a := range rest {
		if a == "--rcfile" || a == "--init-file" || strings.HasPrefix(a, "--rcfile=") || strings.HasPrefix(a, "--init-file=") {
			return b + " " + a + why
		}
	}
	names := []string{}
	for _, a := range c.Assigns {
		if a.Name != nil {
			names = append(names, a.Name.Value)
		}
	}
	// env HOME=/tmp/h bash, sudo ENV=/tmp/rc sh
	for _, v := range vals[:i] {
		if name, _, ok := strings.Cut(v, "="); ok {
			names = append(names, name)
		}
	}
	for _, n := range names {
		if startupVars[n] {
			return n + "=…" + why
		}
		if r := shellVar(n); r != "" {
			return n + "=… before an interactive shell keeps it set for every line the shell reads: " + r
		}
	}
	return ""
}

// shellVar says why setting name for a new interactive shell, which keeps
// it for every line typed into it, changes what those lines do, as it
// would if the session's own shell set it (TMOUT=1 bash exits at a
// continuation prompt, and the next line runs in the shell before it), or
// returns "".
func shellVar(name string) string {
	if why := rekeyVars[name]; why != "" {
		return why
	}
	return persistVar(name)
}

// shellInteractive reports whether a shell with arguments rest reads
// commands from the terminal: -i, or neither -c nor a script file.
func shellInteractive(rest []string) bool {
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		switch {
		case a == "-i" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'i'):
			return true
		case a == "--rcfile" || a == "--init-file" || a == "-o" || a == "+o" || a == "-O" || a == "+O":
			j++ // the option's value
		case a == "--":
			return j+1 >= len(rest)
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'c'):
			return false
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
		default:
			return false // a script file
		}
	}
	return true
}

// namesShell reports whether s names one of interactiveShells, so that a
// string holding it is read as shell (sh -c 'bash --rcfile x').
func namesShell(s string) bool {
	return some(tokens(s), func(t string) bool { return interactiveShells[progName(t)] })
}

// startTyping is what warden knows of a session's input when it starts:
// its command is a line the session's shell runs before anything is typed,
// so a reader in it takes the first lines sent. After "head -n 1; sh",
// head took "echo \" and the shell after it ran the next line alone. The
// command is read as a line of a session without a terminal, where no
// byte is an edit; rekeyed is startRekeys's reason, if any. A command
// that starts no shell runs nothing typed as a command ("printf 'name? ';
// read n; echo hi $n" takes its answer), so it starts fresh, unless a
// program of it is one warden does not know: that may itself be a shell
// of another language (exec -a x zsh, a copy of zsh as ./tool), where
// what is typed next runs in a language warden does not classify (zsh's
// ls *(e:'touch x':) runs touch). The session is then adrift from its
// start, and Ctrl-C does not end that while such a program, not a shell
// warden follows at its prompt, holds the terminal (held.go).
func startTyping(command, rekeyed string) typing {
	t := typing{rekeyed: rekeyed}
	if command == "" || rekeyed != "" {
		return t
	}
	t.dialect = userShell(envSpelled(command)) // sudo -i, su -
	if !namesShell(command) && !computedProgram(command) {
		if why, _ := unknownReaders(envSpelled(command)); why != "" {
			t.adrift = "the session's command: " + why
		}
		return t
	}
	n := typing{}.feed(command+"\n", keyboard{}).next
	t.adrift, t.asked, t.modes, t.rekeyed, t.renamed, t.notUTF8 = n.adrift, n.asked, n.modes, n.rekeyed, n.renamed, n.notUTF8
	if n.dialect != "" {
		t.dialect = n.dialect
	}
	return t
}

// computedProgram reports whether text runs a program whose name is
// computed at run time ("$SHELL", "$0", exec "$x"), which may be a shell.
func computedProgram(text string) bool {
	f, err := policy.ParseBash(text)
	if err != nil {
		return true
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && !found {
			for _, v := range literals(c.Args) {
				if strings.ContainsRune(v, 0) {
					found = true
				}
				if !wrapper[progName(v)] && !strings.HasPrefix(v, "-") {
					break
				}
			}
		}
		return !found
	})
	return found
}
