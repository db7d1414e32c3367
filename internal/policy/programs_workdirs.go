package policy

import "strings"

// workDirOptions are program-level options of package managers naming the
// directory they create their temporary, cache, list or lock files in on
// every command, queries included: opkg --tmp-dir=/etc list makes its
// temporary directory under /etc, apk --cache-dir=DIR info opens (and
// creates) the cache there, yum --downloaddir names where packages land.
var workDirOptions = map[string][]string{
	"opkg": {"-t", "--tmp-dir", "--cache", "-l", "--lists-dir", "-o", "--offline-root", "-d", "--dest", "--add-dest"},
	"apk":  {"--cache-dir", "--cache-packages"},
	"yum":  {"--downloaddir", "--destdir", "--cachedir"},
	"dnf":  {"--downloaddir", "--destdir", "--cachedir"},
	"zypper": {"--cache-dir", "-C", "--pkg-cache-dir", "--raw-cache-dir", "--solv-cache-dir",
		"--reposd-dir", "-D"},
}

// workDirOpts raises a package manager's query to tier 2 (or to what
// writing there is, a device or warden's state) when an option names the
// directory it writes in; opkg's --conf names those directories in a file
// the classifier cannot see, and --verify-program runs a program.
func workDirOpts(c *call, r *raiser) {
	for _, d := range c.optVals(c.args, workDirOptions[c.name]...) {
		if c.name == "opkg" && strings.Contains(d.val, ":") && !strings.HasPrefix(d.val, "/") {
			// --add-dest NAME:DIR
			_, dir, _ := strings.Cut(d.val, ":")
			d = arg{val: dir, known: d.known, glob: d.glob}
		}
		r.raise(c.writeArg(d, c.name+" work directory"))
	}
	if c.name != "opkg" {
		return
	}
	for _, f := range c.optVals(c.args, "-f", "--conf") {
		r.raise(TierMutate, "opkg --conf "+truncate(f.val, 64)+": the configuration names the directories opkg writes")
	}
	for _, p := range c.optVals(c.args, "--verify-program") {
		r.raise(TierDestructive, "opkg --verify-program "+truncate(p.val, 64)+": runs a program")
	}
}
