package policy

import "strings"

// The power commands of appliance and management-controller CLIs, denied
// like reboot and poweroff, which they are: ESXi's esxcli system shutdown,
// the UPS tools that cut the power a host runs on (upsmon -c fsd,
// upsdrvctl shutdown, upscmd load.off and shutdown.*), and Dell iDRAC's
// racadm serveraction. Their other commands are classified by their
// handlers (programs_esxi.go, programs_ups.go, programs_bmc.go).

// applianceDeniers are the programs applianceDeny reads.
var applianceDeniers = set(`esxcli upsmon upsdrvctl upscmd racadm`)

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
	case "racadm":
		for i := 0; i+1 < len(args); i++ {
			if strings.EqualFold(args[i], "serveraction") && racadmPowerActions[strings.ToLower(args[i+1])] {
				return "racadm serveraction " + strings.ToLower(args[i+1]) + ": changes the machine's power state"
			}
		}
	}
	return ""
}
