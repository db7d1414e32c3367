package policy

import "strings"

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
