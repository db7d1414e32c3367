package policy

import "testing"

// TestBlindSpotReadsThatRebuildCaches: rc-update -u rebuilds OpenRC's
// dependency tree cache on disk, alone or with show, in every getopt
// spelling; rc-update show stays a read.
func TestBlindSpotReadsThatRebuildCaches(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"rc-update -u",
		"rc-update --update",
		"rc-update --up",
		"rc-update -uv",
		"rc-update -vu",
		"rc-update show -u",
		"rc-update -u show default",
		"rc-update show --update -v",
		"sudo rc-update -u",
		"doas rc-update --update",
		"/sbin/rc-update -u",
	))
	runExactHosts(t, p, []exactCase{
		{"rc-update", "rc-update", TierRead},
		{"rc-update show", "rc-update show default", TierRead},
		{"rc-update -v show", "rc-update -v show -a", TierRead},
	})
}
