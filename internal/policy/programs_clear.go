package policy

import "strings"

// Router op-mode words typed over ssh: clear, show and VyOS's wrapper.

// clearProgram classifies clear. ncurses' clear takes only -T TERM, -V
// and -x, and fails on any operand; words after it are a router's
// op-mode command, over ssh to VyOS, EdgeOS or an FRR shell (clear ip
// bgp all resets every BGP session, clear conntrack flushes the
// connection table), read as vtysh reads a clear line, and never a read.
func clearProgram(c *call) (Tier, string) {
	vals := c.vals()
	var ops []string
	for i := 0; i < len(vals); i++ {
		switch v := vals[i]; {
		case v == "-T":
			i++
		case v == "-V" || v == "-x" || strings.HasPrefix(v, "-T"):
		default:
			ops = append(ops, v)
		}
	}
	if len(ops) == 0 {
		return TierRead, "clear: clears the terminal"
	}
	t, why := c.vtyshLine("clear "+strings.Join(ops, " "), false)
	return maxTier(t, TierMutate), strings.TrimPrefix(why, "vtysh ") + " (a router's op-mode command)"
}

// showProgram classifies show, which no Linux or BSD system ships: over
// ssh to VyOS or EdgeOS it is the op-mode command (show interfaces, show
// configuration), read as vtysh reads a show line. nmh's show, the other
// program of the name, takes options that name the programs it runs
// (-showproc, -showmimeproc), so any option, or a word computed at run
// time, leaves it a tier 2 program.
func showProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		if !a.known || strings.HasPrefix(a.val, "-") {
			return TierMutate, "show " + truncate(a.val, 32) + ": nmh's show runs the programs its options name, and this may be one"
		}
	}
	vals := c.vals()
	t, why := c.vtyshLine("show "+strings.Join(vals, " "), false)
	return t, strings.TrimPrefix(why, "vtysh ") + " (a router's op-mode command)"
}

// opCmdWrapperProgram classifies VyOS's vyatta-op-cmd-wrapper, which runs
// its words as the op-mode command they spell: they are classified as
// that command (show interfaces reads, reboot is refused), and any but a
// show is at least tier 2 (reset, add system image).
func opCmdWrapperProgram(c *call) (Tier, string) {
	if len(c.args) == 0 {
		return TierRead, c.name
	}
	c.run(c.args)
	if c.args[0].known && c.args[0].val == "show" {
		return TierRead, c.name + " show"
	}
	return TierMutate, c.name + ": runs an op-mode command"
}
