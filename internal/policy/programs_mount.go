package policy

import (
	"path"
	"strings"
)

// mountOver reports why a mount is TierDestructive, or "": one over a
// system directory or file hides or replaces what the system runs and reads
// (mount -t tmpfs none /etc, mount --bind /tmp/x /usr/bin/sudo), and
// remounting one changes it for everything (mount -o remount,ro /).
// Mounting under /mnt, /media, /srv, /home or /run/media is everyday work.
func mountOver(c *call) string {
	vals := c.vals()
	var ops []string
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		switch {
		case v == "--":
			ops = append(ops, vals[i+1:]...)
			i = len(vals)
		case mountTakesValue(v):
			i++
		case strings.HasPrefix(v, "-"):
		default:
			ops = append(ops, v)
		}
	}
	for _, a := range c.args[1:] {
		if !a.known {
			return "" // a target named at run time is tier 2, as for any mount
		}
	}
	// --target names the mount point too (mount --target /etc --source X).
	var targets []string
	for _, t := range c.optVals(c.args, "--target") {
		targets = append(targets, t.val)
	}
	if len(ops) > 0 {
		targets = append(targets, ops[len(ops)-1])
	}
	target := ""
	for _, t := range targets {
		if systemMountPoint(t) {
			target = t
		}
	}
	if target == "" {
		return ""
	}
	if remount, ro := mountRemount(c); remount {
		if !ro {
			return "" // remount,rw / is how appliances make their root writable
		}
		return "mount -o remount,ro " + truncate(target, 64) + ": makes a system directory read-only"
	}
	return "mount: mounts over " + truncate(target, 64) + ", which hides or changes what the system runs and reads"
}

// systemMountPoint reports whether mounting at target hides or replaces
// what the system runs and reads: /, a system directory or file, a
// critical path. Mounting under /mnt, /media, /srv, /home or /run/media is
// everyday work.
func systemMountPoint(target string) bool {
	if !strings.HasPrefix(target, "/") {
		return false
	}
	t := path.Clean(target)
	for _, ok := range []string{"/mnt", "/media", "/srv", "/home", "/run/media", "/tmp", "/var/tmp"} {
		if Within(t, ok) && (t != ok || ok != "/home") {
			return false
		}
	}
	return isRoot(t) || criticalPath(t) || systemFile(t)
}

// mountRemount reports whether a mount's options remount, and whether
// they make it read-only.
func mountRemount(c *call) (remount, ro bool) {
	for _, a := range c.args {
		v := a.val
		name, val, has := longName(v, mountLongOpts)
		switch {
		case name == "--options" && has:
			v = val
		case name == "--read-only":
			ro = true
			continue
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--"):
			// A cluster: -r is read-only, and -o takes the rest of the
			// word or the next (mount -ro remount /, -rooremount).
			rest, ok := mountCluster(v)
			ro = ro || strings.IndexByte(v[:len(v)-len(rest)], 'r') > 0
			if !ok || rest == "" {
				continue
			}
			v = rest
		case strings.HasPrefix(v, "-"):
			continue
		}
		opts := "," + v + ","
		remount = remount || strings.Contains(opts, ",remount,")
		ro = ro || strings.Contains(opts, ",ro,") || strings.Contains(opts, ",read-only,")
	}
	return remount, ro
}

// mountCluster reads a short-option cluster: the text after its -o (ok
// true; "" when the value is the next word), or ok false.
func mountCluster(v string) (string, bool) {
	for k := 1; k < len(v); k++ {
		switch v[k] {
		case 'o':
			return v[k+1:], true
		case 't', 'O', 'L', 'U', 'N', 'T':
			return "", false
		}
	}
	return "", false
}

// mountTakesValue reports whether a mount option takes the next word,
// its long name in any abbreviation getopt_long takes (--ty ext4).
func mountTakesValue(v string) bool {
	name, _, has := longName(v, mountLongOpts)
	if has {
		return false
	}
	if len(v) > 2 && v[0] == '-' && v[1] != '-' {
		// A cluster whose last letter takes a value: -ro, -rt.
		return strings.IndexByte("toOLUNT", v[len(v)-1]) >= 0 && !strings.ContainsAny(v[1:len(v)-1], "toOLUNT")
	}
	switch name {
	case "-t", "--types", "-o", "--options", "-O", "--test-opts", "-L", "--label", "-U", "--uuid",
		"-N", "--namespace", "--source", "--target", "--target-prefix", "--options-mode", "--options-source",
		"--map-users", "--map-groups", "-T", "--fstab":
		return true
	}
	return false
}

// systemFile reports whether p lies under a directory of the system's own
// programs, libraries or configuration.
func systemFile(p string) bool {
	for _, d := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/usr", "/etc", "/boot", "/var/lib", "/root", "/opt"} {
		if Within(p, d) {
			return true
		}
	}
	return false
}
