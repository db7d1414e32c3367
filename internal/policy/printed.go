package policy

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// What a command substitution or a pipe's first command prints when that
// is known from the text: a literal echo or printf, cat of a here-string,
// the names compgen -G matches.

// echoEsc decodes the escapes of echo -e and printf %b, which differ
// from $'…' in one way: \0 takes up to three more octal digits, so
// \0162 is r, not \016 then 2.
func echoEsc(v string) string {
	if !strings.Contains(v, `\0`) {
		return ansiC(v)
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' || i+1 >= len(v) {
			b.WriteByte(v[i])
			continue
		}
		if v[i+1] != '0' {
			b.WriteByte(v[i])
			b.WriteByte(v[i+1]) // \\ stays one escape
			i++
			continue
		}
		j := i + 2
		for j < len(v) && j < i+5 && v[j] >= '0' && v[j] <= '7' {
			j++
		}
		n, _ := strconv.ParseUint("0"+v[i+2:j], 8, 32)
		fmt.Fprintf(&b, `\x%02x`, byte(n))
		i = j - 1
	}
	return ansiC(b.String())
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// cmdSubstArgs returns the words of a command substitution holding exactly
// one plain simple command, or nil.
func cmdSubstArgs(cs *syntax.CmdSubst) []*syntax.Word {
	if len(cs.Stmts) != 1 {
		return nil
	}
	s := cs.Stmts[0]
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(s.Redirs) > 0 || len(ce.Assigns) > 0 || s.Background || s.Negated {
		return nil
	}
	return ce.Args
}

// compgenPattern returns the pattern of compgen -G PATTERN, which prints
// the names it matches.
func compgenPattern(ws []*syntax.Word) (string, bool) {
	if len(ws) != 3 {
		return "", false
	}
	vals, ok := litValues(ws)
	if !ok || len(vals) != 3 || vals[0] != "compgen" || vals[1] != "-G" {
		return "", false
	}
	return vals[2], true
}

// catOutput is what $(cat <<< text) or $(cat <<EOF … EOF) prints when the
// text is literal, without the trailing line ends $(…) removes.
func catOutput(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	s := cs.Stmts[0]
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) != 1 || len(ce.Assigns) > 0 || len(s.Redirs) != 1 || s.Background || s.Negated || redirFD(s.Redirs[0]) != 0 {
		return "", false
	}
	if v, _ := litValue(ce.Args[0]); v != "cat" {
		return "", false
	}
	text, ok := "", false
	switch r := s.Redirs[0]; r.Op {
	case syntax.WordHdoc:
		text, ok = litValue(r.Word)
	case syntax.Hdoc, syntax.DashHdoc:
		if r.Hdoc != nil {
			text, ok = hdocText(r.Hdoc)
		}
	}
	return strings.TrimRight(text, "\n"), ok
}

// echoName strips what runs echo or printf as itself from a command's
// words: command, builtin, env without options, and a path (/bin/echo,
// /usr/bin/printf, which print as the builtins do).
// notEcho reports whether w, a command's name, is plainly a program
// other than echo and printf and the wrappers echoName takes off: its
// other words need not be resolved to know it prints nothing known.
func notEcho(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsAny(l.Value, "\\*?[{~") {
		return false
	}
	name := path.Base(l.Value)
	return name != "echo" && name != "printf" && !echoWrappers[name]
}

// echoWrappers run the command their arguments name, as echoName reads
// them: command echo prints as echo does.
var echoWrappers = set("command builtin env")

func echoName(vals []string) []string {
	for len(vals) > 1 && echoWrappers[vals[0]] {
		vals = vals[1:]
	}
	if i := strings.LastIndexByte(vals[0], '/'); i >= 0 {
		if n := vals[0][i+1:]; n == "echo" || n == "printf" {
			vals[0] = n
		}
	}
	return vals
}

// echoOutput returns what a literal echo or printf would print (without the
// trailing newline), if that is statically known.
func (e *eval) echoOutput(ws []*syntax.Word, ctx cctx, sc *scope) (string, bool) {
	return e.echoOutputWith(ws, ctx, sc, nil)
}

// echoOutputWith is echoOutput with trial values for variables.
func (e *eval) echoOutputWith(ws []*syntax.Word, ctx cctx, sc *scope, bind map[string]string) (string, bool) {
	return e.echoText(ws, ctx, sc, bind, false)
}

// echoPatterns is echoOutput where a glob word prints its pattern: echo
// /* prints the names the glob matches, which only the pattern stands
// for, as a for loop's glob item does (for d in /*; do rm -rf "$d").
func (e *eval) echoPatterns(ws []*syntax.Word, ctx cctx, sc *scope) (string, bool) {
	return e.echoText(ws, ctx, sc, nil, true)
}

func (e *eval) echoText(ws []*syntax.Word, ctx cctx, sc *scope, bind map[string]string, globs bool) (string, bool) {
	if len(ws) == 0 || ctx.depth > maxDepth || notEcho(ws[0]) || !e.substCall() {
		return "", false
	}
	defer e.substDone()
	ctx.depth += 8 // nested substitutions cost depth too
	r := resolver{e: e, ctx: ctx, sc: sc, bind: bind}
	args := r.fieldsAll(ws)
	for _, a := range args {
		// echo ./x*t prints the names the glob matches, not ./x*t.
		if !a.known || a.glob && !globs {
			return "", false
		}
	}
	if len(args) == 0 {
		return "", false
	}
	vals := argVals(args)
	if sc.shadowed(vals[0]) {
		return "", false // a function of the name prints what it likes
	}
	vals = echoName(vals)
	switch vals[0] {
	case "echo":
		vals = vals[1:]
		esc := false
		for len(vals) > 0 && len(vals[0]) > 1 && vals[0][0] == '-' && strings.Trim(vals[0][1:], "neE") == "" {
			if strings.Contains(vals[0], "e") {
				esc = true
			}
			vals = vals[1:]
		}
		out := strings.Join(vals, " ")
		if esc {
			out = echoEsc(out)
		}
		return strings.TrimRight(out, "\n"), true
	case "printf":
		vals = vals[1:]
		if len(vals) > 0 && vals[0] == "--" {
			vals = vals[1:]
		}
		if len(vals) == 0 {
			return "", false
		}
		return strings.TrimRight(printfOut(vals[0], vals[1:]), "\n"), true
	}
	return "", false
}

// printfOut approximates printf(1): %s, %b, %d and %c take arguments in
// turn, and the format is reused while arguments remain.
func printfOut(format string, args []string) string {
	var b strings.Builder
	for round := 0; round < 64; round++ {
		used := false
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c != '%' || i+1 >= len(format) {
				b.WriteByte(c)
				continue
			}
			i++
			j := i
			for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
				j++
			}
			if j >= len(format) {
				break
			}
			prec := -1 // %.6s prints at most 6 bytes of its argument
			if k := strings.IndexByte(format[i:j], '.'); k >= 0 {
				prec, _ = strconv.Atoi(format[i+k+1 : j])
			}
			i = j
			switch format[i] {
			case '%':
				b.WriteByte('%')
			default:
				if len(args) > 0 {
					v := args[0]
					if format[i] == 'b' {
						v = echoEsc(v)
					}
					if prec >= 0 && prec < len(v) && (format[i] == 's' || format[i] == 'b') {
						v = v[:prec]
					}
					b.WriteString(v)
					args = args[1:]
					used = true
				}
			}
		}
		if len(args) == 0 || !used {
			break
		}
	}
	return ansiC(b.String())
}
