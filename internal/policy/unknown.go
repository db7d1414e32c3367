package policy

import (
	"fmt"
	"path"
	"strings"
)

// maxArgCommands is how many of an unknown program's arguments are tried
// as the start of a command it may run.
const maxArgCommands = 16

// argCommand is what an unknown program may run. Many programs the
// classifier does not know run the command in their arguments (runcon
// CONTEXT CMD, schroot -c X -- CMD, toolbox run CMD, nsjail -- CMD), and
// nothing tells those from a program that only takes the words as data
// (qm reboot 100). Each argument that names a program the classifier knows
// starts a command that is classified alone: if it would be denied or is
// tier 3, so is the call. It is not denied: a person judges it, where
// the program's plain tier, 2, would run it unasked in open mode.
func (c *call) argCommand() (Tier, string) {
	tries := 0
	var vals []string
	for k, a := range c.args {
		if !a.known || a.val == "" || a.val[0] == '-' {
			continue
		}
		name := path.Base(a.val)
		denies := powerPrograms[name] || fsWipers[name] || denyTriggers[name] || strings.HasPrefix(name, "mkfs")
		if !denies && !knownName(name) {
			continue
		}
		if tries++; tries > maxArgCommands {
			return TierDestructive, fmt.Sprintf("unknown program %q: too many of its arguments name programs to check what it may run", truncate(c.name, 64))
		}
		if vals == nil {
			vals = c.vals()
		}
		if why := denyCheck(name, vals[k+1:]); why != "" {
			return TierDestructive, fmt.Sprintf("unknown program %q may run the command in its arguments (denied: %s)", truncate(c.name, 64), why)
		}
		sub := c.e.fork()
		ctx := c.ctx
		ctx.inArgs = true
		sub.simple(c.args[k:], ctx, "")
		why := sub.reason
		if sub.denied {
			why = "denied: " + sub.denyWhy
		}
		t := sub.tier
		if sub.denied {
			t = TierDestructive
		}
		sub.release()
		if t == TierDestructive {
			return t, fmt.Sprintf("unknown program %q may run the command in its arguments (%s)", truncate(c.name, 64), truncate(why, 160))
		}
	}
	return TierMutate, ""
}

// knownName reports whether the classifier has a table entry or a handler
// for a program name.
func knownName(name string) bool {
	if _, ok := knownPrograms[name]; ok {
		return true
	}
	_, h := normalised(name)
	return h != nil
}
