package sessions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// Some programs start a shell warden does not choose: the one $SHELL or
// the user's login entry names (sudo -s, sudo -i, su, runuser, login,
// newgrp, sg, script, chroot, unshare, nsenter, systemd-run --shell,
// pkexec with no program). On a host where that is zsh — a common login
// shell — the lines typed next are zsh's, which reads some lines
// otherwise than sh: in an interactive zsh '#' starts no comment ("ls #
// ; touch x" runs touch), a glob's trailing (…) is a list of qualifiers,
// some of which run code ("ls *(e:'touch x':)"), and a redirection alone
// runs a program that reads the terminal ("< f" pages f with more, whose
// '!' runs a command). warden cannot know which shell that is, so after
// such a program, for the rest of the session, a send that zsh would read
// so is refused, or needs approval in a writable session; the rest reads
// alike in both.

// userShellNames are what the programs startsUserShell knows contain: a
// text with none of them starts none.
var userShellNames = []string{"su", "runuser", "doas", "login", "newgrp", "sg", "script", "pkexec", "chroot", "unshare", "nsenter",
	"systemd-run", "machinectl"}

// userShell says why the complete commands text start a shell that
// $SHELL or a login entry chooses, or returns "".
func userShell(text string) string {
	if !some(userShellNames, func(n string) bool { return strings.Contains(text, n) }) {
		return ""
	}
	f, err := policy.ParseBash(text)
	if err != nil {
		return ""
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && why == "" {
			vals := literals(c.Args)
			for i := range vals {
				if runBy(vals, i) && startsUserShell(progName(vals[i]), runArgs(vals, i)) {
					why = progName(vals[i]) + " starts the shell $SHELL or the user's login entry names, which may be zsh"
					break
				}
			}
		}
		return why == ""
	})
	return why
}

// startsUserShell reports whether program b with arguments rest starts
// a shell it chooses itself.
func startsUserShell(b string, rest []string) bool {
	cmd := hasOpt(rest, "-c", "--command") || some(rest, func(a string) bool {
		return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "c")
	})
	switch b {
	case "sudo", "doas":
		// Its own options only, before the program it runs (sudo apt
		// install -s pkg simulates).
		opts := rest
		for j := 0; j < len(rest); j++ {
			a := rest[j]
			if !strings.HasPrefix(a, "-") {
				opts = rest[:j]
				break
			}
			if len(a) == 2 && strings.IndexByte("CDghpRrtTUu", a[1]) >= 0 {
				j++
			}
		}
		return some(opts, func(a string) bool {
			return a == "--shell" || a == "--login" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "si")
		})
	case "su", "runuser", "script", "ksu":
		return !cmd
	case "login", "newgrp":
		return true
	case "sg":
		return !cmd && len(operands(rest)) < 2
	case "pkexec":
		return len(operands(rest)) == 0
	case "chroot":
		return len(operands(rest)) < 2
	case "unshare", "nsenter":
		return len(operands(rest)) == 0
	case "systemd-run":
		return hasOpt(rest, "-S", "--shell")
	case "machinectl":
		return some(rest, func(a string) bool { return a == "shell" || a == "login" })
	}
	return false
}

// zshReads says why zsh, at an interactive prompt, would read text
// otherwise than sh does, or returns "".
func zshReads(text string) string {
	if !strings.ContainsAny(text, "#(<>") {
		return ""
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(text), "")
	if err != nil {
		return "" // what does not parse is held elsewhere
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Comment:
			why = "'#' starts no comment in an interactive zsh, which runs the rest of the line"
		case *syntax.ExtGlob:
			why = "zsh reads a glob's trailing (…) as qualifiers, some of which run code (e:…:, +…)"
		case *syntax.Stmt:
			if n.Cmd == nil && len(n.Redirs) > 0 {
				why = "a redirection alone runs cat or a pager on the terminal in zsh (NULLCMD, READNULLCMD)"
			}
		}
		return why == ""
	})
	return why
}
