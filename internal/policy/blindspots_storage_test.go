package policy

import "testing"

// TestBlindSpotMdadm: mdadm's array-changing modes count abbreviated
// (--st, --cre, --zero) and in clusters (-Ss), the modes a few whole words
// missed (--incremental, --kill-subarray, --dump, --action …) are not
// read-only, and --monitor's --program is classified as the program it
// runs; detail, examine and query stay tier 0.
func TestBlindSpotMdadm(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"--zero abbreviated", "mdadm --zero /dev/sda1", TierDestructive, true},
		{"--st", "mdadm --st /dev/md0", TierDestructive, false},
		{"--cre", "mdadm --cre /dev/md0 -l1 -n2 /dev/sda1 /dev/sdb1", TierDestructive, false},
		{"--fa", "mdadm /dev/md0 --fa /dev/sda1", TierDestructive, false},
		{"-Ss", "mdadm -Ss", TierDestructive, false},
		{"--kill-subarray", "mdadm --kill-subarray=0 /dev/md127", TierDestructive, false},
		{"--restore", "mdadm --restore=/tmp/d /dev/sda1", TierDestructive, false},
		{"--replace", "mdadm /dev/md0 --replace /dev/sda1", TierDestructive, false},
		{"--dump", "mdadm --dump=/tmp/d /dev/sda1", TierMutate, false},
		{"-I", "mdadm -I /dev/sda1", TierMutate, false},
		{"--incremental", "mdadm --incremental /dev/sda1", TierMutate, false},
		{"--auto-detect", "mdadm --auto-detect", TierMutate, false},
		{"--action", "mdadm --action=repair /dev/md0", TierMutate, false},
		{"-U", "mdadm -U resync /dev/md0", TierMutate, false},
		{"-o", "mdadm -o /dev/md0", TierMutate, false},
		{"--monitor --program", "mdadm --monitor --scan --program=reboot", TierDestructive, true},
		{"-F -p", "mdadm -F --scan -p reboot", TierDestructive, true},
		{"--monitor --alert", "mdadm --monitor --scan --oneshot --alert='touch /tmp/x'", TierMutate, false},
		{"--monitor without --oneshot", "mdadm --monitor --scan", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"--detail", "mdadm --detail /dev/md0", TierRead},
		{"-Ds", "mdadm -Ds", TierRead},
		{"-Es", "mdadm -Es", TierRead},
		{"--examine", "mdadm --examine /dev/sda1", TierRead},
		{"--query", "mdadm --query /dev/md0", TierRead},
		{"--detail-platform", "mdadm --detail-platform", TierRead},
		{"config value", "mdadm -c/etc/mdadm/mdadm.conf -Ds", TierRead},
		{"--monitor --oneshot", "mdadm --monitor --scan --oneshot", TierRead},
	})
}
