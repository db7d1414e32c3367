package policy

import "strings"

// Hypervisor, storage-target and file-server CLIs of home-lab appliances:
// VMware ESXi's esxcli (and localcli), vim-cmd and vmkfstools, Proxmox
// VE's user, appliance, node, replication and boot tools, LIO's
// targetcli and targetctl, tgt's tgtadm and tgt-admin, SnapRAID,
// Samba's net and samba-tool (the other Samba tools are in
// programs_samba.go), mergerfs.ctl and Synology's disk, RAID and network
// tools. Each reads at tier 0 only in the forms that print state;
// deletes, power-offs and the forms that cut access are TierDestructive;
// everything else, and an unknown verb, is TierMutate. A verb computed
// at run time may be a teardown, so it is TierDestructive.

// applianceProgram returns the classifier for the programs this file,
// programs_esxi.go, programs_targets.go, programs_wordcli.go (Proxmox's
// and Samba's word-command tools), programs_routing.go,
// programs_samba.go, programs_ups.go and programs_fileread.go own, or
// nil. This file holds Synology's tools and Proxmox's restore and backup
// programs.
func applianceProgram(name string) func(*call) (Tier, string) {
	switch name {
	case "esxcli", "localcli":
		return esxcliProgram
	case "vmkfstools":
		return vmkfstoolsProgram
	case "racadm":
		return racadmProgram
	case "smbpasswd":
		return smbpasswdProgram
	case "wbinfo":
		return wbinfoProgram
	case "vim-cmd":
		return vimCmdProgram
	case "vtysh":
		return vtyshProgram
	case "birdc", "birdc6", "birdcl":
		return birdcProgram
	case "targetcli", "targetctl":
		return targetcliProgram
	case "tgtadm":
		return tgtadmProgram
	case "tgt-admin":
		return tgtAdminProgram
	case "snapraid":
		return snapraidProgram
	case "pdbedit":
		return pdbeditProgram
	case "smbcontrol":
		return smbcontrolProgram
	case "mergerfs.ctl":
		return mergerfsCtlProgram
	case "synodisk", "synoraid", "synonet":
		return synoToolProgram
	case "qmrestore":
		return qmrestoreProgram
	case "vzdump":
		return vzdumpProgram
	case "ffprobe":
		return ffprobeProgram
	case "dpkg-deb":
		return dpkgDebProgram
	case "zless", "bzless", "xzless", "lzless", "zstdless", "zmore", "bzmore", "xzmore", "lzmore":
		// They hand their options to less or more.
		return lessProgram
	}
	if _, ok := wordCLIs[name]; ok {
		return wordCLIProgram
	}
	return upsProgram(name)
}

// computed marks c opaque and returns the tier of a verb computed at run
// time, which may name a teardown.
func (c *call) computed(what string) (Tier, string) {
	c.e.opaque = true
	return TierDestructive, c.name + ": " + what + " computed at run time"
}

// synoToolProgram classifies Synology's synodisk, synoraid and synonet,
// which take their verb as the first option: the enumerating, showing
// and getting ones read, the ones that delete, format, erase, stop or
// disable are TierDestructive.
func synoToolProgram(c *call) (Tier, string) {
	if len(c.args) == 0 {
		return TierRead, c.name + ": prints its usage"
	}
	read := true
	for _, a := range c.args {
		if !a.known {
			return c.computed("verb")
		}
		if !strings.HasPrefix(a.val, "-") || a.val == "-t" || a.val == "-a" {
			continue // -t TYPE and -a narrow or widen a listing
		}
		v := strings.ToLower(strings.TrimLeft(a.val, "-"))
		for _, d := range []string{"del", "remove", "format", "erase", "wipe", "stop", "destroy", "disable", "down", "reset", "kill", "clean", "zero"} {
			if strings.Contains(v, d) {
				return TierDestructive, c.name + " " + truncate(a.val, 32) + ": deletes, wipes, stops or disables"
			}
		}
		// --smart_info_get and --get_if read, --set_info does not.
		isRead := false
		for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == '_' || r == '-' }) {
			switch w {
			case "enum", "info", "get", "show", "list", "status", "help", "read", "detail":
				isRead = true
			case "set", "add", "create", "write", "update", "change", "modify", "enable", "start", "run", "apply",
				"import", "install", "upgrade", "repair", "rebuild", "expand", "replace", "mount", "assemble",
				"move", "rename", "clear", "test", "check", "scan", "restore", "config":
				read = false
			}
		}
		read = read && isRead
	}
	if read {
		return TierRead, c.name + ": reports"
	}
	return TierMutate, c.name + ": changes disks, volumes or the network"
}

// synoWebAPIRead reports whether a synowebapi call only reads: --exec
// with every method= a get, list or info (the other KEY=VALUE pairs
// choose the API, its version and what to report).
func synoWebAPIRead(c *call) bool {
	methods := 0
	for _, a := range c.args {
		if !a.known {
			return false
		}
		k, v, ok := strings.Cut(a.val, "=")
		switch {
		case a.val == "--exec":
		case !ok || strings.HasPrefix(k, "-"):
			return false
		case strings.EqualFold(k, "method"):
			switch strings.ToLower(v) {
			case "get", "list", "info", "status":
				methods++
			default:
				return false
			}
		}
	}
	return methods > 0
}

// qmrestoreProgram: qmrestore makes a VM from a backup; --force first
// destroys the VM of that id and its disks.
func qmrestoreProgram(c *call) (Tier, string) {
	if t, why, ok := proxmoxForce(c); ok {
		return t, why
	}
	return TierMutate, "qmrestore: creates a VM from a backup"
}

// proxmoxForce reports whether c has Proxmox's --force (one dash or two,
// with a value that is not false, or none), which overwrites a guest.
func proxmoxForce(c *call) (Tier, string, bool) {
	for i, a := range c.args {
		if !a.known {
			if c.mayBeOption(a) {
				t, why := c.computed("option")
				return t, why, true
			}
			continue
		}
		name, val, eq := strings.Cut(strings.TrimLeft(a.val, "-"), "=")
		if !strings.HasPrefix(a.val, "-") || name != "force" {
			continue
		}
		if !eq && i+1 < len(c.args) && !strings.HasPrefix(c.args[i+1].val, "-") {
			if !c.args[i+1].known {
				t, why := c.computed("--force value")
				return t, why, true
			}
			val = c.args[i+1].val
			if !falseValue(val) && val != "1" && !strings.EqualFold(val, "true") {
				val = "1" // the next word is an operand
			}
		}
		if !falseValue(val) {
			return TierDestructive, c.name + " --force: destroys the guest of that id and its disks", true
		}
	}
	return 0, "", false
}

// vzdumpProgram: vzdump writes a backup (TierMutate) into --dumpdir and
// runs --script as a hook.
func vzdumpProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, "vzdump: backs up guests"}
	for i, a := range c.args {
		name, val, eq := strings.Cut(strings.TrimLeft(a.val, "-"), "=")
		if !a.known || !strings.HasPrefix(a.val, "-") {
			continue
		}
		d := arg{val: val, known: true}
		if !eq && i+1 < len(c.args) {
			d = c.args[i+1]
		}
		switch name {
		case "script":
			r.raise(TierDestructive, "vzdump --script: runs a hook script the classifier cannot see")
		case "dumpdir", "tmpdir":
			r.raise(c.writeArg(d, "vzdump --"+name))
		}
	}
	return r.t, r.why
}
