package sessions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// Ctrl-C ends what a line reader left unknown (partial.go) because the
// interrupt ends the reader and the rest of its list. A reader that
// ignores or catches it reads on: after "tee -i /dev/null; head -n 1",
// Ctrl-C leaves tee running, a Ctrl-D ends it, and head takes the next
// line. So does bc, which catches the interrupt, and a program setsid
// starts in a session of its own, which the terminal's interrupt does not
// reach. Nothing typed afterwards can be known to reach the shell, so
// such a reader ends the model for good, as a key change does (rekey.go).
// So does one started in the background ("head -n 1 &"): the terminal
// stops it when it reads, Ctrl-C does not reach it, and a later fg gives
// it the next line typed.

var survivorRules = readerRules{call: survivorCall, named: namesSurvivor}

// survivors says why the complete commands text start a program that
// reads the terminal and outlives Ctrl-C, or returns "".
func survivors(text string) string {
	if why := splitsIn(text, 0, survivorRules); why != "" {
		return why
	}
	return backgroundReaders(text)
}

// backgroundReaders says why text starts a program in the background that
// may read the terminal, or returns "".
func backgroundReaders(text string) string {
	if !strings.Contains(text, "&") && !strings.Contains(text, "coproc") {
		return ""
	}
	f, err := policy.ParseBash(text)
	if err != nil {
		return ""
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if why != "" || !ok {
			return why == ""
		}
		run := &syntax.Stmt{Cmd: st.Cmd, Redirs: st.Redirs, Negated: st.Negated}
		// A coprocess runs in the background as "&" does, its input a
		// pipe unless a redirection gives it the terminal.
		if c, ok := st.Cmd.(*syntax.CoprocClause); ok && c.Stmt != nil {
			run = &syntax.Stmt{Cmd: c.Stmt.Cmd, Redirs: append(append([]*syntax.Redirect{}, c.Stmt.Redirs...), st.Redirs...)}
		} else if !st.Background {
			return true
		}
		var b strings.Builder
		if err := syntax.NewPrinter().Print(&b, run); err != nil {
			why = "a program started in the background that warden cannot read"
			return false
		}
		t := b.String()
		for _, check := range []func(string) string{splits, readsTerminal, asksTerminal, unreadCode, readsLines} {
			if r := check(t); r != "" {
				why = "a program started in the background may read the terminal later, out of Ctrl-C's reach (fg gives it the lines typed next): " + r
				break
			}
		}
		return why == ""
	})
	return why
}

// namesSurvivor reports whether text names one of the survivors at all.
func namesSurvivor(text string) bool {
	return some(tokens(text), func(t string) bool {
		switch progName(t) {
		case "tee", "bc", "dc", "setsid", "env":
			return true
		}
		return false
	})
}

// survivorCall says why the simple command c reads the terminal and
// outlives Ctrl-C.
func survivorCall(c *syntax.CallExpr) string {
	vals := literals(c.Args)
	for i, v := range vals {
		if !runBy(vals, i) {
			continue
		}
		rest := vals[i+1:]
		switch progName(v) {
		case "tee":
			if some(rest, func(a string) bool {
				// getopt_long takes --i, --ign … for --ignore-interrupts.
				return len(a) > 2 && strings.HasPrefix("--ignore-interrupts", a) || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'i')
			}) {
				return "tee -i reads the terminal and ignores Ctrl-C, so the programs after it read on"
			}
		case "bc", "dc":
			return progName(v) + " reads the terminal and catches Ctrl-C, so what is typed after it may still go to it or to the programs after it"
		case "env":
			// env --ignore-signal=INT head -n 1 (or --block-signal, or
			// either abbreviated) runs head deaf to Ctrl-C.
			if envSignals(rest) {
				return "env --ignore-signal or --block-signal makes the program it starts deaf to Ctrl-C, so it reads on"
			}
		case "setsid":
			if firstWord(rest) != "" {
				return "setsid starts a program in a session of its own, which Ctrl-C does not reach, and it may read the terminal"
			}
		}
	}
	return ""
}
