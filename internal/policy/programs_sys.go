package policy

import (
	"strings"
)

// firewallRules classifies iptables and friends, nft, ufw and
// firewall-cmd. Flushing or disabling a firewall, or a default-drop policy
// that can lock the operator out, is TierDestructive rather than denied:
// firewall work is routine for the operators warden serves, and a human can
// approve it.
func firewallRules(c *call) (Tier, string) {
	vals := c.vals()
	ops := operands(vals)
	if why := firewallCutsOff(c.name, vals); why != "" && !(c.name == "nft" && hasFlag(vals, 'c', "--check")) && !hasFlag(vals, 0, "--dry-run") {
		return TierDestructive, why
	}
	if why := firewallComputed(c); why != "" {
		c.e.opaque = true
		return TierDestructive, why
	}
	switch c.name {
	case "nft":
		if hasFlag(vals, 'c', "--check") {
			// -c parses and checks against the kernel, applying nothing.
			return TierRead, "nft -c: checks rules without applying them"
		}
		t, why := nftVerdict(ops)
		if t < TierDestructive && (hasFlag(vals, 'f', "--file") || hasFlag(vals, 'i', "--interactive")) {
			return TierDestructive, "nft -f: loads rules from a file"
		}
		return t, why
	case "ufw":
		if len(ops) == 0 || ops[0] == "status" || ops[0] == "show" || ops[0] == "version" || ops[0] == "app" && len(ops) > 1 && (ops[1] == "list" || ops[1] == "info") {
			return TierRead, "ufw: shows status"
		}
		if ops[0] == "disable" || ops[0] == "reset" || ops[0] == "default" {
			return TierDestructive, "ufw " + ops[0] + ": disables the firewall or changes its default policy"
		}
		return TierMutate, "ufw: changes firewall rules"
	case "firewall-cmd":
		for _, v := range vals {
			switch {
			// argparse takes --set-default-z; --panic-o is --panic-off too.
			case v == "--panic-on" || longFlag(v, "--set-default-zone") || strings.HasPrefix(v, "--remove-service=ssh"):
				return TierDestructive, "firewall-cmd " + v + ": can cut off access"
			}
		}
		read := len(vals) > 0
		for _, v := range vals {
			if !(strings.HasPrefix(v, "--list") || strings.HasPrefix(v, "--get") || strings.HasPrefix(v, "--query") ||
				strings.HasPrefix(v, "--info") || v == "--state" || strings.HasPrefix(v, "--zone") || v == "--permanent" || v == "--version") {
				read = false
			}
		}
		if read {
			return TierRead, "firewall-cmd: shows configuration"
		}
		return TierMutate, "firewall-cmd: changes firewall rules"
	}
	// iptables family: upper-case letters are commands.
	t, why := TierRead, c.name+": lists rules"
	if len(vals) == 0 {
		return TierRead, c.name
	}
	for i, v := range vals {
		cmds := ""
		switch {
		case strings.HasPrefix(v, "--"):
			long, val, attached := longName(v, iptablesLongOpts)
			switch long {
			case "--flush", "--delete-chain", "--zero":
				cmds = "F"
			case "--policy":
				cmds = "P"
				if attached && i+1 < len(vals) && (vals[i+1] == "DROP" || vals[i+1] == "REJECT") && val != "" {
					return TierDestructive, c.name + " --policy: default-drop policy can cut off access"
				}
			case "--append", "--insert", "--delete", "--replace", "--new-chain", "--rename-chain":
				cmds = "A"
			}
		case len(v) > 1 && v[0] == '-':
			cmds = v[1:]
		}
		for _, f := range cmds {
			switch f {
			case 'F', 'X':
				return TierDestructive, c.name + " -" + string(f) + ": flushes firewall rules"
			case 'P':
				if i+2 < len(vals) && (vals[i+2] == "DROP" || vals[i+2] == "REJECT") {
					return TierDestructive, c.name + " -P DROP: default-drop policy can cut off access"
				}
				t, why = TierMutate, c.name+": changes a policy"
			case 'A', 'I', 'D', 'R', 'N', 'E', 'Z':
				t, why = TierMutate, c.name+": changes firewall rules"
			}
		}
	}
	return t, why
}

// argProgram classifies small programs whose tier depends on a flag or two.
func argProgram(c *call) (Tier, string) {
	vals := c.vals()
	ops := operands(vals)
	has := func(flags ...string) bool {
		for _, v := range vals {
			for _, f := range flags {
				if v == f || strings.HasPrefix(f, "--") && longFlag(v, f) {
					return true
				}
			}
		}
		return false
	}
	onlyFlags := func(allowed ...string) bool {
		for _, v := range vals {
			ok := false
			for _, a := range allowed {
				if v == a || strings.HasPrefix(a, "--") && longFlag(v, a) {
					ok = true
				}
			}
			if !ok {
				return false
			}
		}
		return true
	}
	n := c.name
	switch n {
	case "init", "telinit":
		if len(vals) == 1 && (vals[0] == "--help" || vals[0] == "-h" || vals[0] == "--version") {
			return TierRead, n + " " + vals[0]
		}
		if !allKnown(c.args) {
			c.e.opaque = true
			return TierDestructive, n + ": run level computed at run time"
		}
		return TierDestructive, n + ": changes the run level"
	case "crontab":
		if has("-l", "--list") {
			return TierRead, "crontab -l"
		}
		return TierMutate, "crontab: replaces or edits cron jobs"
	case "userdel", "deluser":
		return TierDestructive, n + ": deletes a user"
	case "passwd":
		if has("-S", "--status") {
			return TierRead, "passwd -S"
		}
		for _, o := range ops {
			if o == "root" {
				return TierDestructive, "passwd root: changes the root password"
			}
		}
		if has("-d", "--delete") {
			return TierDestructive, "passwd -d: removes a password"
		}
		if hasFlag(vals, 'l', "--lock") || hasFlag(vals, 'd', "--delete") {
			return TierDestructive, "passwd -l/-d: locks the account or removes its password"
		}
		return TierMutate, "passwd: changes a password"
	case "fdisk":
		if has("-l", "--list") {
			return TierRead, "fdisk -l"
		}
		if why := partScriptWipes(c); why != "" {
			c.e.deny(why)
		}
		return TierDestructive, "fdisk: edits partition tables"
	case "sfdisk":
		// The last action sfdisk is given wins: a read with --delete
		// after it deletes.
		if has("-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-V", "--verify", "-g", "--show-geometry") &&
			!sfdiskWrites(vals) {
			return TierRead, "sfdisk: reads partition tables"
		}
		return TierDestructive, "sfdisk: writes partition tables"
	case "parted":
		// Only the options that choose how a table is shown keep a print a
		// read: -f/--fix in script mode answers Fix to every question a
		// print or -l raises (a GPT whose backup header is not at the
		// disk's end is rewritten), ---pretend-input-tty takes the answers
		// from standard input, and parted takes both abbreviated.
		pops, _, ok := c.readOpts(optSpec{flags: "lmjshv", valueShort: "a",
			longFlags: set(`--list --machine --json --script --help --version`), longVals: set(`--align`)})
		if ok && (partedLists(vals) || len(pops) > 1 && onlyOps(pops[1:], "print", "p", "unit", "s", "b", "MB", "GB", "MiB", "GiB", "%", "compact", "chs", "cyl")) {
			return TierRead, "parted: prints partition tables"
		}
		return TierDestructive, "parted: edits partition tables"
	case "sgdisk":
		if onlyFlagsOps(vals, "-p", "--print", "-i", "-v", "--verify", "-O", "--print-mbr", "-L", "--list-types") || len(ops) == len(vals) {
			return TierRead, "sgdisk: prints partition tables"
		}
		return TierDestructive, "sgdisk: edits partition tables"
	case "tune2fs":
		if onlyFlagsOps(vals, "-l") {
			return TierRead, "tune2fs -l"
		}
		return TierDestructive, "tune2fs: changes file system parameters"
	case "efibootmgr":
		if onlyFlags("-v", "--verbose") {
			return TierRead, "efibootmgr: lists boot entries"
		}
		return TierDestructive, "efibootmgr: changes boot entries"
	case "losetup":
		// The listing options only shape what is shown: with a device and
		// a file after them (losetup -l /dev/loop0 /x.img) it attaches,
		// and -d, -D, -f and -c act whatever else is given.
		lops, _, ok := c.readOpts(optSpec{flags: "alnJvhV", valueShort: "jO",
			longFlags: set(`--all --list --noheadings --json --raw --output-all --verbose --help --version`),
			longVals:  set(`--associated --output`)})
		if ok && len(lops) <= 1 {
			return TierRead, "losetup: lists loop devices"
		}
		return TierMutate, "losetup: changes loop devices"
	case "dmsetup":
		for _, x := range c.optVals(c.args, "--exec") {
			// ls --exec CMD runs CMD for every device.
			c.shellArg(x, "dmsetup --exec command")
			return TierDestructive, "dmsetup --exec: runs a command for every device"
		}
		// The command follows the options' values: dmsetup -u ls remove X
		// removes the device whose UUID is ls.
		if ops := getoptOperands(vals, "ujmUGMoSO", dmsetupValueLong); len(ops) > 0 {
			switch ops[0] {
			case "ls", "info", "status", "table", "deps", "version", "targets":
				return TierRead, "dmsetup " + ops[0]
			case "remove", "remove_all", "wipe_table", "clear":
				return TierDestructive, "dmsetup " + ops[0] + ": removes device mappings"
			case "suspend", "reload", "load":
				// Suspending the device under / freezes the host, as
				// fsfreeze does; a new table remaps a live device.
				return TierDestructive, "dmsetup " + ops[0] + ": suspends or remaps a live device"
			}
		}
		return TierMutate, "dmsetup: changes device mappings"
	case "mount":
		if len(vals) == 0 || onlyFlags("-l", "--show-labels", "-V", "--version", "-h", "--help") || has("-t") && len(ops) == 1 && len(vals) == 2 {
			return TierRead, "mount: lists mounts"
		}
		if why := mountOver(c); why != "" {
			return TierDestructive, why
		}
		if why := mountRunOpt(c); why != "" {
			return TierDestructive, why
		}
		return TierMutate, "mount: mounts file systems"
	case "umount":
		if hasFlag(vals, 'a', "--all") {
			return TierDestructive, "umount -a: unmounts every file system"
		}
		if has("-A", "--all-targets") {
			return TierDestructive, "umount -A: unmounts every place the file system is mounted"
		}
		for _, o := range ops {
			if isRoot(o) || criticalPath(o) {
				return TierDestructive, "umount: unmounts a system file system"
			}
		}
		return TierMutate, "umount: unmounts file systems"
	case "hostname", "dnsdomainname", "domainname", "nisdomainname", "ypdomainname":
		// One program under several names: a name given, -F FILE (also
		// attached, -F/tmp/n, or ending a cluster, -vF n) or -b sets the
		// host name or, with -y or as domainname, the NIS domain name.
		if len(ops) == 0 && len(c.optVals(c.args, "-F", "--file")) == 0 && !c.flagSet('b', "--boot", len("--b")) {
			return TierRead, n
		}
		return TierMutate, n + ": sets the host or NIS domain name"
	case "date":
		if has("-s", "--set") || len(c.optVals(c.args, "-s", "--set")) > 0 {
			return TierDestructive, "date -s: jumps the system clock"
		}
		for _, o := range getoptOperands(vals, "dfrs", []string{"--date", "--file", "--reference", "--set", "--rfc-3339"}) {
			if !strings.HasPrefix(o, "+") {
				return TierDestructive, "date: jumps the system clock"
			}
		}
		return TierRead, "date"
	case "dmesg":
		for _, v := range vals {
			if longFlag(v, "--clear") || longFlag(v, "--read-clear") || longFlag(v, "--console-off") ||
				longFlag(v, "--console-on") || longFlag(v, "--console-level") ||
				strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], "cCDEn") {
				return TierMutate, "dmesg " + v + ": clears or changes the kernel log"
			}
		}
		return TierRead, "dmesg"
	case "hwclock":
		// --compare (-c) prints the clock's drift against the system's.
		if len(vals) == 0 || onlyFlags("-r", "--show", "--get", "--verbose", "-v", "--utc", "-u", "--localtime", "--test", "-c", "--compare") {
			return TierRead, "hwclock: reads the clock"
		}
		if why := clockJumps(n, vals); why != "" {
			return TierDestructive, why
		}
		return TierMutate, "hwclock: sets the clock"
	case "lspci":
		// -xxx reads the whole configuration space, which lspci's own
		// manual warns crashes some devices.
		xs := 0
		for _, a := range c.args {
			if !a.known && c.mayBeOption(a) {
				return TierMutate, "lspci: " + truncate(a.val, 64) + " is computed at run time and can become -xxx, which reads the whole configuration space and crashes some devices"
			}
			if v := a.val; a.known && len(v) > 1 && v[0] == '-' && v[1] != '-' {
				xs += strings.Count(v, "x")
			}
		}
		if xs >= 3 {
			return TierMutate, "lspci -xxx: reads the whole configuration space, which crashes some devices"
		}
		if hasFlag(vals, 'Q', "") {
			// -Q asks the PCI ID database over DNS and caches the answers
			// in ~/.pciids-cache, outside the temporary directories.
			return TierMutate, "lspci -Q: writes its ID cache in the home directory"
		}
		return TierRead, "lspci"
	case "sysctl":
		if why := c.sysctlRoot(); why != "" {
			c.e.opaque = true
			return TierDestructive, why
		}
		for _, o := range ops {
			k, v, isKV := strings.Cut(o, "=")
			if isKV && kernelProgramKey(strings.ReplaceAll(strings.TrimSpace(k), "/", "."), v) {
				return TierDestructive, "sysctl " + k + ": names a program the kernel runs as root, outside warden's confinement"
			}
		}
		// -p takes its file attached (-p/etc/x.conf) and clusters (-qp);
		// -f is procps' other name for -p and the BSDs' only one.
		if hasFlag(vals, 'w', "--write") || hasFlag(vals, 'p', "--load") || hasFlag(vals, 'f', "") || hasFlag(vals, 0, "--system") {
			return TierMutate, "sysctl: changes kernel parameters"
		}
		for _, o := range ops {
			if strings.Contains(o, "=") {
				return TierMutate, "sysctl: changes kernel parameters"
			}
		}
		return TierRead, "sysctl: reads kernel parameters"
	case "ifconfig":
		for _, o := range ops {
			if o == "down" {
				return TierDestructive, "ifconfig down: takes an interface down"
			}
		}
		// ifconfig [flags] [IFACE] shows; any word after the interface,
		// a "-flag" too (-arp, -promisc, -alias), sets something.
		for i, v := range vals {
			if !strings.HasPrefix(v, "-") {
				if i+1 < len(vals) {
					return TierMutate, "ifconfig " + v + " " + vals[i+1] + ": configures an interface"
				}
				break
			}
		}
		return TierRead, "ifconfig"
	case "iw":
		return iwProgram(ops)
	case "ethtool":
		return ethtoolProgram(c)
	case "smartctl":
		return smartctlProgram(vals)
	case "nvme":
		if len(ops) > 0 {
			switch ops[0] {
			case "list", "id-ctrl", "id-ns", "smart-log", "error-log", "list-subsys", "show-regs", "fw-log",
				"get-feature", "version", "help", "list-ns", "list-ctrl", "get-log", "effects-log", "self-test-log", "id-ns-granularity":
				return TierRead, "nvme " + ops[0]
			}
		}
		return TierDestructive, "nvme: raw drive command"
	case "mdadm":
		return mdadmProgram(c)
	case "cryptsetup":
		for _, v := range vals {
			if name, _, _ := strings.Cut(v, "="); len(name) >= len("--ext") && strings.HasPrefix("--external-tokens-path", name) {
				// Token plugins are shared libraries loaded from there.
				return TierDestructive, "cryptsetup --external-tokens-path: loads token plugin libraries"
			}
		}
		// The action follows the options' values: cryptsetup -d status
		// luksKillSlot DEV 1 reads its key from the file status.
		if ops := getoptOperands(vals, "chdslSbopTtiMI", cryptsetupValueLong); len(ops) > 0 {
			switch strings.ToLower(ops[0]) {
			case "status", "luksdump", "isluks", "dump", "benchmark", "luksuuid", "tcryptdump", "bitlkdump":
				// A dumped volume key goes to --volume-key-file (or the old
				// --master-key-file) when one is named.
				if has("--volume-key-file", "--master-key-file") {
					return TierMutate, "cryptsetup " + ops[0] + " --volume-key-file: writes the volume key to a file"
				}
				if strings.ToLower(ops[0]) != "luksuuid" || !has("--uuid") {
					return TierRead, "cryptsetup " + ops[0]
				}
			case "open", "luksopen", "close", "luksclose", "plainopen", "loopaesopen", "tcryptopen", "bitlkopen", "refresh":
				return TierMutate, "cryptsetup " + ops[0]
			}
		}
		if len(vals) == 1 && (vals[0] == "--version" || vals[0] == "--help") {
			return TierRead, "cryptsetup"
		}
		return TierDestructive, "cryptsetup: changes encryption keys or volumes"
	case "zramctl":
		// -f, -r, -s and -a set up or reset a device in a cluster too
		// (-fs1G is --find --size=1G).
		if len(ops) == 0 && !hasFlag(vals, 'r', "--reset") && !hasFlag(vals, 'f', "--find") &&
			!hasFlag(vals, 's', "--size") && !hasFlag(vals, 'a', "--algorithm") {
			return TierRead, "zramctl"
		}
		return TierMutate, "zramctl: configures zram"
	case "swapon":
		if len(vals) == 0 || has("--show", "-s", "--summary") {
			return TierRead, "swapon: lists swap"
		}
		return TierMutate, "swapon: enables swap"
	case "openssl":
		return opensslProgram(c, vals, ops)
	case "gpg", "gpg2":
		// Without a command gpg guesses one from its operands and writes
		// what it decrypts or unwraps beside them, so only a listing or
		// verifying command, or no operand (stdin to stdout), reads.
		for _, v := range vals {
			if strings.Contains(v, "show-photos") {
				// --list-options or --verify-options show-photos runs the
				// photo viewer on every photo ID it lists.
				return TierMutate, n + " show-photos: runs the photo viewer"
			}
		}
		if onlyFlagsPrefix(vals, "--list", "-k", "-K", "--verify", "--fingerprint", "--version", "--help", "--card-status", "--with-colons", "--keyid-format", "--batch", "--no-tty", "-q", "--quiet") &&
			(len(ops) == 0 || !onlyFlagsPrefix(vals, "--with-colons", "--keyid-format", "--batch", "--no-tty", "-q", "--quiet")) {
			return TierRead, n + ": lists or verifies"
		}
		for _, v := range vals {
			if strings.HasPrefix(v, "--delete-secret") || strings.HasPrefix(v, "--exec-path") || strings.HasPrefix(v, "--photo-viewer") {
				return TierDestructive, n + " " + v
			}
		}
		r := raiser{TierMutate, n + ": changes keys or writes files"}
		for _, f := range c.optVals(c.args, "-o", "--output") {
			r.raise(c.writeArg(f, n+" output"))
		}
		return r.t, r.why
	case "ssh-keygen":
		if p := shortOptVal(vals, sshKeygenValues, "Dw"); p != "" {
			return TierDestructive, "ssh-keygen: loads the PKCS#11 or security key provider library " + truncate(p, 64)
		}
		switch {
		case hasFlag(vals, 'R', ""):
			return TierDestructive, "ssh-keygen -R: removes a host key from known_hosts"
		case sshKeygenSigReads(vals):
			return TierRead, "ssh-keygen -Y: verifies signatures"
		case sshKeygenReads(vals) && !sshKeygenWrites(vals) && !hasFlag(vals, 'i', ""):
			return TierRead, "ssh-keygen: inspects keys"
		}
		return TierMutate, "ssh-keygen: writes keys"
	case "ssh-add":
		// -l and -L list only when nothing else is asked: with -D, -x or
		// -s the agent's keys change (or a PKCS#11 library is loaded).
		if p := shortOptVal(vals, "EeHhSst", "Ss"); p != "" {
			return TierDestructive, "ssh-add: has the agent load the PKCS#11 or security key provider library " + truncate(p, 64)
		}
		if has("-l", "-L") && onlyFlags("-l", "-L", "-v", "-q", "-E", "md5", "sha256") {
			return TierRead, "ssh-add -l"
		}
		return TierMutate, "ssh-add: changes the agent's keys"
	case "nvidia-smi":
		return nvidiaSmiProgram(vals)
	case "stty":
		if len(vals) == 0 || onlyFlags("-a", "--all", "-g", "--save", "size", "speed") {
			return TierRead, "stty"
		}
		return TierBenign, "stty: changes terminal settings"
	case "arp":
		// -d, -s, -f (and the BSDs' -S) set in clusters too: arp -Ds,
		// arp -da.
		for _, f := range []struct {
			short byte
			long  string
		}{{'d', "--delete"}, {'s', "--set"}, {'f', "--file"}, {'S', ""}} {
			if hasFlag(vals, f.short, f.long) {
				return TierMutate, "arp: changes the ARP table"
			}
		}
		return TierRead, "arp"
	case "route":
		for k, o := range ops {
			if o == "flush" || (o == "del" || o == "delete") && k+1 < len(ops) && defaultRoute(ops[k+1]) {
				return TierDestructive, "route " + o + ": removes the default route or every route"
			}
		}
		// The first operand is the command; only the BSDs' get, show and
		// monitor read (add, delete, change, flush … set), and -A
		// (net-tools) and -T (OpenBSD) take a value.
		cmd := operandsSkipping(vals, "AT", []string{"--family"})
		if len(cmd) == 0 || cmd[0] == "get" || cmd[0] == "show" || cmd[0] == "monitor" {
			return TierRead, "route"
		}
		return TierMutate, "route " + cmd[0]
	case "fsck":
		// fsck passes its options on, and a checker may take the last of
		// -n and -a/-p/-y (dosfsck does): any repair option repairs.
		if strings.ContainsAny(fsckLetters(vals), "nN") && !hasFlag(vals, 'a', "") && !hasFlag(vals, 'p', "") && !hasFlag(vals, 'y', "") && !fsckPassesMore(vals) {
			return TierRead, "fsck -n"
		}
		return TierDestructive, "fsck: may repair (rewrite) a file system"
	case "blockdev":
		for _, v := range vals {
			if strings.HasPrefix(v, "--set") || v == "--flushbufs" || v == "--rereadpt" {
				return TierMutate, "blockdev " + v
			}
		}
		return TierRead, "blockdev"
	case "hdparm":
		if why := hdparmMaxSectors(vals); why != "" {
			return TierDestructive, why
		}
		for _, v := range vals {
			for _, d := range hdparmDestructive {
				if v == d || strings.HasPrefix(v, d) && strings.HasPrefix(d, "--fwdownload") {
					return TierDestructive, "hdparm " + v + ": overwrites sectors, firmware, capacity or the drive's password"
				}
			}
		}
		if onlyFlagsOps(vals, "-I", "-i", "-g", "-C", "-t", "-T", "-tT", "-H", "-v", "-N") {
			return TierRead, "hdparm: reads drive information"
		}
		return TierMutate, "hdparm: changes drive settings"
	}
	return TierMutate, n
}

func onlyOps(ops []string, allowed ...string) bool {
	for _, o := range ops {
		ok := false
		for _, a := range allowed {
			if o == a {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// onlyFlagsOps reports whether every option in vals is one of allowed
// (operands are ignored).
func onlyFlagsOps(vals []string, allowed ...string) bool {
	for _, v := range vals {
		if !strings.HasPrefix(v, "-") {
			continue
		}
		if !onlyOps([]string{v}, allowed...) {
			return false
		}
	}
	return true
}

// onlyFlagsPrefix reports whether every option starts with one of prefixes.
func onlyFlagsPrefix(vals []string, prefixes ...string) bool {
	any := false
	for _, v := range vals {
		if !strings.HasPrefix(v, "-") {
			continue
		}
		ok := false
		for _, p := range prefixes {
			if strings.HasPrefix(v, p) {
				ok = true
			}
		}
		if !ok {
			return false
		}
		any = true
	}
	return any
}

// kernelProgramKey reports whether setting a kernel parameter names a
// program the kernel itself runs: core_pattern with a pipe, modprobe,
// poweroff_cmd, hotplug, and a binfmt_misc registration's interpreter.
func kernelProgramKey(k, v string) bool {
	switch k {
	case "kernel.core_pattern":
		return strings.HasPrefix(strings.TrimSpace(v), "|")
	case "kernel.modprobe", "kernel.poweroff_cmd", "kernel.hotplug", "fs.binfmt_misc.register":
		return true
	}
	return false
}

// sfdiskWrites reports whether sfdisk's options ask for a change, which
// wins over a read given before it.
func sfdiskWrites(vals []string) bool {
	for _, l := range []string{"--delete", "--activate", "--part-type", "--part-uuid", "--part-label", "--part-attrs",
		"--disk-id", "--relocate", "--reorder", "--id", "--change-id", "--append", "--move-data", "--backup", "--wipe",
		"--wipe-partitions", "--label", "--label-nested"} {
		if hasFlag(vals, 0, l) {
			return true
		}
	}
	for _, f := range "ArNaXbwY" {
		if hasFlag(vals, byte(f), "") {
			return true
		}
	}
	return false
}

// sshKeygenWrites reports whether ssh-keygen's options change a key or a
// file, whatever inspecting option comes with them: -p (a new
// passphrase), -c (a new comment), -N (a new passphrase), -A and -t
// (new keys), -G, -T, -k, -u and -s (moduli, revocation lists,
// certificates), -Y sign, and -H (hashing known_hosts in place, unless
// -F prints the hashed lines).
// sshKeygenValues are ssh-keygen's short options that take a value: a
// cluster ends at one of them (-lf x.pub is -l -f x.pub, -fl is -f l).
const sshKeygenValues = "bfmnrstwzaCDEFIJjMNOPRSVWYZ"

// sshKeygenReads reports whether ssh-keygen is given one of its
// inspecting modes (-l, -F, -y, -L, -B, -Q, and -e and -r, which print a
// public key or its SSHFP record to standard output), alone or in a
// cluster. -i is left out: it prints a private key.
func sshKeygenReads(vals []string) bool {
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		if v == "--" {
			return false
		}
		if len(v) < 2 || v[0] != '-' || v[1] == '-' {
			continue
		}
		for j := 1; j < len(v); j++ {
			if strings.IndexByte("lFyLBQer", v[j]) >= 0 {
				return true
			}
			if strings.IndexByte(sshKeygenValues, v[j]) >= 0 {
				if j == len(v)-1 {
					i++
				}
				break
			}
		}
	}
	return false
}

// sshKeygenSigReads reports whether the last -Y names one of the
// signature operations that only read (verify, check-novalidate,
// find-principals, match-principals). ssh-keygen matches the operation
// by prefix and runs it before every other mode, so then -s is the
// signature file and no other option writes; -Y sign writes name.sig.
func sshKeygenSigReads(vals []string) bool {
	ops := shortOptVals(vals, sshKeygenValues, "Y")
	if len(ops) == 0 {
		return false
	}
	op := ops[len(ops)-1]
	for _, r := range []string{"verify", "check-novalidate", "find-principals", "match-principals"} {
		if strings.HasPrefix(op, r) {
			return true
		}
	}
	return false
}

func sshKeygenWrites(vals []string) bool {
	for _, f := range "pcNAtGTkus" {
		if hasFlag(vals, byte(f), "") {
			return true
		}
	}
	if hasFlag(vals, 'H', "") && !hasFlag(vals, 'F', "") {
		return true
	}
	for i, v := range vals {
		if v == "-Y" && i+1 < len(vals) && vals[i+1] == "sign" || v == "-Ysign" {
			return true
		}
	}
	return false
}

// partedLists reports whether parted is given -l, -h or -v (alone or in
// a cluster, up to -a, whose value ends it) or their long names: it
// prints every disk's table, its help or its version and exits before
// reading a device or command.
func partedLists(vals []string) bool {
	for _, v := range vals {
		switch {
		case v == "--":
			return false
		case v == "--list" || v == "--help" || v == "--version":
			return true
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			cl, _, _ := strings.Cut(v[1:], "a")
			if strings.ContainsAny(cl, "lhv") {
				return true
			}
		}
	}
	return false
}

// fsckLetters returns the letters of fsck's short options before "--",
// clustered as fsck reads them (-nV is -n -V): a cluster ends at -t,
// whose value is the rest of the word or the next one (-tntfs is no -n),
// and at -C, whose file descriptor may follow.
func fsckLetters(vals []string) string {
	var out strings.Builder
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		if v == "--" {
			break
		}
		if len(v) < 2 || v[0] != '-' || v[1] == '-' {
			continue
		}
		for j := 1; j < len(v); j++ {
			if v[j] == 't' || v[j] == 'C' {
				if v[j] == 't' && j == len(v)-1 {
					i++
				}
				break
			}
			out.WriteByte(v[j])
		}
	}
	return out.String()
}

// fsckPassesMore reports whether fsck is given, after "--", an option
// other than -n, -f or -v: everything there goes to the checker as it
// is, and dosfsck takes the last of -n and -a, -r or -w.
func fsckPassesMore(vals []string) bool {
	for i, v := range vals {
		if v != "--" {
			continue
		}
		for _, w := range vals[i+1:] {
			if len(w) > 1 && w[0] == '-' && strings.Trim(w[1:], "nfv") != "" {
				return true
			}
		}
		return false
	}
	return false
}
