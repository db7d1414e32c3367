package policy

import "testing"

// TestBlindSpotApplianceAPIs: the RPC clients of router and NAS
// appliances reach power, deletion and files: ubus call system reboot and
// midclt call system.reboot/shutdown are denied like reboot in every
// spelling, and midclt call disk.wipe like wipefs; rpcd's file
// exec/write/remove, sysupgrade, an interface taken down and TrueNAS
// deletes and pool exports are tier 3.
func TestBlindSpotApplianceAPIs(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"ubus call system reboot",
		"ubus -t 5 call system reboot",
		"ubus -S call system reboot",
		"sh -c 'ubus call system reboot'",
		"echo 'ubus call system reboot' | sh",
		"midclt call system.reboot",
		"midclt call system.shutdown",
		"midclt -t 10 call System.Reboot",
		"sudo midclt call system.shutdown",
		"midclt call disk.wipe sda QUICK",
		"midclt call disk.wipe sdb FULL_RANDOM",
		"midclt -t 600 call -job disk.wipe ada0 FULL",
		"midclt call Disk.Wipe sda QUICK",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		`ubus call file exec '{"command":"id"}'`,
		`ubus call file write '{"path":"/etc/x","data":"y"}'`,
		`ubus call file remove '{"path":"/x"}'`,
		"ubus call system sysupgrade '{}'",
		"ubus call network.interface.wan down",
		`midclt call pool.export 1 '{"destroy":true}'`,
		"midclt call pool.dataset.delete tank/x",
		"midclt call zfs.snapshot.rollback tank@x",
	))
	runExact(t, p, []exactCase{
		{"ubus info", "ubus call system info", TierRead},
		{"ubus board", "ubus call system board", TierRead},
		{"ubus interface dump", "ubus call network.interface dump", TierRead},
		{"midclt info", "midclt call system.info", TierRead},
		{"midclt query", "midclt call pool.query", TierRead},
	})
}

// TestBlindSpotLVMDispatch: lvm runs its commands as the programs of the
// same name do, so each is classified as that program; the reports stay
// reads.
func TestBlindSpotLVMDispatch(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"lvm vgchange -an vg",
		"lvm lvchange -an vg/lv",
		"lvm pvcreate -ff /dev/sda",
		"lvm vgcfgrestore vg",
		"lvm pvmove /dev/sda",
	))
	runExact(t, p, []exactCase{
		{"lvm lvs", "lvm lvs", TierRead},
		{"lvm pvscan", "lvm pvscan", TierRead},
		{"lvm vgscan", "lvm vgscan", TierRead},
		{"lvm version", "lvm version", TierRead},
		{"lvm fullreport", "lvm fullreport", TierRead},
	})
}

// TestBlindSpotAccessAndMounts: what cuts the operator off a router or
// hides a system directory: killing or removing dropbear (OpenWrt's
// sshd) or an ssh server package through opkg, zfs unmount -a, a dataset
// mounted over a system directory, and a zfs channel program, which can
// destroy datasets unless -n runs it read-only.
func TestBlindSpotAccessAndMounts(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"killall dropbear",
		"pkill dropbear",
		"opkg remove dropbear",
		"opkg remove openssh-server",
		"opkg remove --force-removal-of-dependent-packages dropbear",
		"zfs umount -a",
		"zfs unmount -fa",
		"zfs set mountpoint=/etc tank/x",
		"zfs set mountpoint=/ tank/x",
		"zfs program tank /tmp/x.lua",
	))
	runExact(t, p, []exactCase{
		{"opkg remove other", "opkg remove luci-app-x", TierMutate},
		{"zfs set mountpoint data", "zfs set mountpoint=/srv/data tank/data", TierMutate},
		{"zfs program -n", "zfs program -n tank /tmp/x.lua", TierMutate},
		{"zfs unmount one", "zfs unmount tank/x", TierMutate},
	})
}

// TestBlindSpotNmcliRadioPrefix: nmcli takes keywords by unique prefix,
// so "radio all of" turns every radio off like "radio all off".
func TestBlindSpotNmcliRadioPrefix(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"nmcli r all of",
		"nmcli radio all of",
		"nmcli r wifi of",
		"nmcli -f all r all of",
		"nmcli -t r wifi of",
	))
	runExact(t, p, []exactCase{
		{"radio on", "nmcli r all on", TierMutate},
		{"radio", "nmcli r", TierRead},
	})
}

// TestBlindSpotOpenWrtWifi: OpenWrt's wifi down takes every radio down,
// which cuts an operator on wireless off, like ifdown.
func TestBlindSpotOpenWrtWifi(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"wifi down",
		"wifi down radio0",
		"sudo wifi down",
	))
	runExact(t, p, []exactCase{
		{"status", "wifi status", TierRead},
		{"reload", "wifi", TierMutate},
		{"up", "wifi up", TierMutate},
	})
}

// TestBlindSpotHardwareWrites: register and firmware writers that can
// hang the machine or brick its firmware were unknown programs, tier 2:
// MSR, port and I2C writes, devmem and setpci with a value, efivar -w and
// fwupd installs and updates; their reading forms stay below tier 3.
func TestBlindSpotHardwareWrites(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"wrmsr -a 0x1a0 0",
		"outb 0x80 0",
		"i2cset -y 1 0x50 0x00 0xff",
		"i2ctransfer -y 1 w1@0x50 0x00",
		"devmem 0x1000 32 0",
		"busybox devmem 0x1000 32 0",
		"devmem2 0x1000 w 0",
		"setpci -s 00:1f.0 0x40.L=0",
		"setpci -v -s 00:1f.0 COMMAND=0",
		"efivar -w -n x -f /tmp/y",
		"fwupdmgr update",
		"fwupdmgr install /tmp/x.cab",
		"fwupdtool install /tmp/x.cab",
	))
	runExact(t, p, []exactCase{
		{"devmem read", "devmem 0x1000", TierMutate},
		{"setpci read", "setpci -s 00:1f.0 0x40.L", TierMutate},
		{"efivar list", "efivar -l", TierMutate},
		{"fwupdmgr devices", "fwupdmgr get-devices", TierRead},
		{"fwupdmgr security", "fwupdmgr security", TierRead},
	})
}

// TestBlindSpotZpoolRewind: zpool import's recovery mode discards the
// pool's last transactions (-F, -X further back) and a rewind to the
// checkpoint everything after it; -n only asks whether it would work.
func TestBlindSpotZpoolRewind(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"zpool import -F tank",
		"zpool import -FX tank",
		"zpool import -X tank",
		"zpool import --rewind-to-checkpoint tank",
		"zpool import -d /dev/disk/by-id -F tank",
	))
	runExact(t, p, []exactCase{
		{"dry run", "zpool import -Fn tank", TierMutate},
		{"import", "zpool import tank", TierMutate},
		{"list", "zpool import", TierRead},
	})
}

// TestBlindSpotQmGuestCmd: qm guest cmd reads only with the guest agent's
// reporting commands; shutdown, suspend-* and fsfreeze-freeze stop or
// hang the guest.
func TestBlindSpotQmGuestCmd(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"qm guest cmd 100 shutdown",
		"qm guest cmd 100 fsfreeze-freeze",
		"qm guest cmd 100 suspend-disk",
		"qm guest cmd 100 suspend-ram",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"qm guest cmd 100 fstrim",
		"qm guest cmd 100 fsfreeze-thaw",
	))
	runExact(t, p, []exactCase{
		{"ping", "qm guest cmd 100 ping", TierRead},
		{"get-osinfo", "qm guest cmd 100 get-osinfo", TierRead},
		{"interfaces", "qm guest cmd 100 network-get-interfaces", TierRead},
		{"fsfreeze-status", "qm guest cmd 100 fsfreeze-status", TierRead},
	})
}

// TestBlindSpotBackupClients: restic's and borg's listing commands run
// what their options name: --password-command, --rsh and the variables
// RESTIC_PASSWORD_COMMAND, BORG_PASSCOMMAND and BORG_RSH are commands
// (classified as shell), restic dump --target and --cache-dir write, and
// an sftp: or ssh:// repository runs ssh to a host the host rules judge.
func TestBlindSpotBackupClients(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"restic snapshots --password-command 'touch /etc/x'",
		"RESTIC_PASSWORD_COMMAND='touch /etc/x' restic snapshots",
		"BORG_PASSCOMMAND='touch /etc/x' borg list /x",
		"BORG_RSH='touch /etc/x' borg list ssh://h/x",
		"borg list --rsh 'touch /etc/x' /x",
		"restic dump latest /srv/a --target /etc/x",
		"restic snapshots --cache-dir /etc/x",
	))
	runBlind(t, p, sameCases(TierDestructive, true,
		"restic -r sftp:169.254.169.254:/x snapshots",
		"restic -r sftp:user@metadata.google.internal:/x snapshots",
		"borg list ssh://169.254.169.254/x",
	))
	runExact(t, p, []exactCase{
		{"restic snapshots", "restic snapshots", TierRead},
		{"restic sftp", "restic -r sftp:backup@nas:/srv/restic snapshots", TierBenign},
		{"borg list", "borg list /srv/borg", TierRead},
		{"borg ssh", "borg list ssh://backup@nas/./repo", TierBenign},
	})
}
