package policy

import "strings"

// Erasing a disk is denied whichever tool does it, as mkfs, wipefs,
// blkdiscard and dd of=/dev/sda are: the SCSI formatters and sanitizers
// (sg_format --format, sg_sanitize, sg_write_same, sg_unmap), the other
// dd-like copiers' of= a block device (sg_dd, sgp_dd, ddpt), the
// overwriting wipers (scrub, wipe, nwipe --autonuke, badblocks -w), the
// file system makers with names of their own (mkudffs, jfs_mkfs, BSD's
// newfs*, make-bcache, bcachefs format, ubiformat, macOS's diskutil
// eraseDisk and zeroDisk, FreeBSD's gpart destroy), erasing flash
// (flash_erase, OpenWrt's mtd erase, and its factory resets firstboot and
// jffs2reset, which erase the overlay holding every setting), sfdisk
// --delete of every partition, and NVMe namespace deletion, zeroing and
// deallocation. Their reads, dry runs and single-partition edits keep the
// tiers their handlers give.

// diskDeniers are the programs diskDeny reads.
var diskDeniers = set(`sg_format sg_sanitize sg_write_same sg_unmap sg_dd sgp_dd sgm_dd ddpt scrub wipe
	nwipe badblocks sfdisk mkudffs jfs_mkfs newfs newfs_msdos newfs_exfat newfs_hfs make-bcache bcachefs
	ubiformat flash_erase flash_eraseall mtd firstboot jffs2reset gpart diskutil mformat fallocate`)

// diskutilErasers are diskutil's verbs (any case) that make a new file
// system or overwrite a disk, as mkfs and shred do.
var diskutilErasers = set(`erasedisk erasevolume zerodisk randomdisk secureerase securerase reformat eraseoptical`)

// diskFormatters make a file system or erase a device whatever their
// arguments, like mkfs.*.
var diskFormatters = set(`mkudffs jfs_mkfs newfs newfs_msdos newfs_exfat newfs_hfs make-bcache ubiformat
	flash_erase flash_eraseall firstboot jffs2reset`)

// diskDeny returns why a command of diskDeniers erases a disk, or "".
func diskDeny(name string, args []string) string {
	erases := name + ": erases a disk or its file system"
	if helpOnly(args) {
		return ""
	}
	switch {
	case diskFormatters[name]:
		return erases
	case name == "bcachefs":
		if v := firstOperand(name, args); v == "format" || v == "mkfs" {
			return "bcachefs " + v + ": makes a file system, erasing the device"
		}
	case name == "gpart":
		// gpart destroy is sgdisk --zap-all: the table and every partition.
		if firstOperand(name, args) == "destroy" {
			return "gpart destroy: destroys the partition table"
		}
	case name == "diskutil":
		ops := operands(args)
		if len(ops) > 0 && strings.EqualFold(ops[0], "quiet") {
			ops = ops[1:]
		}
		if len(ops) > 0 && diskutilErasers[strings.ToLower(ops[0])] {
			return "diskutil " + ops[0] + ": erases a disk or volume"
		}
	case name == "sg_format":
		// Without --format it reports the device's format; --dry-run
		// does everything but send the command.
		if getoptFlag(args, 'F', "--format", "CcfMmPpQst") && !getoptFlag(args, 'd', "--dry-run", "CcfMmPpQst") {
			return erases
		}
	case name == "sg_sanitize":
		for _, f := range []struct {
			c    byte
			long string
		}{{'B', "--block"}, {'C', "--crypto"}, {'O', "--overwrite"}} {
			if getoptFlag(args, f.c, f.long, "cdeipTw") && !hasFlag(args, 0, "--dry-run") {
				return erases
			}
		}
	case name == "sg_write_same" || name == "sg_unmap" || name == "scrub" || name == "wipe":
		for _, a := range args {
			if blockTarget(a) {
				return name + ": overwrites or discards block device " + a
			}
		}
	case name == "sg_dd" || name == "sgp_dd" || name == "sgm_dd" || name == "ddpt":
		for _, a := range args {
			k, v, ok := strings.Cut(a, "=")
			if ok && (k == "of" || k == "of2") && blockTarget(v) {
				return name + ": writes block device " + v
			}
		}
	case name == "nwipe":
		// --autonuke wipes every disk it finds, --autopoweroff then
		// powers the machine off.
		if hasFlag(args, 0, "--autonuke") {
			return "nwipe --autonuke: wipes every disk"
		}
		if hasFlag(args, 0, "--autopoweroff") {
			return "nwipe --autopoweroff: powers the machine off"
		}
	case name == "badblocks":
		if getoptFlag(args, 'w', "", "bcdeiopt") {
			return "badblocks -w: overwrites the whole device"
		}
	case name == "sfdisk":
		// --delete DEVICE with no partition numbers deletes them all.
		if hasFlag(args, 0, "--delete") {
			if ops := getoptOperands(args, "NXYOowWt", []string{"--backup-file", "--output", "--wipe", "--wipe-partitions",
				"--label", "--label-nested", "--color", "--lock", "--sector-size"}); len(ops) == 1 {
				return "sfdisk --delete " + ops[0] + ": deletes every partition"
			}
		}
		if d := sfdiskNewTable(args); d != "" {
			return "sfdisk " + d + ": writes a new partition table over the device's, as fdisk's o or parted mklabel does"
		}
	case name == "fallocate":
		// Punching, zeroing, collapsing or digging holes in a block
		// device discards or zeroes its blocks, as blkdiscard does.
		for _, f := range []struct {
			c    byte
			long string
		}{{'p', "--punch-hole"}, {'z', "--zero-range"}, {'c', "--collapse-range"}, {'d', "--dig-holes"}, {'i', "--insert-range"}} {
			if !getoptFlag(args, f.c, f.long, "lo") {
				continue
			}
			for _, a := range args {
				if blockTarget(a) {
					return "fallocate " + f.long + " " + a + ": discards or zeroes the device's blocks"
				}
			}
		}
	case name == "mformat":
		// mtools' mformat -i IMAGE makes a FAT file system on IMAGE: a
		// disk when it names one.
		for i, a := range args {
			v, ok := strings.CutPrefix(a, "-i")
			if ok && v == "" && i+1 < len(args) {
				v = args[i+1]
			}
			if ok && blockTarget(v) {
				return "mformat -i " + v + ": makes a file system, erasing the device"
			}
		}
	case name == "mtd":
		for _, a := range operands(args) {
			if a == "erase" {
				return "mtd erase: erases a flash partition"
			}
		}
	}
	return ""
}

// helpOnly reports whether args ask only for help or the version.
func helpOnly(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		switch a {
		case "-h", "--help", "-V", "--version", "-?":
		default:
			return false
		}
	}
	return true
}

// getoptFlag reports whether args carry the short flag c (alone or in a
// cluster, which ends at a letter of values, an option that takes a
// value) or the long option long, abbreviated as getopt_long takes it.
func getoptFlag(args []string, c byte, long, values string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "--") {
			if long != "" && longFlag(a, long) {
				return true
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		for k := 1; k < len(a); k++ {
			if a[k] == c {
				return true
			}
			if strings.IndexByte(values, a[k]) >= 0 {
				if k == len(a)-1 {
					i++
				}
				break
			}
		}
	}
	return false
}

// partScriptWipes returns why the commands fdisk or gdisk read from known
// input replace the partition table, or "": a new empty label (fdisk's o,
// g, G, s; gdisk's o) or gdisk's expert zap (x, z), then w to write it —
// printf 'o\nw\n' | fdisk /dev/sda is parted mklabel by keystrokes.
func partScriptWipes(c *call) string {
	texts := []string{}
	if c.ctx.stdin.kind == stdinText {
		texts = append(texts, c.ctx.stdin.text)
	}
	texts = append(texts, c.ctx.stdin.alts...)
	for _, t := range texts {
		label, expert := false, false
		for _, l := range strings.Split(t, "\n") {
			switch strings.TrimSpace(l) {
			case "o", "g", "G", "s":
				label = label || l == "o" || c.name == "fdisk"
			case "x":
				expert = c.name == "gdisk"
			case "z":
				if expert {
					return "gdisk x z: zaps the partition tables"
				}
			case "w", "W":
				if label {
					return c.name + " o, w: writes a new empty partition table"
				}
			}
		}
	}
	return ""
}

// sfdiskTableOpts are the options sfdisk DEVICE may carry and still write
// the whole table its input describes; any other (-N to change one
// partition, --append, --no-act, a listing or dump) makes it something
// else. sfdiskTableValues take the next word.
var sfdiskTableOpts = set(`-f --force -q --quiet -w --wipe -W --wipe-partitions -X --label -Y --label-nested
	-b --backup -O --backup-file --no-reread --no-tell-kernel --lock --color -u --unit`)

var sfdiskTableValues = set(`-w --wipe -W --wipe-partitions -X --label -Y --label-nested -O --backup-file -u --unit`)

// sfdiskNewTable returns the device sfdisk replaces the partition table
// of, reading the new one from its input (sfdisk /dev/sda < layout,
// echo ',,' | sfdisk /dev/sda), or "".
func sfdiskNewTable(args []string) string {
	dev := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+2 != len(args) || dev != "" {
				return ""
			}
			dev = args[i+1]
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, _, eq := strings.Cut(a, "=")
			if !sfdiskTableOpts[name] {
				return ""
			}
			if !eq && sfdiskTableValues[name] {
				i++
			}
		case len(a) > 1 && a[0] == '-':
			// A cluster of flags (-fq), or one flag with its value
			// attached (-wnever) or next.
			f := a[:2]
			if !sfdiskTableOpts[f] {
				return ""
			}
			if sfdiskTableValues[f] {
				if len(a) == 2 {
					i++
				}
				continue
			}
			if strings.Trim(a[1:], "fqb") != "" {
				return ""
			}
		case dev != "":
			return "" // a partition number: one partition changed
		default:
			dev = a
		}
	}
	if !blockTarget(dev) {
		return ""
	}
	return dev
}
