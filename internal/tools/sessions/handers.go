package sessions

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Some programs hand the terminal to the programs they run: find's -exec
// command gets find's input, and xargs -o reopens /dev/tty for each
// command it runs, whatever xargs's own input. "find . -exec head -n 1 \;"
// took the line typed next as "head -n 1" does.

// opensTerminal reports whether the command cmd reads the terminal, or
// gives a program it runs the terminal, whatever its own input: xargs -o
// (--open-tty) reopens /dev/tty for each command, so "xargs -o head -n 1
// < /dev/null" reads the line typed next, and xargs -p (--interactive)
// reads its answers there ("echo a | xargs -p echo").
func opensTerminal(cmd syntax.Command) bool {
	c, ok := cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	vals := literals(c.Args)
	for i, v := range vals {
		if progName(v) != "xargs" {
			continue
		}
		for _, a := range vals[i+1:] {
			if len(a) > 2 && (strings.HasPrefix("--open-tty", a) || strings.HasPrefix("--interactive", a)) ||
				len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "op") {
				return true
			}
		}
	}
	return false
}

// findRuns says why a command find runs (-exec, -execdir, -ok, -okdir
// up to ";" or "+") reads lines of the terminal, which it gets as its
// input from find, or returns "".
func findRuns(args []*syntax.Word) string {
	for j := 0; j < len(args); j++ {
		switch literal(args[j]) {
		case "-exec", "-execdir", "-ok", "-okdir":
			end := j + 1
			for end < len(args) && literal(args[end]) != ";" && literal(args[end]) != "+" {
				end++
			}
			if end > j+1 {
				if why := linesCall(&syntax.CallExpr{Args: args[j+1 : end]}); why != "" {
					return "find runs a command with its input: " + why
				}
			}
			j = end
		}
	}
	return ""
}

// find's rule in quietWhen refers back to quietWhen through knownReader,
// so it is set once the table is made.
func init() { quietWhen["find"] = findQuiet }

// findQuiet: find leaves the terminal alone when it asks nothing (-ok,
// -okdir) and every command its -exec and -execdir run is known to: a
// quiet program, or a line reader, which findRuns reads.
func findQuiet(r []string) bool {
	if hasOpt(r, "-ok", "-okdir") {
		return false
	}
	for j := 0; j < len(r); j++ {
		if r[j] != "-exec" && r[j] != "-execdir" {
			continue
		}
		end := j + 1
		for end < len(r) && r[end] != ";" && r[end] != "+" {
			end++
		}
		if end == j+1 {
			return false
		}
		// A line reader given the terminal is findRuns's; any other
		// command must be one known to leave the terminal alone.
		b, rest := progName(r[j+1]), r[j+2:end]
		if q := quietWhen[b]; b == "find" || !(quietPrograms[b] || quietBuiltins[b] || lineReaders[b] != 0 || q != nil && q(rest)) {
			return false
		}
		j = end
	}
	return true
}

// runBy reports whether the word vals[i] of a simple command may be a
// program it runs, for the rules that look past the first word: any word
// after a wrapper, and the words of find's -exec, -execdir, -ok and
// -okdir commands (find . -exec tee -i /dev/null \;).
func runBy(vals []string, i int) bool {
	if i == 0 || wrapper[progName(vals[0])] {
		return true
	}
	if progName(vals[0]) != "find" {
		return false
	}
	in := false
	for _, v := range vals[1:i] {
		switch v {
		case "-exec", "-execdir", "-ok", "-okdir":
			in = true
		case ";", "+":
			in = false
		}
	}
	return in
}

// runArgs are the arguments of the program vals[i]: the rest of the
// words, up to the ";" or "+" that ends a command find runs.
func runArgs(vals []string, i int) []string {
	rest := vals[i+1:]
	if i > 0 && progName(vals[0]) == "find" {
		for j, v := range rest {
			if v == ";" || v == "+" {
				return rest[:j]
			}
		}
	}
	return rest
}
