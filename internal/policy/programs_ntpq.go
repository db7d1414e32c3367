package policy

import "strings"

// ntpqWrites are the ntpq commands that change ntpd: runtime
// configuration, its saved copy and the variables writevar sets. ntpq
// takes any unique prefix of a command name, so a word is checked
// against every name it could begin.
var ntpqWrites = []string{":config", "config-from-file", "saveconfig", "writevar", "wv",
	"writelist", "wl", "addvars", "rmvars", "clearvars"}

// ntpqInputReads reports whether the commands ntpq reads from standard
// input, when no -p, -c or -i gives it one, only read: without them
// ntpq runs each input line, :config and writevar among them. Input the
// classifier cannot see could hold anything. A "host" line's peer is held
// to the host rules.
func (c *call) ntpqInputReads() bool {
	switch c.ctx.stdin.kind {
	case stdinNone:
		return true
	case stdinUnknown:
		return false
	}
	for _, line := range strings.Split(c.ctx.stdin.text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		w := strings.ToLower(f[0])
		for _, n := range ntpqWrites {
			if strings.HasPrefix(n, w) {
				return false
			}
		}
		if strings.HasPrefix("host", w) && len(f) > 1 {
			c.checkHost(f[1])
		}
	}
	return true
}
