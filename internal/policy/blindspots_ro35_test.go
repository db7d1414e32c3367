package policy

import "testing"

// TestBlindSpotRouterOptionValues: uci and ubus read their options with
// getopt and opkg with getopt_long_only, so a value-taking option's value
// is never the command: "uci -c show set …" sets (show is the
// configuration directory), "ubus -t list call …" calls (atoi reads the
// timeout as 0), "opkg --add-arch list install X" installs. Clusters,
// attached values, one-dash long names and abbreviations included; older
// opkg takes -V's value from the next word, so both readings count.
func TestBlindSpotRouterOptionValues(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"uci -c show set network.lan.ipaddr=10.0.0.1",
		"uci -qc show set network.lan.ipaddr=10.0.0.1",
		"uci -d show set network.lan.ipaddr=10.0.0.1",
		"uci -t show commit",
		"uci -P show commit network",
		"uci -p export add_list firewall.@zone[0].network=wan",
		"uci -c get revert network",
		"ubus -t list call uci set '{\"config\":\"network\"}'",
		"ubus -vt list call uci set '{\"config\":\"network\"}'",
		"ubus -s monitor call network reload",
		"ubus -m listen call uci apply",
		"opkg --add-arch list install tcpdump",
		"opkg --add-a list install tcpdump",
		"opkg -add-arch list install tcpdump",
		"opkg --add-exclude list install tcpdump",
		"opkg --add-ignore-recommends info upgrade",
		"opkg -V list install tcpdump",
		"opkg --tmp list install tcpdump",
		"env uci -c show set network.lan.ipaddr=10.0.0.1",
		"sudo ubus -t list call uci commit",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"uci -p get delete network",
		"uci -f show import network",
		"ubus -t monitor call file exec '{\"command\":\"id\"}'",
		"ubus -t list call file write '{\"path\":\"/etc/passwd\"}'",
		"ubus -S -t list call network.interface.wan down",
		"opkg --add-arch list remove dropbear",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true, "ubus -t list call system reboot"))
	runExactHosts(t, p, []exactCase{
		{"uci show", "uci show network", TierRead},
		{"uci quiet get", "uci -q get network.lan.ipaddr", TierRead},
		{"uci confdir show", "uci -c /etc/config show network", TierRead},
		{"uci attached confdir", "uci -c/etc/config export", TierRead},
		{"uci state show", "uci -P /var/state show network", TierRead},
		{"ubus timeout call read", "ubus -t 5 call system board", TierRead},
		{"ubus verbose list", "ubus -v list", TierRead},
		{"ubus simple call read", "ubus -S call network.interface.lan status", TierRead},
		{"opkg list", "opkg list-installed", TierRead},
		{"opkg verbosity attached", "opkg -V3 list", TierRead},
		{"opkg verbosity long", "opkg --verbosity=2 info dropbear", TierRead},
		{"opkg query all", "opkg -A whatdepends libc", TierRead},
	})
}

// TestBlindSpotUciCommandNames: uci compares its commands with
// strcasecmp and takes del and ren for delete and rename, so "uci DEL
// network" deletes the whole package as "uci delete network" does; batch
// runs commands from its input the classifier cannot see.
func TestBlindSpotUciCommandNames(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"uci del network", "uci DEL dropbear", "uci Delete network.lan", "uci -q del firewall.@zone[0]",
		"uci IMPORT network", "uci Import dropbear", "uci batch", "uci -f /tmp/cmds batch", "uci BATCH",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"uci SET network.lan.ipaddr=10.0.0.1", "uci Commit", "uci ren network.lan=x", "uci del network.lan.ipaddr",
	))
	runExactHosts(t, p, []exactCase{
		{"upper show", "uci SHOW network", TierRead},
		{"mixed get", "uci Get network.lan.ipaddr", TierRead},
		{"upper changes", "uci CHANGES", TierRead},
	})
}

// TestBlindSpotUbusStops: procd's watchdog given a setting stops feeding
// the hardware watchdog (the board resets), system signal signals any
// process as root, and rc init, luci setInitAction and service delete
// stop the ssh server or firewall the router is reached through; a ubus
// word known only at run time may be system reboot.
func TestBlindSpotUbusStops(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`ubus call system watchdog '{"stop":true}'`,
		`ubus call system watchdog '{"timeout":1,"frequency":30}'`,
		`ubus call system signal '{"pid":1234,"signum":9}'`,
		`ubus call rc init '{"name":"dropbear","action":"stop"}'`,
		`ubus call rc init '{"name":"firewall","action":"disable"}'`,
		`ubus call luci setInitAction '{"name":"dropbear","action":"stop"}'`,
		`ubus call service delete '{"name":"dropbear"}'`,
		`ubus call rc init "$MSG"`,
		`ubus call system "$M"`,
		`ubus call "$O" status`,
		`ubus "$CMD" system board`,
	))
	runExactHosts(t, p, []exactCase{
		{"board", "ubus call system board", TierRead},
		{"list", `ubus list "$X"`, TierRead},
	})
	runBlindHosts(t, p, sameCases(TierMutate, false, `ubus call rc init '{"name":"dnsmasq","action":"restart"}'`))
}
