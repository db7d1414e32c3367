package policy

import "testing"

// TestBlindSpotDpkgActions: every dpkg action that changes the package
// database or writes files is at least tier 2, in short clusters too, and
// the queries stay tier 0.
func TestBlindSpotDpkgActions(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"dpkg -x", "dpkg -x x.deb /tmp/x", TierMutate, false},
		{"dpkg --extract", "dpkg --extract x.deb /tmp/x", TierMutate, false},
		{"dpkg -X", "dpkg -X x.deb /tmp/x", TierMutate, false},
		{"dpkg --vextract", "dpkg --vextract x.deb /tmp/x", TierMutate, false},
		{"dpkg -b", "dpkg -b /tmp/pkg", TierMutate, false},
		{"dpkg --build", "dpkg --build /tmp/pkg /tmp/x.deb", TierMutate, false},
		{"dpkg -e", "dpkg -e x.deb /tmp/ctl", TierMutate, false},
		{"dpkg --control", "dpkg --control x.deb", TierMutate, false},
		{"dpkg --clear-avail", "dpkg --clear-avail", TierMutate, false},
		{"dpkg --forget-old-unavail", "dpkg --forget-old-unavail", TierMutate, false},
		{"dpkg --merge-avail", "dpkg --merge-avail /tmp/Packages", TierMutate, false},
		{"dpkg --update-avail", "dpkg --update-avail /tmp/Packages", TierMutate, false},
		{"dpkg -Ei", "dpkg -Ei x.deb", TierMutate, false},
		{"dpkg -iR", "dpkg -iR /tmp/debs", TierMutate, false},
		{"dpkg -BP", "dpkg -BP nginx", TierMutate, false},
		{"dpkg -Rr essential", "dpkg -Rr coreutils", TierDestructive, false},
	})
	runExact(t, p, []exactCase{
		{"dpkg -l", "dpkg -l", TierRead},
		{"dpkg -L", "dpkg -L nginx", TierRead},
		{"dpkg -S", "dpkg -S /bin/ls", TierRead},
		{"dpkg -s", "dpkg -s nginx", TierRead},
		{"dpkg --audit", "dpkg --audit", TierRead},
		{"dpkg -V", "dpkg -V", TierRead},
		{"dpkg -c", "dpkg -c x.deb", TierRead},
		{"dpkg -I", "dpkg -I x.deb", TierRead},
		{"dpkg -f", "dpkg -f x.deb Version", TierRead},
		{"dpkg --fsys-tarfile", "dpkg --fsys-tarfile x.deb", TierRead},
		{"dpkg -D with value", "dpkg -D777 -l", TierRead},
		{"dpkg --compare-versions", "dpkg --compare-versions 1.0 lt 2.0", TierRead},
	})
}

// TestBlindSpotPackageVerbs: package tools' verbs that change state are
// not read-only because a neighbouring verb is (apt-mark hold beside
// showhold, npm audit fix beside audit, pacman -Fy beside -F, pkg audit -F,
// resolvectl log-level LEVEL), and a program routed to the subcommand
// tables without a table of its own is not read-only at all.
func TestBlindSpotPackageVerbs(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"apt-mark hold", "apt-mark hold nginx", TierMutate, false},
		{"apt-mark auto", "apt-mark auto nginx", TierMutate, false},
		{"apt-mark unhold", "apt-mark unhold nginx", TierMutate, false},
		{"apt-mark minimize-manual", "apt-mark minimize-manual -y", TierMutate, false},
		{"npm audit fix", "npm audit fix", TierMutate, false},
		{"npm audit fix --force", "npm audit fix --force", TierMutate, false},
		{"pkg audit -F", "pkg audit -F", TierBenign, false},
		{"pkg audit --fetch", "pkg audit --fetch", TierBenign, false},
		{"pacman -Fy", "pacman -Fy", TierBenign, false},
		{"pacman -F --refresh", "pacman -F --refresh", TierBenign, false},
		{"resolvectl log-level", "resolvectl log-level debug", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"apt-mark showhold", "apt-mark showhold", TierRead},
		{"apt-mark showmanual", "apt-mark showmanual", TierRead},
		{"npm audit", "npm audit --json", TierRead},
		{"pkg audit", "pkg audit -r", TierRead},
		{"pacman -F", "pacman -F /usr/bin/ls", TierRead},
		{"resolvectl log-level", "resolvectl log-level", TierRead},
	})
}

// TestBlindSpotTailscaleDebug: tailscale debug is a family of hooks, some
// of which expire the node key, break connections or write the state
// store; only its reporting subcommands are read-only.
func TestBlindSpotTailscaleDebug(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"set-expire", "tailscale debug set-expire --in=1m", TierMutate, false},
		{"break-tcp-conns", "tailscale debug break-tcp-conns", TierMutate, false},
		{"dev-store-set", "tailscale debug dev-store-set k v", TierMutate, false},
		{"capture", "tailscale debug capture -o /tmp/x", TierMutate, false},
		{"rebind", "tailscale debug rebind", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"prefs", "tailscale debug prefs", TierRead},
		{"netmap", "tailscale debug netmap", TierRead},
		{"status", "tailscale status", TierRead},
	})
}

// TestBlindSpotReadVerbArguments: subcommands listed as reads that write
// when given a value, a flag or a destination: borg config KEY VALUE,
// borg check --repair, borg key export FILE, restic cache --cleanup,
// flatpak config --set, nmcli general hostname NAME, lxc query -X DELETE,
// lxc file pull DEST, terraform providers lock, ansible-inventory --output.
func TestBlindSpotReadVerbArguments(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"borg config set", "borg config /repo additional_free_space 0", TierMutate, false},
		{"borg config --delete", "borg config --delete /repo key", TierMutate, false},
		{"borg check --repair", "borg check --repair /repo", TierDestructive, false},
		{"borg key export file", "borg key export /repo /tmp/key", TierMutate, false},
		{"restic cache --cleanup", "restic cache --cleanup", TierMutate, false},
		{"flatpak config --set", "flatpak config --set languages en", TierMutate, false},
		{"nmcli general hostname", "nmcli general hostname evil", TierMutate, false},
		{"nmcli g h", "nmcli g h evil", TierMutate, false},
		{"nmcli general logging", "nmcli general logging level DEBUG", TierMutate, false},
		{"lxc query -X DELETE", "lxc query -X DELETE /1.0/instances/web", TierDestructive, false},
		{"incus query --request=", "incus query --request=POST /1.0/instances", TierDestructive, false},
		{"lxc file pull", "lxc file pull web/etc/hosts /tmp/hosts", TierMutate, false},
		{"terraform providers lock", "terraform providers lock", TierMutate, false},
		{"tofu providers mirror", "tofu providers mirror /tmp/m", TierMutate, false},
		{"ansible-inventory --output", "ansible-inventory --list --output /tmp/inv", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"borg config read", "borg config /repo key", TierRead},
		{"borg check without its lock", "borg check --bypass-lock /repo", TierRead},
		{"borg key export stdout", "borg key export /repo", TierRead},
		{"nmcli general hostname", "nmcli general hostname", TierRead},
		{"lxc query GET", "lxc query -X GET /1.0", TierRead},
		{"terraform providers", "terraform providers", TierRead},
		{"ansible-inventory", "ansible-inventory --list", TierRead},
	})
}
