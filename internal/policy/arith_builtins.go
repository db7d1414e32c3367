package policy

import (
	"strings"
)

// varRef returns the variable a word's source text plainly expands:
// $x, ${x}, "$x", "${x}".
func varRef(src string) (string, bool) {
	s := strings.TrimSuffix(strings.TrimPrefix(src, `"`), `"`)
	if !strings.HasPrefix(s, "$") {
		return "", false
	}
	s = s[1:]
	if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
		s = s[1 : len(s)-1]
	}
	switch s {
	case "#", "?", "$", "!":
		return s, true
	}
	return s, validName(s)
}

// arithArg checks a command argument evaluated as arithmetic.
func (c *call) arithArg(a arg, what string) bool {
	sc := c.ctx.sc
	if a.known {
		return c.e.arithTextSafe(a.val, sc)
	}
	if n, ok := varRef(a.val); ok {
		switch n {
		case "#", "?", "$", "!":
			return true
		}
		return c.e.intName(sc, n)
	}
	if w := c.e.wordOf(a.val); w != nil {
		return c.e.arithWordSafe(w, c.ctx, sc)
	}
	return false
}

// arithBuiltin classifies builtins that evaluate arithmetic or take
// variable names: test and [ (-v, and arguments that can become it), let, printf -v,
// read, mapfile, readarray, getopts, unset and wait -p. It returns the
// tier of the program itself, at least TierRead.
func arithBuiltin(c *call) (Tier, string) {
	args := c.args
	t, why := simpleTier(c.name)
	switch c.name {
	case "test", "[":
		if a, ok := c.testOperator(args); ok {
			return maxTier(t, arithTier), c.name + ": " + truncate(a.val, 64) + " is computed at run time and can become an operator such as -v, whose operand's array subscript runs commands"
		}
		// Unlike [[ ]], test and [ read the operands of -eq, -lt, …
		// as plain integers (bash, dash, zsh, ksh93 and coreutils all
		// refuse "integer expression expected"), so only an operand
		// that becomes -v's can reach a subscript.
		for i, a := range args {
			if !a.known {
				continue
			}
			switch v := a.val; v {
			case "-v", "-R":
				if i+1 < len(args) {
					c.e.nameArg(args[i+1], c.ctx, c.name+" "+v)
				}
			}
		}
	case "let":
		for _, a := range args {
			if !c.arithArg(a, "let") {
				return arithTier, "let: " + arithWhy
			}
		}
		return TierRead, "let"
	case "printf":
		for i := 0; i < len(args); i++ {
			if !args[i].known {
				if c.mayBeOption(args[i]) {
					return arithTier, "printf: " + truncate(args[i].val, 64) + " is computed at run time and can become -v NAME, whose array subscript runs commands"
				}
				break
			}
			if v := args[i].val; strings.HasPrefix(v, "-v") {
				name, rest := arg{val: v[2:], known: true}, args[i+1:]
				if v == "-v" {
					if len(rest) == 0 {
						break
					}
					name, rest = rest[0], rest[1:]
				}
				c.nameArg(name)
				c.e.boundName(name, c.ctx, "printf -v")
				if name.known {
					c.e.assignedText(name.val, printfValue(rest), c.ctx, "printf -v")
				}
				break
			}
			if args[i].val == "--" || !strings.HasPrefix(args[i].val, "-") {
				break
			}
		}
		if format, rest, ok := printfOperands(args); ok && c.ctx.zsh {
			if at, awhy, ok := c.zshPrintfArgs(format, rest); !ok {
				return at, awhy
			}
		}
	case "read", "mapfile", "readarray", "getopts", "unset", "wait":
		valued := ""
		switch c.name {
		case "read":
			valued = "adinNptu"
			if c.ctx.zsh {
				// zsh's -t and -k take a number only attached (-t5),
				// and -p, -n, -a are flags: the word after each is a
				// name, as any of read -t "$x" y's could be.
				valued = "du"
			}
		case "mapfile", "readarray":
			valued = "dnOsuCc"
		case "wait":
			valued = "p"
		}
		var names []arg
		fromFD := false // read -u N, mapfile -u N: not standard input
		optsDone := false
		for i := 0; i < len(args); i++ {
			a := args[i]
			v := a.val
			// Unknown names are caught below; these two take names in
			// places a computed word can reach by splitting (getopts'
			// option string) or by being an option (wait -p NAME).
			if !a.known && (c.name == "wait" && c.mayBeOption(a) || c.name == "getopts" && i == 0) {
				if splits, _ := c.computedShape(a); splits || c.name == "wait" {
					return arithTier, c.name + ": " + truncate(v, 64) + " is computed at run time and can become a variable name, whose array subscript runs commands"
				}
			}
			if !a.known && len(names) == 0 && !optsDone && (c.name == "mapfile" || c.name == "readarray") && c.mayBeOption(a) {
				c.e.opaque = true
				return TierDestructive, c.name + ": " + truncate(v, 64) + " is computed at run time and can become -C, whose callback runs as shell"
			}
			if a.known && len(v) > 1 && v[0] == '-' && len(names) == 0 && !optsDone {
				if v == "--" {
					optsDone = true
					continue
				}
				// The first option of a cluster that takes a value takes
				// the rest of the word or the next one: -C cb, -Ccb, -tC cb.
				j := 1
				for j < len(v) && strings.IndexByte(valued, v[j]) < 0 {
					j++
				}
				if j < len(v) {
					f := v[j]
					fromFD = fromFD || f == 'u' && c.name != "wait"
					val := arg{val: v[j+1:], known: true}
					if j+1 == len(v) {
						val = arg{}
						if i+1 < len(args) {
							i++
							val = args[i]
						}
					}
					switch {
					case c.name == "read" && f == 'a', c.name == "wait" && f == 'p':
						names = append(names, val)
					case (c.name == "mapfile" || c.name == "readarray") && f == 'C':
						// The callback is evaluated as shell text.
						if !val.known {
							c.e.opaque = true
							return TierDestructive, c.name + " -C: callback computed at run time"
						}
						c.shell(val.val, c.name+" -C callback", nil, false)
					}
				}
				continue
			}
			names = append(names, a)
		}
		if c.name == "getopts" {
			if len(names) >= 2 {
				names = names[1:2]
			} else {
				names = nil
			}
		}
		if c.name == "wait" {
			names = names[:0]
			for i := 0; i+1 < len(args); i++ {
				if args[i].val == "-p" {
					names = append(names, args[i+1])
				}
			}
		}
		switch {
		case len(names) > 0 || c.name != "read" && c.name != "mapfile" && c.name != "readarray":
		case c.name == "read":
			names = []arg{{val: "REPLY", known: true}}
		default:
			names = []arg{{val: "MAPFILE", known: true}}
		}
		for _, n := range names {
			c.nameArg(n)
			switch {
			case c.name != "unset":
				c.e.boundName(n, c.ctx, c.name)
			case n.known && n.val == "PATH":
				// Without PATH bash looks for commands in the working
				// directory: unset PATH; ls runs ./ls.
				c.e.note(TierDestructive, c.ctx.covered, "unset PATH: later commands are looked up in the working directory")
			}
			if n.known && c.name == "getopts" {
				// The option letter found, evaluated in an integer
				// variable as the name of another.
				c.e.assignedText(n.val, arg{}, c.ctx, c.name)
			}
			if n.known && (c.name == "read" || c.name == "mapfile" || c.name == "readarray") {
				// What is read is assigned, and evaluated if the
				// variable is an integer or an unbound nameref.
				in := arg{}
				if c.ctx.stdin.kind == stdinText && !fromFD {
					in = arg{val: c.ctx.stdin.text, known: true}
				}
				c.e.assignedText(n.val, in, c.ctx, c.name)
			}
		}
		return TierRead, c.name
	}
	return t, why
}

func (c *call) nameArg(a arg) { c.e.nameArg(a, c.ctx, c.name) }

// printfValue is what printf prints for the format and arguments args, if
// they are all known.
func printfValue(args []arg) arg {
	if len(args) > 0 && args[0].known && args[0].val == "--" {
		args = args[1:]
	}
	if len(args) == 0 || !allKnown(args) {
		return arg{}
	}
	vals := argVals(args)
	return arg{val: printfOut(vals[0], vals[1:]), known: true}
}

// testOperator returns an argument of test or [ that is computed at run
// time and can become an operator: one that can split into several words
// anywhere, or one word beginning with '-' that is not the operand of a
// known operator and not the last argument (test -v "$x" reads the last).
func (c *call) testOperator(args []arg) (arg, bool) {
	if c.name == "[" && len(args) > 0 && args[len(args)-1].known && args[len(args)-1].val == "]" {
		args = args[:len(args)-1]
	}
	known := func(i int, ops map[string]bool) bool {
		return i >= 0 && i < len(args) && args[i].known && ops[args[i].val]
	}
	for i, a := range args {
		if a.known {
			continue
		}
		splits, dash := c.computedShape(a)
		switch {
		case splits:
			return a, true
		case !dash, i == len(args)-1, known(i-1, testUnary), known(i-1, testBinary), known(i+1, testBinary):
			continue
		}
		return a, true
	}
	return arg{}, false
}

// testUnary and testBinary are the operators of test and [ whose operands
// are read as strings, files or numbers.
var (
	testUnary  = set(`-a -b -c -d -e -f -g -h -k -n -o -p -r -s -t -u -w -x -z -G -L -N -O -S`)
	testBinary = set(`= == != < > -a -o -nt -ot -ef -eq -ne -lt -le -gt -ge`)
)

// declCall checks a declaration that parses as a plain call rather than
// a declaration clause (command declare, builtin local, \typeset,
// 'declare', x=1 declare) as declArith checks a clause: the value of an
// integer variable is evaluated as arithmetic, a nameref's value names a
// variable whose subscript is evaluated, and so is a subscript in a name.
func (c *call) declCall() {
	flags := ""
	for _, a := range c.args {
		if !a.known {
			if a.val == "" || !isAlnum(a.val[0]) && a.val[0] != '_' {
				// Its first field may begin with '-': an option
				// computed at run time, which may be any.
				flags += "in"
				continue
			}
			break // options end at the first operand
		}
		if len(a.val) < 2 || a.val[0] != '-' && a.val[0] != '+' || a.val == "--" {
			break
		}
		flags += a.val[1:]
	}
	intAttr := strings.ContainsRune(flags, 'i')
	nameref := strings.ContainsRune(flags, 'n') && c.name != "export"
	for _, a := range c.args {
		if a.known && a.val != "" && (a.val[0] == '-' || a.val[0] == '+') {
			continue
		}
		lhs, rhs, bound := strings.Cut(a.val, "=")
		name, _, _ := strings.Cut(lhs, "[")
		// Unknown, val is the source text: its name part is what bash
		// gets only if it holds no expansion or quote.
		lhsArg := arg{val: lhs, known: a.known || !strings.ContainsAny(lhs, "$`\"'\\")}
		if lhsArg.known && !validName(name) {
			continue // not a variable: see envName in builtinProgram
		}
		c.e.nameArg(lhsArg, c.ctx, c.name)
		if !lhsArg.known {
			continue
		}
		if !bound {
			continue
		}
		v := arg{val: rhs, known: a.known}
		arith, ref := c.ctx.sc.assignEvals(name)
		arith = arith || zshIntSpecial(c.ctx, name)
		if (arith || intAttr) && !c.arithArg(v, c.name) {
			c.e.note(arithTier, c.ctx.covered, "%s of integer variable %s: %s", c.name, name, arithWhy)
		}
		if ref || nameref {
			c.e.nameArg(v, c.ctx, c.name+" -n")
			c.e.boundName(v, c.ctx, c.name+" -n")
		}
	}
}
