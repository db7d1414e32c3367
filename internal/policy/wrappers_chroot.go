package policy

import "strings"

// Wrappers that run their command in another root (chroot DIR, sudo -R,
// unshare -R, nsenter --root=, start-stop-daemon --chroot, chpst -/) run
// that root's programs: chroot /tmp/x ls runs /tmp/x/usr/bin/ls, whatever
// a tier 1 write put there, as root, under the name of a read. A root
// under a temporary directory, below a working directory the input makes
// one, or known only at run time makes the call tier 3, as running
// /tmp/x/ls by its path does (agentprogram.go). The options that change
// the command's working directory (unshare --wd, nsenter --wd, daemonize
// -c, start-stop-daemon --chdir, chpst -C) are a cd, as env -C is: git
// status there reads that directory's .git/config.

// wrapperRootOpts are the options naming the root a wrapper's command runs in.
var wrapperRootOpts = map[string][]string{
	"unshare":           {"-R", "--root"},
	"chpst":             {"-/"},
	"start-stop-daemon": {"-r", "--chroot"},
}

// wrapperDirOpts are the options naming the directory a wrapper's command
// runs in.
var wrapperDirOpts = map[string][]string{
	"unshare":           {"-w", "--wd"},
	"nsenter":           {"-w", "--wd"},
	"daemonize":         {"-c"},
	"chpst":             {"-C"},
	"start-stop-daemon": {"-d", "--chdir"},
}

// wrapperDirs records the directories c's options make its command's
// working directory as ones the input can make current.
func (c *call) wrapperDirs(own []arg) {
	names, ok := wrapperDirOpts[c.name]
	if !ok || c.e.pathsFor() == nil {
		return
	}
	for _, d := range c.optVals(own, names...) {
		c.e.cdTo(d)
	}
}

// wrapperRoots returns the roots c's own options (or chroot's operand)
// name for its command.
func (c *call) wrapperRoots(own []arg) []arg {
	var roots []arg
	if names, ok := wrapperRootOpts[c.name]; ok {
		roots = c.optVals(own, names...)
	}
	switch c.name {
	case "chroot", "arch-chroot":
		rest := c.args[len(own):]
		if len(rest) > 0 && rest[0].known && rest[0].val == "--" {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			roots = append(roots, rest[0])
		}
	case "nsenter":
		// -r and --root take their directory attached only.
		for _, a := range own {
			if v, ok := strings.CutPrefix(a.val, "--root="); ok {
				roots = append(roots, arg{val: v, known: a.known, glob: a.glob})
			} else if len(a.val) > 2 && strings.HasPrefix(a.val, "-r") {
				roots = append(roots, arg{val: a.val[2:], known: a.known, glob: a.glob})
			}
		}
	}
	return roots
}

// rootAgent says why a root directory of roots may be one the agent
// wrote, or returns "".
func (c *call) rootAgent(roots []arg) string {
	for _, r := range roots {
		if c.e.paths == nil && r.known && !strings.HasPrefix(r.val, "/") {
			continue // where relative ones lead is not followed
		}
		if why := c.projectDirsAgent([]arg{r}); why != "" {
			return strings.Replace(why, "project directory", "root", 1)
		}
	}
	return ""
}

// agentRoot raises the tier t of wrapper call c to tier 3 when the root
// its command runs in may be one the agent wrote.
func (c *call) agentRoot(t Tier, why string, roots []arg) (Tier, string) {
	if t >= TierDestructive {
		return t, why
	}
	if w := c.rootAgent(roots); w != "" {
		c.e.opaque = true
		return TierDestructive, c.name + " runs the programs of the root it names, and " + w
	}
	return t, why
}

// systemDirs are the directories whose programs, libraries or loader
// configuration (/etc/ld.so.preload) a sandbox's command runs from.
var systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix"}

// systemBindAgent says why binding src over dst in a sandbox (bwrap
// --ro-bind, --symlink, proot -b) makes its command run what a tier 1
// write left, or returns "": src may be the agent's and dst is the root
// or a system directory, so /bin/ls there is the agent's file. With
// overlay, src is an overlay's lower layer, whose mount point follows.
func (c *call) systemBindAgent(src, dst arg, overlay bool) string {
	if c.rootAgent([]arg{src}) == "" {
		return ""
	}
	if overlay {
		return "an overlay layer " + truncate(src.val, 64) + " may be the agent's, over a directory its command runs from"
	}
	d := dst.val
	if !dst.known {
		return truncate(src.val, 64) + " may be the agent's, bound where the command's programs are known only at run time"
	}
	if d == "/" {
		return truncate(src.val, 64) + " may be the agent's, bound as the command's root"
	}
	for _, s := range systemDirs {
		if d == s || strings.HasPrefix(d, s+"/") {
			return truncate(src.val, 64) + " may be the agent's, bound over " + truncate(d, 64) + ", where the command's programs are"
		}
	}
	return ""
}
