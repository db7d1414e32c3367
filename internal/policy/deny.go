package policy

import (
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
)

// The built-in deny list. Nothing — no mode, no approval, no operator allow
// rule — runs a command these match. They see the resolved program name and
// its arguments (after wrappers are peeled, quotes removed and paths reduced
// to basenames), and scanText runs them over text the classifier cannot
// parse, such as interpreter payloads.

// powerPrograms change the machine's power state whatever their arguments.
var powerPrograms = map[string]bool{
	"reboot": true, "poweroff": true, "halt": true, "shutdown": true,
	"kexec": true, "killall5": true,
	// pm-utils' sleep commands, systemd's, uswsusp's, the hibernate
	// script's and Void's and OpenBSD's zzz, and Synology DSM's power
	// commands.
	"pm-suspend": true, "pm-hibernate": true, "pm-suspend-hybrid": true, "systemd-sleep": true,
	"s2ram": true, "s2disk": true, "s2both": true, "hibernate": true, "hibernate-ram": true, "hibernate-disk": true,
	"zzz": true, "ZZZ": true,
	"synopoweroff": true, "synoreboot": true, "syno_poweroff_task": true,
	// pfSense's and OPNsense's power scripts, which their menus run.
	"rc.reboot": true, "rc.halt": true, "rc.initial.reboot": true, "rc.initial.halt": true,
}

// fsWipers create or erase file systems or whole devices whatever their arguments.
var fsWipers = map[string]bool{
	"mke2fs": true, "mkswap": true, "wipefs": true, "blkdiscard": true,
	"mkdosfs": true, "mkntfs": true, "mkexfatfs": true, "mkreiserfs": true,
	"mkisofs": false, "zpool-labelclear": true,
}

// denyVerbs are systemctl and loginctl verbs that change power state or drop
// the machine out of multi-user operation.
var denyVerbs = map[string]bool{
	"reboot": true, "poweroff": true, "halt": true, "kexec": true,
	"suspend": true, "hibernate": true, "hybrid-sleep": true,
	"suspend-then-hibernate": true, "emergency": true, "rescue": true,
	"soft-reboot": true, "sleep": true, "switch-root": true, "exit": true,
}

// denyTargets are systemd targets that do the same when started or isolated.
var denyTargets = map[string]bool{
	"reboot.target": true, "poweroff.target": true, "halt.target": true,
	"kexec.target": true, "rescue.target": true, "emergency.target": true,
	"shutdown.target": true, "suspend.target": true, "hibernate.target": true,
	"soft-reboot.target": true, "runlevel0.target": true, "runlevel6.target": true,
	"runlevel1.target": true, "sleep.target": true, "exit.target": true,
	"initrd-switch-root.target": true,
}

// denyUnits are services that change power state or run level when started.
var denyUnits = map[string]bool{
	"systemd-reboot.service": true, "systemd-poweroff.service": true, "systemd-halt.service": true,
	"systemd-kexec.service": true, "systemd-soft-reboot.service": true, "systemd-suspend.service": true,
	"systemd-hibernate.service": true, "systemd-hybrid-sleep.service": true,
	"systemd-suspend-then-hibernate.service": true, "rescue.service": true, "emergency.service": true,
	"ctrl-alt-del.target": true, "umount.target": true, "final.target": true,
	"runlevel0.service": true, "runlevel1.service": true, "runlevel6.service": true,
	"systemd-exit.service": true, "initrd-switch-root.service": true,
}

// userManagerOK are the verbs and units above that stop only the user's own
// service manager when systemctl --user names them; of the system manager,
// exit is poweroff outside a container.
var userManagerOK = map[string]bool{"exit": true, "exit.target": true, "systemd-exit.service": true}

// singleUser are init and telinit arguments that leave multi-user operation:
// the machine stops its services and network and waits at a console.
var singleUser = map[string]bool{
	"1": true, "s": true, "single": true, "emergency": true, "rescue": true,
	"-s": true, "-b": true, "--single": true, "--emergency": true, "--rescue": true,
}

// systemctlReadVerbs only show units, whatever units they name.
var systemctlReadVerbs = map[string]bool{
	"status": true, "show": true, "cat": true, "is-active": true, "is-enabled": true, "is-failed": true,
	"list-dependencies": true, "list-units": true, "list-unit-files": true, "help": true,
}

// firstOperand is name's verb: the first argument that is neither an
// option nor an option's value, however abbreviated or clustered
// ("systemctl --prop status reboot" reboots).
func firstOperand(name string, args []string) string {
	if i := subWordIndex(name, args); i < len(args) {
		return args[i]
	}
	return ""
}

// systemctlStartVerbs start, isolate or make default the units they name.
var systemctlStartVerbs = map[string]bool{
	"isolate": true, "start": true, "restart": true, "try-restart": true, "reload-or-restart": true,
	"try-reload-or-restart": true, "set-default": true, "enable": true, "reenable": true,
}

// systemctlUnitDeny denies starting a power or run-level unit named without
// its suffix: systemctl mangles "isolate rescue" to rescue.target and
// "start systemd-reboot" to systemd-reboot.service.
func systemctlUnitDeny(args []string) string {
	verb := ""
	for _, a := range args[subWordIndex("systemctl", args):] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if verb == "" {
			if !systemctlStartVerbs[a] {
				return ""
			}
			verb = a
			continue
		}
		u := strings.TrimSuffix(a, "/")
		if strings.ContainsAny(u, "*?[") {
			// systemctl matches a pattern against unit names.
			for _, m := range []map[string]bool{denyTargets, denyUnits} {
				for _, n := range slices.Sorted(maps.Keys(m)) {
					if ok, _ := path.Match(u, n); ok {
						return "systemctl " + verb + " " + a + ": the pattern matches " + n + ", which changes the machine's power state or run level"
					}
				}
			}
			continue
		}
		if strings.Contains(u, ".") {
			continue
		}
		if denyTargets[u+".target"] || denyUnits[u+".service"] || denyUnits[u+".target"] {
			return "systemctl " + verb + " " + a + ": changes the machine's power state or run level"
		}
	}
	return ""
}

// denyTriggers are the names denyCheck looks at; scanText uses them to find
// candidate commands in raw text.
var denyTriggers = map[string]bool{
	"rm": true, "dd": true, "shred": true, "init": true, "telinit": true,
	"kill": true, "pkill": true, "killall": true, "systemctl": true, "loginctl": true,
	"chmod": true, "chown": true, "chgrp": true, "mv": true, "crontab": true,
	"userdel": true, "deluser": true, "sgdisk": true, "truncate": true, "tee": true,
	"cp": true, "install": true, "nvme": true, "cryptsetup": true, "mdadm": true,
	"parted": true, "hdparm": true, "dbus-send": true, "gdbus": true, "busctl": true,
	"qdbus": true, "qdbus-qt5": true, "qdbus-qt6": true, "qdbus6": true, "ipmitool": true, "mkfs": true, "chattr": true, "setfacl": true,
	"rsync": true, "unlink": true, "curl": true, "wget": true,
	"http": true, "https": true, "xh": true, "redfishtool": true, "fuser": true, "skill": true,
	"luserdel": true, "usermod": true, "pw": true, "ansible": true,
}

// isDenyTrigger reports whether denyCheck may deny a command named n.
// The raw scan asks it of every word it reads, so the sets are asked
// as one.
func isDenyTrigger(n string) bool {
	return denyNames[n] || strings.HasPrefix(n, "mkfs")
}

// denyNames are the names of every set denyCheck looks a name up in.
var denyNames = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range []map[string]bool{denyTriggers, powerPrograms, fsWipers, otherInits, applianceDeniers, diskDeniers, fleetRunners} {
		for n, ok := range s {
			m[n] = m[n] || ok
		}
	}
	return m
}()

// denyCheck returns why a command is on the built-in deny list, or "".
func denyCheck(name string, args []string) string {
	switch {
	case name == "killall5":
		return "killall5: signals every process"
	case powerPrograms[name]:
		if powerNoop(name, args) {
			return ""
		}
		return name + ": changes the machine's power state"
	case fsWipers[name] || strings.HasPrefix(name, "mkfs"):
		return name + ": creates or erases a file system or device"
	case otherInits[name]:
		return otherInitDeny(name, args)
	case applianceDeniers[name]:
		return applianceDeny(name, args)
	case diskDeniers[name]:
		return diskDeny(name, args)
	case fleetRunners[name]:
		return fleetDeny(name, args)
	}
	switch name {
	case "init", "telinit":
		for _, a := range args {
			switch a {
			case "0", "6":
				return name + " " + a + ": changes the machine's power state"
			}
			if singleUser[strings.ToLower(a)] {
				return name + " " + a + ": drops the machine to single-user mode"
			}
		}
	case "rm", "unlink", "shred", "truncate":
		if why := runtimeRemoval(name, args); why != "" {
			return why
		}
		if name == "rm" {
			return rmDeny(args)
		}
	case "dd":
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "of="); ok && blockTarget(v) {
				return "dd: writes block device " + v
			}
		}
	}
	switch name {
	case "shred", "truncate", "tee":
		for _, a := range args {
			if blockTarget(a) {
				return name + ": overwrites block device " + a
			}
			if f := powerFileWord(a); f != "" {
				return name + ": writes " + f
			}
		}
	case "cp", "install":
		ops := operands(args)
		if len(ops) > 1 && blockTarget(ops[len(ops)-1]) {
			return name + ": overwrites block device " + ops[len(ops)-1]
		}
	case "sgdisk":
		for _, a := range args {
			if a == "--zap-all" || a == "--zap" || a == "--clear" || shortFlag(a, 'Z') || shortFlag(a, 'z') || shortFlag(a, 'o') {
				return "sgdisk: destroys partition tables"
			}
		}
	case "kill":
		return killDeny(args)
	case "fuser":
		return fuserDeny(args)
	case "skill":
		return skillDeny(args)
	case "pkill", "killall":
		for _, a := range args {
			switch a {
			case "-1", "1", "init", "systemd", "^init$", "^systemd$":
				return name + " " + a + ": kills init or every process"
			}
		}
		return pkillDeny(name, args)
	case "systemctl", "loginctl":
		if v := firstOperand(name, args); systemctlReadVerbs[v] {
			return ""
		}
		user := false
		for i, a := range args {
			// --user in any abbreviation, unless it is an option's value
			// ("-p --user exit" is the system manager's exit).
			if a == "--user" || len(a) > 3 && strings.HasPrefix("--user", a) {
				user = user || i == 0 || !subOptTakesNext(name, subcommandTables[name], args[i-1])
			}
		}
		for _, a := range args {
			if user && userManagerOK[a] {
				continue
			}
			if denyVerbs[a] || denyTargets[a] || denyUnits[a] {
				return name + " " + a + ": changes the machine's power state or run level"
			}
		}
		if name == "systemctl" && firstOperand(name, args) == "kill" {
			// Signals to PID 1 change the run level (SIGRTMIN+1 is
			// rescue, +2 emergency, +4 poweroff) or kill the machine.
			for _, a := range args {
				if a == "init.scope" || a == "-.slice" {
					return "systemctl kill " + a + ": signals the service manager, PID 1"
				}
			}
		}
		if name == "systemctl" {
			if why := systemctlAllDeny(args); why != "" {
				return why
			}
			return systemctlUnitDeny(args)
		}
	case "chmod", "chown", "chgrp":
		rec := hasFlag(args, 'R', "--recursive")
		for _, t := range operands(args) {
			if criticalPath(t) && rec {
				return name + ": changes ownership or permissions of " + t + " recursively"
			}
			if isRoot(t) {
				return name + ": changes ownership or permissions of the root directory " + t
			}
		}
	case "chattr", "setfacl":
		// Making the system immutable (chattr +i) or granting access to
		// all of it (setfacl -m) recursively breaks it like chmod -R.
		changes := false
		for _, a := range args {
			if name == "chattr" && (strings.HasPrefix(a, "+") || strings.HasPrefix(a, "=")) && strings.ContainsAny(a, "ia") {
				changes = true
			}
		}
		if name == "setfacl" {
			changes = hasFlag(args, 'm', "--modify") || hasFlag(args, 'M', "--modify-file") || hasFlag(args, 's', "--set") || hasFlag(args, 0, "--set-file")
		}
		rec := hasFlag(args, 'R', "--recursive")
		for _, t := range operands(args) {
			if changes && criticalPath(t) && (rec || isRoot(t)) {
				return name + ": changes the attributes or access of " + t + " recursively"
			}
		}
	case "mv":
		for _, t := range mvSources(args) {
			if criticalPath(t) {
				return "mv: moves system directory " + t
			}
			if runtimeFile(t) {
				return "mv: moves " + t + " away: " + runtimeWhy
			}
		}
	case "rsync":
		return rsyncDeny(args)
	case "crontab":
		if hasFlag(args, 'r', "--remove") {
			return "crontab -r: removes every cron job of the user"
		}
	case "userdel", "deluser", "luserdel":
		for _, a := range operands(args) {
			if a == "root" {
				return name + " root: deletes the root user"
			}
		}
	case "usermod", "pw":
		return rootAccountDeny(name, args)
	case "ansible":
		return ansibleDeny(args)
	case "nvme":
		for _, a := range args {
			switch a {
			case "format", "sanitize", "delete-ns", "write-zeroes":
				return "nvme " + a + ": erases a drive or a range of it"
			case "dsm":
				// Dataset management's deallocate is a discard.
				if getoptFlag(args, 'd', "--ad", "nabsc") {
					return "nvme dsm --ad: discards a range of the drive"
				}
			}
		}
	case "cryptsetup":
		for _, a := range args {
			switch strings.ToLower(a) {
			case "luksformat", "erase", "lukserase", "reencrypt":
				return "cryptsetup " + a + ": destroys encrypted volume keys"
			}
		}
	case "mdadm":
		for _, a := range args {
			if longFlag(a, "--zero-superblock") {
				return "mdadm --zero-superblock: erases RAID metadata"
			}
		}
	case "parted":
		// parted takes a command by any prefix no other shares, in any
		// case (mkl, MKLABEL), and a script word may hold several.
		for _, a := range args {
			for _, w := range strings.Fields(strings.ToLower(a)) {
				if len(w) >= 3 && (strings.HasPrefix("mklabel", w) || strings.HasPrefix("mktable", w)) {
					return "parted " + a + ": replaces the partition table"
				}
			}
		}
	case "hdparm":
		for _, a := range args {
			if strings.HasPrefix(a, "--security-erase") || a == "--trim-sector-ranges" || a == "--make-bad-sector" {
				return "hdparm " + a + ": erases or damages a drive"
			}
		}
	case "dbus-send", "gdbus", "busctl", "qdbus", "qdbus-qt5", "qdbus-qt6", "qdbus6":
		return dbusPowerDeny(name, args)
	case "ipmitool":
		return ipmiPowerDeny(args)
	case "curl", "wget", "http", "https", "xh":
		if why := redfishResetDeny(name, args); why != "" {
			return why
		}
		return webAPIDeny(name, args)
	}
	return ""
}

// rmDeny denies recursive removal of the root, a system directory or a home.
func rmDeny(args []string) string {
	rec := false
	ops := []string{}
	opts := true
	for _, a := range args {
		if opts && a == "--" {
			opts = false
			continue
		}
		if opts && strings.HasPrefix(a, "--") {
			switch {
			case longFlag(a, "--no-preserve-root") && len(a) >= len("--no-p"):
				return "rm --no-preserve-root: removes the root file system"
			case strings.HasPrefix("--recursive", a) && len(a) > 3:
				rec = true
			}
			continue
		}
		if opts && len(a) > 1 && a[0] == '-' {
			if strings.ContainsAny(a[1:], "rR") {
				rec = true
			}
			continue
		}
		ops = append(ops, a)
	}
	if !rec {
		return rmFilesDeny(ops)
	}
	for _, t := range ops {
		if criticalPath(t) {
			return "rm: recursive removal of " + t
		}
	}
	return ""
}

// criticalDirs are removed, moved or re-permissioned only by catastrophe.
var criticalDirs = []string{
	"/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64",
	"/libx32", "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/usr", "/var",
	"/opt", "/mnt", "/media", "/snap", "/nix", "/boot/efi",
	"/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libexec",
	"/usr/local", "/usr/share", "/usr/include", "/var/lib", "/var/log", "/etc/ssh",
	"/etc/systemd", "/etc/pam.d", "/var/spool", "/var/mail",
	// The firmware's variables: removing them all leaves some machines
	// unable to start again.
	"/sys/firmware", "/sys/firmware/efi", "/sys/firmware/efi/efivars",
}

func isRoot(p string) bool {
	p = strings.Trim(p, "\"'")
	return strings.HasPrefix(p, "/") && path.Clean(p) == "/"
}

var homePrefix = regexp.MustCompile(`^(~[a-z_][a-z0-9_-]*|~|\$HOME|\$\{HOME\})`)

// unquote drops quotes from the source text of words known only at run time.
var unquote = strings.NewReplacer(`"`, "", `'`, "")

// criticalPath reports whether removing p recursively is catastrophic: the
// root in any spelling (/, //, /., /.., /bin/..), a system directory with or
// without a trailing slash or /*, a home directory (~, $HOME) or its
// contents, a glob that could match any of these, or a long run of "..".
func criticalPath(p string) bool {
	p = strings.TrimSpace(unquote.Replace(p))
	if p == "" {
		return false
	}
	if m := homePrefix.FindString(p); m != "" {
		rest := p[len(m):]
		if rest == "" || rest[0] == '/' {
			r := path.Clean("/" + stripWild(rest))
			return r == "/"
		}
	}
	if !strings.HasPrefix(p, "/") {
		q := path.Clean(p)
		return strings.Count(q, "..") >= 4 && strings.Trim(q, "./") == ""
	}
	c := path.Clean(stripWild(p))
	hasGlob := strings.ContainsAny(c, "*?[")
	for _, d := range criticalDirs {
		if c == d {
			return true
		}
		if hasGlob {
			if ok, _ := path.Match(c, d); ok {
				return true
			}
		}
	}
	return false
}

// stripWild removes trailing "/", "/*", "/.*" and "/." so "/etc/*" reads as "/etc".
func stripWild(p string) string {
	for {
		q := p
		for _, s := range []string{"/*", "/.*", "/.", "/"} {
			if len(p) > len(s) && strings.HasSuffix(p, s) {
				p = strings.TrimSuffix(p, s)
			}
		}
		if q == p {
			break
		}
	}
	if p == "/*" || p == "/.*" {
		return "/"
	}
	return p
}

// blockDevRe matches the block devices (and raw memory) of Linux and of
// the BSD and macOS hosts warden serves: FreeBSD's and TrueNAS CORE's
// ada/da/nvd/nda/vtbd/mfid disks, OpenBSD's and NetBSD's wd/sd (raw r*),
// macOS's disk/rdisk, Synology's boot device, zram, s390's dasd.
var blockDevRe = regexp.MustCompile(`^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|xd[a-z]|nvme[0-9]|mmcblk[0-9]|md[0-9_]|md/|dm-[0-9]|mapper/|disk/|block/|loop[0-9]|nbd[0-9]|rbd[0-9]|zd[0-9]|zvol/|sr[0-9]|bcache[0-9]|fd[0-9]|sg[0-9]|st[0-9]|nst[0-9]|mtd|ubi|cciss/|ram[0-9]|pmem[0-9]|emmc|ubd|drbd[0-9]|zram[0-9]|dasd[a-z]|synoboot|ada[0-9]|da[0-9]|nvd[0-9]|nda[0-9]|vtbd[0-9]|mfid[0-9]|mfisyspd[0-9]|aacd[0-9]|r?disk[0-9]|r?wd[0-9]|r?sd[0-9]|(mem|kmem|port|root|nvram)$)`)

// nonBlockDirs are /dev subdirectories that hold no block devices.
var nonBlockDirs = map[string]bool{
	"fd": true, "pts": true, "shm": true, "mqueue": true, "hugepages": true, "net": true,
	"input": true, "snd": true, "dri": true, "serial": true, "bus": true, "cpu": true,
	"tcp": true, "udp": true, "v4l": true, "vfio": true, "char": true, "usb": true,
}

// blockDevice reports whether p names a block device (or raw memory), including
// LVM's /dev/VG/LV.
func blockDevice(p string) bool {
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	p = path.Clean(p)
	if blockDevRe.MatchString(p) {
		return true
	}
	parts := strings.Split(strings.TrimPrefix(p, "/dev/"), "/")
	return len(parts) == 2 && !nonBlockDirs[parts[0]]
}

// blockTarget is blockDevice for a word that may be a glob.
func blockTarget(p string) bool {
	return blockDevice(p) || strings.ContainsAny(p, "*?[") && globBlockDevice(p)
}

var sampleDevices = []string{
	"/dev/sda", "/dev/sdb1", "/dev/nvme0n1", "/dev/nvme0n1p1", "/dev/vda", "/dev/hda",
	"/dev/xvda", "/dev/mmcblk0", "/dev/mmcblk0p1", "/dev/md0", "/dev/dm-0", "/dev/loop0",
	"/dev/mapper/root", "/dev/disk/by-id/x", "/dev/mem", "/dev/sr0",
	"/dev/ada0", "/dev/da0", "/dev/nvd0", "/dev/disk2",
}

// globBlockDevice reports whether a glob could match a block device.
func globBlockDevice(p string) bool {
	for _, d := range sampleDevices {
		if ok, _ := path.Match(p, d); ok {
			return true
		}
	}
	return false
}

// globMatchesDanger returns a deny-list program a glob in command position
// could run: /bin/r? may be rm, /???/r?boot is reboot.
func globMatchesDanger(pattern string) (string, bool) {
	base := path.Base(pattern)
	for _, n := range dangerNames {
		if ok, _ := path.Match(base, n); ok {
			return n, true
		}
	}
	return "", false
}

// dangerNames are tried against globs, most dangerous first.
var dangerNames = []string{
	"reboot", "poweroff", "halt", "shutdown", "kexec", "killall5", "mkfs", "mke2fs",
	"mkswap", "wipefs", "blkdiscard", "init", "telinit", "rm", "dd", "shred", "kill",
	"pkill", "killall", "systemctl", "chmod", "chown", "mv", "crontab", "userdel",
	"sgdisk", "sh", "bash", "dash", "zsh", "python3", "python", "perl", "sudo",
}

// protectedPath classifies a path a mutating command names. Warden's audit
// log may never be modified; warden's own configuration and state, and files
// that control logins, privileges, start-up or the inventory are tier 3.
func protectedPath(p string) (Tier, string, bool) {
	l := strings.ToLower(p)
	if i := strings.IndexByte(l, '='); i >= 0 && strings.HasPrefix(l, "-") {
		l = l[i+1:]
	}
	switch {
	case strings.Contains(l, "audit.jsonl"):
		return TierDestructive, "would modify warden's audit log " + p, true
	case wardenPath(l):
		return TierDestructive, "modifies warden's own configuration or state: " + p, false
	case sensitivePath(l):
		return TierDestructive, "modifies sensitive file " + p, false
	}
	return TierRead, "", false
}

func wardenPath(l string) bool {
	if strings.Contains(l, "$warden_") || strings.Contains(l, "${warden_") {
		return true
	}
	for rest, more := l, true; more; {
		var seg string
		seg, rest, more = strings.Cut(rest, "/")
		switch seg {
		case "warden", ".warden", "warden.yaml", "warden.yml", "warden.json":
			return true
		}
	}
	return false
}

var sensitiveExact = map[string]bool{
	"/etc/passwd": true, "/etc/shadow": true, "/etc/group": true, "/etc/gshadow": true,
	"/etc/sudoers": true, "/etc/ld.so.preload": true, "/etc/environment": true,
	"/etc/profile": true, "/etc/bash.bashrc": true, "/etc/crontab": true, "/etc/fstab": true,
	"/etc/hosts": true, "/etc/resolv.conf": true, "/etc/nsswitch.conf": true,
	"/etc/login.defs": true, "/etc/securetty": true, "/etc/doas.conf": true, "/etc/anacrontab": true,
	"/etc/gitconfig": true, "/etc/logrotate.conf": true, "/etc/sysctl.conf": true, "/etc/inputrc": true,
	// Files whose commands root runs later: crypttab's keyscript= at boot,
	// subordinate ids (a range with 0 maps root into a user's namespace),
	// sudo's plugins, mailcap's viewers, the global npmrc's script-shell,
	// wgetrc's use_askpass, the legacy PAM file and shells' global files.
	"/etc/crypttab": true, "/etc/subuid": true, "/etc/subgid": true, "/etc/sudo.conf": true,
	"/etc/mailcap": true, "/etc/npmrc": true, "/usr/etc/npmrc": true, "/usr/local/etc/npmrc": true,
	"/etc/wgetrc": true, "/etc/pam.conf": true, "/etc/bash.bash_logout": true, "/etc/ksh.kshrc": true,
	"/etc/network/interfaces": true, "/etc/rsyslog.conf": true,
}

var sensitiveSuffix = []string{
	"/.ssh/authorized_keys", "/.ssh/authorized_keys2", "/.ssh/config", "/.ssh/known_hosts",
	"/.bashrc", "/.bash_profile", "/.profile", "/.zshrc", "/.zshenv", "/.bash_logout",
	"/.gitconfig", "/.config/git/config", "/.vimrc", "/.ssh/rc", "/.inputrc", "/.xsession", "/.xprofile",
	// A repository's own configuration: core.fsmonitor, core.pager and
	// aliases run programs on the next git status, the operator's too.
	"/.git/config",
}

// sensitiveInfix are directories, under any home, whose files something
// runs later: desktop autostart entries, user units and a repository's
// hooks.
var sensitiveInfix = []string{"/.config/autostart/", "/.config/systemd/user/", "/.config/environment.d/", "/.git/hooks/"}

var sensitivePrefix = []string{
	"/etc/sudoers.d/", "/etc/ssh/", "/etc/pam.d/", "/etc/profile.d/", "/etc/cron",
	"/var/spool/cron/", "/etc/systemd/", "/lib/systemd/", "/usr/lib/systemd/", "/boot/",
	"/etc/security/", "/etc/polkit-1/", "/etc/ld.so.conf", "/etc/update-motd.d/",
	"/etc/rc.local", "/etc/init.d/", "/etc/apt/sources.list", "/etc/docker/daemon.json",
	"/var/spool/anacron/", "/var/spool/at/", "/etc/rc0.d/", "/etc/rc1.d/", "/etc/rc2.d/", "/etc/rc3.d/",
	"/etc/rc4.d/", "/etc/rc5.d/", "/etc/rc6.d/", "/etc/rcS.d/",
	// Files whose commands root runs later: udev RUN+=, modprobe install,
	// apt hooks, logrotate scripts, network and dhcp hooks, upstart jobs,
	// autostart entries, binfmt handlers and sysctl's core_pattern pipe.
	"/etc/udev/", "/lib/udev/rules.d/", "/usr/lib/udev/rules.d/", "/etc/modprobe.d/", "/lib/modprobe.d/",
	"/usr/lib/modprobe.d/", "/etc/apt/apt.conf", "/etc/logrotate.d/", "/etc/networkmanager/dispatcher.d/",
	"/etc/network/if-", "/etc/dhcp/dhclient-", "/etc/ppp/ip-", "/etc/init/", "/etc/xdg/autostart/",
	"/etc/x11/xsession", "/etc/bash_completion.d/", "/etc/binfmt.d/", "/usr/lib/binfmt.d/", "/etc/sysctl.d/",
	"/usr/lib/sysctl.d/", "/etc/tmpfiles.d/", "/usr/lib/tmpfiles.d/", "/etc/environment.d/", "/etc/zsh/",
	// More of them: kernel package hooks, initramfs hooks and boot
	// scripts, the boot loader's command line and scripts, packages'
	// maintainer scripts, certbot's hooks, D-Bus activation and policy,
	// polkit's rules, the system's vim and emacs start-up, perl's module
	// directories, other shells' global files, ifup's up/down commands,
	// syslog daemons' program outputs, auditd's, fail2ban's, monit's,
	// acpid's, incron's, keepalived's and ufw's actions, needrestart's
	// (Perl) configuration, dpkg's post-invoke, apt's keys, container
	// runtimes' hooks and runtimes, cloud-init.
	"/etc/kernel/", "/etc/initramfs-tools/", "/usr/share/initramfs-tools/", "/etc/dracut.conf",
	"/etc/default/grub", "/etc/grub.d/", "/var/lib/dpkg/info/", "/etc/letsencrypt/renewal",
	"/etc/dbus-1/", "/usr/share/dbus-1/system", "/usr/share/polkit-1/", "/etc/vim/", "/usr/share/vim/",
	"/etc/emacs/", "/usr/share/emacs/site-lisp/", "/etc/perl/", "/usr/share/perl5/", "/usr/share/perl/",
	"/usr/local/share/perl/", "/usr/local/lib/site_perl/", "/etc/fish/", "/etc/csh.", "/etc/mksh",
	"/etc/network/interfaces.d/", "/etc/rsyslog.d/", "/etc/syslog-ng/", "/etc/audit/", "/etc/fail2ban/",
	"/etc/monit", "/etc/acpi/", "/etc/incron", "/etc/keepalived/", "/etc/ufw/", "/etc/needrestart/",
	"/etc/dpkg/", "/etc/apt/trusted.gpg", "/etc/apt/keyrings/", "/etc/containerd/", "/etc/containers/",
	"/etc/crio/", "/etc/docker/", "/etc/cloud/", "/usr/share/bash-completion/",
	// What the host trusts: the CAs every TLS client accepts (the
	// sources update-ca-certificates and update-ca-trust build the
	// bundle from, and the bundle) and apt's signing keys.
	"/usr/local/share/ca-certificates/", "/usr/share/ca-certificates/", "/etc/ca-certificates.conf",
	"/etc/ssl/certs/ca-certificates.crt", "/etc/pki/ca-trust/", "/etc/pki/tls/certs/ca-bundle",
	"/usr/share/keyrings/",
	// More files root reads as commands or as the rules of who gets in:
	// TCP wrappers (a spawn runs as root, ALL: ALL cuts SSH off), BSD's
	// rc.conf and OpenRC's conf.d (shell sourced at boot), inittab, the
	// init scripts' shell fragments in /etc/default and /etc/sysconfig,
	// modules loaded at boot, SELinux's mode at the next boot, samba's
	// configuration (root preexec), inetd's and xinetd's services,
	// and mail aliases that pipe to a program.
	"/etc/hosts.allow", "/etc/hosts.deny", "/etc/rc.conf", "/etc/conf.d/", "/etc/inittab", "/etc/default/",
	"/etc/sysconfig/", "/etc/modules", "/etc/selinux/config", "/etc/samba/",
	"/etc/inetd.conf", "/etc/xinetd", "/etc/aliases",
}

func sensitivePath(l string) bool {
	c := l
	if strings.HasPrefix(c, "/") {
		c = path.Clean(c)
	}
	if sensitiveExact[c] || pythonStartup(c) {
		return true
	}
	// This runs for every argument of every mutating command: the
	// tables are asked of c itself, not of "/"+c or c+"/" built here.
	for _, s := range sensitiveSuffix {
		if strings.HasSuffix(c, s) || c == s[1:] { // "/"+c ends with s
			return true
		}
	}
	for _, s := range sensitiveInfix {
		if slashedContains(c, s) {
			return true
		}
	}
	if !strings.HasPrefix(c, "/") {
		return false
	}
	top, _, _ := strings.Cut(c[1:], "/")
	for _, s := range sensitivePrefixes[top] {
		// c, or the directory c names: cp x /etc/cron.d names /etc/cron.d/.
		if strings.HasPrefix(c, s) || len(s) == len(c)+1 && s[len(c)] == '/' && s[:len(c)] == c {
			return true
		}
	}
	return false
}

// slashedContains reports whether "/"+c+"/" contains s, which starts and
// ends with a slash.
func slashedContains(c, s string) bool {
	return strings.Contains(c, s) || strings.HasPrefix(c, s[1:]) || strings.HasSuffix(c, s[:len(s)-1]) || c == s[1:len(s)-1]
}

// sensitivePrefixes are sensitivePrefix by the first element of their
// path (etc, usr, var).
var sensitivePrefixes = func() map[string][]string {
	m := map[string][]string{}
	for _, s := range sensitivePrefix {
		top, _, _ := strings.Cut(s[1:], "/")
		m[top] = append(m[top], s)
	}
	return m
}()

// pythonStartup reports whether c is a file every Python start runs: a
// .pth file (an "import" line in one is run) or sitecustomize and
// usercustomize, in a directory of installed packages or /etc/python*.
func pythonStartup(c string) bool {
	base := path.Base(c)
	if !strings.HasSuffix(base, ".pth") && base != "sitecustomize.py" && base != "usercustomize.py" {
		return false
	}
	return strings.Contains(c, "-packages/") || strings.HasPrefix(c, "/etc/python")
}

// fileWriters modify the files they name; protectedArgs denies them
// warden's audit log. Other mutating commands that name it are tier 3.
var fileWriters = map[string]bool{
	"rm": true, "mv": true, "cp": true, "tee": true, "truncate": true, "shred": true,
	"sed": true, "dd": true, "ln": true, "chmod": true, "chown": true, "chgrp": true,
	"install": true, "touch": true, "rsync": true, "unlink": true, "chattr": true,
	"perl": true, "vi": true, "vim": true, "nano": true, "ed": true, "ex": true,
	"sponge": true, "split": true, "gzip": true, "xz": true, "bzip2": true, "zstd": true,
	"setfacl": true, "find": true, "tar": true,
}

// protectedArgs classifies the paths a mutating command names.
func protectedArgs(name string, args []arg) (Tier, string, bool) {
	best, bestWhy := TierRead, ""
	for _, a := range args {
		t, why, deny := protectedPath(a.val)
		if deny {
			if fileWriters[name] {
				return t, name + ": " + why, true
			}
			deny = false
		}
		if t > best {
			best, bestWhy = t, name+": "+why
		}
	}
	return best, bestWhy, false
}
