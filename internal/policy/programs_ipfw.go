package policy

import (
	"slices"
	"strconv"
	"strings"
)

// ipfwProgram classifies FreeBSD's ipfw (pfSense, OPNsense and FreeNAS
// hosts run it beside or instead of pf). Listing reads. What can drop the
// rule the operator's SSH session passes (a flush, which leaves the
// kernel's default deny, a deny rule for every source and SSH's port or
// every port, rule sets
// disabled, moved or swapped, the firewall enabled, or a file of rules
// loaded, whose -p preprocessor is a program it runs) is TierDestructive,
// as pfctl -F and iptables -P INPUT DROP are; other changes are
// TierMutate. ipfw takes its keywords by unique prefix (l, sh, fl).
func ipfwProgram(c *call) (Tier, string) {
	if !allKnown(c.args) {
		c.e.opaque = true
		return TierDestructive, "ipfw: a word computed at run time can flush or replace the firewall's rules"
	}
	var ops []string
	for _, v := range c.vals() {
		if len(ops) == 0 && strings.HasPrefix(v, "-") {
			if strings.ContainsRune(v, 'p') {
				return TierDestructive, "ipfw -p: runs a preprocessor over a file of rules it loads"
			}
			continue
		}
		ops = append(ops, v)
	}
	if len(ops) >= 2 && ops[0] == "set" && allDigits(ops[1]) {
		ops = ops[2:] // ipfw set N COMMAND: the command applies to set N
	}
	if len(ops) == 0 {
		return TierRead, "ipfw: prints its usage"
	}
	kw := func(w, full string, least int) bool { return len(w) >= least && strings.HasPrefix(full, w) }
	w := ops[0]
	switch {
	case kw(w, "list", 1), kw(w, "show", 2):
		return TierRead, "ipfw " + w + ": lists rules"
	case strings.HasPrefix(w, "/") || strings.HasPrefix(w, "."):
		return TierDestructive, "ipfw " + w + ": loads a file of rules, which can drop the operator's session"
	case kw(w, "flush", 1):
		return TierDestructive, "ipfw " + w + ": removes every rule; the kernel's default rule then denies what they let through, SSH included"
	case kw(w, "enable", 2):
		return TierDestructive, "ipfw enable: turns filtering on with whatever rules are loaded"
	case kw(w, "add", 1):
		for _, a := range ops[1:] {
			switch a {
			case "deny", "drop", "reject", "unreach", "unreach6", "reset", "reset6":
				if ipfwDropsSSH(ops) {
					return TierDestructive, "ipfw add " + a + ": a rule that drops traffic from anywhere, SSH's included, cuts off access"
				}
			}
		}
	case w == "set" && len(ops) > 1:
		switch ops[1] {
		case "show":
			return TierRead, "ipfw set show: lists rule sets"
		case "disable", "move", "swap":
			return TierDestructive, "ipfw set " + ops[1] + ": takes rule sets out of use, the one that lets SSH in among them"
		}
	case len(ops) > 1 && (w == "table" || w == "nat" || w == "pipe" || w == "queue" || w == "sched"):
		last := ops[len(ops)-1]
		if kw(last, "list", 1) || kw(last, "show", 2) || last == "info" {
			return TierRead, "ipfw " + w + " " + last + ": lists"
		}
	}
	return TierMutate, "ipfw: changes firewall rules"
}

// ipfwDropsSSH reports whether an "ipfw add" rule's addresses take in
// the operator's session, as iptables' rules are judged: its source is
// any, and its destination names no port or SSH's. A rule it cannot read
// (no from, no to) is taken to.
func ipfwDropsSSH(ops []string) bool {
	from := slices.Index(ops, "from")
	if from < 0 || from+1 >= len(ops) {
		return true
	}
	if src := ops[from+1]; src != "any" && src != "all" {
		return false
	}
	to := slices.Index(ops[from:], "to")
	if to < 0 {
		return true
	}
	at := from + to + 2 // the word after the destination address
	if at >= len(ops) || ops[at] == "" || !strings.ContainsAny(ops[at][:1], "0123456789") && ops[at] != "ssh" {
		return true // no destination port: every port
	}
	for _, p := range strings.Split(ops[at], ",") {
		lo, hi, rng := strings.Cut(p, "-")
		l, errL := strconv.Atoi(lo)
		h, errH := strconv.Atoi(hi)
		if p == "22" || p == "ssh" || rng && (errL != nil || errH != nil || l <= 22 && h >= 22) {
			return true
		}
	}
	return false
}
