package policy

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shellProgram classifies sh, bash and other POSIX shells: the -c payload
// or the program read from stdin is parsed and classified; a script file is
// unknowable.
func shellProgram(c *call) (Tier, string) {
	args := c.args
	c.ctx.zsh = c.name == "zsh"
	c.ctx.funcWordNext = funcWordShells[c.name]
	cflag, sflag, noexec, login, iflag := false, false, false, false, false
	if w, bare, ok := keywordOption(args); ok && !bare && !c.ctx.zsh {
		// bash -k: the payload's NAME=VALUE words are environment.
		c.e.opaque = true
		return TierDestructive, c.name + " " + w + ": NAME=VALUE words of the commands it runs become their environment"
	}
	if c.ctx.zsh {
		if why := zshSetRisk(args); why != "" {
			return TierDestructive, "zsh " + why
		}
	} else if bashCommentsOff(args) {
		return TierDestructive, c.name + " with interactive comments off: " + commentsWhy
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.known {
			return c.unreadableArgs()
		}
		v := a.val
		if v == "--" || v == "-" {
			i++
			break
		}
		if len(v) < 2 || (v[0] != '-' && v[0] != '+') {
			break
		}
		if strings.HasPrefix(v, "--") {
			if c.ctx.zsh && zshNocase(v[2:], true) {
				c.e.nocaseOn() // zsh --no-case-glob
			}
			switch v {
			case "--rcfile", "--init-file":
				c.e.opaque = true
				if i+1 < len(args) && args[i+1].known {
					c.e.localText(args[i+1].val, c.name, c.ctx)
				}
				return TierDestructive, c.name + " " + v + ": runs a file the classifier cannot see"
			case "--debugger":
				return TierDestructive, c.name + " --debugger: runs the debugger profile"
			case "--login":
				login = true
			case "--interactive":
				iflag = true
			}
			if c.ctx.zsh && zshGlobSubst(v) {
				return TierDestructive, "zsh " + v + ": globs every value, so a value's glob qualifiers run code"
			}
			continue
		}
		for _, f := range v[1:] {
			switch f {
			case 'c':
				cflag = true
			case 's':
				sflag = true
			case 'n':
				noexec = v[0] == '-'
			case 'l':
				login = login || v[0] == '-'
			case 'i':
				iflag = iflag || v[0] == '-'
			case 'o', 'O':
				// -O extdebug at invocation is --debugger.
				if f == 'O' && v[0] == '-' && i+1 < len(args) && args[i+1].val == "extdebug" {
					return TierDestructive, c.name + " -O extdebug: runs the debugger profile"
				}
				if f == 'O' && v[0] == '-' && i+1 < len(args) && cdShopts[args[i+1].val] {
					return TierDestructive, c.name + " -O " + args[i+1].val + ": " + cdShoptWhy
				}
				if i+1 < len(args) && (f == 'O' && v[0] == '-' && args[i+1].val == "nocaseglob" ||
					c.ctx.zsh && f == 'o' && zshNocase(args[i+1].val, v[0] == '-')) {
					// bash -O nocaseglob, zsh +o caseglob: the payload's
					// patterns match either case.
					c.e.nocaseOn()
				}
				if c.ctx.zsh && i+1 < len(args) && zshGlobSubst(args[i+1].val) {
					return TierDestructive, "zsh -o " + args[i+1].val + ": globs every value, so a value's glob qualifiers run code"
				}
				i++ // the option name follows
			}
		}
	}
	if i > len(args) {
		i = len(args)
	}
	rest := args[i:]
	if !noexec {
		// With no command or script and the caller's terminal for input,
		// the shell is interactive.
		c.shellStartup(login, iflag || !cflag && (len(rest) == 0 || sflag) && c.ctx.stdin.kind == stdinNone)
	}
	switch {
	case noexec && !cflag:
		return TierRead, c.name + " -n: syntax check only"
	case cflag:
		if len(rest) == 0 {
			return TierRead, c.name + " -c with no command"
		}
		if !rest[0].known {
			c.e.opaque = true
			return TierDestructive, c.name + " -c: command computed at run time"
		}
		// An argument with glob characters is whatever names it
		// matches: "$0" is not "./x*t" but the program that glob finds.
		pos := argVals(rest[1:])
		if len(pos) == 0 {
			// With no words after the text, $0 is the shell's own name as
			// it was run: sh -c '$0 -c reboot' runs sh -c reboot.
			pos = []string{c.path}
		}
		c.shell(rest[0].val, c.name+" -c payload", pos, allExact(rest[1:]))
		return TierRead, c.name + " -c"
	case len(rest) > 0 && !sflag:
		f := rest[0].val
		if f == "/dev/stdin" || f == "/proc/self/fd/0" || f == "/dev/fd/0" {
			return c.stdinProgram(c.name)
		}
		interp := "sh"
		if c.name == "zsh" {
			interp = "zsh"
		}
		if rest[0].known && c.e.localText(f, interp, c.ctx) && (shFamily[c.name] || c.name == "zsh") && len(c.ctx.sc.fileTexts(f)) == 0 {
			// Read and walked whole: what it runs is seen, unless the
			// rest of the call may change it first (settleScriptRuns).
			c.e.noteScriptRun(f)
		} else {
			c.e.opaque = true
		}
		return TierDestructive, fmt.Sprintf("%s runs script file %q the classifier cannot see", c.name, truncate(f, 64))
	}
	return c.stdinProgram(c.name)
}

// zshCode notes what zsh reads by a grammar of its own in text that
// parses as bash, each of which can run code the bash reading does not
// show: glob qualifiers (ls *(e:cmd:) runs cmd once per file, *(+f) calls
// f, which the parser takes for extended globs), unbraced subscripts
// ($a[x] evaluates x as arithmetic, which expands a $(…) x's value
// holds), $~x (x's value globbed, qualifiers included), hash NAME=PATH
// (NAME then runs PATH) and GLOB_SUBST set by set -o or setopt (every
// value globbed).
func (e *eval) zshCode(src, what string, ctx cctx) {
	// A glob qualifier's code (*(e:'reboot':), *(+job)) runs once per
	// file matched: walked as shell, whether or not the bash reading
	// parses the text around it.
	for _, code := range zshQualifierCode(src) {
		e.opaque = true
		e.note(TierDestructive, false, "%s: zsh runs the glob qualifier's code %s", what, truncate(code, 64))
		inner := ctx
		inner.nest++
		e.script(code, inner, what+" glob qualifier")
	}
	f, err := e.parser(false).Parse(strings.NewReader(src), "")
	if err != nil {
		return // the bash reading fails on it too, and says so
	}
	found := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if found != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.ExtGlob:
			found = "the glob qualifier " + truncate(n.Op.String()+n.Pattern.Value+")", 64)
		case *syntax.Word:
			for i := 0; i+1 < len(n.Parts); i++ {
				next, ok := n.Parts[i+1].(*syntax.Lit)
				if !ok {
					continue
				}
				switch p := n.Parts[i].(type) {
				case *syntax.ParamExp:
					if p.Short && strings.HasPrefix(next.Value, "[") && !zshPlainSubscript(next.Value) {
						found = "the subscript $" + p.Param.Value + truncate(next.Value, 32)
					}
				case *syntax.Lit:
					if strings.HasSuffix(p.Value, "$") && next.Value != "" && strings.IndexByte("~=^", next.Value[0]) >= 0 {
						found = "$" + next.Value[:1] + " (the value globbed, split or joined with the word)"
					}
				}
			}
		case *syntax.CallExpr:
			name := ""
			for _, w := range n.Args {
				lit := w.Lit()
				if name == "" || name == "builtin" || name == "command" || name == "noglob" {
					name = lit
					continue
				}
				switch {
				case name == "hash" && strings.Contains(lit, "="):
					found = "hash " + truncate(lit, 64)
				case (name == "set" || name == "setopt") && zshGlobSubst(lit):
					found = name + " " + truncate(lit, 64)
				case lit == "" && (name == "hash" || name == "setopt" || name == "set"):
					found = name + " with a word computed at run time"
				}
			}
		}
		return found == ""
	})
	if found != "" {
		e.opaque = true
		e.note(TierDestructive, false, "%s: zsh reads %s by its own grammar and can run code there", what, found)
		e.scanText(src)
	}
}

// zshQualifierCode returns the code of each zsh glob qualifier in src
// that runs some: e with its delimited string (e:code:, e'code',
// e[code], e{code}) and + with a name (+job), after any other qualifier
// letters inside the parentheses (*(.Ne:code:)).
func zshQualifierCode(src string) []string {
	var out []string
	for i := strings.IndexByte(src, '('); i >= 0 && len(out) < maxAlts; {
		j := i + 1
		for j < len(src) && src[j] != 'e' && src[j] != '+' && strings.IndexByte("./@=*%^-,NDMTYnoOLUGrwxARWXsStfdlpmachu0123456789", src[j]) >= 0 {
			j++
		}
		switch {
		case j+1 >= len(src):
		case src[j] == 'e' && strings.IndexByte(":'\"/|[{<!#%@", src[j+1]) >= 0:
			open, close := src[j+1], src[j+1]
			if k := strings.IndexByte("[{<", open); k >= 0 {
				close = "]}>"[k]
			}
			if end := strings.IndexByte(src[j+2:], close); end >= 0 {
				out = append(out, src[j+2:j+2+end])
			}
		case src[j] == '+':
			k := j + 1
			for k < len(src) && nameByte(src[k]) {
				k++
			}
			if k > j+1 {
				out = append(out, src[j+1:k])
			}
		}
		next := strings.IndexByte(src[i+1:], '(')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return out
}

// zshPlainSubscript reports whether a subscript is numbers alone
// ("[1]", "[-1]", "[2,3]"), which no arithmetic can hide code in.
func zshPlainSubscript(s string) bool {
	end := strings.IndexByte(s, ']')
	if end < 2 {
		return false
	}
	for _, r := range s[1:end] {
		if (r < '0' || r > '9') && r != '-' && r != ',' {
			return false
		}
	}
	return true
}

// zshGlobSubst reports whether a zsh option word names GLOB_SUBST, which
// zsh spells in any case, with or without underscores, as -o's argument,
// a --long option or setopt's operand.
func zshGlobSubst(v string) bool {
	v = strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(v))
	return strings.Contains(v, "globsubst")
}

// shell classifies text that c hands to a POSIX shell.
func (c *call) shell(text string, what string, pos []string, hasPos bool) {
	ctx := c.ctx
	ctx.nest++
	ctx.pos, ctx.hasPos = pos, hasPos
	c.e.script(text, ctx, what)
}

// loginShell classifies text that c hands to a login shell or to $SHELL
// (ssh's remote side, su -c, sudo -s, script -c, flock -c, parallel),
// which may be zsh: it is read as bash, and what zsh would read
// differently counts too (zshCode).
func (c *call) loginShell(text, what string) {
	ctx := c.ctx
	ctx.nest++
	ctx.pos, ctx.hasPos = nil, false
	ctx.zsh = true
	c.e.script(text, ctx, what)
}

// payloadFlags are the options that introduce inline program text.
var payloadFlags = set(`-c -e -E -r -p --eval --print --command -Command -command -m`)

// interpreterProgram classifies python, perl, node and the like. Their
// programs cannot be read as shell, so they are TierDestructive; the deny
// matchers still run over every argument and over a program on stdin.
func interpreterProgram(c *call) (Tier, string) {
	vals := c.vals()
	if len(vals) == 1 {
		switch vals[0] {
		case "--version", "-V", "-v", "--help", "-h", "-version", "version":
			return TierRead, c.name + " " + vals[0]
		}
	}
	if len(vals) == 1 && c.name == "php" && (vals[0] == "-m" || vals[0] == "-i" || vals[0] == "--ini") {
		// The modules, phpinfo() and the ini files: no script runs.
		return TierRead, "php " + vals[0]
	}
	lead := 0
	for lead < len(vals) && pyModuleFlags[vals[lead]] && strings.HasPrefix(c.name, "python") {
		lead++
	}
	if m := vals[lead:]; len(m) >= 2 && m[0] == "-m" && (m[1] == "json.tool" || m[1] == "pip" && len(m) >= 3 && (m[2] == "list" || m[2] == "show" || m[2] == "freeze")) &&
		(m[1] == "pip" || len(m) <= 3) {
		if why := c.pyCwdModules(vals[:lead]); why != "" {
			c.e.opaque = true
			return TierDestructive, c.name + " -m " + m[1] + ": imports modules from the working directory first, and " + why
		}
		return TierRead, c.name + " -m " + strings.Join(m[1:min(3, len(m))], " ")
	}
	c.e.opaque, c.e.modules = true, true
	c.e.scanText(strings.Join(vals, "\n"))
	inline, file := false, false
	for _, v := range vals {
		if payloadFlags[v] || len(v) > 2 && (strings.HasPrefix(v, "-c") || strings.HasPrefix(v, "-e")) && v[1] != '-' {
			inline = true
		}
		if !strings.HasPrefix(v, "-") {
			file = true
			c.e.localText(v, c.name, c.ctx)
			if strings.HasPrefix(c.name, "python") || c.name == "pypy3" {
				// python runs a directory's __main__.py.
				c.e.localText(strings.TrimSuffix(v, "/")+"/__main__.py", c.name, c.ctx)
			}
			break
		}
	}
	if !inline && !file && c.ctx.stdin.kind == stdinText {
		c.e.scanText(c.ctx.stdin.text)
	}
	if !inline && !file && c.ctx.stdin.kind == stdinUnknown {
		return TierDestructive, c.name + " runs a program from input the classifier cannot see"
	}
	return TierDestructive, c.name + " runs a program the classifier cannot read"
}

// evalProgram parses eval's literal arguments as shell.
func evalProgram(c *call) (Tier, string) {
	if len(c.args) == 0 {
		return TierRead, "eval with no arguments"
	}
	if !allKnown(c.args) {
		c.e.opaque = true
		return TierDestructive, "eval of text computed at run time"
	}
	ctx := c.ctx
	ctx.nest++
	c.e.script(strings.Join(c.vals(), " "), ctx, "eval")
	return TierRead, "eval"
}

// safeSources are files that are routinely sourced to read settings.
var safeSources = set(`/etc/os-release /usr/lib/os-release /etc/lsb-release`)

// sourceProgram classifies source and ".": the file is unknowable unless it
// is a well-known settings file or stdin.
func sourceProgram(c *call) (Tier, string) {
	if len(c.args) == 0 {
		return TierRead, c.name + " with no file"
	}
	f := c.args[0]
	switch {
	case f.known && safeSources[f.val]:
		return TierRead, c.name + " " + f.val
	case f.known && (f.val == "/dev/stdin" || f.val == "/dev/fd/0" || f.val == "/proc/self/fd/0"):
		return c.stdinProgram(c.name)
	}
	if f.known && c.e.localText(f.val, "sh", c.ctx) && c.e.localPlain(f.val) && len(c.ctx.sc.fileTexts(f.val)) == 0 {
		// Read and walked whole, and it only reads: what it runs is
		// seen, unless the rest of the call may change it first
		// (settleScriptRuns). A file that does more (a cd, PATH=…)
		// changes how the rest of the text runs.
		c.e.noteScriptRun(f.val)
	} else {
		c.e.opaque = true
	}
	return TierDestructive, fmt.Sprintf("%s runs file %q the classifier cannot see", c.name, truncate(f.val, 64))
}

// trapProgram classifies the action of a trap as shell.
func trapProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		// trap $x with x='cmd EXIT' sets an action.
		if splits, _ := c.computedShape(a); splits {
			c.e.opaque = true
			return TierDestructive, "trap: " + truncate(a.val, 64) + " is computed at run time and can become an action"
		}
	}
	ops := operands(c.vals())
	if len(ops) < 2 {
		return TierRead, "trap: lists traps"
	}
	for _, a := range c.args {
		if a.val == ops[0] {
			if !a.known {
				c.e.opaque = true
				return TierDestructive, "trap action computed at run time"
			}
			break
		}
	}
	c.e.later.depth++ // it runs where the script has gone by then
	c.shell(ops[0], "trap action", nil, false)
	c.e.later.depth--
	return TierRead, "trap"
}

// jobsProgram: jobs lists jobs, but jobs -x COMMAND runs COMMAND with
// job specs replaced by process group ids.
func jobsProgram(c *call) (Tier, string) {
	for i, a := range c.args {
		if !a.known {
			if c.mayBeOption(a) {
				c.e.opaque = true
				return TierDestructive, "jobs: " + truncate(a.val, 64) + " is computed at run time and can become -x, which runs a command"
			}
			break
		}
		if a.val == "--" || !strings.HasPrefix(a.val, "-") || a.val == "-" {
			break
		}
		if strings.ContainsRune(a.val, 'x') {
			if i+1 < len(c.args) {
				c.run(c.args[i+1:])
			}
			return TierRead, "jobs -x"
		}
	}
	return TierRead, "jobs: lists jobs"
}

// aliasProgram: an alias changes what a command name runs for every later
// line of a session, so defining one is TierDestructive, and its text is
// classified as shell.
func aliasProgram(c *call) (Tier, string) {
	defined := false
	for _, a := range c.args {
		if !a.known {
			// $x or "$@" can be NAME=VALUE.
			defined, c.e.opaque = true, true
			continue
		}
		n, v, ok := strings.Cut(a.val, "=")
		if !ok {
			continue
		}
		defined = true
		c.shell(v, "alias "+n, nil, false)
	}
	if defined {
		return TierDestructive, "alias: changes what a command name runs"
	}
	return TierRead, "alias: lists aliases"
}

// completionProgram classifies the builtins that take shell text to run
// later or now: compgen -C (or -F, a function) runs its command at once,
// complete -C and -F and bind -x register one that runs on a key press in an interactive shell,
// and -W word lists are expanded again. The text is classified as the
// code it is.
func completionProgram(c *call) (Tier, string) {
	valued, run := "AGWFCXPSo", byte('C') // options taking a value; the one that is a command
	if c.name == "bind" {
		valued, run = "mqurfx", 'x'
	}
	args := c.args
	registers := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known {
			// Not the value of an option: it may be -C itself.
			c.e.opaque = true
			return TierDestructive, c.name + ": options computed at run time"
		}
		if a.val == "--" {
			break
		}
		if len(a.val) < 2 || a.val[0] != '-' {
			continue
		}
		// The first option in the cluster that takes a value takes the
		// rest of the word, or the next word: -Ccmd, -C cmd.
		j := 1
		for j < len(a.val) && strings.IndexByte(valued, a.val[j]) < 0 {
			j++
		}
		if j == len(a.val) {
			continue
		}
		f := a.val[j]
		val := arg{val: a.val[j+1:], known: true}
		if j+1 == len(a.val) && i+1 < len(args) {
			i++
			val = args[i]
		}
		if f == 'W' && c.name != "bind" {
			// The word list is expanded again, command substitutions
			// included: compgen -W '$(cmd)' runs cmd.
			if !val.known {
				// Unknown code, as -C's command computed at run time is.
				c.e.opaque = true
				c.e.note(TierDestructive, c.ctx.covered, "%s -W: the word list is expanded again; a value not known at parse time can run commands", c.name)
			} else if strings.ContainsAny(val.val, "$`") {
				c.shell(": "+val.val, c.name+" -W word list", nil, false)
			}
			continue
		}
		// -F names a function that runs the same way: compgen -F f
		// calls f now, complete -F f on a completion.
		if f != run && (f != 'F' || c.name == "bind") {
			continue
		}
		if !val.known {
			c.e.opaque = true
			return TierDestructive, c.name + " -" + string(f) + ": command computed at run time"
		}
		cmd := val.val
		if c.name == "bind" {
			if _, after, ok := strings.Cut(cmd, ":"); ok { // "keyseq": command
				cmd = after
			}
		}
		c.shell(cmd, c.name+" -"+string(f)+" command", nil, false)
		registers = registers || c.name != "compgen"
	}
	if registers {
		return TierMutate, c.name + ": registers a command that runs when a key is pressed"
	}
	if c.name == "bind" {
		if t, why := bindMacros(c); t > TierRead {
			return t, why
		}
	}
	vals := c.vals()
	if c.name == "compgen" || len(vals) == 0 || hasFlag(vals, 'p', "") ||
		c.name == "bind" && (hasFlag(vals, 'P', "") || hasFlag(vals, 'l', "") || hasFlag(vals, 'v', "") ||
			hasFlag(vals, 'V', "") || hasFlag(vals, 's', "") || hasFlag(vals, 'S', "") || hasFlag(vals, 'X', "")) {
		return TierRead, c.name
	}
	return TierBenign, c.name + ": changes the shell's key bindings or completion"
}

// builtinProgram classifies shell builtins that change how later commands
// are found or run.
func builtinProgram(c *call) (Tier, string) {
	vals := c.vals()
	switch c.name {
	case "unalias":
		return TierBenign, "unalias"
	case "hash":
		if a, ok := computedArg(c.args); ok {
			return TierDestructive, "hash: option computed at run time, which may be -p: " + truncate(a.val, 64)
		}
		if hasFlag(vals, 'p', "") {
			// What the name runs from now on is the file: classify
			// running it (hash -p /sbin/reboot ls; ls is reboot).
			for i, v := range vals {
				if j := strings.IndexByte(v, 'p'); len(v) > 1 && v[0] == '-' && v[1] != '-' && j > 0 {
					file := v[j+1:]
					if file == "" && i+1 < len(vals) {
						file = vals[i+1]
					}
					if file != "" {
						c.e.simple([]arg{{val: file, known: true}}, c.ctx, "")
					}
					break
				}
			}
			return TierDestructive, "hash -p: makes a command name run another file"
		}
		return TierRead, "hash"
	case "enable":
		if len(vals) == 0 || len(vals) == 1 && (vals[0] == "-p" || vals[0] == "-a" || vals[0] == "-s") {
			return TierRead, "enable: lists builtins"
		}
		return TierDestructive, "enable: changes which builtins run"
	case "shopt":
		if a, ok := unknownOptArg(c.e, c.args); ok {
			c.e.opaque = true
			return TierDestructive, "shopt " + truncate(a.val, 64) + ": an option name computed at run time, which may change where cd goes or how later lines run"
		}
		for _, v := range vals {
			switch v {
			case "interactive_comments", "interactive-comments":
				if hasFlag(vals, 'u', "") {
					return TierDestructive, "shopt -u " + v + ": " + commentsWhy
				}
			case "expand_aliases", "extdebug", "execfail", "sourcepath":
				if hasFlag(vals, 's', "") {
					return TierDestructive, "shopt -s " + v + ": changes how commands run"
				}
			case "cdable_vars", "cdspell", "autocd":
				if hasFlag(vals, 's', "") && !hasFlag(vals, 'o', "") {
					return TierDestructive, "shopt -s " + v + ": " + cdShoptWhy
				}
			case "keyword":
				if hasFlag(vals, 's', "") && hasFlag(vals, 'o', "") {
					c.e.opaque = true // later NAME=VALUE words are environment the walk does not see: scan the text, as set -k does
					return TierDestructive, "shopt -so keyword: NAME=VALUE words of later commands become their environment"
				}
			}
		}
		if hasFlag(vals, 's', "") || hasFlag(vals, 'u', "") {
			if globOnlyShopt(c.args) {
				return TierRead, "shopt: changes how globs match"
			}
			return TierBenign, "shopt: changes shell options"
		}
		return TierRead, "shopt"
	case "set":
		return setProgram(c)
	}
	// declare, export and friends reached through command or builtin.
	c.declCall()
	for _, a := range c.args {
		if strings.HasPrefix(a.val, "-") {
			continue
		}
		n, v, ok := strings.Cut(a.val, "=")
		if ok && a.known {
			c.e.envVarCtx(n, v, c.ctx, c.name)
		} else {
			c.e.envName(n, c.ctx, c.name)
		}
	}
	return TierRead, c.name
}

// computedArg returns the first of args not known when the command is
// read: "$@" in a function, $x, $(cat f).
func computedArg(args []arg) (arg, bool) {
	for _, a := range args {
		if !a.known {
			return a, true
		}
	}
	return arg{}, false
}

// globOnlyShopt reports whether args are shopt -s or -u (with -q) and
// options that change only how a glob matches (nullglob, dotglob,
// globstar, nocaseglob, failglob, nocasematch): a script's
// "shopt -s nullglob" before a loop over /var/log/*.log. extglob is not
// among them, since it changes how later lines parse.
func globOnlyShopt(args []arg) bool {
	n := 0
	for _, a := range args {
		if !a.known {
			return false
		}
		switch a.val {
		case "-s", "-u", "-q", "-sq", "-qs", "-uq", "-qu":
		case "nullglob", "dotglob", "globstar", "nocaseglob", "failglob", "nocasematch":
			n++
		default:
			return false
		}
	}
	return n > 0
}
