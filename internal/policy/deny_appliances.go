package policy

import (
	"regexp"
	"slices"
	"strings"
)

// The power commands of appliance and management-controller CLIs, denied
// like reboot and poweroff, which they are: ESXi's esxcli system shutdown,
// the UPS tools that cut the power a host runs on (upsmon -c fsd,
// upsdrvctl shutdown, upscmd load.off and shutdown.*), and Dell iDRAC's
// racadm serveraction. Their other commands are classified by their
// handlers (programs_esxi.go, programs_ups.go, programs_bmc.go).

// applianceDeniers are the programs applianceDeny reads: with the above,
// the other BMC clients' power commands (FreeIPMI's ipmi-power and
// ipmi-chassis, ipmiutil's power and reset, DMTF's redfishtool and HPE's
// ilorest resets, iDRAC's racadm under its other names), Synology's
// synoshutdown, a Proxmox node's own reboot or shutdown through pvesh,
// TrueNAS SCALE's cli -c 'system reboot' and Home Assistant's ha host
// reboot; OpenWrt's ubus and TrueNAS's midclt asked for a reboot, a
// factory reset or a disk wipe.
var applianceDeniers = set(`esxcli upsmon upsdrvctl upscmd racadm idracadm idracadm7 ipmi-power ipmi-chassis
	ipmiutil redfishtool ilorest synoshutdown pvesh cli ha ubus midclt`)

// freeipmiCommon are the short options FreeIPMI's tools take a value for.
const freeipmiCommon = "DhupkaIlWRTCFE"

// bmcPowerOnTypes are the Redfish (and ilorest) reset types that leave
// the machine on: every other one turns it off or restarts it.
var bmcPowerOnTypes = set(`on forceon`)

// racadmPowerActions are racadm serveraction's verbs that turn the server
// off or restart it (powerup and powerstatus do not).
var racadmPowerActions = set(`powerdown powercycle hardreset graceshutdown gracereboot`)

// applianceDeny returns why a command of applianceDeniers is denied, or "".
func applianceDeny(name string, args []string) string {
	switch name {
	case "esxcli":
		// esxcli [--server H …] system shutdown poweroff|reboot -r REASON;
		// namespaces are matched without regard to case.
		for i := 0; i+2 < len(args); i++ {
			if strings.EqualFold(args[i], "system") && strings.EqualFold(args[i+1], "shutdown") {
				if v := strings.ToLower(args[i+2]); v == "poweroff" || v == "reboot" {
					return "esxcli system shutdown " + v + ": changes the machine's power state"
				}
			}
		}
	case "upsmon":
		for i, a := range args {
			v, ok := strings.CutPrefix(a, "-c")
			if ok && v == "" && i+1 < len(args) {
				v = args[i+1]
			}
			if ok && strings.EqualFold(v, "fsd") {
				return "upsmon -c fsd: shuts down every system the UPS feeds"
			}
		}
	case "upsdrvctl":
		if hasFlag(args, 't', "") {
			return ""
		}
		// upsdrvctl [-u USER] [-D] {start|stop|shutdown} [UPS]
		for _, a := range args {
			if strings.EqualFold(a, "shutdown") {
				return "upsdrvctl shutdown: tells the UPS to cut the power"
			}
		}
	case "upscmd":
		for _, a := range args {
			l := strings.ToLower(a)
			if strings.Contains(l, "load.off") || strings.Contains(l, "load.cycle") || l == "shutdown" || strings.HasPrefix(l, "shutdown.") {
				return "upscmd " + truncate(a, 32) + ": cuts the power the UPS gives"
			}
		}
	case "ipmi-power":
		// -f --off, -c --cycle, -r --reset, -j --pulse (NMI), -m --soft.
		for _, f := range []struct {
			c    byte
			long string
		}{{'f', "--off"}, {'c', "--cycle"}, {'r', "--reset"}, {'j', "--pulse"}, {'m', "--soft"}} {
			if getoptFlag(args, f.c, f.long, freeipmiCommon) {
				return "ipmi-power " + f.long + ": changes the machine's power state"
			}
		}
	case "ipmi-chassis":
		for i, a := range args {
			opt, v, eq := strings.Cut(a, "=")
			if !longFlag(opt, "--chassis-control") {
				continue
			}
			if !eq && i+1 < len(args) {
				v = args[i+1]
			}
			if l := strings.ToLower(v); l != "power-up" {
				return "ipmi-chassis --chassis-control=" + l + ": changes the machine's power state"
			}
		}
	case "ipmiutil":
		// ipmiutil power|reset: every action but -u (power up) turns the
		// machine off, restarts it or interrupts it.
		if v := firstOperand(name, args); v == "power" || v == "reset" {
			for _, c := range "dcrDsnoh" {
				if getoptFlag(args, byte(c), "", "NUPRTVFJEYmx") {
					return "ipmiutil " + v + " -" + string(c) + ": changes the machine's power state"
				}
			}
		}
	case "redfishtool", "ilorest":
		if why := redfishResetDeny(name, args); why != "" {
			return why // redfishtool raw POST …/ComputerSystem.Reset
		}
		// redfishtool Systems reset [TYPE], ilorest reboot [TYPE]: the
		// default is a restart.
		ops := operands(args)
		for i, o := range ops {
			l := strings.ToLower(o)
			if name == "redfishtool" && l == "reset" && i > 0 && strings.EqualFold(ops[i-1], "systems") ||
				name == "ilorest" && l == "reboot" {
				if i+1 < len(ops) && bmcPowerOnTypes[strings.ToLower(ops[i+1])] {
					return ""
				}
				return name + " " + l + ": changes the machine's power state"
			}
		}
	case "synoshutdown":
		// -s shuts down, -r reboots, -p powers off.
		if getoptFlag(args, 's', "", "") || getoptFlag(args, 'r', "", "") || getoptFlag(args, 'p', "", "") {
			return "synoshutdown: changes the machine's power state"
		}
	case "pvesh":
		// pvesh create /nodes/NODE/status --command reboot|shutdown
		// restarts or powers off the Proxmox node itself.
		ops := operands(args)
		if len(ops) < 2 || ops[0] != "create" && ops[0] != "set" || !pveStops(ops[1]) || strings.Contains(ops[1], "/qemu/") || strings.Contains(ops[1], "/lxc/") {
			return ""
		}
		for i, a := range args {
			opt, v, eq := strings.Cut(strings.TrimPrefix(a, "-"), "=")
			if opt != "-command" && opt != "command" {
				continue
			}
			if !eq && i+1 < len(args) {
				v = args[i+1]
			}
			if v == "reboot" || v == "shutdown" {
				return "pvesh create " + ops[1] + " --command " + v + ": changes the node's power state"
			}
		}
	case "ubus":
		// OpenWrt's ubus call system reboot, through procd.
		// rpcd's rpc-sys object reboots too, and its factory method runs
		// firstboot, erasing every setting.
		for i := 0; i+2 < len(args); i++ {
			if args[i] != "call" {
				continue
			}
			switch args[i+1] + " " + args[i+2] {
			case "system reboot", "rpc-sys reboot":
				return "ubus call " + args[i+1] + " reboot: changes the machine's power state"
			case "rpc-sys factory":
				return "ubus call rpc-sys factory: erases every setting (firstboot)"
			}
		}
	case "midclt":
		// TrueNAS's middleware: system.reboot and system.shutdown, and
		// disk.wipe, which erases a disk's partition table (QUICK) or
		// every block (FULL) as wipefs and blkdiscard do.
		for _, a := range args {
			if la := strings.ToLower(a); la == "system.reboot" || la == "system.shutdown" || la == "system.poweroff" {
				return "midclt call " + la + ": changes the machine's power state"
			}
			if strings.EqualFold(a, "disk.wipe") {
				return "midclt call disk.wipe: erases a disk"
			}
		}
	case "ha":
		// Home Assistant OS's CLI: ha host reboot|shutdown, through the
		// Supervisor. Its global flags (--api-token X) come before or
		// after.
		for i := 0; i+1 < len(args); i++ {
			if v := strings.ToLower(args[i+1]); strings.EqualFold(args[i], "host") && (v == "reboot" || v == "shutdown") {
				return "ha host " + v + ": changes the machine's power state"
			}
		}
	case "cli":
		// TrueNAS SCALE's cli -c 'system reboot|shutdown'.
		for i, a := range args {
			if (a == "-c" || a == "--command") && i+1 < len(args) {
				f := strings.Fields(strings.ToLower(args[i+1]))
				if len(f) >= 2 && f[0] == "system" && (f[1] == "reboot" || f[1] == "shutdown" || f[1] == "poweroff") {
					return "cli system " + f[1] + ": changes the machine's power state"
				}
			}
		}
	case "racadm", "idracadm", "idracadm7":
		for i := 0; i+1 < len(args); i++ {
			if strings.EqualFold(args[i], "serveraction") && racadmPowerActions[strings.ToLower(args[i+1])] {
				return "racadm serveraction " + strings.ToLower(args[i+1]) + ": changes the machine's power state"
			}
		}
	}
	return ""
}

// redfishReset matches a Redfish ComputerSystem.Reset's reset type in a
// request's text: {"ResetType": "ForceOff"}, ResetType=ForceOff.
var redfishReset = regexp.MustCompile(`(?i)resettype\\?"?\s*[:=]+\s*\\?"?([a-z]+)`)

// redfishResetDeny returns why an HTTP client's request asks a BMC's
// Redfish service to turn the machine off or restart it (every reset type
// but On and ForceOn), or "". A body the command line does not show
// (-d @file) is not known.
func redfishResetDeny(name string, args []string) string {
	if !slices.ContainsFunc(args, func(a string) bool { return strings.Contains(a, "eset") || strings.Contains(a, "ESET") }) {
		return "" // cheap first: every curl goes through here
	}
	j := strings.Join(args, " ")
	if !strings.Contains(strings.ToLower(j), "computersystem.reset") {
		return ""
	}
	m := redfishReset.FindStringSubmatch(j)
	if m == nil || bmcPowerOnTypes[strings.ToLower(m[1])] {
		return ""
	}
	return name + ": asks the BMC to reset the machine (" + m[1] + ")"
}
