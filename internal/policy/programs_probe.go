package policy

import "strings"

// probeProgram classifies the status commands of other init systems and
// firewalls that host inspection runs (pf, OpenRC, iptables-save, Arch's
// checkupdates): their show forms are read-only, anything else changes
// the host.
func probeProgram(c *call) (Tier, string) {
	vals := c.vals()
	switch c.name {
	case "iptables-save", "ip6tables-save", "iptables-restore", "ip6tables-restore",
		"iptables-legacy-save", "ip6tables-legacy-save", "iptables-nft-save", "ip6tables-nft-save",
		"iptables-legacy-restore", "ip6tables-legacy-restore", "iptables-nft-restore", "ip6tables-nft-restore":
		if t, why := c.modprobeOpt(); t > TierRead {
			return t, why
		}
	}
	switch c.name {
	case "rc-status", "checkupdates":
		return TierRead, c.name + ": shows status"
	case "iptables-save", "ip6tables-save", "iptables-legacy-save", "ip6tables-legacy-save", "iptables-nft-save", "ip6tables-nft-save":
		// -f/--file in every getopt spelling: -f/x, --fi=/x.
		r := raiser{TierRead, c.name + ": prints the rules"}
		for _, f := range c.optVals(c.args, "-f", "--file") {
			r.raise(c.writeArg(f, c.name+" -f"))
		}
		return r.t, r.why
	case "rc-service":
		if t, why, ok := c.runnerScriptTier(); ok {
			return t, why
		}
		ops := operands(vals)
		if len(ops) == 0 && hasFlag(vals, 'l', "--list") {
			return TierRead, "rc-service -l: lists services"
		}
		if len(ops) == 2 && (ops[1] == "status" || ops[1] == "describe") {
			return TierRead, "rc-service: shows a service's status"
		}
		if len(ops) >= 2 && serviceStopVerbs[ops[1]] && cutsAccess(ops[0]) {
			return TierDestructive, "rc-service " + ops[0] + " " + ops[1] + ": can cut off access or stop the host"
		}
		return TierMutate, "rc-service: changes a service"
	case "pfctl":
		return pfctlTier(vals)
	case "iptables-restore", "ip6tables-restore", "iptables-legacy-restore", "ip6tables-legacy-restore", "iptables-nft-restore", "ip6tables-nft-restore":
		// --test parses and builds the ruleset without committing it.
		if hasFlag(vals, 't', "--test") {
			return TierRead, c.name + " --test: parses rules without loading them"
		}
		return TierDestructive, c.name + ": replaces firewall rules"
	case "ipset":
		// -file names where list and save write their output.
		r := raiser{}
		r.raise(ipsetTier(vals))
		for _, f := range c.optVals(c.args, "-file", "--file", "-f") {
			if r.t < TierDestructive {
				r.raise(c.writeArg(f, "ipset -file"))
			}
		}
		return r.t, r.why
	}
	return TierMutate, c.name
}

// pfctlTier reads pfctl's flags: -s shows, -F flushes, -d disables, and
// everything else (loading rules, killing states, table edits) changes pf.
func pfctlTier(vals []string) (Tier, string) {
	if len(vals) == 0 {
		return TierRead, "pfctl"
	}
	if pfctlParseOnly(vals) {
		return TierRead, "pfctl -n -f: parses rules without loading them"
	}
	read, mutate := false, false
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		switch {
		case v == "-v" || v == "-vv" || v == "-g" || v == "-r":
		case v == "-s" && i+1 < len(vals):
			read = true
			i++
		case strings.HasPrefix(v, "-s") && len(v) > 2:
			read = true
		case v == "-t" && i+1 < len(vals):
			i++
		case v == "-T" && i+1 < len(vals) && (vals[i+1] == "show" || vals[i+1] == "test"):
			read = true
			i++
		case strings.HasPrefix(v, "-F"):
			return TierDestructive, "pfctl -F: flushes pf state or rules"
		case v == "-d":
			return TierDestructive, "pfctl -d: disables the firewall"
		case len(v) > 2 && v[0] == '-' && v[1] != '-':
			// A cluster: -vvsr is -v -v -sr, and -vFa flushes.
			ct, show, next := pfctlCluster(v)
			if ct == TierDestructive {
				return TierDestructive, "pfctl -F or -d: flushes pf or disables the firewall"
			}
			if next {
				if i+1 >= len(vals) {
					mutate = true
				}
				i++
			}
			read = read || show
			mutate = mutate || ct > TierRead
		default:
			// Keep reading: a later -F or -d is destructive.
			mutate = true
		}
	}
	if read && !mutate {
		return TierRead, "pfctl: shows pf state"
	}
	return TierMutate, "pfctl: changes pf"
}

// pfctlCluster reads a cluster of pfctl's short options: -v, -g and -r
// only change the display and -s shows (the rest of the word, or the next,
// is what); -F flushes and -d disables. Any other letter changes pf, and
// one that takes a value ends the cluster. next reports whether -s ends
// the word, so the next word is what it shows.
func pfctlCluster(v string) (t Tier, show, next bool) {
	for j := 1; j < len(v); j++ {
		switch c := v[j]; c {
		case 'v', 'g', 'r':
		case 's':
			return t, true, j == len(v)-1
		case 'F', 'd':
			return TierDestructive, false, false
		default:
			t = TierMutate
			if strings.IndexByte("aDfiKkLopsStTx", c) >= 0 {
				return t, false, false
			}
		}
	}
	return t, false, false
}

// pfctlParseOnly reports whether vals are only -n (no action) with -f FILE
// (and -v): the parse-only check of a rule file, which loads nothing.
// Other flags are not trusted with -n: pfctl -e and -d act regardless.
func pfctlParseOnly(vals []string) bool {
	noAction, file := false, false
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		if len(v) < 2 || v[0] != '-' || v[1] == '-' {
			return false
		}
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case 'n':
				noAction = true
			case 'v':
			case 'f':
				// -f takes the rest of the word, or the next word.
				if j+1 < len(v) || i+1 >= len(vals) {
					return false
				}
				file = true
				i++
				j = len(v)
			default:
				return false
			}
		}
	}
	return noAction && file
}

// ipsetTier reads ipset's command, the first word that names one (options
// such as -exist or -output plain come before it): list, save and test
// show; create, add and del change sets; flush, destroy, restore, swap and
// anything unrecognised replace them.
func ipsetTier(vals []string) (Tier, string) {
	if len(vals) == 0 {
		return TierRead, "ipset"
	}
	for _, v := range vals {
		switch v {
		case "list", "-L", "save", "-S", "test", "-T", "version", "-V", "help":
			return TierRead, "ipset " + v + ": shows sets"
		case "create", "-N", "add", "-A", "del", "-D", "rename", "-E":
			return TierMutate, "ipset " + v + ": changes a set"
		case "flush", "-F", "destroy", "-X", "restore", "-R", "swap", "-W":
			return TierDestructive, "ipset " + v + ": flushes, destroys or replaces sets"
		}
	}
	return TierDestructive, "ipset: command not recognised"
}
