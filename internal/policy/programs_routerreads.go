package policy

import "strings"

// The read forms of embedded routers' own tools: OpenWrt's sysupgrade
// listing its backup and checking an image, U-Boot's fw_printenv, and
// wpa_supplicant's wpa_cli asked for its status. Each of them writes a
// file of its own as it reads (a list, a copy of the image, a lock, a
// reply socket), under /tmp on OpenWrt, so they are tier 1.

// sysupgradeFlags are the sysupgrade options that set a mode and take no
// value; -b, -r, -f and -d take one, and any other option is refused.
var sysupgradeFlags = set(`-i -v -q -n -c -o -p -k -u -F --force -T --test`)

// sysupgradeProgram classifies OpenWrt's sysupgrade, whose option loop
// stops at -l, -h or the first operand (the image): -h prints its usage;
// -l lists the files a backup would hold, writing the list to
// /tmp/sysupgrade.conffiles first; -T with an image file checks it,
// copying it to /tmp/sysupgrade.img, and exits before saving anything.
// Every other form flashes, backs up to a named file or restores one.
func sysupgradeProgram(c *call) (Tier, string) {
	test := false
	for _, a := range c.args {
		if !a.known {
			break
		}
		switch v := a.val; {
		case v == "-h" || v == "--help":
			return TierRead, "sysupgrade -h: prints its usage"
		case v == "-l" || v == "--list-backup":
			return TierBenign, "sysupgrade -l: lists the files a backup would hold, through a list under /tmp"
		case sysupgradeFlags[v]:
			test = test || v == "-T" || v == "--test"
			continue
		case test && !strings.HasPrefix(v, "-") && !strings.Contains(v, "://"):
			return TierBenign, "sysupgrade -T: checks the image, through a copy under /tmp"
		}
		break
	}
	return TierDestructive, "sysupgrade: flashes firmware or writes or restores a configuration backup"
}

// fwPrintenvRead are U-Boot fw_printenv's options that choose what it
// reads (-c the config naming the environment's device, -a the key of
// an encrypted one, -f libubootenv's default environment); -l names the
// directory its lock is made in and -s is fw_setenv's script.
var fwPrintenvRead = optSpec{flags: "nhvV", valueShort: "acf",
	longFlags: set(`--noheader --no-header --help --version`), longVals: set(`--aes --config --defenv`)}

// fwPrintenvProgram classifies fw_printenv: it prints the boot loader's
// environment, taking its lock in /var/lock (/tmp/lock on OpenWrt).
func fwPrintenvProgram(c *call) (Tier, string) {
	if _, _, ok := c.readOpts(fwPrintenvRead); ok {
		return TierBenign, "fw_printenv: prints the boot loader's environment, taking a lock file"
	}
	return TierMutate, "fw_printenv: options not known to be read-only"
}

// wpaCliRead are wpa_cli's options outside -a (an action script it runs
// on events), -B, -P (a pid file) and -r; -p, -i and -g name the control
// socket, -G the ping interval.
var wpaCliRead = optSpec{flags: "hv", valueShort: "pigG"}

// wpaCliReads are the wpa_cli commands that only report; wpa_cli matches
// a command in any case and by a unique prefix, and an exact name always
// wins, so only exact names are read (a prefix may be set_network's).
var wpaCliReads = set(`status ping mib help license interface ifname list_networks scan_results bss
	get_network get signal_poll pktcnt_poll get_capability driver_flags driver_flags2 list_creds
	p2p_peers p2p_peer all_bss`)

// wpaCliProgram classifies wpa_cli: -a runs its action script (tier
// 3); a reporting command is tier 1 (the reply comes back on a socket it
// binds under /tmp); with no command it reads commands from its input,
// and every other command changes the supplicant (set_network,
// save_config, terminate).
func wpaCliProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		if a.val == "--" {
			break
		}
		if len(a.val) < 2 || a.val[0] != '-' || a.val[1] == '-' {
			continue
		}
		for _, b := range []byte(a.val[1:]) {
			if b == 'a' {
				c.e.opaque = true
				return TierDestructive, "wpa_cli -a: runs an action script on every event"
			}
			if strings.IndexByte("pigGP", b) >= 0 {
				break
			}
		}
	}
	ops, _, ok := c.readOpts(wpaCliRead)
	if ok && len(ops) > 0 && wpaCliReads[strings.ToLower(ops[0])] {
		return TierBenign, "wpa_cli " + ops[0] + ": asks wpa_supplicant, through a socket under /tmp"
	}
	return TierMutate, "wpa_cli: changes wpa_supplicant's settings or reads commands from its input"
}
