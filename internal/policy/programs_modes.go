package policy

import (
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// Modes: setuid and setgid bits set or kept by any program (chmod, install,
// mkdir, cp, tar, rsync, unzip, cpio) are TierDestructive.

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
// file. Only the local host is looked at.
func (e *eval) localSetid(p string) bool {
	if !e.local || !strings.HasPrefix(p, "/") {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid) != 0 && fi.Mode().IsRegular()
}

// modeChecked: a chmod that sets setuid or setgid, or copies a mode from
// another file, and a chown of a setuid file, are TierDestructive.
func modeChecked(c *call) (Tier, string) {
	vals := c.vals()
	ops := operandsSkipping(vals, "", []string{"--reference"})
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
// TierDestructive: install -m 4755, cp -p/-a/--preserve of a setuid file.
func copyProgram(c *call) (Tier, string) {
	for _, m := range c.optVals(c.args, "-m", "--mode") {
		if !m.known || setidMode(m.val) {
			return TierDestructive, c.name + " -m " + m.val + ": sets a setuid or setgid bit"
		}
	}
	vals := c.vals()
	keep := hasFlag(vals, 'p', "") || hasFlag(vals, 'a', "--archive")
	for _, p := range c.optVals(c.args, "--preserve") {
		if p.val == "" || strings.Contains(p.val, "mode") || strings.Contains(p.val, "all") {
			keep = true
		}
	}
	for _, v := range vals {
		if v == "--preserve" {
			keep = true
		}
	}
	if keep && c.name == "cp" {
		ops := operandsSkipping(vals, "St", []string{"--suffix", "--target-directory"})
		for _, o := range ops[:max(0, len(ops)-1)] {
			if c.e.localSetid(o) {
				return TierDestructive, "cp: copies setuid file " + o + " with its mode"
			}
		}
	}
	return simpleTier(c.name)
}

// tarChecked: extracting with permissions kept (-p, --same-permissions)
// can create setuid files, and extracting into a system directory
// replaces it: TierDestructive.
func tarChecked(c *call) (Tier, string) {
	t, why := tarProgram(c)
	if t == TierMutate && strings.HasPrefix(why, "tar: extracts") {
		vals := c.vals()
		for k, v := range vals {
			cluster := ""
			if len(v) > 1 && v[0] == '-' && v[1] != '-' {
				cluster = v[1:]
			} else if k == 0 && !strings.HasPrefix(v, "-") {
				cluster = v
			}
			if strings.ContainsRune(cluster, 'p') || v == "--same-permissions" || v == "--preserve-permissions" || v == "--preserve" {
				return TierDestructive, "tar: extracts with permissions kept, which can create setuid files"
			}
		}
		for _, d := range c.optVals(c.args, "-C", "--directory") {
			if criticalPath(d.val) {
				return TierDestructive, "tar: extracts into system directory " + d.val
			}
		}
	}
	return t, why
}
