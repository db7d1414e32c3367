package policy

import "strings"

// The kernel's security modules and its audit: turning one off, or
// removing its rules, takes away a boundary every later program ran
// inside (SELinux's and AppArmor's confinement of services) or the
// record of what they do (auditd's rules). Reading their state is a
// read; loading or adding rules changes the system.

// lsmProgram classifies setenforce, the AppArmor tools and auditctl.
func lsmProgram(c *call) (Tier, string) {
	vals := c.vals()
	if !allKnown(c.args) {
		c.e.opaque = true
		return TierDestructive, c.name + ": arguments computed at run time can turn the security module or its rules off"
	}
	switch c.name {
	case "setenforce":
		if len(vals) == 1 && (vals[0] == "1" || strings.EqualFold(vals[0], "enforcing")) {
			return TierMutate, "setenforce: enforces SELinux"
		}
		return TierDestructive, "setenforce: turns SELinux enforcement off"
	case "aa-disable", "aa-complain", "aa-teardown", "aa-audit":
		if c.name == "aa-audit" {
			return TierMutate, c.name + ": changes AppArmor profiles"
		}
		return TierDestructive, c.name + ": stops AppArmor confining programs"
	case "aa-enforce":
		return TierMutate, c.name + ": changes AppArmor profiles"
	case "apparmor_parser":
		if hasFlag(vals, 'R', "--remove") {
			return TierDestructive, "apparmor_parser -R: removes AppArmor profiles"
		}
		if parserChecks(vals) {
			return TierRead, "apparmor_parser: checks profiles without loading them"
		}
		return TierMutate, "apparmor_parser: loads AppArmor profiles"
	case "auditctl":
		for i, v := range vals {
			switch {
			case v == "-D" || v == "-d" || strings.HasPrefix(v, "-d") || v == "-W":
				return TierDestructive, "auditctl " + v + ": deletes audit rules"
			case v == "-e" && i+1 < len(vals) && vals[i+1] != "1" && vals[i+1] != "2", v == "-e0":
				return TierDestructive, "auditctl -e: turns auditing off"
			}
		}
		if onlyFlagsPrefix(vals, "-l", "-s", "-v", "-h", "--help", "--version") {
			return TierRead, "auditctl: lists audit rules or status"
		}
		return TierMutate, "auditctl: changes audit rules"
	}
	return TierMutate, c.name
}

// parserChecks reports whether apparmor_parser's options only check or
// print profiles: -Q (or --skip-kernel-load, -p, -V, -h) with flags that
// neither load, remove nor write a cache or an output file.
func parserChecks(vals []string) bool {
	check := false
	for _, v := range vals {
		switch {
		case v == "--skip-kernel-load" || v == "--preprocess" || v == "--version" || v == "--help":
			check = true
		case v == "--skip-cache" || v == "--skip-read-cache" || v == "--quiet" || v == "--debug":
		case strings.HasPrefix(v, "--"):
			return false
		case strings.HasPrefix(v, "-"):
			for _, f := range v[1:] {
				switch {
				case strings.ContainsRune("QpVh", f):
					check = true
				case !strings.ContainsRune("KTqd", f):
					return false
				}
			}
		}
	}
	return check
}

// authProgram classifies the tools that rewrite the PAM stack and name
// service configuration every login goes through (Debian's
// pam-auth-update, authselect, authconfig): one wrong module there stops
// every login, root's too, or lets any password in, so changing it is
// TierDestructive as writing /etc/pam.d is; their show and test forms
// read.
func authProgram(c *call) (Tier, string) {
	vals := c.vals()
	if !allKnown(c.args) {
		c.e.opaque = true
		return TierDestructive, c.name + ": arguments computed at run time can rewrite the PAM stack"
	}
	if hasFlag(vals, 'h', "--help") || hasFlag(vals, 0, "--version") {
		return TierRead, c.name + " --help"
	}
	switch c.name {
	case "authselect":
		if ops := operands(vals); len(ops) > 0 {
			switch ops[0] {
			case "current", "list", "show", "check", "requirements", "test", "list-features", "backup-list":
				return TierRead, "authselect " + ops[0] + ": reads the profile"
			}
		}
	case "authconfig":
		if !hasFlag(vals, 0, "--update") && !hasFlag(vals, 0, "--updateall") && !hasFlag(vals, 0, "--kickstart") {
			return TierRead, "authconfig: without --update it writes nothing"
		}
	}
	return TierDestructive, c.name + ": rewrites the PAM stack every login goes through"
}
