package policy

// Destinations read from a file. curl -K, wget -i and --config, and ssh
// -F take their URLs, proxies, jump hosts and forwards from a file or
// standard input, which the command line does not show: such a program
// stays at least tier 2 for that (each handler says so), and when the
// text is known — a here-document or printed line on standard input, a
// file the script itself wrote, a process substitution that prints
// literal text — its every field meets the host rules as a forwarding
// spec's do.

// stdinNames are the spellings of a file operand that read standard
// input.
var stdinNames = set(`- /dev/stdin /dev/fd/0 /proc/self/fd/0`)

// configHosts denies a host named in the known text of the file a
// program reads its destinations from.
func (c *call) configHosts(what string, f arg) {
	if len(c.e.p.denyHosts) == 0 || !f.known {
		return
	}
	if stdinNames[f.val] {
		if c.ctx.stdin.kind == stdinText {
			c.forwardSpec(what, c.ctx.stdin.text)
		}
		for _, t := range c.ctx.stdin.alts {
			c.forwardSpec(what, t)
		}
		return
	}
	for _, t := range c.ctx.sc.fileTexts(f.val) {
		c.forwardSpec(what, t)
	}
}
