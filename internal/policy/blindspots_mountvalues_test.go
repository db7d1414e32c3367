package policy

import "testing"

// TestBlindSpotMountAndDmsetupValues: mount and dmsetup parse with
// getopt_long, so a value option abbreviated takes the next word: the
// mount point is the operand before "--ty ext4", not ext4, and dmsetup's
// command follows -u's value ("dmsetup -u ls remove X" removes).
func TestBlindSpotMountAndDmsetupValues(t *testing.T) {
	p := testPolicy(t)
	var cases []blindCase
	for _, o := range []string{"--ty ext4", "--typ=ext4", "--so x", "--test-o x", "--namespace 1", "--la x", "--uu x", "--map-u 0", "--fstab /tmp/f"} {
		for _, where := range []string{"/usr/bin", "/etc", "/"} {
			cmd := "mount /dev/sdb1 " + where + " " + o
			cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
		}
	}
	cases = append(cases, sameCases(TierDestructive, false,
		"mount --target /etc --source /dev/sdb1", "mount --target=/usr/bin /dev/sdb1", "mount --source /dev/sdb1 --target /",
		"mount -t tmpfs --target /etc none",
	)...)
	for _, o := range []string{"-u ls", "--uuid ls", "--uu ls", "--uui info", "-j 1 -m 2 -u ls", "-cu ls", "--maj 1 --min=2 -U status", "-S x"} {
		for _, verb := range []string{"remove x", "remove_all", "wipe_table x", "suspend x", "load x /tmp/t"} {
			cmd := "dmsetup " + o + " " + verb
			cases = append(cases, blindCase{cmd, cmd, TierDestructive, false})
		}
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"mount --ty /mnt", "mount /dev/sdb1 /mnt/x --ty ext4", TierMutate},
		{"mount -t /mnt", "mount -t ext4 /dev/sdb1 /mnt/x", TierMutate},
		{"mount", "mount", TierRead},
		{"dmsetup ls", "dmsetup ls --tree", TierRead},
		{"dmsetup -o info", "dmsetup -o name info x", TierRead},
		{"dmsetup --sort ls", "dmsetup --sort name ls", TierRead},
		{"dmsetup -u info", "dmsetup -u abc info", TierRead},
	})
}
