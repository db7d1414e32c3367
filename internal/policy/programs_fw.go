package policy

// Options of the iptables family that run or write whatever command they
// come with: --modprobe (-M) names the program iptables, ip6tables,
// their -save and -restore, ebtables and arptables run to load a missing
// kernel module (a table not loaded yet: iptables -t raw -L), as root;
// ebtables' --atomic-save and --atomic-init write the atomic file and
// --atomic-commit loads it into the kernel in place of the tables.

// modprobeOpt classifies --modprobe as running its program.
func (c *call) modprobeOpt() (Tier, string) {
	progs := c.optVals(c.args, "-M", "--modprobe")
	if len(progs) == 0 {
		return TierRead, ""
	}
	for _, p := range progs {
		c.run([]arg{p})
	}
	return TierDestructive, c.name + " --modprobe " + truncate(progs[0].val, 64) + ": runs the program to load kernel modules"
}

// firewallProgram classifies a firewall tool by its rules
// (firewallRules) and the options above.
func firewallProgram(c *call) (Tier, string) {
	if c.name != "nft" && c.name != "ufw" && c.name != "firewall-cmd" {
		if t, why := c.modprobeOpt(); t > TierRead {
			return t, why
		}
	}
	t, why := firewallRules(c)
	if c.name != "ebtables" || t == TierDestructive {
		return t, why
	}
	r := raiser{t, why}
	for _, a := range c.args {
		switch {
		case !a.known || a.val == "--":
		case longFlag(a.val, "--atomic-commit"):
			return TierDestructive, "ebtables --atomic-commit: replaces the tables with the atomic file's"
		case longFlag(a.val, "--atomic-save") || longFlag(a.val, "--atomic-init"):
			files := c.optVals(c.args, "--atomic-file")
			if len(files) == 0 {
				r.raise(TierMutate, "ebtables "+a.val+": writes the file EBTABLES_ATOMIC_FILE names")
			}
			for _, f := range files {
				r.raise(c.writeArg(f, "ebtables "+a.val))
			}
		}
	}
	return r.t, r.why
}
