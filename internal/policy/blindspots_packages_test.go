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
