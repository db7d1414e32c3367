package policy

import "testing"

// TestEverydayReadsNotOverBlocked: reads the classifier took for writes
// by their spelling: fsck's clustered -nV (fsck reads -nV as -n -V),
// mdadm --wait (its own whole name, not an abbreviation of --wait-clean)
// and hwclock --compare (prints the drift); their writing neighbours
// keep their tier.
func TestEverydayReadsNotOverBlocked(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"fsck -nV", "fsck -nV /dev/sda1", TierRead},
		{"fsck -Vn", "fsck -Vn /dev/sda1", TierRead},
		{"fsck -VN", "fsck -VN /dev/sda1", TierRead},
		{"fsck -n -t ext4", "fsck -n -t ext4 /dev/sda1", TierRead},
		{"fsck -nVt ext4", "fsck -nVt ext4 /dev/sda1", TierRead},
		{"mdadm --wait", "mdadm --wait /dev/md0", TierRead},
		{"mdadm -W", "mdadm -W /dev/md0", TierRead},
		{"hwclock -c", "hwclock -c", TierRead},
		{"hwclock --compare", "hwclock --compare", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"fsck -tntfs", "fsck -tntfs /dev/sda1", TierDestructive, false},
		{"fsck -t n", "fsck -t n /dev/sda1", TierDestructive, false},
		{"fsck -nVy", "fsck -nVy /dev/sda1", TierDestructive, false},
		{"fsck -nVa", "fsck -Van /dev/sda1", TierDestructive, false},
		{"mdadm --wait-clean", "mdadm --wait-clean /dev/md0", TierMutate, false},
		{"mdadm --wait-c", "mdadm --wait-c /dev/md0", TierMutate, false},
		{"hwclock -c --systohc", "hwclock -c --systohc", TierMutate, false},
		{"hwclock --compare -w", "hwclock --compare -w", TierMutate, false},
	})
}
