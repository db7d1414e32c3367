package policy

import (
	"strings"
)

// A kernel parameter can name a program the kernel runs as root, outside
// warden's confinement (kernelProgramKey), and so can a binfmt_misc
// registration: the interpreter for every program the kernel starts
// whose name or first bytes match. sysctl spells one out as a known word
// only sometimes; these find the rest.

// sysctlRoot says why sysctl's words may set such a parameter although
// none is spelled out, or returns "": a parameter whose key, or whose
// value for such a key, is known only at run time, or a file loaded
// with -p, -f or --load (each operand is one then) that a tier 1 write
// can fill: under a temporary directory, known only at run time, or
// standard input and descriptors.
func (c *call) sysctlRoot() string {
	load := false
	var files, words []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := a.val
		switch {
		case !a.known || v == "" || v[0] != '-' || v == "-":
			words = append(words, a)
		case v == "--system":
		case v == "--load" || strings.HasPrefix(v, "--load="):
			load = true
			if f, ok := strings.CutPrefix(v, "--load="); ok {
				files = append(files, arg{val: f, known: true})
			}
		case v == "--pattern":
			i++
		case strings.HasPrefix(v, "--"):
		default:
			// -p and -f take their file attached (-p/etc/x.conf); -r
			// takes a pattern, attached or next.
			for j := 1; j < len(v); j++ {
				if v[j] == 'p' || v[j] == 'f' {
					load = true
					if f := v[j+1:]; f != "" {
						files = append(files, arg{val: f, known: true})
					}
					break
				}
				if v[j] == 'r' {
					if j == len(v)-1 {
						i++
					}
					break
				}
			}
		}
	}
	if load {
		if where := c.loadedFromAgent(append(files, words...)); where != "" {
			return kernelRootWhy("sysctl", where)
		}
		return ""
	}
	for _, w := range words {
		if w.known {
			continue // kernelProgramKey reads it
		}
		key, ok := literalKey(w.val)
		if !ok {
			return "sysctl: the parameter " + truncate(w.val, 64) + " is known only at run time and can name a program the kernel runs as root"
		}
		if kernelProgramName(key) {
			return "sysctl: the value of " + key + " is known only at run time and can name a program the kernel runs as root"
		}
	}
	return ""
}

// literalKey returns the key a computed sysctl word sets when it is
// written out before the first expansion ("kernel.x=$v", kernel.x="$v").
func literalKey(src string) (string, bool) {
	if i := strings.IndexAny(src, "$`"); i >= 0 {
		src = src[:i]
	}
	src = strings.NewReplacer(`"`, "", `'`, "").Replace(src)
	k, _, ok := strings.Cut(src, "=")
	return strings.ReplaceAll(strings.TrimSpace(k), "/", "."), ok && k != ""
}

// loadedFromAgent says why one of files, which c loads, may be one a
// tier 1 write filled, or returns "".
func (c *call) loadedFromAgent(files []arg) string {
	for _, f := range files {
		switch {
		case !f.known:
			return "a file known only at run time"
		case f.val == "-" || f.val == "/dev/stdin" || strings.HasPrefix(f.val, "/dev/fd/") || strings.HasPrefix(f.val, "/proc/"):
			return "its input or a descriptor"
		}
		if where := c.fileDirAgent(f); where != "" {
			return "a file an unapproved write can fill (" + strings.Replace(where, "project directory", "directory", 1) + ")"
		}
	}
	return ""
}

// kernelRootWhy is what loading kernel parameters from where risks.
func kernelRootWhy(name, where string) string {
	return name + ": loads kernel parameters, which can name a program the kernel runs as root, from " + where
}

// systemdSysctl classifies systemd-sysctl, which loads the files it is
// given, or the system's (/etc/sysctl.d and the like) without any.
func systemdSysctl(c *call) (Tier, string) {
	var files []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case a.known && a.val == "--prefix":
			i++
		case a.known && strings.HasPrefix(a.val, "-") && a.val != "-":
		default:
			files = append(files, a)
		}
	}
	if where := c.loadedFromAgent(files); where != "" {
		c.e.opaque = true
		return TierDestructive, kernelRootWhy(c.name, where)
	}
	return TierMutate, "systemd-sysctl: changes kernel parameters"
}

// kernelProgramName reports whether a kernel parameter can name a
// program the kernel runs (core_pattern does with a leading pipe).
func kernelProgramName(k string) bool {
	return kernelProgramKey(k, "|")
}

// binfmtProgram classifies update-binfmts: --install and --import
// register an interpreter the kernel runs for the programs that match,
// whoever starts them; --display, --find and --test read.
func binfmtProgram(c *call) (Tier, string) {
	for _, v := range c.vals() {
		// argp takes them abbreviated: --inst, --imp.
		if longFlag(v, "--install") || longFlag(v, "--import") {
			c.e.opaque = true
			return TierDestructive, "update-binfmts " + v + ": registers an interpreter the kernel runs for every program that matches, as root when root starts one"
		}
	}
	if onlyFlagsPrefix(c.vals(), "--display", "--find", "--test", "--version", "--help") || len(c.args) == 0 {
		return TierRead, "update-binfmts: shows the registered interpreters"
	}
	return TierMutate, "update-binfmts: changes the registered interpreters"
}
