package policy

import "testing"

// TestBlindSpotDiskCopiers: disk copiers, imagers and wipers other than dd
// write the target their operands or options name, checked as dd of= is:
// a block device is denied. nwipe with no device and fio with a job file
// are tier 3; copies to image files stay tier 2.
func TestBlindSpotDiskCopiers(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"ddrescue out", "ddrescue -f /dev/sdb /dev/sda map", TierDestructive, true},
		{"ddrescue -n", "ddrescue -n x.img /dev/sda", TierDestructive, true},
		{"dcfldd of=", "dcfldd if=x of=/dev/sda", TierDestructive, true},
		{"dc3dd wipe=", "dc3dd wipe=/dev/sda", TierDestructive, true},
		{"dc3dd hof=", "dc3dd if=x hof=/dev/nvme0n1", TierDestructive, true},
		{"e2image out", "e2image -r /dev/sda1 /dev/sdb", TierDestructive, true},
		{"e2image -I", "e2image -I /dev/sda1 x.e2i", TierDestructive, true},
		{"zerofree", "zerofree -v /dev/sda1", TierDestructive, true},
		{"nwipe device", "nwipe --autonuke /dev/sda", TierDestructive, true},
		{"nwipe interface", "nwipe", TierDestructive, false},
		{"partclone -o", "partclone.ext4 -r -s x.img -o /dev/sda1", TierDestructive, true},
		{"ntfsclone -O", "ntfsclone --restore-image -O /dev/sda1 x.img", TierDestructive, true},
		{"fio write", "fio --name=x --rw=write --filename=/dev/sda", TierDestructive, true},
		{"fio randrw list", "fio --name=x --rw=randrw --filename=/tmp/f:/dev/sdb", TierDestructive, true},
		{"fio job file", "fio job.fio", TierDestructive, false},
	})
	runExact(t, p, []exactCase{
		{"ddrescue to image", "ddrescue /dev/sda disk.img disk.map", TierMutate},
		{"dcfldd to image", "dcfldd if=/dev/sda of=disk.img", TierMutate},
		{"e2image to file", "e2image /dev/sda1 meta.e2i", TierMutate},
		{"fio read", "fio --name=x --rw=randread --filename=/dev/sda", TierMutate},
		{"partclone to image", "partclone.ext4 -c -s /dev/sda1 -o x.img", TierMutate},
	})
}
