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

// TestBlindSpotPkgPlugins: FreeBSD pkg loads the shared objects its
// PLUGINS key names from PLUGINS_DIR when it starts, on pkg info too; the
// keys come from -o KEY=VALUE, a -C configuration file or the
// environment, so each is code running as root on a read.
func TestBlindSpotPkgPlugins(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"pkg -o PLUGINS_DIR=/tmp -o PLUGINS=evil info",
		"pkg -oPLUGINS=evil info",
		"pkg --option=PLUGINS=evil info",
		"pkg --opt PLUGINS=evil info",
		"pkg -No PKG_ENABLE_PLUGINS=yes which /bin/sh",
		"pkg -o \"$OPT\" info",
		"pkg -C /tmp/pkg.conf info",
		"pkg --config=/tmp/pkg.conf version",
		"pkg --conf /tmp/pkg.conf info",
		"pkg -NC /tmp/pkg.conf query %n",
		"PLUGINS_DIR=/tmp PLUGINS=evil pkg info",
		"env PLUGINS=evil pkg info",
		"export PLUGINS_CONF_DIR=/tmp; pkg info",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"pkg -o PKG_DBDIR=/tmp/db info",
		"pkg -R /tmp/repos rquery %n",
		"pkg --repo-conf-dir=/tmp/repos search nginx",
	))
	runExactHosts(t, p, []exactCase{
		{"info", "pkg info", TierRead},
		{"no bootstrap", "pkg -N info", TierRead},
		{"jail", "pkg -j web info nginx", TierRead},
		{"jail attached then read", "pkg -jo info delete x", TierRead},
		{"chroot", "pkg -c /jail which /bin/sh", TierRead},
		{"rootdir", "pkg -r /mnt query %n", TierRead},
		{"version's own -R", "pkg version -vRl '<'", TierRead},
		{"query's own -o", "pkg query -o %n", TierRead},
	})
}

// TestBlindSpotRouterOSMenus: an ssh host may be a MikroTik router, whose
// shell takes /ip, /file and /export as menus and remove, disable, set as
// their commands. No system keeps programs directly under /, so such a
// path is not the ip, file or export its name says; and iproute2 has no
// service or firewall object, nor remove or disable verbs, so those words
// are RouterOS's, not a read of ip(8)'s.
func TestBlindSpotRouterOSMenus(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"/ip firewall filter remove [find]",
		"/ip service disable ssh",
		"//ip address remove 0",
		"/./file remove backup.rsc",
		"/export file=router",
		"/export",
		"env /file remove x",
		"ip service disable ssh",
		"ip firewall filter remove 0",
		"ip address remove 0",
		"ip route disable 0",
		"ip dns set servers=1.1.1.1",
		"ip hotspot user print",
		"ip -4 firewall nat remove 0",
		"file remove backup.rsc",
		"file set flash/hotspot/login.html contents=x",
		"file -b remove x",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false, "/system reboot", "/system reset-configuration no-defaults=yes", "system reset-configuration", "/disk format-drive usb1"))
	runExactHosts(t, p, []exactCase{
		{"ip a", "ip a", TierRead},
		{"ip route", "ip -4 r", TierRead},
		{"ip neighbour", "ip -6 neighbour", TierRead},
		{"ip ntbl", "ip ntbl", TierRead},
		{"ip tcp_metrics", "ip tcp_metrics", TierRead},
		{"ip help", "ip help", TierRead},
		{"ip by path", "/sbin/ip -br a", TierRead},
		{"file by path", "/usr/bin/file /etc/hostname", TierRead},
		{"file", "file -L /bin/sh", TierRead},
		{"file magic value", "file -m set /etc/hostname", TierRead},
	})
}

// TestBlindSpotOpModeClear: ncurses' clear takes no operand, so "clear
// ip bgp all" over ssh is a router's op-mode command (VyOS, EdgeOS, an
// FRR shell) that resets every BGP session, and "clear conntrack"
// flushes the connection table; they were read as clearing the terminal.
func TestBlindSpotOpModeClear(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"clear ip bgp all", "clear bgp ipv4 unicast *", "clear conntrack", "clear arp",
		"sudo clear ip bgp 10.0.0.1", "clear -x ip bgp all", `clear "$WHAT"`,
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"clear ip bgp all soft", "clear interfaces counters", "clear -T xterm interfaces ethernet eth0 counters",
	))
	runExactHosts(t, p, []exactCase{
		{"clear", "clear", TierRead},
		{"clear scrollback", "clear -x", TierRead},
		{"clear term", "clear -T xterm-256color", TierRead},
		{"clear attached term", "clear -Tvt100 -x", TierRead},
		{"version", "clear -V", TierRead},
	})
}

// TestBlindSpotOpenWrtFirewallFlush: fw4 stop and flush delete the table
// inet fw4 that holds every rule (fw3's the iptables chains), as
// iptables -F does; fw3's -4, -6 and -d are flags its print takes.
func TestBlindSpotOpenWrtFirewallFlush(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"fw4 stop", "fw4 flush", "fw4 -q flush", "fw3 -4 flush", "fw3 stop", "sudo fw4 -q stop",
	))
	runExactHosts(t, p, []exactCase{
		{"fw4 print", "fw4 -q print", TierRead},
		{"fw4 check", "fw4 check", TierRead},
		{"fw3 v4 print", "fw3 -4 print", TierRead},
		{"fw3 v6 quiet print", "fw3 -6 -q print", TierRead},
	})
}

// TestBlindSpotRouterOSExport: bash refuses export of a word that is no
// variable name and sets nothing, while RouterOS's shell takes export
// show-sensitive file=x as writing its configuration, secrets included,
// to flash; such a word is no read.
func TestBlindSpotRouterOSExport(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"export show-sensitive file=x",
		"export show-sensitive",
		`export "show-sensitive" file=x`,
		`export show\-sensitive file=x`,
		"export hide-sensitive terse file=cfg",
	))
	runExactHosts(t, p, []exactCase{
		{"print", "export -p", TierRead},
		{"names", "export A=1 B", TierRead},
		{"quoted assignment", `export "LANG=C"`, TierRead},
	})
}
