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

// TestBlindSpotDeviceSettings: ethtool's long option words that change a
// NIC or disturb its link (--negotiate, --test, --features, --cable-test
// …) and -w's "data FILE", and smartctl's settings in getopt_long's
// spellings (--sm=off, -son, -as on), are not read-only.
func TestBlindSpotDeviceSettings(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"ethtool --negotiate", "ethtool --negotiate eth0", TierMutate, false},
		{"ethtool --test", "ethtool --test eth0", TierMutate, false},
		{"ethtool --identify", "ethtool --identify eth0 5", TierMutate, false},
		{"ethtool --cable-test", "ethtool --cable-test eth0", TierMutate, false},
		{"ethtool --pause", "ethtool --pause eth0 rx off", TierMutate, false},
		{"ethtool --features", "ethtool --features eth0 tso off", TierMutate, false},
		{"ethtool --offload", "ethtool --offload eth0 gro off", TierMutate, false},
		{"ethtool -Q --coalesce", "ethtool -Q eth0 queue_mask 1 --coalesce rx-usecs 1", TierMutate, false},
		{"ethtool -w data", "ethtool -w eth0 data /tmp/x", TierMutate, false},
		{"ethtool --get-dump data device", "ethtool --get-dump eth0 data /dev/sda", TierDestructive, true},
		{"ethtool --change-eeprom", "ethtool --change-eeprom eth0 magic 0 offset 0 value 0", TierDestructive, false},
		{"smartctl --sm=", "smartctl --sm=off /dev/sda", TierMutate, false},
		{"smartctl --se=", "smartctl --se=apm,1 /dev/sda", TierMutate, false},
		{"smartctl -son", "smartctl -son /dev/sda", TierMutate, false},
		{"smartctl -as on", "smartctl -as on /dev/sda", TierMutate, false},
		{"smartctl --te=", "smartctl --te=short /dev/sda", TierBenign, false},
		{"smartctl -tshort", "smartctl -tshort /dev/sda", TierBenign, false},
	})
	runExact(t, p, []exactCase{
		{"ethtool", "ethtool eth0", TierRead},
		{"ethtool -S", "ethtool -S eth0", TierRead},
		{"ethtool -w", "ethtool -w eth0", TierRead},
		{"ethtool --show-eee", "ethtool --show-eee eth0", TierRead},
		{"smartctl -a", "smartctl -a /dev/sda", TierRead},
		{"smartctl -lselftest", "smartctl -lselftest /dev/sda", TierRead},
		{"smartctl -dsat", "smartctl -dsat -a /dev/sda", TierRead},
		{"smartctl --get", "smartctl --get=all /dev/sda", TierRead},
		{"smartctl -ic", "smartctl -ic /dev/sda", TierRead},
	})
}

// TestBlindSpotSubcommandWrites: reading subcommands whose options or
// extra operands write or reset state: btrfs filesystem label with a new
// label, btrfs device stats -z, zpool events -c, docker compose config -o,
// helm template --output-dir, podman healthcheck run.
func TestBlindSpotSubcommandWrites(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"btrfs filesystem label set", "btrfs filesystem label / newlabel", TierMutate, false},
		{"btrfs fi label set", "btrfs fi label /srv data", TierMutate, false},
		{"btrfs device stats -z", "btrfs device stats -z /", TierMutate, false},
		{"btrfs device stats --reset", "btrfs device stats --reset /srv", TierMutate, false},
		{"zpool events -c", "zpool events -c", TierMutate, false},
		{"zpool events -vc", "zpool events -vc", TierMutate, false},
		{"compose config -o", "docker compose config -o /tmp/x", TierMutate, false},
		{"compose config --output=", "docker compose config --output=/tmp/x", TierMutate, false},
		{"compose config -o device", "docker compose config -o /dev/sda", TierDestructive, true},
		{"helm template --output-dir", "helm template x ./chart --output-dir /tmp/x", TierMutate, false},
		{"podman healthcheck run", "podman healthcheck run web", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"btrfs filesystem label", "btrfs filesystem label /", TierRead},
		{"btrfs device stats", "btrfs device stats /", TierRead},
		{"zpool events -v", "zpool events -v", TierRead},
		{"compose config", "docker compose config", TierRead},
		{"helm template", "helm template x ./chart", TierRead},
	})
}

// TestBlindSpotKubeClients: a kubeconfig named by --kubeconfig can run a
// credential program (like KUBECONFIG), helm --post-renderer runs one,
// KUBECTL_EXTERNAL_DIFF chooses kubectl diff's program, and cluster-info
// dump --output-directory and --cache-dir write.
func TestBlindSpotKubeClients(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"kubectl get pods --kubeconfig=/tmp/x", "kubectl --kubeconfig /tmp/x get pods",
		"helm list --kubeconfig /tmp/x", "helm template x --post-renderer /tmp/x",
		"KUBECTL_EXTERNAL_DIFF='touch /etc/x' kubectl diff -f x.yaml",
	))
	runBlind(t, p, sameCases(TierDestructive, true, "helm template x --post-renderer=reboot"))
	runBlind(t, p, sameCases(TierMutate, false,
		"kubectl cluster-info dump --output-directory=/etc/x", "kubectl cluster-info dump --output-directory /etc/x",
		"kubectl get pods --cache-dir=/etc/x",
	))
	runExact(t, p, []exactCase{
		{"get", "kubectl -n x get pods -o yaml", TierRead},
		{"cluster-info dump", "kubectl cluster-info dump", TierRead},
		{"helm list", "helm list", TierRead},
		{"helm template", "helm template x", TierRead},
	})
}

// TestBlindSpotMountOver: a mount over a system directory or file hides
// or replaces what the system runs and reads, and remounting one changes
// it for everything: tier 3, like unmounting one. Mounts under /mnt,
// /media, /srv and /home stay tier 2.
func TestBlindSpotMountOver(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"mount -o remount,ro /",
		"mount -oremount,ro /",
		"mount --bind /tmp/x /usr/bin/sudo",
		"mount -B /tmp/x /root",
		"mount --rbind /tmp/x /usr/lib",
		"mount -t tmpfs none /etc",
		"mount -t tmpfs tmpfs /var/lib/docker",
		"mount -o bind,ro /tmp/x /etc/ssh",
		"mount --move /mnt/x /boot",
		"sudo mount -t overlay overlay -o lowerdir=/tmp/l /usr",
		"umount -a",
		"umount --all -t nfs",
		"umount -A /dev/sdb1",
	))
	runExact(t, p, []exactCase{
		{"disk under /mnt", "mount /dev/sdb1 /mnt/data", TierMutate},
		{"disk on /mnt", "mount /dev/sdb1 /mnt", TierMutate},
		{"tmpfs on /tmp", "mount -t tmpfs tmpfs /tmp", TierMutate},
		{"root made writable", "mount -o remount,rw /", TierMutate},
		{"nfs under /mnt", "mount -t nfs nas:/export /mnt/nas", TierMutate},
		{"bind under /srv", "mount --bind /srv/a /srv/b", TierMutate},
		{"fstab entry", "mount /mnt/usb", TierMutate},
		{"mount -a", "mount -a", TierMutate},
		{"list", "mount -t ext4", TierRead},
		{"umount one", "umount /mnt/data", TierMutate},
	})
}
