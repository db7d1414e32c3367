package policy

import (
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// Modes: setuid and setgid bits set or kept by any program (chmod, install,
// mkdir, cp, tar, rsync, unzip, cpio) are TierDestructive.

// filecapProgram classifies libcap-ng's filecap, setcap's other spelling:
// "filecap FILE CAP…" (or "none") sets or clears a file's capabilities,
// which make it run with root's powers as a setuid bit does; with a
// file or directory alone, or none, it lists them.
func filecapProgram(c *call) (Tier, string) {
	if !allKnown(c.args) {
		c.e.opaque = true
		return TierDestructive, "filecap: arguments computed at run time can set a file's capabilities"
	}
	ops := 0
	for _, v := range c.vals() {
		if !strings.HasPrefix(v, "-") {
			ops++
		}
	}
	if ops >= 2 {
		return TierDestructive, "filecap: sets a file's capabilities, which run it with root's powers"
	}
	return TierRead, ""
}

// setidMode reports whether a chmod mode sets a setuid or setgid bit:
// octal of any length with 04000 or 02000, or a symbolic clause that adds
// or sets s (u+s, g=s, +s, a+rwxs, u+x,g+s) or an octal with those bits
// (=4755, +2000, which GNU chmod takes after an operator).
func setidMode(m string) bool {
	octalID := func(d string) bool {
		n, err := strconv.ParseUint(d, 8, 32)
		return err != nil || n&0o6000 != 0
	}
	if m != "" && strings.Trim(m, "01234567") == "" {
		return octalID(m)
	}
	for _, clause := range strings.Split(m, ",") {
		i := strings.IndexAny(clause, "+=")
		if i < 0 {
			continue
		}
		for _, op := range strings.FieldsFunc(clause[i:], func(r rune) bool { return r == '-' }) {
			if !strings.ContainsAny(op[:1], "+=") {
				continue
			}
			if d := op[1:]; d != "" && strings.Trim(d, "01234567") == "" && octalID(d) {
				return true
			}
			if strings.ContainsRune(op, 's') {
				return true
			}
		}
	}
	return false
}

// localSetid reports whether a path on this machine is a setuid or setgid
// file. Only the local host is looked at, and each path once: a script
// appending to one log file 30,000 times asks once.
func (e *eval) localSetid(p string) bool {
	if !e.local || !strings.HasPrefix(p, "/") {
		return false
	}
	if v, ok := e.setid[p]; ok {
		return v
	}
	fi, err := os.Stat(p)
	v := err == nil && fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid) != 0 && fi.Mode().IsRegular()
	if e.setid == nil {
		e.setid = make(map[string]bool)
	}
	e.setid[p] = v
	return v
}

// modeChecked: a chmod that sets setuid or setgid, or copies a mode from
// another file, and a chown of a setuid file, are TierDestructive.
func modeChecked(c *call) (Tier, string) {
	vals := c.vals()
	ops := getoptOperands(vals, "", []string{"--reference"})
	if c.name == "chmod" {
		if len(c.optVals(c.args, "--reference")) > 0 {
			return TierDestructive, "chmod --reference: copies a mode that may be setuid"
		}
		for _, a := range c.args {
			if a.known && strings.HasPrefix(a.val, "-") && !setidMode(a.val) {
				continue
			}
			if !a.known || setidMode(a.val) {
				return TierDestructive, "chmod " + truncate(a.val, 64) + ": sets a setuid or setgid bit"
			}
			break // the first operand is the mode
		}
	} else {
		for _, o := range ops[min(1, len(ops)):] {
			if c.e.localSetid(o) {
				return TierDestructive, c.name + ": changes the owner of setuid file " + o
			}
		}
	}
	return fileProgram(c)
}

// copyProgram: install and cp that set or keep setuid and setgid bits are
// TierDestructive: install -m 4755, cp -p/-a/--preserve of a setuid file;
// their destinations are checked like a redirection's target.
func copyProgram(c *call) (Tier, string) {
	var r raiser
	c.copyWrites(clusterValues[c.name], &r)
	t, why := copyModes(c)
	if r.t > t {
		return r.t, r.why
	}
	return t, why
}

// copyModes is copyProgram's reading of the modes it sets or keeps.
func copyModes(c *call) (Tier, string) {
	for _, m := range c.optVals(c.args, "-m", "--mode") {
		if !m.known || setidMode(m.val) {
			return TierDestructive, c.name + " -m " + m.val + ": sets a setuid or setgid bit"
		}
	}
	vals := c.vals()
	keep := c.flagSet('p', "", 0) || c.flagSet('a', "--archive", 4)
	for _, a := range c.args {
		// --preserve[=LIST]: its value is optional, so never the next word.
		name, list, has := strings.Cut(a.val, "=")
		if len(name) >= 4 && strings.HasPrefix("--preserve", name) && (!has || strings.Contains(list, "mode") || strings.Contains(list, "all")) {
			keep = true
		}
	}
	if keep && c.name == "cp" && c.ctx.root && !cpKeepsOwner(c) {
		// As root, a kept mode on a copy root now owns: a setuid file
		// of the agent's becomes a setuid root one.
		return TierDestructive, "cp as root: keeps the mode but not the owner, so a setuid file becomes a setuid root one"
	}
	if keep && c.name == "cp" {
		ops := getoptOperands(vals, "St", []string{"--suffix", "--target-directory"})
		srcs := ops[:max(0, len(ops)-1)]
		if len(c.optVals(c.args, "-t", "--target-directory")) > 0 {
			srcs = ops // cp -t DIR SOURCE…
		}
		for _, o := range srcs {
			if c.e.localSetid(o) {
				return TierDestructive, "cp: copies setuid file " + o + " with its mode"
			}
		}
	}
	return simpleTier(c.name)
}

// cpKeepsOwner reports whether cp keeps its sources' owners: -p, -a and
// --preserve without a list or with ownership or all in it, unless a later
// --no-preserve names ownership or all.
func cpKeepsOwner(c *call) bool {
	keep := c.flagSet('p', "", 0) || c.flagSet('a', "--archive", 4)
	for _, a := range c.args {
		if a.val == "--" {
			break
		}
		name, list, has := strings.Cut(a.val, "=")
		switch {
		case len(name) >= 6 && strings.HasPrefix("--no-preserve", name):
			if strings.Contains(list, "ownership") || strings.Contains(list, "all") {
				keep = false
			}
		case len(name) >= 4 && strings.HasPrefix("--preserve", name):
			if !has || strings.Contains(list, "ownership") || strings.Contains(list, "all") {
				keep = true
			}
		}
	}
	return keep
}

// tarRemoteHost returns the host of a GNU tar archive named [USER@]HOST:FILE
// (no '/' before the colon), which tar opens by running rsh to HOST and
// its rmt there unless --force-local is given; bsdtar has no remote
// archives. A denied host is denied like ssh's.
func tarRemoteHost(c *call) string {
	if c.name == "bsdtar" || c.flagSet(0, "--force-local", 6) {
		return ""
	}
	return c.remoteArchive(tarArchives(c))
}

// tarArchives returns the archives tar names, in every spelling of -f:
// "-f A", "-fA", "-cvf A", "--file=A", "--fi A" and the traditional "tar
// cvf A", whose letters that take a value take the next words in order.
func tarArchives(c *call) []arg {
	return append(c.optVals(c.args, "-f", "--file"), tarLetterVals(c, 'f')...)
}

// tarLongVals returns the values of tar's long option name in every
// abbreviation argp takes, resolved against tar's whole option table:
// --listed-inc is --listed-incremental, --list is --list.
func tarLongVals(c *call, name string) []arg {
	var vals []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if a.val == "--" {
			break
		}
		if !strings.HasPrefix(a.val, "--") {
			continue
		}
		n, v, eq := strings.Cut(a.val, "=")
		if longOpt(n, tarLongOpts) != name {
			continue
		}
		switch {
		case eq:
			vals = append(vals, arg{val: v, known: a.known, glob: a.glob})
		case i+1 < len(c.args):
			i++
			vals = append(vals, c.args[i])
		}
	}
	return vals
}

// tarLetterVals returns the value the traditional first word of tar
// ("tar cvgf SNAP A") gives letter: each of its letters that takes a value
// takes the next word, in order.
func tarLetterVals(c *call, letter rune) []arg {
	var vals []arg
	if len(c.args) > 0 && !strings.HasPrefix(c.args[0].val, "-") {
		k := 1
		for _, l := range c.args[0].val {
			if l == letter && k < len(c.args) {
				vals = append(vals, c.args[k])
			}
			if strings.ContainsRune(clusterValues["tar"], l) {
				k++
			}
		}
	}
	return vals
}

// remoteArchive returns the host of the first archive named
// [USER@]HOST:FILE (no '/' before the colon), which GNU tar and cpio open
// through rsh and the host's rmt, after applying the host rules to it.
func (c *call) remoteArchive(files []arg) string {
	for _, f := range files {
		host, _, ok := strings.Cut(f.val, ":")
		if !f.known || !ok || host == "" || strings.Contains(host, "/") {
			continue
		}
		if _, h, ok := strings.Cut(host, "@"); ok {
			host = h
		}
		c.checkHost(host)
		return host
	}
	return ""
}

// tarChecked: extracting with permissions kept (-p, --same-permissions)
// can create setuid files, extracting with absolute names kept (-P)
// writes wherever the archive says, and extracting into a system
// directory replaces it: TierDestructive.
func tarChecked(c *call) (Tier, string) {
	// Options that run a program, in every spelling (-Ixz, --use-comp=x,
	// --to-c=cmd, --checkpoint-a=exec=cmd).
	run := ""
	for _, o := range []string{"-I", "--use-compress-program", "-F", "--info-script", "--new-volume-script",
		"--to-command", "--checkpoint-action", "--rsh-command", "--rmt-command"} {
		for _, p := range c.optVals(c.args, o) {
			if run == "" {
				run = o
			}
			c.shellArg(arg{val: strings.TrimPrefix(p.val, "exec="), known: p.known}, "tar program")
		}
	}
	if run == "-I" || run == "-F" {
		run = "-I/-F"
	}
	if run != "" {
		c.e.opaque = true
		return TierDestructive, "tar " + run + ": runs a program"
	}
	t, why := tarProgram(c)
	if h := tarRemoteHost(c); h != "" && t < TierBenign {
		t, why = TierBenign, "tar: reaches the archive on "+truncate(h, 64)+" through rsh and its rmt"
	}
	// --index-file takes the verbose listing and --volno-file the volume
	// number, in any mode, listing included.
	for _, f := range c.optVals(c.args, "--index-file", "--volno-file") {
		if wt, wwhy := c.writeArg(f, "tar --index-file/--volno-file"); wt > t {
			t, why = wt, wwhy
		}
	}
	// -g's snapshot file is created or rewritten when comparing (tar -d -g
	// FILE), creating and extracting; /dev/null is the way to name none.
	snaps := append(c.optVals(c.args, "-g"), tarLetterVals(c, 'g')...)
	for _, f := range append(snaps, tarLongVals(c, "--listed-incremental")...) {
		if f.known && f.val == "/dev/null" {
			continue
		}
		if wt, wwhy := c.writeArg(f, "tar -g (its snapshot file)"); wt > t {
			t, why = wt, wwhy
		}
	}
	for _, m := range c.optVals(c.args, "--mode") {
		if !m.known || setidMode(m.val) {
			return TierDestructive, "tar --mode=" + m.val + ": stores setuid or setgid files"
		}
	}
	if t == TierMutate && strings.HasPrefix(why, "tar: extracts") && c.ctx.root && !c.flagSet(0, "--no-same-permissions", 11) {
		// Root's tar keeps the archive's modes and owners by default:
		// a member the archive says is root's and setuid is one.
		return TierDestructive, c.name + " as root: extracts with the archive's modes and owners kept, which can create setuid root files (--no-same-permissions clears them)"
	}
	if t == TierMutate && strings.HasPrefix(why, "tar: extracts") {
		vals := c.vals()
		for k, v := range vals {
			cluster := ""
			if len(v) > 1 && v[0] == '-' && v[1] != '-' {
				cluster = v[1:]
			} else if k == 0 && !strings.HasPrefix(v, "-") {
				cluster = v
			}
			if strings.ContainsRune(cluster, 'p') {
				return TierDestructive, "tar: extracts with permissions kept, which can create setuid files"
			}
			if strings.ContainsRune(cluster, 'P') {
				return TierDestructive, "tar -P: extracts members to the absolute paths the archive names, anywhere"
			}
		}
		if c.flagSet(0, "--absolute-names", 4) {
			return TierDestructive, "tar --absolute-names: extracts members to the absolute paths the archive names, anywhere"
		}
		if c.flagSet(0, "--same-permissions", 8) || c.flagSet(0, "--preserve-permissions", 5) {
			return TierDestructive, "tar: extracts with permissions kept, which can create setuid files"
		}
		r := raiser{t, why}
		for _, d := range c.optVals(c.args, "-C", "--directory") {
			r.raise(c.extractDir(d, "tar"))
		}
		t, why = r.t, r.why
	}
	return t, why
}

// unzipChecked: unzip -K keeps the setuid and setgid bits it otherwise
// clears.
func unzipChecked(c *call) (Tier, string) {
	t, why := archiveProgram(c)
	if t == TierMutate && c.flagSet('K', "", 0) {
		return TierDestructive, "unzip -K: extracts with setuid and setgid bits kept"
	}
	r := raiser{t, why}
	for _, d := range c.optVals(c.args, "-d") {
		if t == TierMutate {
			r.raise(c.extractDir(d, "unzip"))
		}
	}
	return r.t, r.why
}

// cpioProgram: cpio -i and -p restore each file's mode, setuid and setgid
// bits included; -t only lists; --rsh-command runs a program.
func cpioProgram(c *call) (Tier, string) {
	var r raiser
	r.raise(TierMutate, "cpio: writes an archive")
	for _, p := range c.optVals(c.args, "--rsh-command") {
		r.raise(c.shellArg(p, "cpio --rsh-command"))
		r.raise(TierDestructive, "cpio --rsh-command: runs a program")
	}
	for _, f := range c.optVals(c.args, "-O", "-F", "--file") {
		if c.flagSet('o', "--create", 5) {
			r.raise(c.writeArg(f, "cpio archive"))
		}
	}
	remote := ""
	if !c.flagSet(0, "--force-local", 6) {
		remote = c.remoteArchive(c.optVals(c.args, "-F", "--file", "-I", "-O"))
	}
	switch {
	case r.t == TierMutate && c.flagSet('t', "--list", 4) && remote != "":
		return TierBenign, "cpio: reaches the archive on " + truncate(remote, 64) + " through rsh and its rmt"
	case r.t == TierMutate && c.flagSet('t', "--list", 4):
		return TierRead, "cpio: lists an archive"
	case c.flagSet('i', "--extract", 5) || c.flagSet('p', "--pass-through", 4):
		r.raise(TierDestructive, "cpio: extracts with modes kept, which can create setuid files")
	}
	return r.t, r.why
}

// setfattrProgram: the security and trusted attributes hold file
// capabilities and labels, which grant privilege like a setuid bit.
func setfattrProgram(c *call) (Tier, string) {
	for _, n := range c.optVals(c.args, "-n", "--name", "-x", "--remove") {
		if l := strings.ToLower(n.val); !n.known || strings.HasPrefix(l, "security.") || strings.HasPrefix(l, "trusted.") {
			return TierDestructive, "setfattr " + truncate(n.val, 64) + ": sets capabilities or security labels"
		}
	}
	if len(c.optVals(c.args, "--restore")) > 0 {
		return TierDestructive, "setfattr --restore: sets attributes from a file the classifier cannot see"
	}
	return TierMutate, "setfattr: changes extended attributes"
}

// statoverrideProgram: dpkg-statoverride --add records a mode dpkg gives
// a file, and with --update sets it at once; a setuid or setgid one is
// TierDestructive like chmod's. --list reads.
func statoverrideProgram(c *call) (Tier, string) {
	vals := c.vals()
	for i, v := range vals {
		if v == "--list" && len(vals) <= 3 {
			return TierRead, "dpkg-statoverride --list"
		}
		if v == "--add" && i+3 < len(vals) {
			if m := vals[i+3]; setidMode(m) || !c.args[i+3].known {
				return TierDestructive, "dpkg-statoverride --add " + truncate(m, 16) + ": sets a setuid or setgid bit"
			}
		}
	}
	return TierMutate, "dpkg-statoverride: changes the modes dpkg gives files"
}
