package policy

import "strings"

// clientSettings classifies what the options of a subcommand-table
// program make it write or run, whatever its subcommand reads:
// zpool status/iostat -c run scripts from ZPOOL_SCRIPTS_PATH (~/.zpool.d
// before /etc/zfs/zpool.d); lvm's own subcommands take the options lvs
// and the other reports do (lvmOptions); docker --config is the directory
// docker runs its CLI plugins (compose, buildx) from; kubectl --profile
// writes a profile (profile.pprof in the working directory unless
// --profile-output names another file) and klog's --log-file and
// --log-dir write logs. Both parse with pflag, which takes long names
// only whole.
func (c *call) clientSettings() (Tier, string) {
	vals := c.vals()
	ops := subOperands(subcommandTables[c.name], vals)
	first := ""
	after := vals
	if len(ops) > 0 {
		first = ops[0]
		for i, v := range vals {
			if v == first {
				after = vals[i+1:]
				break
			}
		}
	}
	switch c.name {
	case "zpool":
		if (first == "status" || first == "iostat") && hasFlag(after, 'c', "") {
			return TierMutate, "zpool " + first + " -c: runs scripts from ZPOOL_SCRIPTS_PATH (~/.zpool.d first)"
		}
	case "lvm":
		return lvmOptions(first, after)
	case "docker":
		if len(exactOptVals(c.args, "--config")) > 0 {
			return TierDestructive, "docker --config: the configuration directory names the CLI plugins docker runs"
		}
	case "kubectl":
		r := raiser{TierRead, ""}
		for _, f := range exactOptVals(c.args, "--log-file", "--log_file", "--log-dir", "--log_dir") {
			r.raise(c.writeArg(f, "kubectl log file"))
		}
		for _, p := range exactOptVals(c.args, "--profile") {
			if p.known && strings.EqualFold(p.val, "none") {
				continue
			}
			outs := exactOptVals(c.args, "--profile-output", "--profile_output")
			if len(outs) == 0 {
				outs = []arg{{val: "profile.pprof", known: true}}
			}
			for _, o := range outs {
				r.raise(c.writeArg(o, "kubectl --profile output"))
			}
		}
		return r.t, r.why
	}
	return TierRead, ""
}
