package policy

import "strings"

// go changes to the directory -C names before it does anything else:
// before the subcommand (go -C DIR list) or as the subcommand's first
// flag (go list -C DIR), in every spelling of Go's flag package (-C=DIR,
// --C DIR). There go list, build and install stamp the module's version
// control state by running git status in its repository, and git runs
// the core.fsmonitor that repository's .git/config names (go 1.26 ran
// one under /tmp on go -C DIR list). So -C naming a directory a tier 1
// write may have filled, or one known only at run time, makes any go
// command tier 3, as the same command run after cd DIR is.

// goModeWords are go's subcommands whose first operand is a subcommand
// of theirs, after which -C may come (go mod graph -C DIR).
var goModeWords = set(`mod work`)

// goDirAgent says why the directory go's -C makes current may be one the
// agent wrote, or returns "" when no -C is given.
func (c *call) goDirAgent() string {
	if c.e.paths == nil {
		return ""
	}
	args := c.args
	var dirs []arg
	// at reads a -C at args[i]: the index after it, or i when args[i] is
	// no -C. Which (ok false) a word computed at run time could be.
	at := func(i int) (next int, ok bool) {
		if i >= len(args) {
			return i, true
		}
		a := args[i]
		if !a.known {
			return i, !c.mayBeOption(a)
		}
		name, val, eq := strings.Cut(a.val, "=")
		if name != "-C" && name != "--C" {
			return i, true
		}
		switch {
		case eq:
			dirs = append(dirs, arg{val: val, known: true, glob: a.glob})
			return i + 1, true
		case i+1 < len(args):
			dirs = append(dirs, args[i+1])
		}
		return i + 2, true
	}
	i, ok := at(0)
	if !ok {
		return "go -C may be given by a word known only at run time"
	}
	if i < len(args) && args[i].known && !strings.HasPrefix(args[i].val, "-") {
		sub := args[i].val
		i++
		if goModeWords[sub] && i < len(args) && args[i].known && !strings.HasPrefix(args[i].val, "-") {
			i++
		}
		if _, ok := at(i); !ok && sub != "help" && sub != "tool" {
			return "go -C may be given by a word known only at run time"
		}
	}
	if len(dirs) == 0 {
		return ""
	}
	return c.projectDirsAgent(dirs)
}
