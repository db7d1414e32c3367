package sessions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A word computed at run time may be any word. Where rekey.go looks for a
// program, an option or a variable name by its spelling, a computed word
// there may be the one it looks for: "$c" kill '#' with c=stty, set -o $o
// with o=vi, printf -v "$n" with n=PS1, eval "$x". Each such command
// counts as a key change: warden cannot know it is not one.

// computedCall says why the word vals[i] of a simple command, computed at
// run time, may change how later keys are read or what later lines run,
// or returns "". Only a computed word does any work here.
func computedCall(vals []string, i int) string {
	v := vals[i]
	if !computed(v) {
		return ""
	}
	if i == 0 || wrapper[progName(vals[0])] && !strings.Contains(v[:strings.IndexByte(v, 0)], "=") && wrapped(vals, i) {
		return "a program name computed at run time may be stty, bind, source or another command " +
			"that changes how later lines are read or what they run"
	}
	for j := i - 1; j >= 0; j-- {
		switch progName(vals[j]) {
		case "--":
			return ""
		case "eval":
			return "eval of text computed at run time runs code in the shell itself, which may change its keys, aliases or traps"
		case "set", "shopt":
			return "set or shopt with an option computed at run time may set -o vi or another mode that decides what keys do"
		case "tput":
			return "tput with a capability computed at run time may be tput init or reset, which set the terminal's special characters"
		}
	}
	return ""
}

// wrapped reports whether the computed word vals[i] of a wrapper's
// command (sudo, env, timeout, …) may be the program it runs: it does not
// follow an option, or no literal word after it could be the program
// (sudo -u "$user" ls names ls; sudo -E "$cmd" may run anything).
func wrapped(vals []string, i int) bool {
	if p := vals[i-1]; p == "--" || !strings.HasPrefix(p, "-") {
		return true
	}
	for _, a := range vals[i+1:] {
		if !computed(a) && !strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// valueOpts are the options of the builtins that set variables whose
// next word is a value, not a variable name.
var valueOpts = map[string]string{
	"read":      "dinNptu",
	"mapfile":   "dnOsuCc",
	"readarray": "dnOsuCc",
	"env":       "CS",
}

// computedVar says why builtin b, with arguments rest, sets, exports or
// unsets a variable whose name is computed at run time (it may be PS1,
// PROMPT_COMMAND, histchars or LESSSECURE), or returns "".
func computedVar(b string, rest []string) string {
	const why = "a variable whose name is computed at run time may be PS1, PROMPT_COMMAND, histchars " +
		"or LESSSECURE, which change what later lines run"
	switch b {
	case "printf":
		for j, a := range rest {
			if a == "-v" && j+1 < len(rest) && computed(rest[j+1]) || strings.HasPrefix(a, "-v") && computed(a) {
				return why
			}
		}
		return ""
	case "getopts":
		if len(rest) > 1 && computed(rest[1]) {
			return why
		}
		return ""
	}
	vals := valueOpts[b]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			if c := a[len(a)-1]; strings.IndexByte(vals, c) >= 0 {
				j++ // the value
			} else if b == "env" && c == 'u' && j+1 < len(rest) && computed(rest[j+1]) {
				return why
			}
			if len(a) > 2 && computed(a) && strings.IndexByte(vals, a[1]) < 0 {
				return why // -a"$n", -u"$n"
			}
			continue
		}
		if b == "env" {
			return "" // the program and its arguments
		}
		if i := strings.IndexByte(a, 0); i >= 0 && !strings.Contains(a[:i], "=") {
			return why
		}
	}
	return ""
}

// computedDecl says why declare, export, local, readonly or typeset sets a
// variable whose name is computed at run time, or makes a name reference
// to one, or returns "".
func computedDecl(d *syntax.DeclClause) string {
	nameref := d.Variant != nil && d.Variant.Value == "nameref"
	for _, a := range d.Args {
		if a.Value == nil {
			continue
		}
		v := literal(a.Value)
		switch {
		case a.Naked && strings.HasPrefix(v, "-") && !computed(v):
			nameref = nameref || strings.ContainsRune(v, 'n')
		case a.Naked && computed(v) && !strings.Contains(v[:strings.IndexByte(v, 0)], "="):
			return "a variable whose name is computed at run time may be PS1, PROMPT_COMMAND, histchars " +
				"or LESSSECURE, which change what later lines run"
		case !a.Naked && nameref && computed(v):
			return "a name reference to a variable computed at run time may make PS1 or PROMPT_COMMAND another name"
		}
	}
	return ""
}
