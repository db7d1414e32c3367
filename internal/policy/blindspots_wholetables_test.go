package policy

import "testing"

// TestBlindSpotSfdiskNewTable: sfdisk DEVICE reads a whole new partition
// table from its input and writes it over the device's, as fdisk's o and
// parted mklabel do: denied, with its table options (--force, --wipe,
// --label) in every spelling. Changing one partition (-N, a partition
// number, --part-type), appending, a dry run, listings and dumps, and an
// image file keep their tiers.
func TestBlindSpotSfdiskNewTable(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"echo ',,' | sfdisk /dev/sda",
		"sfdisk /dev/sda < /tmp/layout",
		"sfdisk -f /dev/sdb < sda.dump",
		"sfdisk --force --wipe always /dev/nvme0n1 <<< 'label: gpt'",
		"sfdisk -X gpt /dev/sda <<< ',,'",
		"sfdisk --label=dos -q /dev/vda < layout",
		"sfdisk -fq /dev/mmcblk0 < layout",
		"sfdisk -wnever /dev/sda < layout",
		"sfdisk -- /dev/sda < layout",
		"printf 'label: gpt\\n,,L\\n' | sudo sfdisk /dev/sda",
		"sfdisk /dev/disk/by-id/ata-X < layout",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"sfdisk -N 2 /dev/sda < part",
		"sfdisk --append /dev/sda < part",
		"sfdisk -n /dev/sda < layout",
		"sfdisk --no-act /dev/sda < layout",
		"sfdisk --part-type /dev/sda 1 83",
		"sfdisk --activate /dev/sda 1",
		"sfdisk /tmp/disk.img < layout",
	))
	runExactHosts(t, p, []exactCase{
		{"list", "sfdisk -l /dev/sda", TierRead},
		{"dump", "sfdisk -d /dev/sda", TierRead},
		{"json", "sfdisk --json /dev/sda", TierRead},
	})
}

// TestBlindSpotWorkingDirByName: the working directory named by $PWD,
// ${PWD}, $(pwd), `pwd` or ~+ after a cd into a system directory is that
// directory, so removing it recursively is denied as rm -rf . there is.
// The same elsewhere keeps tier 3.
func TestBlindSpotWorkingDirByName(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`cd / && rm -rf "$(pwd)"`,
		`cd / && rm -rf "$PWD"`,
		`cd /usr; rm -r -f ${PWD}`,
		`cd /etc && rm -rf ~+`,
		"cd /etc && rm -rf `pwd`",
		`cd /usr/lib && rm -rf "$(pwd)/"`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`cd /srv/x && rm -rf "$PWD"`,
		`rm -rf "$PWD"`,
		`cd /etc && rm -rf "$PWD/nginx/old"`,
	))
}
