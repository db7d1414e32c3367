package policy

import "strings"

// autosshProgram: autossh keeps its own -M PORT (and -f) and hands every
// other word to the ssh it runs and restarts, so its options, forwards
// and destination are ssh's.
func autosshProgram(c *call) (Tier, string) {
	sub := *c
	sub.name = "ssh"
	sub.args = make([]arg, 0, len(c.args))
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if a.known && a.val == "-M" {
			i++
			continue
		}
		if a.known && strings.HasPrefix(a.val, "-M") && len(a.val) > 2 {
			continue
		}
		sub.args = append(sub.args, a)
	}
	return sshProgram(&sub)
}

// sshuttleProgram: sshuttle routes this machine's traffic for its subnets
// through ssh to -r HOST, rewriting the local firewall's NAT rules to do
// so (tier 2); --ssh-cmd (-e) is the ssh command line it runs, shell
// text. Its hosts meet the rules as a forwarder's words do.
func sshuttleProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, "sshuttle: routes traffic through a remote host and changes the firewall's NAT rules"}
	for _, e := range c.optVals(c.args, "-e", "--ssh-cmd") {
		r.raise(c.shellArg(e, "sshuttle --ssh-cmd"))
	}
	return r.t, r.why
}
