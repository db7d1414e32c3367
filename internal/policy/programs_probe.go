package policy

import "strings"

// probeProgram classifies the status commands of other init systems and
// firewalls that host inspection runs (pf, OpenRC, iptables-save, Arch's
// checkupdates): their show forms are read-only, anything else changes
// the host.
func probeProgram(c *call) (Tier, string) {
	vals := c.vals()
	switch c.name {
	case "rc-status", "checkupdates":
		return TierRead, c.name + ": shows status"
	case "iptables-save", "ip6tables-save":
		for _, v := range vals {
			if v == "-f" || strings.HasPrefix(v, "--file") {
				return TierMutate, c.name + " -f: writes a file"
			}
		}
		return TierRead, c.name + ": prints the rules"
	case "rc-service":
		ops := operands(vals)
		if len(ops) == 0 && hasFlag(vals, 'l', "--list") {
			return TierRead, "rc-service -l: lists services"
		}
		if len(ops) == 2 && (ops[1] == "status" || ops[1] == "describe") {
			return TierRead, "rc-service: shows a service's status"
		}
		return TierMutate, "rc-service: changes a service"
	case "pfctl":
		return pfctlTier(vals)
	}
	return TierMutate, c.name
}

// pfctlTier reads pfctl's flags: -s shows, -F flushes, -d disables, and
// everything else (loading rules, killing states, table edits) changes pf.
func pfctlTier(vals []string) (Tier, string) {
	if len(vals) == 0 {
		return TierRead, "pfctl"
	}
	read := false
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
		default:
			return TierMutate, "pfctl: changes pf"
		}
	}
	if read {
		return TierRead, "pfctl: shows pf state"
	}
	return TierMutate, "pfctl: changes pf"
}
