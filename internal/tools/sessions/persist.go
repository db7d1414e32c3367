package sessions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// A variable set in a session stays set for every later line. policy
// classifies "PATH=/tmp/b:$PATH ls" for the one command it runs, but a
// session's "export PATH=/tmp/b:$PATH", once approved, makes every later
// "ls" run /tmp/b/ls, and "export GIT_INDEX_FILE=/etc/x" makes every later
// "git status" write /etc/x. So setting a variable that policy says
// changes which code programs load or run, or names a file they write
// (policy.VarRisk), ends the model as a key change does; so does set -k,
// which makes an assignment anywhere in a command's words (git log
// LD_PRELOAD=/tmp/x.so) part of its environment.

// persists says why the assignments of a command standing alone (no
// program after them) leave a variable set that changes what later lines
// run, or returns "".
func persists(c *syntax.CallExpr) string {
	if len(c.Args) > 0 {
		return "" // a prefix: for that command only
	}
	for _, a := range c.Assigns {
		if a.Name != nil {
			if why := persistVar(a.Name.Value); why != "" {
				return why
			}
		}
	}
	return ""
}

// persistVar says why setting name for the rest of the session changes
// what later lines run or write, or returns "".
func persistVar(name string) string {
	if name == "" {
		return ""
	}
	if t, why := policy.VarRisk(name); t >= policy.TierMutate {
		return name + " stays set for every later command in the session, and it " + why
	}
	return ""
}

// persistDecl is persists for declare, export, local, readonly and
// typeset.
func persistDecl(d *syntax.DeclClause) string {
	flags := ""
	if d.Variant != nil && d.Variant.Value == "export" {
		flags = "x"
	}
	for _, a := range d.Args {
		if a.Naked && a.Value != nil {
			if v := literal(a.Value); strings.HasPrefix(v, "-") {
				flags += v
			}
		}
	}
	if strings.ContainsRune(flags, 'f') && strings.ContainsRune(flags, 'x') {
		return "an exported function runs in every bash started later whose script calls its name, which warden does not see"
	}
	for _, a := range d.Args {
		name := ""
		switch {
		case a.Name != nil:
			name = a.Name.Value
		case a.Naked && a.Value != nil:
			if v := literal(a.Value); !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") {
				name, _, _ = strings.Cut(v, "=")
			}
		}
		if why := persistVar(name); why != "" {
			return why
		}
	}
	return ""
}

// persistCall says why builtin b, with arguments rest, sets a variable
// that changes what later lines run, or returns "". env only sets
// variables for the program it runs.
func persistCall(b string, rest []string) string {
	var names []string
	switch b {
	case "printf":
		for j, a := range rest {
			if a == "-v" && j+1 < len(rest) {
				names = append(names, rest[j+1])
			} else if v, ok := strings.CutPrefix(a, "-v"); ok && v != "" {
				names = append(names, v)
			}
		}
	case "getopts":
		if len(rest) > 1 {
			names = append(names, rest[1])
		}
	case "read", "mapfile", "readarray", "export", "declare", "typeset", "local", "readonly":
		flags := ""
		if b == "export" {
			flags = "x"
		}
		for _, a := range rest {
			if strings.HasPrefix(a, "-") {
				flags += a
			}
		}
		if b != "read" && b != "mapfile" && b != "readarray" && strings.ContainsRune(flags, 'f') && strings.ContainsRune(flags, 'x') {
			return "an exported function runs in every bash started later whose script calls its name, which warden does not see"
		}
		vals := valueOpts[b]
		for j := 0; j < len(rest); j++ {
			a := rest[j]
			if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") {
				if len(a) == 2 && strings.IndexByte(vals, a[1]) >= 0 {
					j++
				}
				continue
			}
			n, _, _ := strings.Cut(a, "=")
			names = append(names, n)
		}
	case "shopt":
		// nocaseglob makes a later line's /D?V/WATCHDO? /dev/watchdog and
		// /P?OC/SYSRQ-TRIGGE? the SysRq trigger; cdable_vars, cdspell and
		// autocd make cd go where its words do not say. policy reads a
		// later line with the options off.
		set, unset := false, false
		for _, a := range rest {
			switch {
			case len(a) > 1 && a[0] == '-' && a[1] != '-':
				set = set || strings.ContainsRune(a, 's')
				unset = unset || strings.ContainsRune(a, 'u')
			case set && shellStateOpts[a] != "":
				return "shopt -s " + a + " " + shellStateOpts[a]
			case unset && commentsOpt(a):
				return noComments
			}
		}
	case "setopt", "unsetopt":
		for _, a := range rest {
			n := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(a))
			if strings.Contains(n, "caseglob") {
				return b + " " + a + " " + shellStateOpts["nocaseglob"]
			}
		}
	case "set":
		for j, a := range rest {
			if a == "--" {
				break
			}
			if commentsOpt(a) && j > 0 && strings.HasSuffix(rest[j-1], "o") {
				return noComments // set +o interactive-comments
			}
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a[1:], 'k') ||
				a == "keyword" && j > 0 && strings.HasSuffix(rest[j-1], "o") {
				return "set -k makes an assignment anywhere in a command's words (git log LD_PRELOAD=…) part of its environment"
			}
		}
	}
	for _, n := range names {
		n, _, _ = strings.Cut(n, "[")
		if why := persistVar(n); why != "" {
			return why
		}
	}
	return ""
}

// noComments says why turning bash's interactive comments off changes
// what later lines run.
const noComments = "turning interactive comments off makes '#' an ordinary character, " +
	"so that 'ls # ; touch x', a comment to warden, runs touch"

// commentsOpt reports whether a names the option that makes '#' start a
// comment in an interactive shell (bash's shopt and set -o spellings,
// zsh's setopt).
func commentsOpt(a string) bool {
	n := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(a))
	return n == "interactivecomments" || n == "nointeractivecomments"
}

// shellStateOpts are the shell options that change what a later line's
// words name, and how.
var shellStateOpts = map[string]string{
	"nocaseglob":  "makes a later line's patterns match either case, which policy reads case by case (/D?V/WATCHDO? is /dev/watchdog)",
	"cdable_vars": "makes cd go to a variable's value, where policy follows cd by its words",
	"cdspell":     "makes cd correct a misspelt directory, where policy follows cd by its words",
	"autocd":      "makes a directory typed as a command a cd, where policy reads a program",
}

// killsUnrestored says why timeout with options opts may kill the program
// it runs before it restores the terminal's modes (HUP or KILL kill less
// and vim in raw mode; TERM and INT let them restore), or returns "". It
// is the typed twin of session_signal (typing.stopped).
func killsUnrestored(opts []string) string {
	const why = "timeout with a signal other than TERM or INT may kill a program before it restores the terminal's modes, " +
		"after which a shell without readline reads keys unedited"
	for j := 0; j < len(opts); j++ {
		a := opts[j]
		sig := ""
		switch {
		case a == "-k" || strings.HasPrefix(a, "--kill-after") || strings.HasPrefix(a, "-k"):
			return why
		case a == "-s" || a == "--signal":
			if j+1 < len(opts) {
				sig = opts[j+1]
			}
			j++
		case strings.HasPrefix(a, "--signal="):
			sig = strings.TrimPrefix(a, "--signal=")
		case strings.HasPrefix(a, "-s"):
			sig = a[2:]
		case !strings.HasPrefix(a, "-"):
			return ""
		default:
			continue
		}
		switch strings.TrimPrefix(strings.ToUpper(sig), "SIG") {
		case "TERM", "15", "INT", "2":
		default:
			return why
		}
	}
	return ""
}
