package policy

import (
	"path"
	"strconv"
	"strings"
)

// Diagnostic forms of disk, time, mail, load-balancer and BMC tools whose
// other forms repair, set or erase: the check that repairs nothing
// (e2fsck -n, xfs_repair -n, btrfs check), the listing that imports or
// wipes nothing (wipefs DEV, zpool import), the query that sets nothing
// (chronyc tracking, ipmitool sdr). As in programs_inspect.go, only the
// options each form is known to take keep it there.

// listsOnly reports whether c is the listing or checking form of a
// program whose other forms erase or repair, which lifts the deny of
// wipefs (fsWipers) and the tier of zpool import and btrfs check.
func (c *call) listsOnly() bool {
	switch c.name {
	case "wipefs":
		// Without -a or -o wipefs prints the signatures it finds.
		_, _, ok := c.readOpts(optSpec{flags: "Jipqn", valueShort: "Ot",
			longFlags: set(`--json --noheadings --parsable --quiet --no-act`),
			longVals:  set(`--output --types`)})
		return ok
	case "zpool":
		// import with no pool named lists what could be imported.
		if len(c.args) == 0 || !c.args[0].known || c.args[0].val != "import" {
			return false
		}
		ops, _, ok := readArgs(c.args[1:], optSpec{flags: "D", valueShort: "dc"})
		return ok && len(ops) == 0
	case "btrfs":
		// check repairs only with --repair and the --init/--clear options.
		if len(c.args) == 0 || !c.args[0].known || c.args[0].val != "check" {
			return false
		}
		ops, _, ok := readArgs(c.args[1:], optSpec{flags: "pQ", valueShort: "s",
			longFlags: set(`--readonly --progress --qgroup-report --check-data-csum`),
			longVals:  set(`--super`)})
		return ok && len(ops) == 1
	}
	return false
}

// diagProgram classifies the programs listed above by their read forms.
func diagProgram(c *call) (Tier, string) {
	mutate := func() (Tier, string) { return TierMutate, c.name + ": changes the system" }
	// only is readOpts(spec) succeeding with each option letter or long
	// name of need seen and at most max operands.
	only := func(spec optSpec, need string, max int) bool {
		ops, seen, ok := c.readOpts(spec)
		if !ok || len(ops) > max {
			return false
		}
		for _, n := range strings.Fields(need) {
			if !strings.Contains(seen, n) {
				return false
			}
		}
		return true
	}
	switch c.name {
	case "wipefs":
		if c.listsOnly() {
			return TierRead, "wipefs: lists signatures"
		}
		return TierDestructive, "wipefs: erases signatures"
	case "gdisk":
		if only(optSpec{flags: "l"}, "l", 1) {
			return TierRead, "gdisk -l: prints the partition table"
		}
		if why := partScriptWipes(c); why != "" {
			c.e.deny(why)
		}
		return TierDestructive, "gdisk: edits partition tables"
	case "e2fsck", "fsck.ext2", "fsck.ext3", "fsck.ext4":
		// -n opens the file system read-only and answers no.
		if only(optSpec{flags: "nfvt", valueShort: "CbB"}, "n", 1) {
			return TierRead, c.name + " -n: checks without repairing"
		}
		return TierDestructive, c.name + ": repairs file systems"
	case "xfs_repair":
		if only(optSpec{flags: "nvP", valueShort: "mt"}, "n", 1) {
			return TierRead, "xfs_repair -n: checks without repairing"
		}
		return TierDestructive, "xfs_repair: repairs file systems"
	case "chronyc":
		// Its own options come first; -m runs several commands, -h
		// asks another daemon and -f reads another configuration.
		k := 0
		for k < len(c.args) && c.args[k].known && strings.HasPrefix(c.args[k].val, "-") {
			switch c.args[k].val {
			case "-n", "-c", "-N", "-d", "-4", "-6":
				k++
				continue
			}
			return mutate()
		}
		if k < len(c.args) && allKnown(c.args[k:]) {
			switch cmd := c.args[k].val; cmd {
			case "clients":
				// chronyc joins its words into one command line, and
				// clients -r zeroes the access counters it reports.
				for _, a := range c.args[k+1:] {
					for _, w := range strings.Fields(a.val) {
						if w == "-r" {
							return TierMutate, "chronyc clients -r: zeroes the client access counters"
						}
					}
				}
				return TierRead, "chronyc clients"
			case "tracking", "sources", "sourcestats", "activity", "ntpdata", "serverstats", "rtcdata",
				"selectdata", "authdata", "waitsync", "smoothing":
				return TierRead, "chronyc " + cmd
			case "settime":
				return TierDestructive, "chronyc settime: jumps the system clock"
			}
		}
		return mutate()
	case "ntpq":
		// -c and -i run ntpq commands, :config among them.
		ops, seen, ok := c.readOpts(optSpec{flags: "pnw46"})
		if ok && len(ops) <= 1 {
			for _, h := range ops {
				c.checkHost(h)
			}
			if strings.IndexByte(seen, 'p') < 0 && !c.ntpqInputReads() {
				return mutate()
			}
			return TierRead, "ntpq -p: lists the peers"
		}
		return mutate()
	case "ipvsadm":
		_, seen, ok := c.readOpts(optSpec{flags: "Lln", valueShort: "tuf",
			longFlags: set(`--list --numeric --stats --rate --exact --connection --thresholds --persistent-conn --sort`),
			longVals:  set(`--tcp-service --udp-service --fwmark-service`)})
		if ok && (strings.ContainsAny(seen, "Ll") || strings.Contains(seen, " --list")) {
			return TierRead, "ipvsadm -L: lists the virtual servers"
		}
		return mutate()
	case "postqueue":
		if only(optSpec{flags: "pj", valueShort: "c"}, "", 0) && len(c.args) > 0 {
			return TierRead, "postqueue -p: lists the mail queue"
		}
		return mutate()
	case "mailq":
		if len(c.args) == 0 {
			return TierRead, "mailq: lists the mail queue"
		}
		return mutate()
	case "postconf":
		// -e, -X and -# edit main.cf; name=value operands are edits.
		ops, _, ok := c.readOpts(optSpec{flags: "ndhmlaAxMFP", valueShort: "c"})
		if ok {
			for _, o := range ops {
				if strings.ContainsAny(o, "=/") {
					return mutate()
				}
			}
			return TierRead, "postconf: prints settings"
		}
		return mutate()
	case "haproxy":
		if only(optSpec{flags: "cqV", valueShort: "f"}, "c", 0) {
			// Checking parses the file and runs its lua-load scripts
			// (Lua with os.execute), so only the system's own
			// configuration, which only root writes, is a read.
			for _, f := range c.optVals(c.args, "-f") {
				if !f.known || !strings.HasPrefix(path.Clean(f.val)+"/", "/etc/haproxy/") {
					return TierMutate, "haproxy -c -f " + truncate(f.val, 64) + ": a configuration can load Lua that runs programs"
				}
			}
			return TierRead, "haproxy -c: checks the configuration"
		}
		return mutate()
	case "ipmitool":
		return ipmitoolProgram(c)
	case "udevadm":
		// info and monitor report; trigger, control, settle, test and
		// hwdb --update act.
		if len(c.args) > 0 && c.args[0].known && (c.args[0].val == "info" || c.args[0].val == "monitor") {
			if _, _, ok := readArgs(c.args[1:], optSpec{flags: "axrkuew", valueShort: "qpnPdst",
				longFlags: set(`--attribute-walk --export --root --kernel --udev --property --export-db --wait-for-initialization`),
				longVals:  set(`--query --name --path --export-prefix --device-id-of-file --subsystem-match --tag-match`)}); ok {
				return TierRead, "udevadm " + c.args[0].val
			}
		}
		return mutate()
	case "faillog":
		if only(optSpec{flags: "a", valueShort: "ut"}, "", 0) {
			return TierRead, "faillog: reports failed logins"
		}
		return mutate()
	case "chage":
		if only(optSpec{flags: "l"}, "l", 1) {
			return TierRead, "chage -l: shows password ageing"
		}
		if why := chageExpires(c); why != "" {
			return TierDestructive, why
		}
		return mutate()
	case "visudo":
		if only(optSpec{flags: "cqs", valueShort: "f"}, "c", 0) {
			return TierRead, "visudo -c: checks the sudoers files"
		}
		// It edits who may become root (programs_grants.go).
		return TierDestructive, "visudo: edits the sudoers file"
	case "arcstat":
		// -o writes its samples to a file.
		if only(optSpec{flags: "axvp", valueShort: "fs"}, "", 2) {
			return TierRead, "arcstat"
		}
		return mutate()
	case "iotop":
		// Interactive, iotop changes priorities (i); -b prints and exits.
		if only(optSpec{flags: "boPaqtk", valueShort: "ndpu"}, "b", 0) {
			return TierRead, "iotop -b"
		}
		return mutate()
	}
	return mutate()
}

// ipmitoolProgram: the BMC's sensors, event log, FRU, LAN and chassis
// status read; power control, clearing the log and every set change the
// machine or its BMC.
func ipmitoolProgram(c *call) (Tier, string) {
	ops, _, ok := c.readOpts(optSpec{flags: "cvE", valueShort: "IHUPLpfCy"})
	if !ok {
		return TierMutate, "ipmitool"
	}
	for _, h := range c.optVals(c.args, "-H") {
		c.checkHost(h.val)
	}
	if p := ipmiOpaqueCommand(ops); p != "" {
		c.e.opaque = true
		return TierDestructive, "ipmitool " + p + ": sends requests or firmware the classifier cannot read"
	}
	phrase := strings.Join(ops, " ")
	for _, p := range []string{"sdr", "sdr list", "sdr elist", "sdr type", "sdr info", "sensor", "sensor list",
		"sel", "sel list", "sel elist", "sel info", "chassis status", "chassis power status", "chassis poh",
		"chassis restart_cause", "fru", "fru print", "fru list", "lan print", "mc info", "mc guid", "user list",
		"user summary", "channel info", "dcmi power reading", "power status"} {
		if phrase == p || strings.HasPrefix(phrase, p+" ") && (p == "sdr type" || p == "sdr elist" || p == "sdr list" ||
			p == "lan print" || p == "fru print" || p == "user list" || p == "channel info" || p == "sensor list") {
			return TierRead, "ipmitool " + p
		}
	}
	if len(ops) >= 2 && strings.HasPrefix("chassis", ops[0]) && strings.HasPrefix("bootdev", ops[1]) && len(ops[1]) >= 4 ||
		len(ops) >= 2 && ops[0] == "mc" && ops[1] == "reset" {
		// The next boot from the network (a PXE installer may wipe the
		// disks) or another device, and a BMC reset (the remote console
		// and power control gone until it returns), as efibootmgr is.
		return TierDestructive, "ipmitool " + truncate(phrase, 48) + ": changes what the machine boots next, or resets its BMC"
	}
	return TierMutate, "ipmitool " + truncate(phrase, 48) + ": may change the machine or its BMC"
}

// pingProgram: ping reads, unless it floods: -f and -A send as fast as
// replies come back, an interval under 0.2 s or a preload over 3 (both
// root-only) likewise; a flood from a well-connected host can take a
// small network or device down. It is TierMutate, not a write: the
// kernel's read-only confinement does not hold the network. Its
// destinations are held to the host rules, as curl's are.
func pingProgram(c *call) (Tier, string) {
	const valued = "bcFiIlmMpQsStwWeNr" // iputils' options that take a value
	flood := func(why string) (Tier, string) { return TierMutate, c.name + " " + why + ": floods the network" }
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known {
			// A variable that holds only host-like words (for h in web1
			// db1) stays an operand; IFS could split one, but only a
			// value with a '-' inside could then make an option.
			if n, ok := varRef(a.val); ok && varRefWhole(a.val) && validName(n) && c.e.opName(c.ctx.sc, n) {
				continue
			}
			if w := c.computedDestination(a, 1); w != "" {
				c.e.opaque = true
				return TierDestructive, w
			}
			if c.mayBeOption(a) {
				return flood("option computed at run time")
			}
			continue
		}
		if a.val == "--" {
			break
		}
		if a.val == "--flood" {
			return flood(a.val)
		}
		if len(a.val) < 2 || a.val[0] != '-' || a.val[1] == '-' {
			if a.val != "" && a.val[0] != '-' {
				c.checkHost(a.val)
			}
			continue
		}
		for j := 1; j < len(a.val); j++ {
			o := a.val[j]
			if o == 'f' || o == 'A' {
				return flood("-" + string(o))
			}
			if !strings.ContainsRune(valued, rune(o)) {
				continue
			}
			v := a.val[j+1:]
			if v == "" && i+1 < len(c.args) {
				i++
				if !c.args[i].known {
					return flood("-" + string(o) + " computed at run time")
				}
				v = c.args[i].val
			}
			switch o {
			case 'i':
				if s, err := strconv.ParseFloat(v, 64); err != nil || s < 0.2 {
					return flood("-i " + truncate(v, 16))
				}
			case 'l':
				if n, err := strconv.Atoi(v); err != nil || n > 3 {
					return flood("-l " + truncate(v, 16))
				}
			}
			break
		}
	}
	return TierRead, c.name + ": read-only"
}
