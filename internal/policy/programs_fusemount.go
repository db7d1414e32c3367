package policy

import "strings"

// Programs other than mount that mount a file system: FUSE file systems
// (sshfs, bindfs, mergerfs on NAS boxes, the encrypted ones) and systemd's
// and libguestfs' mounters. Each mounts at its last operand, so one over
// a system directory (sshfs h:/ /usr/bin, bindfs /tmp/x /etc) replaces
// what the system runs as mount does, and is tier 3 like it; elsewhere it
// is a mount, tier 2. Some take a program in an option: sshfs runs its
// ssh_command (and ssh runs a ProxyCommand or the -F file's), gocryptfs
// and encfs run -extpass to get the password.

// fuseMounters are the programs whose last operand is a mount point.
var fuseMounters = set(`sshfs bindfs s3fs gocryptfs encfs mergerfs archivemount ntfs-3g fuse-overlayfs fuse2fs
	squashfuse guestmount ratarmount curlftpfs httpdirfs ifuse jmtpfs simple-mtpfs go-mtpfs fuse-zip rar2fs unionfs
	unionfs-fuse lklfuse vmhgfs-fuse afuse mount.davfs rclonefs systemd-mount`)

// fuseValueOpts are the options of fuseMounters that take the next word.
var fuseValueOpts = set(`-o -p -F -u -g -m -M -a -d -c -r --options --port --user --group --perms --mirror
	--mirror-only --map --add -extpass -passfile -config --extpass --type -t --fsck --owner --description
	--property -p --timeout-idle-sec --automount-property --bind-device`)

// fuseRunOpts are words of an option that make a mounter run a program
// or load a library (sshfs hands PKCS11Provider to ssh).
var fuseRunOpts = []string{"ssh_command", "sshcmd", "proxycommand", "localcommand", "knownhostscommand", "extpass",
	"pkcs11provider", "securitykeyprovider", "xauthlocation"}

// fuseMountProgram classifies the programs in fuseMounters.
func fuseMountProgram(c *call) (Tier, string) {
	var ops []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := a.val
		switch {
		case !a.known:
			ops = append(ops, a)
		case v == "--help" || v == "-h" || v == "--version" || v == "-V" || v == "--list":
			if len(c.args) == 1 {
				return TierRead, c.name + " " + v
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			low := strings.ToLower(v)
			next := ""
			if !strings.Contains(v, "=") && fuseValueOpts[v] && i+1 < len(c.args) {
				i++
				next = strings.ToLower(c.args[i].val)
				if !c.args[i].known {
					next = "?command"
				}
			}
			for _, w := range fuseRunOpts {
				if strings.Contains(low, w) || strings.Contains(next, w) || strings.Contains(next, "command") && v == "-o" {
					return TierDestructive, c.name + " " + truncate(v, 32) + ": runs the program its option names"
				}
			}
			if c.name == "sshfs" && (v == "-F" || strings.HasPrefix(v, "-F")) {
				return TierDestructive, "sshfs -F: ssh runs the commands the configuration file names"
			}
		default:
			ops = append(ops, a)
		}
	}
	if c.name == "sshfs" {
		for _, o := range ops[:max(0, len(ops)-1)] {
			if host, _, ok := strings.Cut(o.val, ":"); ok && o.known && host != "" && !strings.Contains(host, "/") {
				if _, h, ok := strings.Cut(host, "@"); ok {
					host = h
				}
				c.checkHost(host)
			}
		}
	}
	if len(ops) == 0 {
		return TierMutate, c.name + ": mounts a file system"
	}
	target := ops[len(ops)-1]
	if target.known && systemMountPoint(target.val) {
		return TierDestructive, c.name + ": mounts over " + truncate(target.val, 64) + ", which hides or changes what the system runs and reads"
	}
	return TierMutate, c.name + ": mounts a file system"
}

// dissectProgram classifies systemd-dissect: --mount (-m, -M) mounts the
// image at its last operand, checked as fuseMountProgram checks one;
// --with runs a command inside the mounted image; the rest attaches,
// copies or reads an image (tier 2, as an unknown program was).
func dissectProgram(c *call) (Tier, string) {
	mount := false
	for _, a := range c.args {
		switch v := a.val; {
		case !a.known:
		// getopt_long: --wi is --with, --mou --mount.
		case longFlag(v, "--with") && !strings.Contains(v, "="):
			return TierDestructive, "systemd-dissect --with: runs a command in the mounted image"
		case longFlag(v, "--mount") || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v[1:], "mM"):
			mount = true
		}
	}
	if !mount {
		return TierMutate, "systemd-dissect: attaches or reads a disk image"
	}
	return fuseMountProgram(c)
}

// extensionProgram classifies systemd-sysext, systemd-confext and
// portablectl: merging extension images overlays /usr, /opt or /etc with
// what the images hold, and attaching a portable image installs its
// services, which run outside warden's confinement; both run what the
// images (under /run or /var/lib, or anywhere for portablectl) hold.
func extensionProgram(c *call) (Tier, string) {
	// The verb follows the options' values, abbreviated or not
	// (portablectl -M list attach IMG attaches in container list).
	ops := getoptOperands(c.vals(), "pHM", extensionValueLong)
	if len(ops) == 0 {
		ops = []string{"status"}
	}
	r := raiser{TierMutate, c.name + " " + truncate(ops[0], 32) + ": changes the system's extensions or portable services"}
	switch ops[0] {
	case "list", "status", "inspect", "is-attached", "help":
		r = raiser{TierRead, c.name + " " + ops[0]}
	case "merge", "refresh", "attach", "reattach":
		return TierDestructive, c.name + " " + ops[0] + ": puts an image's programs or services in place of the system's"
	}
	r.raise(c.daemonHost()) // portablectl -H runs ssh
	return r.t, r.why
}

// extensionValueLong are systemd-sysext's, systemd-confext's and
// portablectl's long options that take a value.
var extensionValueLong = []string{"--root", "--json", "--image-policy", "--noexec", "--mutable",
	"--profile", "--copy", "--extension", "--host", "--machine"}

// mountRunOpt says why mount's -o options make the FUSE helper it runs
// (mount -t fuse.sshfs, mount -t fuse 'sshfs#h:') run a program, or "".
func mountRunOpt(c *call) string {
	for _, o := range c.optVals(c.args, "-o", "--options") {
		low := strings.ToLower(o.val)
		if !o.known {
			return "mount -o: options computed at run time may name a program the file system's helper runs"
		}
		for _, w := range fuseRunOpts {
			if strings.Contains(low, w) {
				return "mount -o " + truncate(o.val, 64) + ": the file system's helper runs the program it names"
			}
		}
	}
	return ""
}
