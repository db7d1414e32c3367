package policy

import "strings"

// zsh's builtins and reserved words that bash has no form of. A script
// is read as bash, so without these each looked like an unknown program
// (tier 2, which open mode admits) while zsh ran a command through it.
// None is a program on an ordinary PATH, so each is read as zsh reads it
// wherever it appears: where the shell is not zsh the name is not found.

// zshPrecommand classifies zsh's precommand modifiers "-", noglob and
// nocorrect, which run the command after them (- with a dash before its
// argv[0]), and the reserved word repeat, which runs it COUNT times.
func zshPrecommand(c *call) (Tier, string) {
	rest := c.args
	if c.name == "repeat" && len(rest) > 0 {
		zshRepeatCount(c)
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return TierRead, c.name + " with no command"
	}
	c.run(rest)
	return TierRead, c.name
}

// emulateProgram classifies zsh's emulate [-lLR] [-o OPT]… [SHELL [-c
// CODE]]: with -c it runs CODE, which zsh reads (in the emulated mode,
// still its own grammar); without, it sets the shell's options.
func emulateProgram(c *call) (Tier, string) {
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known {
			c.e.opaque = true
			return TierDestructive, "emulate: " + truncate(a.val, 64) + " is computed at run time and can become -c CODE"
		}
		v := a.val
		if len(v) < 2 || v[0] != '-' && v[0] != '+' || v == "--" {
			continue
		}
		j := strings.IndexByte(v, 'c')
		if j < 0 {
			if strings.HasSuffix(v, "o") && i+1 < len(c.args) {
				i++ // -o OPTION
			}
			continue
		}
		code := v[j+1:]
		if code == "" {
			if i+1 == len(c.args) {
				break
			}
			i++
			if !c.args[i].known {
				c.e.opaque = true
				return TierDestructive, "emulate -c: code computed at run time"
			}
			code = c.args[i].val
		}
		c.loginShell(code, "emulate -c")
	}
	return TierRead, "emulate: sets zsh's options"
}

// zshNamers are zsh's builtins, its modules' included, that assign to
// variables they are given by name, as read and printf -v do: an array
// subscript in a name is arithmetic, which runs a $(…) it holds, so a
// name computed at run time runs whatever it holds. Which of their words
// are names differs from one to the next (options' values, operands,
// zparseopts' SPEC=ARRAY), so every word is checked as a name could be.
var zshNamers = set(`getln vared zparseopts zformat zregexparse zstyle strftime zstat sysread
	syswrite sysopen syserror zsystem zselect pcre_match pcre_compile zpty zgetattr zlistattr
	zcurses zsocket ztcp zftp`)

// zshActors are the zshNamers that also act: zpty runs a command,
// sysopen opens files for writing, syswrite writes, zsystem locks files,
// zsocket, ztcp and zftp reach the network, zcurses draws on the
// terminal. They keep an unknown program's tier and its reading of
// arguments as commands; the rest only set variables.
var zshActors = set(`zpty sysopen syswrite zsystem zsocket ztcp zftp zcurses`)

// zshNamer classifies one of zshNamers.
func zshNamer(c *call) (Tier, string) {
	for _, a := range c.args {
		c.nameArg(a)
		if spec, name, ok := strings.Cut(a.val, "="); ok && a.known && c.name == "zparseopts" && spec != "" {
			c.nameArg(arg{val: name, known: true})
		}
	}
	if zshActors[c.name] {
		t, why := simpleTier(c.name)
		if at, awhy := c.argCommand(); at > t {
			return at, awhy
		}
		return t, why
	}
	return TierRead, c.name + ": sets shell variables"
}

// zshPrint classifies zsh's print: printf's -v NAME, and -z, which puts
// its text on the line editor's buffer for the next prompt, where one
// Enter runs it.
func zshPrint(c *call) (Tier, string) {
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known {
			if c.mayBeOption(a) {
				return arithTier, "print: " + truncate(a.val, 64) + " is computed at run time and can become -v NAME, whose array subscript runs commands"
			}
			break
		}
		v := a.val
		if v == "-" || v == "--" || len(v) < 2 || v[0] != '-' && v[0] != '+' {
			break
		}
		if j := strings.IndexByte(v, 'v'); j > 0 {
			name := arg{val: v[j+1:], known: true}
			if name.val == "" && i+1 < len(c.args) {
				i++
				name = c.args[i]
			}
			c.nameArg(name)
			c.e.boundName(name, c.ctx, "print -v")
		}
		if j := strings.IndexByte(v, 'f'); j > 0 && c.ctx.zsh {
			format := arg{val: v[j+1:], known: true}
			if format.val == "" && i+1 < len(c.args) {
				i++
				format = c.args[i]
			}
			if t, why, ok := c.zshPrintfArgs(format, printArgs(c.args[i+1:])); !ok {
				return t, why
			}
		}
		if strings.IndexByte(v, 'z') > 0 {
			text := strings.Join(argVals(c.args[i+1:]), " ")
			if !allKnown(c.args[i+1:]) {
				c.e.opaque = true
				return TierDestructive, "print -z: text computed at run time goes on the editing buffer, which the next Enter runs"
			}
			c.loginShell(text, "print -z")
			return TierRead, "print -z: puts a command on the editing buffer"
		}
	}
	if !c.ctx.zsh {
		// Outside zsh, print is mailcap's, which runs a file's print
		// command.
		return simpleTier(c.name)
	}
	return TierRead, "print"
}

// zshModload classifies zmodload, which loads a zsh module: its builtins
// and special parameters are what the classifier reads as unknown
// programs and plain variables (zsh/mapfile's mapfile writes the file
// each key names, zsh/system's sysopen opens files for writing, zsh/zpty
// runs commands). Listing and testing what is loaded is a read.
func zshModload(c *call) (Tier, string) {
	listing := len(c.args) == 0
	for _, a := range c.args {
		if !a.known {
			c.e.opaque = true
			return TierDestructive, "zmodload: " + truncate(a.val, 64) + " is computed at run time and can name a module"
		}
		listing = listing || len(a.val) > 1 && a.val[0] == '-' && strings.ContainsAny(a.val, "lLe")
	}
	if listing {
		return TierRead, "zmodload: lists or tests the loaded zsh modules"
	}
	c.e.opaque = true
	return TierDestructive, "zmodload: loads or changes a zsh module, whose builtins and parameters the classifier does not read"
}

// zshTables are zsh's special parameters through which an assignment
// defines functions (functions[f]=…), aliases, command paths (as hash
// does), options or, once zsh/mapfile is loaded, file contents
// (mapfile[/etc/x]=…). As plain names they are common in bash scripts,
// so they count only where zsh runs the text.
var zshTables = set(`functions dis_functions functions_source aliases dis_aliases galiases
	dis_galiases saliases dis_saliases commands builtins dis_builtins options modules mapfile
	nameddirs userdirs reswords dis_reswords patchars dis_patchars parameters history`)
