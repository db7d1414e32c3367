package policy

import "path"

// Small daemons and tools, busybox applets among them, that run a
// program an option or operand names: on every lease (udhcpc -s), link
// change (ifplugd -r), clock step (ntpd -S), MIME part (reformime -X) or
// file event (inotifyd PROG), and tcpsvd and udpsvd on every connection,
// a shell served to the network when PROG is one. The program is
// classified as a command with arguments the classifier cannot see, and
// the call is at least tier 2; crond -c runs the jobs of the crontabs in
// the directory it names, which the classifier cannot read.

// hookOptions are the options that name the program each runs.
var hookOptions = map[string][]string{
	"udhcpc":    {"-s", "--script"},
	"udhcpc6":   {"-s", "--script"},
	"ifplugd":   {"-r", "--run"},
	"ntpd":      {"-S"},
	"reformime": {"-X"},
}

// hookValueShort are the short options of tcpsvd and udpsvd that take a
// value, before their IP PORT PROG operands.
const hookValueShort = "cCbul"

// hookProgram classifies udhcpc, ifplugd, ntpd, reformime, inotifyd,
// tcpsvd, udpsvd and crond.
func hookProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, c.name + ": runs a program on its events"}
	for _, p := range exactOptVals(c.args, hookOptions[c.name]...) {
		c.runHook(p, &r)
	}
	switch c.name {
	case "inotifyd":
		// inotifyd PROG FILE[:MASK]...
		if ops := optionOperands(c.args, "", ""); len(ops) > 0 {
			c.runHook(ops[0], &r)
		}
	case "tcpsvd", "udpsvd":
		// tcpsvd [-options] IP PORT PROG ARGS: PROG runs for every
		// connection, with the connection as its input and output.
		ops := optionOperands(c.args, hookValueShort, "")
		if len(ops) < 3 {
			break
		}
		if !ops[2].known {
			c.e.opaque = true
			r.raise(TierDestructive, c.name+": the program it serves is known only at run time")
			break
		}
		c.run(ops[2:])
		r.raise(TierMutate, c.name+" "+truncate(ops[2].val, 64)+": runs it for every connection")
		if prog := path.Base(ops[2].val); posixShells[prog] || interpreters[prog] {
			r.raise(TierDestructive, c.name+" "+truncate(ops[2].val, 64)+": serves a shell to the network")
		}
	case "crond":
		for _, d := range exactOptVals(c.args, "-c") {
			c.e.opaque = true
			r.raise(TierDestructive, "crond -c "+truncate(d.val, 64)+": runs the jobs of the crontabs there")
		}
	}
	return r.t, r.why
}

// runHook classifies the program p names as run with unknown arguments.
func (c *call) runHook(p arg, r *raiser) {
	if !p.known {
		c.e.opaque = true
		r.raise(TierDestructive, c.name+": a program known only at run time")
		return
	}
	c.run([]arg{p, unknownArg})
	r.raise(TierMutate, c.name+" runs "+truncate(p.val, 64))
}
