package policy

import (
	"fmt"
	"strings"
)

// checkHost applies host deny rules to a destination: a word in a place
// only a host can be.
func (c *call) checkHost(h string) {
	c.checkHostAs(h, true)
}

// checkHostAs is checkHost for a word that is a destination or, if not
// dest, may be one.
func (c *call) checkHostAs(h string, dest bool) {
	if r, ok := c.e.p.hostDeniedAs(h, dest); ok {
		c.e.deny(fmt.Sprintf("%s: destination %q is denied by host rule %q", c.name, h, r))
		return
	}
	if k := hostKey(h); strings.HasPrefix(k, "-") {
		c.e.deny(fmt.Sprintf("%s: destination %q begins with '-' and would be read as an option", c.name, h))
	}
}

// zeroBeforePort reports whether vals[i], a word of a relay or telnet, is
// in a host's place as far as a bare "0" goes: a port follows it
// (nc 0 80, telnet 0 25), or it ends telnet's words (telnet 0). A "0"
// elsewhere is an option's value (nc -w 0 host 80).
func zeroBeforePort(name string, vals []string, i int) bool {
	if !relays[name] {
		return false
	}
	if i+1 < len(vals) {
		return portWord(vals[i+1])
	}
	return name == "telnet" && (i == 0 || !strings.HasPrefix(vals[i-1], "-"))
}

// portWord reports whether s is a port or a port range: 80, 20-25.
func portWord(s string) bool {
	lo, hi, _ := strings.Cut(s, "-")
	digits := func(s string) bool {
		return s != "" && strings.Trim(s, "0123456789") == ""
	}
	return digits(lo) && (hi == "" && !strings.HasSuffix(s, "-") || digits(hi))
}

// unknownHostWords denies a word of a program the classifier does not
// know, or the value of one of its options, that names a host a deny rule
// names: with no table to say which words are destinations, a denied
// address given to an unknown program (probe 169.254.169.254,
// tool --target=10.0.0.1) is taken for the place it connects to.
func (c *call) unknownHostWords() {
	if len(c.e.p.denyHosts) == 0 {
		return
	}
	for _, a := range c.args {
		v := a.val
		if !a.known || v == "" {
			continue
		}
		if v[0] == '-' {
			_, val, ok := strings.Cut(v, "=")
			if !ok {
				continue
			}
			v = val
		}
		if numericShort(v) || !strings.ContainsAny(v, ".:") {
			continue // a version, a count, a subcommand (nix flake metadata)
		}
		if r, ok := c.e.p.hostDenied(v); ok {
			c.e.deny(fmt.Sprintf("%s: %q names a host denied by host rule %q", c.name, truncate(a.val, 96), r))
			return
		}
	}
}

// numericShort reports whether v, less a port, is a number or a dotted
// number of fewer than four parts: 10.2 and 2852039166 are addresses to
// inet_aton, but to a program's other words more often a version or a
// count.
func numericShort(v string) bool {
	if h, _, ok := strings.Cut(v, ":"); ok && !strings.Contains(v, "[") && strings.Count(v, ":") == 1 {
		v = h
	}
	return v != "" && strings.Trim(v, "0123456789.") == "" && strings.Count(v, ".") < 3
}
