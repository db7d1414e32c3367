package policy

import (
	"slices"
	"strings"
)

// Wrappers whose command goes on running after they return.

// detaches reports whether the wrapper name, given its own options own,
// leaves its command running after it returns: setsid -f, daemonize.
func detaches(name string, own []arg) bool {
	switch name {
	case "daemonize":
		return true
	case "setsid":
		return slices.ContainsFunc(own, func(a arg) bool { return shortFlag(a.val, 'f') || longFlag(a.val, "--fork") })
	}
	return false
}

// startStopProgram classifies start-stop-daemon: --start runs the program
// of --exec or --startas with the arguments after "--".
func startStopProgram(c *call) (Tier, string) {
	if !hasOpt(c.args, 'S', "--start") {
		return TierMutate, "start-stop-daemon: stops or signals daemons"
	}
	var after []arg
	for i, a := range c.args {
		if a.known && a.val == "--" {
			after = c.args[i+1:]
			break
		}
	}
	// --start is also a prefix of --startas: drop what is an option.
	var progs []arg
	for _, p := range c.optVals(c.args, "-a", "--startas", "-x", "--exec") {
		if !p.known || !strings.HasPrefix(p.val, "-") {
			progs = append(progs, p)
		}
	}
	if len(progs) == 0 {
		c.e.opaque = true
		return TierDestructive, "start-stop-daemon: starts a program the classifier cannot see"
	}
	c.wrapperDirs(c.args)
	c.e.loops++ // a daemon runs beside what follows
	defer func() { c.e.loops-- }()
	for _, p := range progs {
		if !p.known {
			c.e.opaque = true
			return TierDestructive, "start-stop-daemon: program computed at run time"
		}
		c.run(append([]arg{p}, after...))
	}
	return c.agentRoot(TierMutate, "start-stop-daemon: starts a daemon", c.wrapperRoots(c.args))
}
