package policy

import (
	"regexp"
	"slices"
	"strings"
)

// The management APIs of NAS, hypervisor and router appliances power the
// machine off, restart it or wipe a disk on a plain HTTP request, which
// curl, wget or HTTPie make as readily as midclt, pvesh or ubus do:
// TrueNAS's REST API (POST /api/v2.0/system/reboot, /disk/wipe),
// Proxmox's (POST /api2/json/nodes/NODE/status command=reboot), Synology
// DSM's web API (api=SYNO.Core.System method=shutdown), OpenWrt's
// JSON-RPC over HTTP (ubus call "system" "reboot"), OPNsense's
// (/api/core/system/reboot), Home Assistant's Supervisor (/host/reboot)
// and QNAP's (subfunc=power_mgmt apply=restart). A request whose text
// names one is denied as the clients' own commands are. A body the
// command line does not show (-d @file) is not known.

// webAPIPower matches those requests in the joined, lower-cased words of
// an HTTP client's call; the submatch names the action.
var webAPIPower = regexp.MustCompile(`/api/v2\.0/(system/(?:reboot|shutdown)|disk/wipe)\b` +
	`|/api2/(?:json|extjs)/nodes/[^/\s]+/status\b.*\bcommand\s*=\s*(reboot|shutdown)\b` +
	`|\bcommand\s*=\s*(reboot|shutdown)\b.*/api2/(?:json|extjs)/nodes/[^/\s]+/status\b` +
	`|syno\.core\.system\b.*\bmethod\s*=\s*(reboot|shutdown)\b` +
	`|\bmethod\s*=\s*(reboot|shutdown)\b.*syno\.core\.system\b` +
	`|"system"\s*,\s*"(reboot)"` +
	`|/api/core/system/(reboot|halt)\b` +
	`|//supervisor/host/(reboot|shutdown)\b` +
	`|\bsubfunc=power_mgmt\b.*\bapply=(restart|shutdown)\b` +
	`|\bapply=(restart|shutdown)\b.*\bsubfunc=power_mgmt\b`)

// webAPIWords are the words a request must hold one of to be read.
var webAPIWords = []string{"reboot", "shutdown", "wipe", "halt", "restart"}

// webAPIDeny returns why an HTTP client's request asks an appliance's
// management API to power the machine off, restart it or wipe a disk, or
// "".
func webAPIDeny(name string, args []string) string {
	if !slices.ContainsFunc(args, func(a string) bool {
		la := strings.ToLower(a)
		return slices.ContainsFunc(webAPIWords, func(w string) bool { return strings.Contains(la, w) })
	}) {
		return "" // cheap first: every curl goes through here
	}
	m := webAPIPower.FindStringSubmatch(strings.ToLower(strings.Join(args, " ")))
	if m == nil {
		return ""
	}
	action := ""
	for _, s := range m[1:] {
		if s != "" {
			action = s
		}
	}
	if strings.Contains(action, "wipe") {
		return name + ": asks the appliance's API to wipe a disk (" + action + ")"
	}
	return name + ": asks the appliance's API to change the machine's power state (" + action + ")"
}
