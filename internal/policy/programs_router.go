package policy

import (
	"encoding/json"
	"strings"
)

// routerProgram classifies the configuration and status programs of
// appliance firmware (OpenWrt's ubus, uci and iwinfo; Broadcom's nvram and
// wl on Asuswrt and others; Synology DSM's synosystemctl, synopkg and
// synoservicectl, synoupgrade; opkg and miniupnpc's upnpc): the forms that only print are read-only, the forms
// that write flash, settings or service state change the host, and the
// forms that wipe settings or flash are destructive. Appliance packs add
// deny rules over these per host family; this only sets the tier.
func routerProgram(c *call) (Tier, string) {
	t, why := TierRead, ""
	for i, ops := range routerReadings(c.name, c.vals()) {
		if rt, rwhy := routerTier(c, ops); i == 0 || rt > t {
			t, why = rt, rwhy
		}
	}
	return t, why
}

// routerTier classifies one reading of c's words, ops its operands from
// the command on.
func routerTier(c *call, ops []string) (Tier, string) {
	vals := c.vals()
	sub := ""
	if len(ops) > 0 {
		sub = ops[0]
	}
	switch c.name {
	case "nvram":
		switch sub {
		case "get", "show", "dump", "getall", "info":
			return TierRead, "nvram " + sub + ": reads settings"
		case "set", "unset", "commit", "save", "fb_save", "setflag":
			return TierMutate, "nvram " + sub + ": changes settings"
		}
		return TierDestructive, "nvram " + truncate(sub, 32) + ": can erase or replace every setting"
	case "uci":
		// uci takes its commands in any case (strcasecmp), del and ren
		// for delete and rename.
		switch sub = strings.ToLower(sub); sub {
		case "show", "get", "export", "changes":
			return TierRead, "uci " + sub + ": reads configuration"
		case "batch":
			return TierDestructive, "uci batch: runs commands from its input the classifier cannot see (delete, commit)"
		case "delete", "del":
			// A whole package or section (network.lan, dropbear.@dropbear[0])
			// goes with the next commit: the interface or server the
			// operator reaches the router through.
			if len(ops) < 2 || strings.Count(ops[1], ".") < 2 {
				return TierDestructive, "uci delete " + truncate(strings.Join(ops[1:], " "), 48) + ": deletes a whole configuration or section"
			}
		case "import":
			return TierDestructive, "uci import: replaces a configuration package"
		}
		return TierMutate, "uci: changes configuration"
	case "iwinfo":
		// iwinfo DEV scan scans as iw's scan does: probes go out and the
		// radio leaves its channel for a while (tier 1).
		if len(ops) > 1 && ops[1] == "scan" {
			return TierBenign, "iwinfo scan: sends probe requests and leaves the channel while it scans"
		}
		return TierRead, "iwinfo: reads wireless state"
	case "ubus":
		// An object or method known only at run time may be system
		// reboot or file exec, which the deny rules read by name.
		for i, a := range c.args {
			if !a.known && (len(ops) == 0 || !ubusListings[ops[0]]) && !ubusMessage(c.args, i, ops) {
				return TierDestructive, "ubus with a word known only at run time: may reboot the router or run a command"
			}
		}
		return ubusTier(ops)
	case "wl":
		return wlTier(vals)
	case "synosystemctl":
		switch sub {
		case "get-active-status", "get-enable-status", "get-load-status", "is-active", "is-enabled", "status", "list-units", "list-unit-files":
			return TierRead, "synosystemctl " + sub + ": reports"
		}
		// synosystemctl stop sshd is systemctl stop sshd by DSM's name.
		if serviceStopVerbs[sub] || sub == "disable" || sub == "mask" {
			for _, o := range ops[1:] {
				if cutsAccess(o) {
					return TierDestructive, "synosystemctl " + sub + " " + truncate(o, 32) + ": can cut off access"
				}
			}
		}
		return TierMutate, "synosystemctl " + truncate(sub, 32) + ": controls a service"
	case "synopkg":
		switch sub {
		case "status", "list", "version", "is_onoff", "query", "checkupdate", "checkupdateall":
			return TierRead, "synopkg " + sub + ": reports"
		case "uninstall":
			return TierDestructive, "synopkg uninstall: removes a package and its data"
		}
		return TierMutate, "synopkg " + truncate(sub, 32) + ": changes a package"
	case "opkg":
		r := raiser{TierRead, ""}
		if workDirOpts(c, &r); r.t > TierRead {
			return r.t, r.why
		}
		switch sub {
		case "list", "list-installed", "list-upgradable", "info", "status", "find", "files",
			"depends", "whatdepends", "whatdependsrec", "whatprovides", "whatconflicts",
			"whatreplaces", "print-architecture", "compare-versions", "search", "download":
			if sub != "download" {
				return TierRead, "opkg " + sub + ": reports"
			}
		}
		if sub == "remove" {
			for _, o := range ops {
				if essentialPackage(o) || strings.HasPrefix(o, "openssh") {
					return TierDestructive, "opkg remove " + truncate(o, 32) + ": removes what the operator reaches the router through"
				}
			}
		}
		return TierMutate, "opkg " + truncate(sub, 32) + ": changes packages"
	case "synoupgrade":
		if len(vals) == 1 && (vals[0] == "--check" || vals[0] == "--check-smallupdate") {
			return TierRead, "synoupgrade " + vals[0] + ": asks whether DSM has an update"
		}
		return TierDestructive, "synoupgrade: downloads or installs DSM firmware and restarts the NAS"
	case "upnpc":
		// Only the listing forms, optionally on one multicast interface.
		for i := 0; i < len(vals); i++ {
			switch vals[i] {
			case "-l", "-L", "-s", "-P":
			case "-m":
				i++
			default:
				return TierMutate, "upnpc " + truncate(vals[i], 16) + ": may change the router's port mappings"
			}
		}
		return TierRead, "upnpc: lists the router's port mappings"
	case "synoservicectl", "synoservice":
		for _, v := range vals {
			switch v {
			case "--status", "--is-enabled", "--is-enable", "--list":
				return TierRead, c.name + " " + v + ": reports"
			}
		}
		return TierMutate, c.name + ": controls a service"
	}
	return TierMutate, c.name
}

// ubusReadMethods are methods of OpenWrt's ubus objects that only report.
var ubusReadMethods = set(`status dump info board get_clients getDHCPLeases getHostHints
	getWirelessDevices get_status`)

// ubusMessage reports whether args[i], a word known only at run time, is
// only the message of a call whose object and method are known (ubus
// call system board "$J"): the last word, in double quotes so that it
// stays one word. The method then decides, and ubusStops takes such a
// message as any setting (system watchdog, rc init).
func ubusMessage(args []arg, i int, ops []string) bool {
	v := args[i].val
	for _, a := range args[:i] {
		if !a.known {
			return false
		}
	}
	return i == len(args)-1 && len(v) > 2 && v[0] == '"' && v[len(v)-1] == '"' &&
		len(ops) == 4 && ops[0] == "call" && ops[3] == v
}

// ubusListings are the ubus commands that only list or watch.
var ubusListings = set(`list monitor listen wait_for`)

// ubusTier reads a ubus command line: list and the reporting methods are
// read-only; any other call (system reboot, network restart, file write)
// changes the host.
func ubusTier(ops []string) (Tier, string) {
	if len(ops) == 0 {
		return TierRead, "ubus"
	}
	switch {
	case ubusListings[ops[0]]:
		return TierRead, "ubus " + ops[0] + ": reports"
	case ops[0] == "call":
		if len(ops) >= 3 && ubusDestructive(ops[1], ops[2]) {
			return TierDestructive, "ubus call " + truncate(ops[1], 48) + " " + truncate(ops[2], 32) + ": runs a command, rewrites files, reboots or flashes the router"
		}
		if len(ops) >= 3 && ubusStops(ops[1:]) {
			return TierDestructive, "ubus call " + truncate(ops[1], 48) + " " + truncate(ops[2], 32) + ": can stop what the router is reached through, or reset it"
		}
		if len(ops) >= 3 && ubusReadMethods[ops[2]] && !strings.HasPrefix(ops[1], "file") && ops[1] != "rc" {
			return TierRead, "ubus call " + truncate(ops[1], 48) + " " + ops[2] + ": reports"
		}
		if len(ops) >= 3 {
			return TierMutate, "ubus call " + truncate(ops[1], 48) + " " + truncate(ops[2], 32) + ": may change the host"
		}
	}
	return TierMutate, "ubus: may change the host"
}

// wlReadCommands are Broadcom wl subcommands that only report.
var wlReadCommands = set(`assoclist sta_info status ver noise rssi chanspec authe_sta_list
	autho_sta_list bssid isup`)

// wlTier reads a wl command line: [-i IFNAME|-a IFNAME] COMMAND [MAC].
func wlTier(vals []string) (Tier, string) {
	i := 0
	for i < len(vals) && (vals[i] == "-i" || vals[i] == "-a") {
		i += 2
	}
	if i >= len(vals) {
		return TierMutate, "wl: no command"
	}
	cmd, rest := vals[i], vals[i+1:]
	if !wlReadCommands[cmd] {
		return TierMutate, "wl " + truncate(cmd, 32) + ": may change the radio"
	}
	// A setter takes a value; the readers take at most a station's MAC.
	if len(rest) > 1 || (len(rest) == 1 && cmd != "sta_info" && cmd != "rssi") {
		return TierMutate, "wl " + cmd + " with a value: may change the radio"
	}
	return TierRead, "wl " + cmd + ": reads wireless state"
}

// ubusDestructive reports whether a ubus method runs a command (rpcd's
// file exec), writes or removes any file as root, reboots or flashes
// the router (system reboot, sysupgrade) or takes an interface down.
func ubusDestructive(object, method string) bool {
	switch {
	case object == "file":
		return method == "exec" || method == "write" || method == "remove"
	case object == "system":
		// signal sends any signal to any process as root (procd).
		return method == "reboot" || method == "sysupgrade" || method == "signal"
	case strings.HasPrefix(object, "network.interface"):
		return method == "down" || method == "remove"
	}
	return false
}

// ubusStops reports whether a ubus call (object, method, message) can
// stop what the operator reaches the router through, or reset it: procd's
// watchdog given any setting (stop, a timeout) stops feeding the hardware
// watchdog, which then resets the board; an init script or service of
// such a name stopped, disabled or deleted through rc, luci or service.
// A message the classifier cannot read may be any of them.
func ubusStops(call []string) bool {
	object, method, msg := call[0], call[1], ""
	if len(call) > 2 {
		msg = call[2]
	}
	switch object + " " + method {
	case "system watchdog":
		return msg != "" && msg != "{}"
	case "rc init", "luci setInitAction":
	case "service delete", "service set", "service update_start":
	default:
		return false
	}
	var m struct{ Name, Action string }
	if json.Unmarshal([]byte(msg), &m) != nil {
		return true
	}
	if object != "service" && (m.Action == "start" || m.Action == "reload" || m.Action == "enable" || m.Action == "restart") {
		return false
	}
	return cutsAccess(m.Name)
}
