package policy

import (
	"path"
	"slices"
	"strings"
)

// The destinations of programs that copy or move files (cp, install, mv,
// rsync, scp) are writes like a redirection's target: a block device or
// /proc/sysrq-trigger is denied, other devices and kernel state are tier 3,
// warden's own state is denied. "cp b /proc/sysrq-trigger" is
// "cat b > /proc/sysrq-trigger".

// copyValueLong are the long options of these programs that take the next
// word as their value.
var copyValueLong = []string{"--suffix", "--target-directory", "--group", "--mode", "--owner",
	"--strip-program", "--context", "--rsh", "--rsync-path", "--log-file", "--write-batch",
	"--only-write-batch", "--read-batch", "--chmod", "--exclude", "--include", "--exclude-from",
	"--include-from", "--files-from", "--filter", "--partial-dir", "--temp-dir", "--compare-dest",
	"--copy-dest", "--link-dest", "--backup-dir", "--password-file", "--port", "--sockopts",
	"--out-format", "--log-file-format", "--bwlimit", "--timeout", "--contimeout", "--max-size",
	"--min-size", "--max-delete", "--block-size", "--checksum-choice", "--compress-choice",
	"--compress-level", "--skip-compress", "--usermap", "--groupmap", "--chown", "--iconv",
	"--remote-option", "--stop-after", "--stop-at", "--modify-window", "--outbuf", "--info", "--debug"}

// copyTargets returns the files a copy writes: its last operand, and in it
// each source's name (cp x /proc writes /proc/x, /proc being a directory),
// or with -t DIR each source's name in DIR. valueShort are the program's
// short options that take a value. Remote operands (HOST:PATH) of rsync
// and scp are not local writes and are left out.
func (c *call) copyTargets(valueShort string) []arg {
	var ops, dirs []arg
	opts := true
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := a.val
		switch {
		case !opts || !a.known || !strings.HasPrefix(v, "-") || v == "-":
			ops = append(ops, a)
		case v == "--":
			opts = false
		case strings.HasPrefix(v, "--"):
			name, val, has := strings.Cut(v, "=")
			full := longOpt(name, copyValueLong)
			if !has && slices.Contains(copyValueLong, full) {
				i++
				if i < len(c.args) {
					val, has = c.args[i].val, true
					a = c.args[i]
				}
			}
			if full == "--target-directory" && has {
				dirs = append(dirs, arg{val: val, known: a.known, glob: a.glob})
			}
		default:
			// A cluster of flags ends at a letter that takes a value: the
			// rest of the word, or the next word.
			for j := 1; j < len(v); j++ {
				if strings.IndexByte(valueShort, v[j]) < 0 {
					continue
				}
				val := arg{val: v[j+1:], known: a.known, glob: a.glob}
				if j+1 == len(v) && i+1 < len(c.args) {
					i++
					val = c.args[i]
				}
				if v[j] == 't' {
					dirs = append(dirs, val)
				}
				break
			}
		}
	}
	var local []arg
	for _, o := range ops {
		if c.name == "rsync" || c.name == "scp" {
			if host, _, ok := strings.Cut(o.val, ":"); ok && !strings.Contains(host, "/") {
				continue
			}
		}
		local = append(local, o)
	}
	srcs := local
	if len(dirs) == 0 {
		if len(ops) < 2 || len(local) == 0 || local[len(local)-1] != ops[len(ops)-1] {
			return nil // one operand, or a remote destination
		}
		dirs = local[len(local)-1:]
		srcs = ops[:len(ops)-1]
	}
	out := append([]arg(nil), dirs...)
	for _, d := range dirs {
		if d.known && safeSink(path.Clean(d.val)) {
			continue // /dev/null is no directory
		}
		for _, s := range srcs {
			base := path.Base(strings.TrimRight(s.val, "/"))
			if base == "." || base == "/" || base == "" {
				continue
			}
			if _, b, ok := strings.Cut(base, ":"); ok && (c.name == "rsync" || c.name == "scp") {
				base = b // host:file
			}
			out = append(out, arg{val: strings.TrimRight(d.val, "/") + "/" + base, known: d.known && s.known, glob: d.glob || s.glob})
		}
	}
	return out
}

// copyWrites raises r for each destination of a copy that a redirection
// there would make tier 3 or deny, and denies the denied ones. Ordinary
// destinations keep the program's own tier.
func (c *call) copyWrites(valueShort string, r *raiser) {
	target := false
	ops := scanOperands(c.args, valueShort, strings.Join(copyValueLong, " "), func(opt string) {
		target = target || opt == "-t" || strings.HasPrefix("--target-directory", opt) && len(opt) > 3
	})
	if !target {
		c.disguises(ops, r)
	}
	scanned := false
	for _, d := range c.copyTargets(valueShort) {
		t, why, deny := c.e.writeTo(d, c.e.writesRead(c.name, c.args))
		if deny != "" {
			c.e.deny(c.name + ": " + deny)
		}
		if t >= TierDestructive {
			r.raise(t, c.name+": "+why)
		}
		if !scanned && d.known && textRunsLater(t, d.val) {
			// What the script wrote to a file it copies there meets the
			// deny list, as a redirection's text does (redirect.go).
			scanned = true
			c.scanWritten(func(f string) bool { return c.namesFile(f) })
			if c.ctx.stdin.kind == stdinText && (c.namesFile("/dev/stdin") || c.namesFile("/dev/fd/0") || c.namesFile("/proc/self/fd/0")) {
				c.e.scanText(c.ctx.stdin.text) // cp /dev/stdin ~/.bashrc <<< TEXT
			}
			c.e.scanSubstituted(c.args, c.ctx.sc) // cp <(echo TEXT) ~/.bashrc
		}
	}
}

// namesFile reports whether one of c's words is the file f.
func (c *call) namesFile(f string) bool {
	for _, a := range c.args {
		if a.known && a.val != "" && path.Clean(a.val) == f {
			return true
		}
	}
	return false
}

// rsyncAsRoot classifies rsync run as root keeping modes (-p, -a): a
// file it makes is root's unless it keeps the source's owner (-o, -a),
// and a kept owner is whatever a remote source, --chown or a user map
// says; either way a setuid source becomes a setuid root file.
func rsyncAsRoot(c *call) (Tier, string) {
	const why = "rsync as root: keeps modes while root or the source names the owner, so a setuid file becomes a setuid root one"
	owner := (c.flagSet('o', "--owner", 4) || c.flagSet('a', "--archive", 4)) && !c.flagSet(0, "--no-owner", 6) && !c.flagSet(0, "--no-o", 4)
	if !owner || len(c.optVals(c.args, "--chown", "--usermap", "--groupmap")) > 0 {
		return TierDestructive, why
	}
	ops := operandsSkipping(c.vals(), "eBfTM", []string{"--rsh", "--rsync-path", "--filter", "--exclude", "--include",
		"--exclude-from", "--include-from", "--files-from", "--partial-dir", "--temp-dir", "--compare-dest",
		"--copy-dest", "--link-dest", "--backup-dir", "--suffix", "--chmod", "--log-file", "--password-file", "--port"})
	for _, o := range ops[:max(0, len(ops)-1)] {
		host, _, ok := strings.Cut(o, ":")
		if strings.HasPrefix(o, "rsync://") || ok && host != "" && !strings.Contains(host, "/") {
			return TierDestructive, why
		}
	}
	return TierRead, ""
}
