package policy

import "strings"

// Shell state that acts later. A readline macro bound with bind types its
// text when the key is pressed, and a "\n" (or \r, \C-m, \C-j) in it
// submits the line: bind '"\C-x": "rm -rf /\n"' is bind -x by another
// name, so the macro text is classified as shell and the binding is
// TierMutate, as -x's is; bind -f reads such bindings from a file the
// classifier does not see. ulimit with a value changes the limits of every
// later command (-c lets crashing programs write core files, memory and
// all): TierBenign; asking for a limit reads.

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
