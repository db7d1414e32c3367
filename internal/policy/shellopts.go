package policy

import "strings"

// Shell options that change where cd goes, which program a name runs or
// how a later line is read, in every spelling a shell takes them. The
// classifier reads every later command with the options at their
// defaults, so turning one of these on (or, for comments, off) is
// TierDestructive, as shopt -s expand_aliases is; and an option name
// computed at run time, or a pattern the shell matches against file names
// first, may be any of them.
//
// bash: shopt -s cdable_vars/cdspell/autocd (shells_state.go), shopt -u
// interactive_comments and set +o interactive-comments, after which an
// interactive shell (a session's) runs what follows a "#" the classifier
// reads as a comment: "ls # ; rm -rf ~".
//
// zsh ignores case and underscores in option names, takes a leading "no"
// as the negation, and has a letter for many: -T is CDABLE_VARS, -J
// AUTO_CD, -0 CORRECT, -O CORRECT_ALL, -Q PATH_DIRS (dir/prog is looked
// up in PATH), -k INTERACTIVE_COMMENTS. setopt, unsetopt, set -o/+o,
// zsh -o/+o and zsh --long-name all take them.

const commentsWhy = "\"#\" no longer starts a comment in an interactive shell, so what follows it on a line runs"

// zshOpts are zsh's risky options by normalised name: why, and whether
// turning it on (true) or off (false) is the risk.
var zshOpts = map[string]struct {
	on  bool
	why string
}{
	"cdablevars":          {true, cdShoptWhy},
	"autocd":              {true, cdShoptWhy},
	"correct":             {true, "a misspelt command name is corrected into another program"},
	"correctall":          {true, "misspelt words are corrected into other names"},
	"pathdirs":            {true, "a command name with a slash (dir/prog) is looked up in PATH, not where it says"},
	"globsubst":           {true, "globs every value, so a value's glob qualifiers run code"},
	"interactivecomments": {false, commentsWhy},
}

// zshLetters are the single-letter spellings of zshOpts.
var zshLetters = map[rune]string{'T': "cdablevars", 'J': "autocd", '0': "correct", 'O': "correctall", 'Q': "pathdirs", 'k': "interactivecomments"}

// zshOptRisk says why zsh turning option name on (or off) is a risk, or
// returns "".
func zshOptRisk(name string, on bool) string {
	n := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
	if _, ok := zshOpts[n]; !ok && strings.HasPrefix(n, "no") {
		n, on = n[2:], !on // zsh looks the name up first, then "no" and the rest
	}
	if o, ok := zshOpts[n]; ok && o.on == on {
		return o.why
	}
	return ""
}

// zshLetterRisk is zshOptRisk for a cluster of option letters (-TJ, +k)
// as zsh, setopt and zsh's set take them; unsetopt inverts them (unsetopt
// +T turns CDABLE_VARS on).
func zshLetterRisk(word string, invert bool) string {
	if len(word) < 2 || word[0] != '-' && word[0] != '+' || strings.HasPrefix(word, "--") {
		return ""
	}
	for _, f := range word[1:] {
		if n, ok := zshLetters[f]; ok {
			if why := zshOptRisk(n, (word[0] == '-') != invert); why != "" {
				return why
			}
		}
	}
	return ""
}

// unknownOptArg returns the first word the shell may turn into another
// option name: computed at run time, or a pattern matched against file
// names first (shopt -s cdable_var? finds a file named cdable_vars). A
// word whose variables the script gives literal values (o=nullglob;
// shopt -s $o) is left to the readings with those values (e.trials),
// which still find what stays unknown.
func unknownOptArg(e *eval, args []arg) (arg, bool) {
	for _, a := range args {
		if !a.known && !e.trials || a.glob && isPattern(a.val) {
			return a, true
		}
	}
	return arg{}, false
}

// zshSetopt classifies setopt and unsetopt: zsh builtins (a bash has no
// such command, so reading them as zsh's errs only toward caution).
func zshSetopt(c *call) (Tier, string) {
	if a, ok := unknownOptArg(c.e, c.args); ok {
		c.e.opaque = true
		return TierDestructive, c.name + " " + truncate(a.val, 64) + ": an option name computed at run time, which may change where cd goes or how later lines are read"
	}
	on := c.name == "setopt"
	for _, a := range c.args {
		why := zshLetterRisk(a.val, !on)
		if why == "" && !strings.HasPrefix(a.val, "-") && !strings.HasPrefix(a.val, "+") {
			why = zshOptRisk(a.val, on)
		}
		if why == "" && (a.val == "-m" || a.val == "+m") {
			why = "options named by a pattern, which may be any of them"
		}
		if why != "" {
			return TierDestructive, c.name + " " + truncate(a.val, 64) + ": " + why
		}
	}
	return simpleTier(c.name)
}

// zshSetRisk says why zsh's set (or zsh itself at invocation) with these
// option words turns a risky option on or off, or returns "": -o NAME,
// +o NAME, letter clusters and --long names.
func zshSetRisk(args []arg) string {
	for i, a := range args {
		v := a.val
		if v == "--" || v == "-" || len(v) < 2 || v[0] != '-' && v[0] != '+' {
			return ""
		}
		if strings.HasPrefix(v, "--") {
			if why := zshOptRisk(v[2:], true); why != "" {
				return v + ": " + why
			}
			continue
		}
		if why := zshLetterRisk(v, false); why != "" {
			return v + ": " + why
		}
		if strings.HasSuffix(v, "o") && i+1 < len(args) {
			if why := zshOptRisk(args[i+1].val, v[0] == '-'); why != "" {
				return v + " " + args[i+1].val + ": " + why
			}
		}
	}
	return ""
}

// bashCommentsOff reports whether set-style option words (set's, or
// bash's at invocation) turn interactive comments off: +o
// interactive-comments, or bash's +O interactive_comments.
func bashCommentsOff(args []arg) bool {
	for i := 0; i+1 < len(args); i++ {
		v, n := args[i].val, args[i+1].val
		if len(v) > 1 && v[0] == '+' && (strings.HasSuffix(v, "o") && n == "interactive-comments" || strings.HasSuffix(v, "O") && n == "interactive_comments") {
			return true
		}
	}
	return false
}
