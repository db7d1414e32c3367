package policy

import (
	"path"
	"strconv"
	"strings"
)

// Firewall rules, boot settings and traffic shaping that lock the operator
// out of an SSH host: a rule that drops everything or the SSH port, the
// removal of the rule that lets SSH in, a zone or chain whose default is
// drop, sshd disabled at boot, every packet lost. Like "iptables -P INPUT
// DROP" they are TierDestructive: approved by a human, never denied.

// firewallCutsOff returns why a firewall command can block SSH or every
// packet, or "".
func firewallCutsOff(name string, vals []string) string {
	switch name {
	case "nft":
		return nftCutsOff(vals)
	case "ufw":
		return ufwCutsOff(vals)
	case "firewall-cmd":
		for i, v := range vals {
			k, val, eq := strings.Cut(v, "=")
			if !eq && i+1 < len(vals) && strings.HasPrefix(v, "--") {
				val = vals[i+1] // argparse takes --opt VALUE too
			}
			if longFlag(k, "--add-rule") || longFlag(k, "--add-passthrough") {
				if why := iptablesCutsOff(append([]string{"-A"}, vals[i+1:]...)); why != "" {
					return "firewall-cmd --direct: " + why
				}
			}
			switch {
			case (longFlag(k, "--remove-port") || longFlag(k, "--remove-service")) && sshPort(strings.TrimSuffix(val, "/tcp")):
				return "firewall-cmd " + v + ": stops letting SSH in"
			case longFlag(k, "--set-target") && (val == "DROP" || val == "REJECT" || val == "%%REJECT%%"):
				return "firewall-cmd " + v + ": the zone drops what no rule lets in"
			case longFlag(k, "--add-rich-rule") && richBlocksSSH(val):
				return "firewall-cmd --add-rich-rule: blocks SSH"
			}
		}
		return ""
	}
	return iptablesCutsOff(vals)
}

// sshPort reports whether a port or service word names SSH.
func sshPort(p string) bool {
	switch strings.ToLower(p) {
	case "22", "ssh", "openssh", "22/tcp", "ssh/tcp":
		return true
	}
	return false
}

func richBlocksSSH(r string) bool {
	l := strings.ToLower(r)
	return (strings.Contains(l, "drop") || strings.Contains(l, "reject")) &&
		(strings.Contains(l, "name=ssh") || strings.Contains(l, `name="ssh"`) || strings.Contains(l, `port="22"`) || strings.Contains(l, "port=22"))
}

// iptablesCutsOff: a rule appended or inserted with target DROP or REJECT
// that matches nothing narrower than a chain (-A INPUT -j DROP), or that
// matches the SSH port.
func iptablesCutsOff(vals []string) string {
	adds, target, narrow, ssh := false, "", false, false
	for i := 0; i < len(vals); i++ {
		// Long options in any abbreviation, their values attached or next.
		v, next, attached := longName(vals[i], iptablesLongOpts)
		skip := 0
		if !attached && i+1 < len(vals) {
			next, skip = vals[i+1], 1
		}
		switch {
		case v == "--append" || v == "--insert" || len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v[1:2], "AI"):
			adds = true
		case v == "-j" || v == "--jump":
			target = next
			i += skip
		case strings.HasPrefix(v, "-j") && len(v) > 2:
			target = v[2:]
		case v == "--dport" || v == "--dports" || v == "--destination-port" || v == "--destination-ports" ||
			// With the multiport match loaded too, --dpo is either.
			len(v) > 3 && strings.HasPrefix("--dports", v) || len(v) > 13 && strings.HasPrefix("--destination-ports", v):
			for _, p := range strings.Split(next, ",") {
				if sshPort(p) || portRangeHas(p, 22) {
					ssh = true
				}
			}
			narrow = true
			i += skip
		case v == "-t" || v == "--table" || v == "-i" || v == "--in-interface" || v == "-o" || v == "--out-interface" ||
			v == "--reject-with" || v == "-W" || v == "--wait-interval" || (v == "-w" || v == "--wait") && next != "" && next[0] >= '0' && next[0] <= '9':
			// An interface-wide drop cuts the host off through it; -w's
			// seconds are optional.
			i += skip
		case v == "-w" || v == "--wait" || v == "-v" || v == "-n" || v == "--line-numbers":
		case strings.HasPrefix(v, "-"):
			narrow = true
		}
	}
	if !adds || target != "DROP" && target != "REJECT" {
		return ""
	}
	if ssh {
		return "iptables -j " + target + " on the SSH port: blocks SSH"
	}
	if !narrow {
		return "iptables -j " + target + " matching everything: cuts off access"
	}
	return ""
}

// nftCutsOff: a chain whose policy is drop, a rule that drops the SSH
// port, or a rule that is only a verdict (add rule inet filter input drop).
func nftCutsOff(vals []string) string {
	words := strings.Fields(strings.ToLower(strings.NewReplacer("{", " { ", "}", " } ", ";", " ; ", ",", " , ").Replace(strings.Join(vals, " "))))
	drop := false
	for i, w := range words {
		if w == "policy" && i+1 < len(words) && words[i+1] == "drop" {
			return "nft policy drop: the chain drops what no rule accepts"
		}
		if w == "drop" || w == "reject" {
			drop = true
		}
	}
	if !drop {
		return ""
	}
	for i, w := range words {
		if w == "dport" {
			for _, p := range words[i+1:] {
				if p == "{" || p == "," {
					continue
				}
				if sshPort(p) {
					return "nft: drops the SSH port"
				}
				if p != "}" && !strings.HasPrefix(p, "!") && (p[0] < '0' || p[0] > '9') {
					break
				}
			}
		}
	}
	// add|insert rule FAMILY TABLE CHAIN [counter] drop
	ops := operands(vals)
	if len(ops) >= 6 && (ops[0] == "add" || ops[0] == "insert") && ops[1] == "rule" {
		for _, w := range ops[5:] {
			if w != "counter" && w != "drop" && w != "reject" {
				return ""
			}
		}
		return "nft: a rule that drops every packet"
	}
	return ""
}

// ufwCutsOff: denying or rejecting SSH, deleting the rule that allows it,
// or enabling the firewall (which ufw itself warns may cut SSH off).
func ufwCutsOff(vals []string) string {
	ops := operands(vals)
	if len(ops) == 0 {
		return ""
	}
	if ops[0] == "enable" {
		return "ufw enable: can cut off existing SSH connections"
	}
	verb := ops[0]
	if (verb == "insert" || verb == "prepend") && len(ops) > 2 {
		ops = ops[1:]
		if verb == "insert" {
			ops = ops[1:]
		}
		verb = ops[0]
	}
	blocks := verb == "deny" || verb == "reject"
	if verb == "delete" && len(ops) > 1 && (ops[1] == "allow" || ops[1] == "limit") {
		blocks = true
	}
	if !blocks {
		return ""
	}
	for k, o := range ops[1:] {
		if sshPort(o) || o == "port" && k+2 < len(ops) && sshPort(ops[k+2]) {
			return "ufw " + verb + " ssh: stops letting SSH in"
		}
	}
	return ""
}

// bootServiceProgram classifies chkconfig, update-rc.d and rc-update:
// taking sshd or the network out of the boot sequence locks the operator
// out at the next boot, as "systemctl disable sshd" does.
func bootServiceProgram(c *call) (Tier, string) {
	vals := c.vals()
	if !allKnown(c.args) {
		c.e.opaque = true
		return TierDestructive, c.name + ": arguments computed at run time"
	}
	ops := operands(vals)
	if c.name == "chkconfig" && (len(vals) == 0 || hasFlag(vals, 0, "--list") && len(ops) <= 1) {
		return TierRead, "chkconfig --list"
	}
	if c.name == "rc-update" && (len(ops) == 0 || ops[0] == "show") {
		// -u rebuilds the dependency tree cache OpenRC keeps on disk.
		if hasFlag(vals, 'u', "--update") {
			return TierMutate, "rc-update -u: rewrites the dependency tree cache"
		}
		return TierRead, "rc-update show"
	}
	off := hasFlag(vals, 0, "--del")
	for _, o := range ops {
		switch o {
		case "off", "remove", "disable", "del", "delete":
			off = true
		}
	}
	if off {
		for _, o := range ops {
			if cutsAccess(o) {
				return TierDestructive, c.name + ": takes " + o + " out of the boot sequence"
			}
		}
	}
	return TierMutate, c.name + ": changes the services started at boot"
}

// tcCutsOff: netem loss or corruption, or a filter whose action drops,
// takes packets away wholesale.
func tcCutsOff(vals []string) string {
	netem := false
	for i, v := range vals {
		switch v {
		case "netem":
			netem = true
		case "loss", "corrupt":
			if netem {
				return "tc netem " + v + ": drops or corrupts packets"
			}
		case "drop", "shot":
			if i > 0 && (vals[i-1] == "action" || vals[i-1] == "police" || vals[i-1] == "conform-exceed") || slicesHas(vals, "filter") {
				return "tc filter action drop: drops packets"
			}
		}
	}
	return ""
}

// rfkillProgram: rfkill block turns radios off, the host's link if it is
// wireless, as "nmcli radio all off" does; list and event read.
func rfkillProgram(c *call) (Tier, string) {
	ops := getoptOperands(c.vals(), "o", []string{"--output"}) // rfkill -o DEVICE block all
	if len(ops) == 0 || ops[0] == "list" || ops[0] == "event" || ops[0] == "help" {
		return TierRead, "rfkill: lists radios"
	}
	if ops[0] == "block" {
		return TierDestructive, "rfkill block: turns radios off"
	}
	return TierMutate, "rfkill: changes radios"
}

// systemProgramDirs hold the programs and libraries the host and its
// logins run (not /usr/local, where operators install their own tools).
var systemProgramDirs = []string{"/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/", "/lib/", "/lib32/", "/lib64/",
	"/libx32/", "/usr/lib/", "/usr/lib32/", "/usr/lib64/", "/usr/libexec/"}

// systemProgramFile returns why writing the clean absolute path c breaks
// the host or its logins — it replaces a system program or library
// (cp x /usr/sbin/sshd, dd of=/lib/…/libc.so.6), or it is the nologin file
// that refuses every login but root's — or "".
func systemProgramFile(c string) string {
	if len(c) < 5 || c[0] != '/' {
		return ""
	}
	switch c {
	case "/etc/nologin", "/run/nologin", "/var/run/nologin":
		return "refuses every login but root's: "
	}
	for _, d := range systemProgramDirs {
		if strings.HasPrefix(c, d) {
			return "replaces a system program or library: "
		}
	}
	if d := path.Dir(c); (d == "/usr/local/bin" || d == "/usr/local/sbin") && shadowedPrograms[path.Base(c)] {
		return "shadows a system program root runs (/usr/local comes first on its PATH): "
	}
	return ""
}

// shadowedPrograms are system programs that root, its cron jobs, package
// scripts and logins run by name: a file of the same name in /usr/local/bin
// or /usr/local/sbin, which come first on root's PATH, runs instead. A tool
// of the operator's own there (helm, k9s) is not one of them.
var shadowedPrograms = set(`sh bash dash zsh su sudo login passwd ls cat cp mv rm ln mkdir rmdir chmod
	chown touch find xargs grep egrep fgrep sed awk gawk mawk sort uniq head tail cut tr tee wc test
	env id whoami which date sleep true false kill ps pgrep pkill uname hostname mount umount df du
	tar gzip gunzip zcat bzip2 xz cpio install dirname basename readlink realpath mktemp stat
	systemctl service journalctl logger run-parts logrotate cron crontab apt apt-get apt-cache dpkg
	dpkg-query dpkg-deb update-alternatives ldconfig depmod modprobe update-initramfs update-grub
	perl python3 ip iptables nft ss ssh sshd scp git curl wget gpg openssl less more vi vim
	nano invoke-rc.d start-stop-daemon getent useradd usermod groupadd chpasswd sync blkid lsblk
	ischroot debconf-set-selections ucf pam-auth-update savelog flock nice ionice timeout`)

// lnProgram classifies ln by the link it writes: the last operand (or,
// when that is a directory, the source's name in it), or each source's
// name in the -t directory. A link over a system program or library, a
// device or warden's state is that write's tier.
func lnProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, "ln: creates links"}
	for _, a := range c.args {
		if !a.known && c.mayBeOption(a) {
			c.e.opaque = true
			return TierDestructive, "ln: options computed at run time"
		}
	}
	ops := getoptOperands(c.vals(), "St", []string{"--suffix", "--target-directory"})
	var dests []string
	if dirs := c.optVals(c.args, "-t", "--target-directory"); len(dirs) > 0 {
		for _, d := range dirs {
			for _, s := range ops {
				dests = append(dests, d.val+"/"+path.Base(s))
			}
		}
	} else if len(ops) >= 2 {
		last := ops[len(ops)-1]
		dests = append(dests, last)
		for _, s := range ops[:len(ops)-1] {
			dests = append(dests, last+"/"+path.Base(s))
		}
	}
	for _, d := range dests {
		r.raise(c.writeArg(arg{val: d, known: true}, "ln"))
	}
	if len(c.optVals(c.args, "-t", "--target-directory")) == 0 {
		c.disguises(optionOperands(c.args, "St", "--suffix --target-directory"), &r)
	}
	return r.t, r.why
}

// portRangeHas reports whether the port range r (lo:hi, lo-hi, or lo: for
// every port from lo) includes port.
func portRangeHas(r string, port int) bool {
	lo, hi, ok := strings.Cut(r, ":")
	if !ok {
		lo, hi, ok = strings.Cut(r, "-")
	}
	if !ok {
		return false
	}
	l, h := 0, 65535
	if lo != "" {
		n, err := strconv.Atoi(lo)
		if err != nil {
			return false
		}
		l = n
	}
	if hi != "" {
		n, err := strconv.Atoi(hi)
		if err != nil {
			return false
		}
		h = n
	}
	return l <= port && port <= h
}

// firewallComputed returns why a firewall rule's computed word can make
// it one firewallCutsOff names: an iptables target (-j $T) or a ufw
// action on the SSH port (ufw $V 22), or "".
func firewallComputed(c *call) string {
	switch c.name {
	case "ufw":
		var ops []arg
		for _, a := range c.args {
			if !a.known || !strings.HasPrefix(a.val, "-") {
				ops = append(ops, a)
			}
		}
		if len(ops) > 1 && !ops[0].known {
			for _, o := range ops[1:] {
				if sshPort(o.val) {
					return "ufw " + truncate(ops[0].val, 32) + ": an action computed at run time on the SSH port can deny it"
				}
			}
		}
	case "nft", "firewall-cmd":
	default:
		for i, a := range c.args {
			if (a.val == "-j" || a.val == "--jump") && a.known && i+1 < len(c.args) && !c.args[i+1].known {
				return c.name + " -j " + truncate(c.args[i+1].val, 32) + ": a target computed at run time can be DROP"
			}
		}
	}
	return ""
}
