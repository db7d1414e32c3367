package sessions

import (
	"slices"
	"strings"
)

// A debugger reads its own commands from the terminal after it runs the
// ones it is given (gdb -ex run, -x FILE, lldb -o run, -s FILE): only its
// batch mode (gdb -batch, lldb -b) exits once they are done. Either way
// the program it runs (gdb --args PROG, lldb -- PROG, a "run" command)
// gets the terminal as its input, and Ctrl-C stops that program and
// returns to the debugger's prompt. "gdb -ex run ./a.out" and "gdb -batch
// -ex run --args head -n 1" took the line typed next as the shell's.

// debuggerOpts are, per debugger, its batch options and the options that
// take the next word as their value, with their leading dashes cut: gdb
// takes its long options after one dash or two.
var debuggerOpts = map[string]struct{ batch, values string }{
	"gdb": {"batch batch-silent",
		"ex eval-command x command iex init-eval-command ix init-command s symbols e exec se c core p pid " +
			"d directory cd tty b l i interpreter D data-directory"},
	"lldb": {"b batch",
		"o one-line s source O one-line-before-file S source-before-file k one-line-on-crash K " +
			"source-on-crash a arch p attach-pid n attach-name c core f file l script-language"},
}

// debuggerBatch reports whether debugger b with arguments rest runs in
// batch mode: a batch option that is no option's value, before the
// program's own arguments (gdb --args, lldb --).
func debuggerBatch(b string, rest []string) bool {
	o, ok := debuggerOpts[b]
	if !ok {
		o = debuggerOpts["gdb"] // gdb-multiarch
	}
	batch, values := strings.Fields(o.batch), strings.Fields(o.values)
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		switch {
		case a == "--" || a == "--args" || a == "-args":
			return false
		case !strings.HasPrefix(a, "-"):
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		switch {
		case slices.Contains(batch, name):
			return true
		case slices.Contains(values, name):
			j++ // -ex -batch runs "-batch" as a command
		}
	}
	return false
}

// debuggerVersion reports whether debugger b with arguments rest only
// prints its version or usage.
func debuggerVersion(rest []string) bool {
	for _, a := range rest {
		switch a {
		case "--", "--args", "-args":
			return false
		case "--version", "-version", "-v", "--help", "-help", "-h", "--configuration", "-configuration":
			return true
		}
	}
	return false
}
