package policy

import "testing"

// TestBlindSpotOb37LoopLastChar: a loop over a pattern ending in its only
// single-character wildcard binds $d unquoted as it binds "$d": every
// field of a name it matches begins with the fixed prefix. A "*", a
// wildcard before more text, a negated class or one with blanks can
// yield a field that is an option, so $d there stays computed.
func TestBlindSpotOb37LoopLastChar(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"question", "for d in /dev/sd?; do smartctl -H $d; done", TierRead},
		{"class", "for d in /dev/sd[a-z]; do smartctl -a $d; done", TierRead},
		{"two items", "for d in /dev/sd? /dev/nvme?; do smartctl -i $d; done", TierRead},
		{"quoted", `for d in /dev/sd?; do smartctl -H "$d"; done`, TierRead},
		{"relative", "for f in log.?; do wc -l $f; done", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"star", "for d in /dev/sd*; do smartctl -H $d; done", TierMutate, false},
		{"two wildcards", "for d in /dev/sd??; do smartctl -H $d; done", TierMutate, false},
		{"wildcard then text", "for d in /dev/sd?-x; do smartctl -H $d; done", TierMutate, false},
		{"negated", "for d in /dev/sd[!a]; do smartctl -H $d; done", TierMutate, false},
		{"blank class", "for d in '/dev/sd[ a]'; do smartctl -H $d; done", TierMutate, false},
		{"leading wildcard", "for d in ?; do smartctl -H $d; done", TierMutate, false},
		{"enable", "for d in /dev/sd?; do smartctl -s on $d; done", TierMutate, false},
		{"self-test", "for d in /dev/sd?; do smartctl -t long $d; done", TierBenign, false},
		{"ifs", "IFS=/; for d in /dev/sd?; do smartctl -H $d; done", TierMutate, false},
		{"protected", "for f in /etc/warden/audit.ke?; do cat $f; done", TierDestructive, true},
	})
}
