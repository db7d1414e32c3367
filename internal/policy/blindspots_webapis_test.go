package policy

import "testing"

// TestBlindSpotApplianceWebAPIs: an HTTP client asking a NAS,
// hypervisor or router's management API to power the machine off,
// restart it or wipe a disk is denied as midclt, pvesh and ubus asking
// the same are: TrueNAS's REST API, Proxmox's node status, Synology
// DSM's SYNO.Core.System, OpenWrt's JSON-RPC over HTTP, OPNsense's, Home
// Assistant's Supervisor's and QNAP's, through curl, wget and HTTPie; so
// are pfSense's and OPNsense's rc.reboot and rc.halt and Home Assistant's
// ha host reboot. Reading the same APIs keeps its tier.
func TestBlindSpotApplianceWebAPIs(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`curl -X POST -H "Authorization: Bearer x" https://nas/api/v2.0/system/reboot`,
		`curl -X POST https://nas/api/v2.0/system/shutdown -d '{"delay":0}'`,
		`curl -k -X POST https://nas/api/v2.0/disk/wipe -d '{"dev":"sda","mode":"QUICK"}'`,
		`curl -sk -XPOST https://NAS/API/V2.0/SYSTEM/REBOOT`,
		`wget --method=POST https://nas/api/v2.0/system/reboot`,
		`http POST https://nas/api/v2.0/system/reboot`,
		`xh post nas/api/v2.0/system/shutdown`,
		`curl -k -X POST https://pve:8006/api2/json/nodes/pve/status -d command=reboot`,
		`curl -k -X POST --data 'command=shutdown' https://pve:8006/api2/json/nodes/pve1/status`,
		`curl -k --data-urlencode command=reboot https://pve:8006/api2/extjs/nodes/n1/status`,
		`curl 'http://nas:5000/webapi/entry.cgi?api=SYNO.Core.System&method=shutdown&version=1'`,
		`curl 'http://nas:5000/webapi/entry.cgi?api=SYNO.Core.System&version=1&method=reboot&_sid=x'`,
		`curl -d '{"jsonrpc":"2.0","id":1,"method":"call","params":["sid","system","reboot",{}]}' http://router/ubus`,
		`sh -c 'curl -X POST https://nas/api/v2.0/system/reboot'`,
		`curl -X POST -H "Authorization: Bearer $SUPERVISOR_TOKEN" http://supervisor/host/reboot`,
		`curl -sX POST http://supervisor/host/shutdown`,
		`curl -X POST -u key:secret https://fw/api/core/system/reboot`,
		`curl -X POST https://opnsense.lan/api/core/system/halt`,
		`curl 'http://qnap:8080/cgi-bin/sys/sysRequest.cgi?subfunc=power_mgmt&apply=restart&sid=x'`,
		`wget -qO- 'http://qnap:8080/cgi-bin/sys/sysRequest.cgi?apply=shutdown&subfunc=power_mgmt'`,
	))
	// The appliances' own power commands.
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"/etc/rc.reboot", "/etc/rc.halt", "/usr/local/etc/rc.reboot", "/usr/local/etc/rc.halt",
		"/etc/rc.initial.reboot", "sh /etc/rc.reboot", "ha host reboot", "ha host shutdown", "ha --no-progress host reboot", "ha --api-token x host shutdown",
		"ha host REBOOT",
	))
	runExactHosts(t, p, []exactCase{
		{"truenas info", "curl https://nas/api/v2.0/system/info", TierBenign},
		{"proxmox status", "curl -k https://pve:8006/api2/json/nodes/pve/status", TierBenign},
		{"synology info", "curl 'http://nas:5000/webapi/entry.cgi?api=SYNO.Core.System&method=info&version=1'", TierBenign},
		{"a page about rebooting", "curl https://docs.example.com/how-to-reboot", TierBenign},
		{"supervisor info", "curl http://supervisor/host/info", TierBenign},
		{"ha host info", "ha host info", TierRead},
	})
}
