package policy

import "testing"

// TestBlindSpotRepositoryRecords: git add of a directory above warden's
// state (in the working directory, -C or --work-tree), git stash -u/-a
// and git commit -a there copy every file into the object store, as tar
// c does; pt and sift search recursively by default, as ag does. A pipe
// into a reader of names carries the paths a filter's literal input
// holds (jq, yq), which are checked like the words of echo.
func TestBlindSpotRepositoryRecords(t *testing.T) {
	p := linkPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"cd /var/lib && git add .",
		"cd /var/lib; git init; git add -A",
		"cd /var && git add --all",
		"cd /var && git add lib",
		"git -C /var/lib add .",
		"git -C /var/lib init && git -C /var/lib add -A",
		"git -C /var -C lib add .",
		"git --work-tree=/var/lib --git-dir=/tmp/r add -A",
		"git --work-tree /var --git-dir /tmp/r add lib",
		"git -C /tmp add /var/lib",
		"cd /var/lib && git stash -u",
		"cd /var/lib && git stash push --include-untracked",
		"cd /var/lib && git stash --all",
		"cd /var/lib && git commit -a -m x",
		"cd /var/lib && git commit --all -m x",
		"git -c user.name=x -C /var/lib add .",
		// Every global that takes a value skips it (gitValueGlobals).
		"git --super-prefix x/ -C /var/lib add .",
		"cd /var/lib && git --super-prefix x/ add -A",
		"git --namespace n --super-prefix x/ -C /var add lib",
		// git takes a relative --work-tree in the directory -C leads to.
		"git -C /var --work-tree lib add .",
		"git --work-tree=lib -C /var add -A",
		"pt x /var/lib",
		"sift x /var",
	))
	runExact(t, p, []exactCase{
		{"add elsewhere", "cd /srv/app && git add .", TierMutate},
		{"status there", "git -C /var/lib status", TierRead},
		{"stash tracked", "cd /srv/app && git stash", TierMutate},
		{"add a file", "git -C /var/lib add x.conf", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`jq -r .p <<< '{"p":"/var/lib/warden/token"}' | xargs cat`,
		`jq -r '.a + "/" + .b' <<< '{"a":"/var/lib","b":"warden/token"}' | xargs cat`,
		`yq .p <<< 'p: /var/lib/warden/token' | xargs cat`,
		"yq .p <<END | xargs cat\np: /var/lib/warden/token\nEND",
		`jq -r .p <<< '{"p":"/var/lib/warden/token"}' | while read f; do cat "$f"; done`,
		`jq -r .p <<< '{"p":"/var/lib/warden/token"}' | tar c -T -`,
		`jq -r .[] <<< '["/var/lib/warden/token"]' | parallel cat`,
	))
}

// TestNetworkctlReloadChanges: networkctl reload applies changed
// .network files, reconfiguring links (tier 2); iw's scans send probes
// and leave the channel (tier 1), while scan dump lists what the kernel
// holds (tier 0).
func TestNetworkctlReloadChanges(t *testing.T) {
	p := testPolicy(t)
	runExact(t, p, []exactCase{
		{"reload", "networkctl reload", TierMutate},
		{"renew", "networkctl renew eth0", TierBenign},
		{"status", "networkctl status", TierRead},
		{"iw scan", "iw dev wlan0 scan", TierBenign},
		{"iw short scan", "iw wlan0 scan", TierBenign},
		{"iw scan dump", "iw dev wlan0 scan dump", TierRead},
	})
}
