package policy

import "testing"

// TestBlindSpotComputedReaderOptions: a program whose read forms sit
// beside options that write, delete, change the system or destroy data
// (blkid -c, BSD base64 -o, lz4cat --rm, logger -f, arp -d, losetup -D,
// blockdev --setro, a qdbus method, sgdisk --zap-all, hdparm
// --security-erase, tune2fs -O, ifconfig IFACE down) can be given one by
// a word computed at run time: that is not a read, and where the literal
// option is refused or tier 3, it is tier 3. Values the script gives
// exactly, option values and literal read forms keep their tier.
func TestBlindSpotComputedReaderOptions(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		`blkid "$dev"`, `blkid $x`, `blkid -o value -s UUID "$dev"`, `blkid -p $x`, `sudo blkid "$1"`,
		`base64 "$f"`, `base64 -w0 "$f"`, `base64 -d $x`, `base64 -i $x`,
		`lz4cat --rm /tmp/a.lz4`, `lz4cat "$f"`, `lz4cat $x`,
		`logger $x`, `logger "$msg"`, `logger -t t $x`,
		`arp $x`, `arp -n "$h"`, `losetup $x`, `losetup "$d"`, `blockdev $x`, `blockdev --getsize64 "$d"`,
		`qdbus $x`, `qdbus org.x $p`, `qdbus-qt5 $x`,
		`x=$(cat /tmp/o); blkid $x`, `read x < /tmp/o; base64 "$x"`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`sgdisk $x /dev/sda`, `sgdisk "$o" /dev/sda`, `sgdisk -p "$dev"`, `sudo sgdisk $x`,
		`hdparm $x /dev/sda`, `hdparm -I "$dev"`, `hdparm "$o" /dev/sda`,
		`tune2fs $x`, `tune2fs -l "$dev"`, `tune2fs "$o" /dev/sda1`,
		`ifconfig $x`, `ifconfig eth0 $x`, `sudo ifconfig $i`,
	))
	runExactHosts(t, p, []exactCase{
		{"blkid", `blkid`, TierRead},
		{"blkid dev", `blkid /dev/sda1`, TierRead},
		{"blkid format value", `blkid -o "$fmt" /dev/sda1`, TierRead},
		{"blkid tag value", `blkid -s "$t" -o value /dev/sda1`, TierRead},
		{"blkid loop", `for d in /dev/sd?; do blkid "$d"; done`, TierRead},
		{"blkid exact", `dev=/dev/sda1; blkid "$dev"`, TierRead},
		{"base64 file", `base64 -w0 /etc/hosts`, TierRead},
		{"base64 wrap value", `base64 -w "$n" /etc/hosts`, TierRead},
		{"lz4cat", `lz4cat /tmp/a.lz4`, TierRead},
		{"logger tag", `logger -t "$tag" hello`, TierBenign},
		{"logger end of options", `logger -t app -- "$msg"`, TierBenign},
		{"arp", `arp -n`, TierRead},
		{"arp iface", `arp -i "$if" -n`, TierRead},
		{"losetup list", `losetup -l`, TierRead},
		{"losetup assoc", `losetup -j "$f"`, TierRead},
		{"blockdev size", `blockdev --getsize64 /dev/sda`, TierRead},
		{"qdbus list", `qdbus`, TierRead},
		{"ifconfig", `ifconfig`, TierRead},
		{"ifconfig iface", `ifconfig "$i"`, TierRead},
		{"sgdisk print", `sgdisk -p /dev/sda`, TierRead},
		{"sgdisk info value", `sgdisk -i "$n" /dev/sda`, TierRead},
		{"hdparm identify", `hdparm -I /dev/sda`, TierRead},
		{"tune2fs list", `tune2fs -l /dev/sda1`, TierRead},
	})
}
