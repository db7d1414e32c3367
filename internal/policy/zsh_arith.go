package policy

import "strings"

// zsh evaluates as arithmetic numbers bash reads as plain integers: the
// count of exit, return, break, continue, shift and repeat, and every
// argument printf (and print -f) gives a numeric conversion or a '*'
// width or precision. Arithmetic on path[$(cmd)] runs cmd, so each such
// word must be provably an integer (arithArg), as (( … ))'s are.

// zshIntSpecials are zsh's own integer parameters, beyond the ones bash
// shares (arithSpecials), whose assignment zsh evaluates as arithmetic.
var zshIntSpecials = set(`HISTSIZE SAVEHIST KEYTIMEOUT LISTMAX COLUMNS LINES SHLVL ERRNO TRY_BLOCK_ERROR
	TRY_BLOCK_INTERRUPT GID EGID`)

// zshIntSpecial reports whether zsh, running ctx's text, evaluates what is
// assigned to name as arithmetic because it is one of zshIntSpecials.
func zshIntSpecial(ctx cctx, name string) bool { return ctx.zsh && zshIntSpecials[name] }

// zshCounted classifies exit, return, break, continue, shift and logout:
// in zsh their first operand (shift's, unless it names the argv array) is
// arithmetic; elsewhere they only read an integer.
func zshCounted(c *call) (Tier, string) {
	t, why := simpleTier(c.name)
	if !c.ctx.zsh {
		return t, why
	}
	for _, a := range c.args {
		if a.known && c.name == "shift" && (a.val == "-p" || a.val == "--") {
			continue
		}
		if a.known && c.name == "shift" && a.val == "argv" {
			break // shift argv: the array to shift
		}
		if !c.arithArg(a, c.name) {
			return arithTier, c.name + ": zsh evaluates its count as arithmetic: " + arithWhy
		}
		break
	}
	return t, why
}

// zshRepeatCount checks the count of zsh's repeat COUNT COMMAND; the
// command is classified as well.
func zshRepeatCount(c *call) {
	if len(c.args) > 0 && !c.arithArg(c.args[0], "repeat") {
		c.e.note(arithTier, c.ctx.covered, "repeat: zsh evaluates its count as arithmetic: %s", arithWhy)
	}
}

// zshPrintfArgs checks the arguments zsh's printf (or print -f) gives
// format's numeric conversions: all of them when the format is not known
// or numbers its arguments (%2$d).
func (c *call) zshPrintfArgs(format arg, args []arg) (Tier, string, bool) {
	numeric, ok := printfNumeric(format, len(args))
	for i, a := range args {
		if (!ok || numeric[i]) && !c.arithArg(a, "printf") {
			return arithTier, "printf: zsh evaluates the arguments of numeric conversions as arithmetic: " + arithWhy, false
		}
	}
	return TierRead, "", true
}

// printfNumeric reports which of n arguments a printf format hands to a
// numeric conversion (d i o u x X e E f F g G a A) or a '*' width or
// precision, reusing the format while arguments remain. ok is false when
// that is not known: a format computed at run time, or one that numbers
// its arguments.
func printfNumeric(format arg, n int) (numeric []bool, ok bool) {
	f := format.val
	if !format.known || strings.Contains(f, "$") {
		return nil, false
	}
	numeric = make([]bool, n)
	idx := 0
	for idx < n {
		used := false
		for i := 0; i < len(f) && idx < n; i++ {
			if f[i] != '%' {
				continue
			}
			i++
			if i < len(f) && f[i] == '%' {
				continue
			}
			for i < len(f) && strings.IndexByte("-+ #0'", f[i]) >= 0 {
				i++
			}
			for i < len(f) && (f[i] == '*' || f[i] == '.' || f[i] >= '0' && f[i] <= '9') {
				if f[i] == '*' && idx < n {
					numeric[idx] = true
					idx++
				}
				i++
			}
			for i < len(f) && strings.IndexByte("hlLqjzt", f[i]) >= 0 {
				i++
			}
			if i < len(f) && idx < n {
				numeric[idx] = strings.IndexByte("diouxXeEfFgGaA", f[i]) >= 0
				idx++
				used = true
			}
		}
		if !used {
			break
		}
	}
	return numeric, true
}

// printArgs returns the arguments after print's options (-f FORMAT taken
// already): the words from the first that is not an option, or after
// "-" or "--".
func printArgs(args []arg) []arg {
	for i, a := range args {
		if !a.known || a.val == "" || a.val[0] != '-' && a.val[0] != '+' {
			return args[i:]
		}
		if a.val == "-" || a.val == "--" {
			return args[i+1:]
		}
	}
	return nil
}

// printfOperands returns printf's format and the arguments after it,
// past -v NAME (or -vNAME) and "--".
func printfOperands(args []arg) (arg, []arg, bool) {
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case !args[i].known:
			return args[i], args[i+1:], true
		case v == "--":
			if i+1 < len(args) {
				return args[i+1], args[i+2:], true
			}
			return arg{}, nil, false
		case v == "-v":
			i++
		case strings.HasPrefix(v, "-v"):
		default:
			return args[i], args[i+1:], true
		}
	}
	return arg{}, nil, false
}
