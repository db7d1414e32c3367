package sessions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// GNU env reads its options as getopt_long does: a long option may be
// abbreviated to any prefix that names it alone (--sp for
// --split-string), and a short option's value may be attached (-S'cmd',
// -iS'cmd'). The string of -S is split into words that env then reads as
// its own options and command: env -S'--ignore-signal=INT head -n 1'
// runs head ignoring Ctrl-C. The readers' rules (partial.go, unknown.go,
// survivors.go, …) look for the program after env among separate words,
// so "env --sp='head -n 1'" would hide head, which then takes the line
// typed next. envSpelled rewrites every env command of a text so that
// its split string stands as words of the command, where those rules
// find it; it is for them only, never for policy, which reads env
// itself (internal/policy/wrappers_env.go).

// envLong are GNU env's long options, for reading abbreviations.
var envLong = []string{"--argv0", "--block-signal", "--chdir", "--debug", "--default-signal", "--help",
	"--ignore-environment", "--ignore-signal", "--list-signal-handling", "--null", "--split-string",
	"--unset", "--version"}

// envOpt names the long option o (before any "=") abbreviates, or "" when
// it names none or several.
func envOpt(o string) string {
	name, _, _ := strings.Cut(o, "=")
	if len(name) < 3 || !strings.HasPrefix(name, "--") {
		return ""
	}
	found := ""
	for _, l := range envLong {
		if l == name {
			return l
		}
		if strings.HasPrefix(l, name) {
			if found != "" {
				return ""
			}
			found = l
		}
	}
	return found
}

// envSplitOpt reads the word o among env's options: the string of -S
// (--split-string) when o holds it attached, whether o is that option
// waiting for its string in the next word, and whether o is another
// option waiting for its value there (-u NAME, --chdir DIR, -iC DIR).
func envSplitOpt(o string) (s string, attached, next, value bool) {
	if strings.HasPrefix(o, "--") {
		name, v, has := strings.Cut(o, "=")
		switch envOpt(name) {
		case "--split-string":
			return v, has, !has, false
		case "--unset", "--chdir", "--argv0":
			return "", false, false, !has
		}
		return "", false, false, false
	}
	if len(o) < 2 || o[0] != '-' {
		return "", false, false, false
	}
	for j := 1; j < len(o); j++ {
		switch o[j] {
		case 'u', 'C', 'a':
			return "", false, false, j+1 == len(o) // else the rest is its value
		case 'S':
			if j+1 < len(o) {
				return o[j+1:], true, false, false
			}
			return "", false, true, false
		}
	}
	return "", false, false, false
}

// envSpelled returns text with each env command's split string, however
// spelled, put back among its words: as bare words when they read as one
// simple command, else as one quoted word after -S. It returns text
// unchanged when it has no env or does not parse.
func envSpelled(text string) string {
	for range rekeyDepth {
		next := envSpelledOnce(text)
		if next == text {
			break
		}
		text = next
	}
	return text
}

func envSpelledOnce(text string) string {
	if !spelled(text, "env") && !spelled(text, "eval") {
		return text
	}
	f, err := policy.ParseBash(text)
	if err != nil {
		return text
	}
	changed := false
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		// eval joins its words and runs them as one line: "eval head
		// -n 1" is head, which the rules, reading a word that names a
		// program as no command, would not see. Joined into one word, the
		// line is a string they read as commands.
		if len(c.Args) > 1 && progName(literal(c.Args[0])) == "eval" {
			words := splitWords(strings.Join(literals(c.Args[1:]), " "))
			if len(words) == 2 && literal(words[0]) == "-S" {
				words[0] = c.Args[0] // not one simple command: eval 'the line'
			}
			c.Args = words
			changed = true
			return true
		}
		var args []*syntax.Word
		inEnv, value := false, false
		for i := 0; i < len(c.Args); i++ {
			w := c.Args[i]
			v := literal(w)
			switch {
			case value:
				value = false
			case inEnv && strings.HasPrefix(v, "-"):
				s, attached, next, val := envSplitOpt(v)
				value = val
				if next && i+1 < len(c.Args) {
					i++
					s, attached = literal(c.Args[i]), true
				}
				if attached {
					args = append(args, splitWords(s)...)
					changed = true
					continue
				}
			case progName(v) == "env":
				inEnv = true
			case inEnv && strings.Contains(v, "="):
			default:
				inEnv = false
			}
			args = append(args, w)
		}
		c.Args = args
		return true
	})
	if !changed {
		return text
	}
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, f); err != nil {
		return text
	}
	return b.String()
}

// splitWords is the split string s as words of a command: its own words
// where s parses as one simple command of plain words, else -S and s
// quoted as one word, which the rules read as a command string.
func splitWords(s string) []*syntax.Word {
	f, err := policy.ParseBash(s)
	if err == nil && len(f.Stmts) == 1 && len(f.Stmts[0].Redirs) == 0 && !f.Stmts[0].Background {
		if c, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(c.Assigns) == 0 {
			return c.Args
		}
	}
	return []*syntax.Word{lit("-S"), lit(quoteForRules(s))}
}

// quoteForRules quotes s as one word; a part computed at run time (a NUL
// in a literal) stays one, as "$computed".
func quoteForRules(s string) string {
	if strings.ContainsRune(s, 0) {
		return `"$computed"`
	}
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		return `"$computed"`
	}
	return q
}

func lit(s string) *syntax.Word {
	return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
}

// envSignals reports whether env's words rest (its options, before its
// command) make the command ignore or block Ctrl-C's SIGINT:
// --ignore-signal or --block-signal, abbreviated or not, with no list
// (every signal) or one naming INT.
func envSignals(rest []string) bool {
	for _, a := range rest {
		if !strings.HasPrefix(a, "-") {
			if strings.Contains(a, "=") {
				continue
			}
			return false
		}
		switch envOpt(a) {
		case "--ignore-signal", "--block-signal":
			_, v, has := strings.Cut(a, "=")
			if !has || namesInt(v) {
				return true
			}
		}
	}
	return false
}

// namesInt reports whether the signal list v (INT,TERM or 2,15) names
// SIGINT.
func namesInt(v string) bool {
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(s)), "SIG")
		if s == "INT" || s == "2" || s == "" {
			return true
		}
	}
	return false
}
