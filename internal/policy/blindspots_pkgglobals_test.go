package policy

import "testing"

// TestBlindSpotPkgCodeGlobals: FreeBSD's pkg loads the plugins its
// configuration names (PLUGINS, PLUGINS_DIR) on every command, info
// included, and pkg version runs make in the ports tree PORTSDIR names.
// Set by -o in every spelling getopt_long takes, by a -C configuration or
// a -c chroot at a place a tier 1 call can write, or by the variable of
// the setting's name, a listing runs what the agent wrote.
func TestBlindSpotPkgCodeGlobals(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"pkg -o PLUGINS_DIR=/tmp info",
		"pkg -oPLUGINS_DIR=/tmp info",
		"pkg --option PLUGINS=x info",
		"pkg --option=PLUGINS=../../tmp/x info",
		"pkg -o plugins_dir=/tmp info",
		"pkg -No PORTSDIR=/tmp/p version",
		"pkg -o PORTSDIR=/tmp/p version",
		"pkg -o $X info",
		"pkg -C /tmp/p.conf info",
		"pkg -C/tmp/p.conf info",
		"pkg --config /tmp/p.conf info",
		"pkg --conf=/tmp/p.conf query %n",
		"pkg -c /tmp/root info",
		"pkg --chroot=/var/tmp/root which /bin/sh",
		"cd /tmp && pkg -C p.conf info",
		"PLUGINS_DIR=/tmp pkg info",
		"env PLUGINS=x pkg info",
		"PORTSDIR=/tmp/p pkg version",
	))
	runExactHosts(t, p, []exactCase{
		{"info", "pkg info", TierRead},
		{"version", "pkg version", TierRead},
		{"operator's configuration", "pkg -C /usr/local/etc/pkg.conf info", TierRead},
		{"other setting", "pkg -o ASSUME_ALWAYS_YES=yes info", TierRead},
		{"operator's jail", "pkg -c /jails/www info", TierRead},
		{"info's own -C", "pkg info -C x", TierRead},
	})
}
