package policy

import "strings"

// Shell state that acts later. A readline macro bound with bind types its
// text when the key is pressed, and a "\n" (or \r, \C-m, \C-j) in it
// submits the line: bind '"\C-x": "rm -rf /\n"' is bind -x by another
// name, so the macro text is classified as shell and the binding is
// TierMutate, as -x's is; bind -f reads such bindings from a file the
// classifier does not see. ulimit with a value changes the limits of every
// later command (-c lets crashing programs write core files, memory and
// all): TierBenign; asking for a limit reads. bash's keyword option (set
// -k, set -o keyword, shopt -so keyword, bash -k) makes every NAME=VALUE
// word of every later command an assignment in that command's
// environment rather than an argument: after it, ls LD_PRELOAD=/tmp/x.so
// preloads the library and git log GIT_PAGER=cmd runs cmd, words the
// classifier reads as plain arguments. A session's later lines are
// classified without the option, so turning it on is TierDestructive, as
// shopt -s expand_aliases is.
//
// cdable_vars, cdspell and autocd change where cd goes, or make a word a
// cd: with cdable_vars "cd r" goes to $r when there is no directory r
// (r=/; cd /tmp; cd r && rm -rf * empties /, the deny list reading
// /tmp/r), cdspell (in an interactive shell, a session's) corrects a
// misspelt directory name, autocd cds into a directory typed as a
// command. The classifier follows cd by its words, so each is
// TierDestructive, as a CDPATH assignment is.

// bindMacros classifies the macros among bind's operands and its -f file.
func bindMacros(c *call) (Tier, string) {
	r := raiser{TierRead, ""}
	for _, f := range c.optVals(c.args, "-f") {
		r.raise(TierMutate, "bind -f "+truncate(f.val, 64)+": reads key bindings, which can type and submit commands")
	}
	for _, a := range optionOperands(c.args, "mqurfx", "") {
		_, rhs, ok := strings.Cut(a.val, ":")
		rhs = strings.TrimSpace(rhs)
		if !ok || len(rhs) < 2 || rhs[0] != '"' && rhs[0] != '\'' {
			continue // a readline function or variable, not a macro
		}
		text := macroText.Replace(rhs[1 : len(rhs)-1])
		c.shell(text, "bind macro", nil, false)
		r.raise(TierMutate, "bind: a macro types a command when a key is pressed")
	}
	return r.t, r.why
}

// macroText turns readline's escapes for the keys that submit a line
// into newlines.
var macroText = strings.NewReplacer(`\n`, "\n", `\r`, "\n", `\C-m`, "\n", `\C-j`, "\n", `\C-M`, "\n", `\C-J`, "\n")

// ulimitProgram: ulimit with a value sets a limit; without, it reads one.
func ulimitProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		v := a.val
		if !a.known || !strings.HasPrefix(v, "-") || strings.ContainsAny(v, "0123456789") {
			return TierBenign, "ulimit: changes the resource limits of later commands"
		}
	}
	return TierRead, "ulimit"
}

// historyFile checks the file history -w and -a write (history -r and -n
// only read theirs).
func historyFile(c *call) (Tier, string) {
	r := raiser{TierRead, ""}
	writes := false
	for _, a := range c.args {
		v := a.val
		switch {
		case strings.HasPrefix(v, "-") && v != "-":
			writes = writes || strings.ContainsAny(v, "wa")
		case writes:
			r.raise(c.writeArg(a, "history -w"))
		}
	}
	return r.t, r.why
}

// keywordOption reports whether set-style option words (set's, or a
// shell's at invocation) turn on the keyword option: -k in a cluster, or
// -o keyword. A word computed at run time may be either: an option word
// (bare reports that, since a shell's invocation refuses such words
// itself) or the name after -o. It returns the words that do.
func keywordOption(args []arg) (words string, bare, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known {
			return truncate(a.val, 64) + " (computed at run time)", true, true
		}
		v := a.val
		if v == "--" || v == "-" || len(v) < 2 || v[0] != '-' && v[0] != '+' {
			return "", false, false
		}
		if strings.HasPrefix(v, "--") {
			continue // a shell's long option (--norc, --login)
		}
		named := false
		for _, f := range v[1:] {
			switch f {
			case 'k':
				if v[0] == '-' {
					return v, false, true
				}
			case 'o', 'O':
				named = true
			}
		}
		if named && i+1 < len(args) {
			// -o NAME (and a shell's -O NAME): the name is the next word.
			i++
			n := args[i]
			if !n.known {
				return v + " " + truncate(n.val, 64) + " (computed at run time)", false, true
			}
			if v[0] == '-' && n.val == "keyword" {
				return v + " keyword", false, true
			}
		}
	}
	return "", false, false
}

// setProgram classifies set: turning on the keyword option hides the
// environment of every later command; the other options and the
// positional parameters it sets are read by the walk itself.
func setProgram(c *call) (Tier, string) {
	if c.ctx.zsh {
		if why := zshSetRisk(c.args); why != "" {
			return TierDestructive, "set " + why
		}
	}
	if bashCommentsOff(c.args) {
		return TierDestructive, "set +o interactive-comments: " + commentsWhy
	}
	if w, _, ok := keywordOption(c.args); ok {
		c.e.opaque = true
		return TierDestructive, "set " + w + ": NAME=VALUE words of later commands become their environment (LD_PRELOAD, GIT_PAGER …)"
	}
	return TierRead, "set"
}

// cdShopts are the shell options that make cd go where its words do not say.
var cdShopts = set(`cdable_vars cdspell autocd`)

const cdShoptWhy = "cd goes where its words do not say (a variable's value, a corrected name, a directory typed as a command)"

// umaskProgram: a mask that lets the group or others write is TierMutate.
// Every file and directory later commands create gets it, so after umask 0
// a session's approved cp x /etc/cron.d/job makes a root cron job any
// user can edit, though that line shows no mode. A mask that keeps both
// write bits (022, 077, u=rwx,go=rx) only narrows, and printing the mask
// (umask, umask -S, umask -p) reads.
func umaskProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		if !a.known {
			return TierMutate, "umask: a mask computed at run time, which may let others write the files later commands create"
		}
		v := a.val
		if v == "-S" || v == "-p" || v == "-pS" || v == "-Sp" || v == "--" {
			continue
		}
		if umaskLoosens(v) {
			return TierMutate, "umask " + truncate(v, 32) + ": lets the group or others write the files later commands create"
		}
	}
	return TierRead, "umask"
}

// umaskLoosens reports whether a umask operand may clear the group or
// other write bit: an octal mask without 022, or a symbolic mode that
// grants w (or anything bash cannot be shown to refuse) to g or o.
func umaskLoosens(v string) bool {
	if v != "" && strings.Trim(v, "01234567") == "" {
		n := 0
		for _, d := range v {
			n = n*8 + int(d-'0')
			if n > 0o7777 {
				return true
			}
		}
		return n&0o022 != 0o022
	}
	for _, clause := range strings.Split(v, ",") {
		who := strings.TrimLeft(clause, "ugoa")
		whoSet := clause[:len(clause)-len(who)]
		if whoSet != "" && !strings.ContainsAny(whoSet, "goa") {
			continue // u alone
		}
		for who != "" {
			op := who[0]
			if op != '+' && op != '=' && op != '-' {
				return true // not a mode bash takes: refuse to guess
			}
			perms := who[1:]
			end := strings.IndexAny(perms, "+-=")
			if end < 0 {
				end = len(perms)
			}
			if op != '-' && strings.Trim(perms[:end], "rx") != "" {
				return true // w, or a copy of u, g or o
			}
			who = perms[end:]
		}
	}
	return false
}
