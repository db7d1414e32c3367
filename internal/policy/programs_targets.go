package policy

import "strings"

// Storage targets and pools: LIO's targetcli and targetctl, tgt's tgtadm
// and tgt-admin, SnapRAID and mergerfs.ctl; see programs_appliance.go for
// the tiers these families share.

// targetcliDangers are the targetcli commands that delete a storage
// object, target, LUN or ACL, clear or replace the whole configuration,
// or disable a portal group; targetctl's clear and restore likewise.
var targetcliDangers = set(`delete clearconfig restoreconfig disable clear restore`)

// targetcliReads are the targetcli commands that print.
var targetcliReads = set(`ls info get pwd help sessions status version`)

// targetcliProgram classifies targetcli, which runs its arguments as one
// line of its shell ([path] command [parameters]), and targetctl. With
// no command targetcli reads commands from its input, which may be any.
func targetcliProgram(c *call) (Tier, string) {
	var fields []string
	for _, a := range c.args {
		if !a.known {
			return c.computed("command")
		}
		fields = append(fields, strings.Fields(a.val)...)
	}
	if len(fields) == 0 {
		if c.name == "targetctl" {
			return TierMutate, "targetctl"
		}
		return TierDestructive, "targetcli: reads commands from its input"
	}
	switch fields[0] {
	case "--version", "-v", "--help", "-h":
		if len(fields) == 1 {
			return TierRead, c.name + ": prints its version or usage"
		}
	}
	for _, f := range fields {
		// configshell reads one command a line; a teardown word
		// anywhere on it is taken for the command.
		if targetcliDangers[strings.ToLower(f)] {
			return TierDestructive, c.name + " " + truncate(f, 32) + ": deletes a storage object, target or LUN, or replaces the configuration"
		}
	}
	cmd := strings.ToLower(fields[0])
	if c.name == "targetcli" && (strings.HasPrefix(cmd, "/") || strings.HasPrefix(cmd, ".") || strings.HasPrefix(cmd, "@")) {
		if len(fields) == 1 {
			return TierMutate, "targetcli " + truncate(cmd, 64) + ": changes the current path"
		}
		cmd = strings.ToLower(fields[1])
	}
	label := c.name + " " + truncate(cmd, 32)
	switch {
	case targetcliDangers[cmd]:
		return TierDestructive, label + ": deletes a storage object, target or LUN, or replaces the configuration"
	case targetcliReads[cmd] && c.name == "targetcli":
		return TierRead, label + ": reports"
	}
	return TierMutate, label + ": changes the iSCSI or SCSI target configuration"
}

// tgtadmValued are tgtadm's short options that take a value.
const tgtadmValued = "LomtsclnvbEfTIQupHPBYCSy"

// tgtadmProgram classifies tgt's tgtadm by --op: show and stat read;
// delete and unbind remove a target, LUN, account, connection or access;
// update setting the state offline takes a target away.
func tgtadmProgram(c *call) (Tier, string) {
	ops := scanOpts(c.args, tgtadmValued, true, []string{"-o", "--op"}, nil)
	if len(ops) == 0 {
		for _, a := range c.args {
			if a.known && (a.val == "-h" || longFlag(a.val, "--help")) {
				return TierRead, "tgtadm --help"
			}
		}
		return TierMutate, "tgtadm: changes the iSCSI target configuration"
	}
	read := true
	for _, op := range ops {
		if !op.known {
			return c.computed("--op")
		}
		switch strings.ToLower(op.val) {
		case "delete", "unbind":
			return TierDestructive, "tgtadm --op " + op.val + ": removes a target, LUN, account, connection or access"
		case "update":
			for _, v := range scanOpts(c.args, tgtadmValued, true, []string{"-v", "--value"}, nil) {
				if !v.known {
					return c.computed("--value")
				}
				if strings.EqualFold(v.val, "offline") {
					return TierDestructive, "tgtadm --op update offline: takes the target offline"
				}
			}
			read = false
		case "show", "stat":
		default:
			read = false
		}
	}
	if read {
		return TierRead, "tgtadm --op show: reports"
	}
	return TierMutate, "tgtadm: changes the iSCSI target configuration"
}

// tgtAdminProgram classifies tgt-admin, a Perl script reading options
// with Getopt::Long (any unambiguous prefix, one dash or two): --delete
// and --offline take targets away unless --pretend only prints.
func tgtAdminProgram(c *call) (Tier, string) {
	danger, pretend, read := "", false, len(c.args) > 0
	for _, a := range c.args {
		if !a.known {
			return c.computed("option")
		}
		if !strings.HasPrefix(a.val, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a.val, "-"), "=")
		isOpt := func(long string, short string) bool {
			return name == short || len(name) >= 2 && strings.HasPrefix(long, name)
		}
		switch {
		case isOpt("pretend", "p"):
			pretend = true
		case isOpt("delete", "d"), isOpt("offline", ""):
			danger = name
		case isOpt("show", "s"), isOpt("dump", ""), isOpt("help", "h"), isOpt("verbose", "v"), isOpt("conf", "c"):
		default:
			read = false
		}
	}
	if danger != "" && !pretend {
		return TierDestructive, "tgt-admin --" + truncate(danger, 16) + ": removes targets or takes them offline"
	}
	if read || pretend {
		return TierRead, "tgt-admin: reports"
	}
	return TierMutate, "tgt-admin: changes the iSCSI target configuration"
}

// snapraidReads are the snapraid commands that only read the array.
var snapraidReads = set(`status diff list dup check smart probe devices`)

// snapraidProgram classifies SnapRAID by its command: fix rewrites the
// array's files from parity; sync, scrub, touch, rehash, pool, up and
// down change the array, its parity or its disks' power; the rest read.
// --log writes a file.
func snapraidProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "snapraid: reports"}
	for _, f := range c.optVals(c.args, "-l", "--log") {
		r.raise(c.writeArg(f, "snapraid --log"))
	}
	// -c/--conf names the configuration, and with it the smartctl
	// options smart runs through a shell (smartctl d1 -d sat %s; CMD)
	// and the content files beside which it creates its lock
	// file: only the system's own leaves a report a read.
	for _, f := range c.optVals(c.args, "-c", "--conf") {
		if !f.known || !systemConfig(f.val) {
			r.raise(TierMutate, "snapraid -c "+truncate(f.val, 64)+": a configuration names the shell commands smart runs and the files it locks")
		}
	}
	ops := optionOperands(c.args, "cfdpoSBLil", "--conf --filter --filter-disk --plan --percentage --older-than --start --count --error-limit --import --log")
	if len(ops) == 0 {
		return r.t, "snapraid: prints its usage"
	}
	if !ops[0].known {
		return c.computed("command")
	}
	for _, o := range ops {
		// getopt_long takes long options abbreviated (--co FILE), whose
		// value may be read here as the command.
		if o.known && strings.EqualFold(o.val, "fix") {
			return TierDestructive, "snapraid fix: rewrites the array's files from parity"
		}
	}
	cmd := strings.ToLower(ops[0].val)
	switch {
	case cmd == "fix":
		return TierDestructive, "snapraid fix: rewrites the array's files from parity"
	case snapraidReads[cmd] && r.t > TierRead:
		return r.t, r.why
	case snapraidReads[cmd]:
		return r.t, "snapraid " + cmd + ": reports"
	}
	return maxTier(r.t, TierMutate), "snapraid " + truncate(cmd, 32) + ": changes the array or its parity"
}

// mergerfsCtlProgram classifies mergerfs.ctl [-m MOUNT] COMMAND: info,
// list and get read; remove drops a branch, whose files leave the pool.
func mergerfsCtlProgram(c *call) (Tier, string) {
	ops := optionOperands(c.args, "m", "--mount")
	for _, a := range c.args {
		// argparse takes --mount abbreviated.
		if n, _, eq := strings.Cut(a.val, "="); a.known && !eq && len(n) > 3 && strings.HasPrefix("--mount", n) && n != "--mount" {
			ops = optionOperands(c.args, "m", "--mount "+n)
		}
	}
	if len(ops) == 0 {
		return TierRead, "mergerfs.ctl: prints its usage"
	}
	if !ops[0].known {
		return c.computed("command")
	}
	switch cmd := strings.ToLower(ops[0].val); cmd {
	case "info", "list", "get":
		return TierRead, "mergerfs.ctl " + cmd + ": reports"
	case "remove", "rm", "del", "delete":
		return TierDestructive, "mergerfs.ctl remove: drops a branch and its files from the pool"
	}
	return TierMutate, "mergerfs.ctl: changes the pool"
}
