package policy

import (
	"slices"
	"strconv"
	"strings"
)

// The BMC through ipmitool. ipmitool matches its words by prefix
// (strncmp against the word's own length: "power offline" is power off,
// "power downtime" power down), so the power verbs are matched the same
// way; and a raw request is whatever bytes it is given, so raw 0x00 0x02
// (the chassis control command) with a power-changing byte is the power
// verb by another name. Raw requests, I2C writes, firmware upgrades and
// the commands exec and shell read from a file or input are beyond what
// the classifier reads: TierDestructive.

// ipmiPowerVerbs are the chassis power verbs that turn the machine off or
// restart it (diag sends it a non-maskable interrupt, which panics most
// kernels); on and up are left to ipmitoolProgram.
var ipmiPowerVerbs = []string{"down", "off", "cycle", "reset", "diag", "acpi", "soft"}

// ipmiChassisControl are the data bytes of the chassis control command
// that power down (0), cycle (2), hard-reset (3), pulse the diagnostic
// interrupt (4) or ask the OS to shut down (5).
var ipmiChassisControl = map[uint64]string{0: "power down", 2: "power cycle", 3: "hard reset", 4: "diagnostic interrupt", 5: "soft shutdown"}

// ipmiPowerDeny returns why an ipmitool command changes the machine's
// power state, or "".
func ipmiPowerDeny(args []string) string {
	for i, a := range args {
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "power") && i+1 < len(args) {
			next := strings.ToLower(args[i+1])
			for _, v := range ipmiPowerVerbs {
				if strings.HasPrefix(next, v) {
					return "ipmitool power " + v + ": changes the machine's power state"
				}
			}
		}
		if l == "raw" && i+3 < len(args) {
			netfn, ok1 := ipmiByte(args[i+1])
			cmd, ok2 := ipmiByte(args[i+2])
			data, ok3 := ipmiByte(args[i+3])
			if ok1 && ok2 && ok3 && netfn == 0 && cmd == 2 && ipmiChassisControl[data] != "" {
				return "ipmitool raw chassis control (" + ipmiChassisControl[data] + "): changes the machine's power state"
			}
		}
	}
	return ""
}

// ipmiByte reads a byte as ipmitool's str2uchar does (strtoul, base 0:
// 0x2, 02 and 2 are all 2).
func ipmiByte(s string) (uint64, bool) {
	n, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(s), "+"), 0, 8)
	return n, err == nil
}

// ipmiOpaque are the ipmitool commands whose effect the classifier cannot
// read: raw requests and I2C transfers are any bytes, exec and shell run
// ipmitool commands from a file or from input, and hpm, fwum and fru
// write/edit/upgEKey flash the BMC's firmware or FRU data.
var ipmiOpaque = phrases(`raw|i2c|exec|shell|hpm|fwum|fru write|fru edit|fru upgekey`)

// ipmiOpaqueCommand returns the ipmitool command in ops that the
// classifier cannot read, or "".
func ipmiOpaqueCommand(ops []string) string {
	l := strings.ToLower(strings.Join(ops, " "))
	for p := range ipmiOpaque {
		if l == p || strings.HasPrefix(l, p+" ") {
			return p
		}
	}
	return ""
}

// Dell iDRAC's racadm [-r HOST -u USER -p PASS] [-i] [--nocertwarn]
// SUBCOMMAND …: the get/list/view subcommands read; the power actions of
// serveraction are denied (deny_appliances.go); resetting or erasing the
// controller or the system, deleting jobs, logs or virtual disks, and
// firmware updates are TierDestructive; anything else changes settings.

// racadmReads are the subcommands that only read.
var racadmReads = set(`getsysinfo get getconfig getsel getraclog getsvctag getversion getniccfg getsensorinfo
	hwinventory swinventory getled getssninfo getractime racdump gettracelog getuscversion help`)

// racadmDestructive are the subcommands that reset, erase or flash.
var racadmDestructive = set(`racreset racresetcfg systemerase clrsel clrraclog sslresetcfg fwupdate update
	vflashsd vflashpartition`)

func racadmProgram(c *call) (Tier, string) {
	var ops []string
	global := true
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known {
			return c.computed("argument")
		}
		if global {
			switch a.val {
			case "-r", "-u", "-p":
				i++
				continue
			case "-i", "--nocertwarn":
				continue
			}
			global = false
		}
		ops = append(ops, strings.ToLower(a.val))
	}
	if len(ops) == 0 {
		return TierRead, "racadm: prints its usage"
	}
	sub, next := ops[0], ""
	if len(ops) > 1 {
		next = ops[1]
	}
	switch {
	case racadmDestructive[sub], sub == "serveraction" && next != "powerstatus", sub == "jobqueue" && next == "delete",
		sub == "lclog" && next == "clear", sub == "storage" && next != "get" && next != "":
		return TierDestructive, "racadm " + sub + ": resets, erases, flashes or powers the server or its controller"
	case slices.ContainsFunc(ops[1:], func(o string) bool { return strings.HasPrefix(o, "-f") || strings.HasPrefix(o, "-o") }):
		// get -t xml -f FILE exports to a local file; set -f imports one.
		return TierMutate, "racadm " + truncate(sub, 32) + " -f: reads or writes a local file"
	case racadmReads[sub], sub == "serveraction", sub == "storage",
		(sub == "lclog" || sub == "jobqueue") && next == "view":
		return TierRead, "racadm " + sub
	}
	return TierMutate, "racadm " + truncate(sub, 32) + ": changes the server's or the controller's settings"
}
