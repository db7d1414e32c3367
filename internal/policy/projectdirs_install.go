package policy

import (
	"path"
	"slices"
	"strings"
)

// Installing a local project or package runs code from its files: pip
// builds a directory or an sdist with its setup.py or build backend, npm
// and gem run a package's install scripts and extensions, cargo install
// --path runs build.rs, and apt, dpkg, rpm, dnf, zypper, apk, snap and
// brew run a package file's maintainer scripts (or formula) as root. A
// tier 1 write can put such a project or file under a temporary directory,
// so installing one from there, or from a place known only at run time,
// is tier 3 as a build there is (projectdirs.go): open mode would
// otherwise run what the agent wrote, rm -rf included, unapproved.

// A localInstaller is a package tool's grammar, as far as finding the
// local projects and files it installs needs it.
type localInstaller struct {
	verbs string   // subcommands that install; "" for tools driven by options (dpkg, rpm)
	paths []string // options whose value is a project, a package file or a directory of them
	skip  []string // other options that take a value
}

var (
	pipInstaller = localInstaller{verbs: "install wheel download",
		paths: []string{"-e", "--editable", "-r", "--requirement", "-c", "--constraint", "-f", "--find-links"},
		skip: []string{"-t", "--target", "--prefix", "--root", "-i", "--index-url", "--extra-index-url", "--src",
			"--upgrade-strategy", "--python-version", "--platform", "--implementation", "--abi", "--no-binary", "--only-binary",
			"--progress-bar", "--log", "--log-file", "--proxy", "--retries", "--timeout", "--exists-action", "--trusted-host",
			"--cert", "--client-cert", "--cache-dir", "--python", "-d", "--dest", "-w", "--wheel-dir", "--report",
			"--config-settings", "-C", "--global-option", "--build-option", "--keyring-provider"}}
	aptInstaller = localInstaller{verbs: "install reinstall", skip: []string{"-o", "--option", "-c", "--config-file", "-t", "--target-release"}}
	dnfInstaller = localInstaller{verbs: "install localinstall reinstall upgrade update",
		skip: []string{"--repo", "--repoid", "--enablerepo", "--disablerepo", "--releasever", "--installroot", "-c", "--config",
			"--setopt", "-x", "--exclude", "--forcearch"}}
)

var localInstallers = map[string]localInstaller{
	"pip": pipInstaller, "pip3": pipInstaller,
	"pipx": {verbs: "install inject run", paths: []string{"--spec"},
		skip: []string{"--python", "--index-url", "-i", "--pip-args", "--suffix", "--preinstall"}},
	"npm": {verbs: "install i in ins add isnt", skip: []string{"--registry", "--tag", "--omit", "--include", "-w",
		"--workspace", "--loglevel", "--cache", "--userconfig", "--globalconfig"}},
	"gem": {verbs: "install i build", skip: []string{"-i", "--install-dir", "-n", "--bindir", "-v", "--version",
		"-s", "--source", "--platform", "-P", "--trust-policy", "--document"}},
	"cargo": {verbs: "install", paths: []string{"--path"}, skip: []string{"--git", "--branch", "--tag", "--rev",
		"--version", "--root", "--registry", "--index", "--target", "--target-dir", "-j", "--jobs", "--features", "-F",
		"--profile", "--bin", "--example", "--config", "-Z"}},
	"apt": aptInstaller, "apt-get": aptInstaller, "aptitude": aptInstaller,
	"dnf": dnfInstaller, "yum": dnfInstaller, "microdnf": dnfInstaller,
	"zypper": {verbs: "install in", skip: []string{"-r", "--repo", "--from", "-t", "--type", "--root", "-R"}},
	"apk":    {verbs: "add", skip: []string{"-X", "--repository", "-p", "--root", "--virtual", "-t", "--keys-dir"}},
	"snap":   {verbs: "install", skip: []string{"--channel", "--revision", "--name", "--cohort"}},
	"brew":   {verbs: "install reinstall"},
	"opkg": {verbs: "install upgrade", skip: []string{"-d", "--dest", "-o", "--offline-root", "-f", "--conf", "-t", "--tmp-dir",
		"-l", "--lists-dir", "--cache", "--add-dest", "--add-arch", "-V", "--verbosity"}},
	"pkg":    {verbs: "add install", skip: []string{"-r", "--repository", "-j", "--jail", "-c", "--chroot", "-R", "--repo-conf-dir", "-o", "--option", "-C", "--config"}},
	"yarn":   {verbs: "add", skip: []string{"--cwd"}},
	"pnpm":   {verbs: "add install i", skip: []string{"-C", "--dir", "--filter", "-F"}},
	"pacman": {skip: []string{"-r", "--root", "-b", "--dbpath", "--cachedir", "--config", "--gpgdir", "--hookdir", "--logfile", "--arch", "--sysroot", "--ignore", "--ignoregroup", "--assume-installed", "--overwrite", "--print-format"}},
	"dpkg":   {skip: []string{"--admindir", "--root", "--instdir", "--force", "--log", "--status-fd", "--status-logger"}},
	"rpm":    {skip: []string{"--root", "--dbpath", "--define", "-D", "--eval", "-E", "--macros", "--rcfile", "--prefix", "--relocate", "--excludepath"}},
}

// packageFileExts are the endings of package and archive files a package
// tool installs by running their scripts or building them.
var packageFileExts = []string{".deb", ".udeb", ".rpm", ".whl", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar.zst", ".zip",
	".gem", ".apk", ".snap", ".rb", ".crate", ".ipk", ".pkg", ".txz"}

// installedCode raises the tier t of call c to tier 3 when c installs a
// local project or package file the agent may have written.
func (c *call) installedCode(t Tier, why string) (Tier, string) {
	return c.agentCode(t, why, "installs a local project or package, whose scripts run", c.localInstallAgent)
}

// localInstallAgent says why a local project or package file c installs
// may be one the agent wrote, or returns "".
func (c *call) localInstallAgent() string {
	li, ok := localInstallers[c.name]
	if !ok {
		return ""
	}
	var cands []arg
	if len(li.paths) > 0 {
		cands = c.optVals(c.args, li.paths...)
	}
	installs := li.verbs == "" && c.installsByOption()
	var ops []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := a.val
		switch {
		case v == "--":
			ops = append(ops, c.args[i+1:]...)
			i = len(c.args)
		case strings.HasPrefix(v, "-") && len(v) > 1:
			if !strings.Contains(v, "=") && (slices.Contains(li.skip, v) || slices.Contains(li.paths, v)) {
				i++ // its value
			}
		default:
			ops = append(ops, a)
		}
	}
	if li.verbs != "" && len(ops) > 0 && ops[0].known && strings.Contains(" "+li.verbs+" ", " "+ops[0].val+" ") {
		installs, ops = true, ops[1:]
	}
	if !installs {
		return ""
	}
	for i, a := range append(cands, ops...) {
		d, ok := localProject(a, i < len(cands))
		if !ok {
			continue
		}
		if c.e.paths == nil && (!d.known || !strings.HasPrefix(d.val, "/")) {
			continue // where relative ones lead is not followed
		}
		if where := c.projectDirsAgent([]arg{d}); where != "" {
			return where
		}
	}
	return ""
}

// installsByOption reports whether dpkg or rpm is asked to install or
// unpack a package file: dpkg -i/--install/--unpack/-R, rpm -i/-U/-F
// (not a query, -qi) and their long names.
func (c *call) installsByOption() bool {
	for _, a := range c.args {
		v := a.val
		switch {
		case !a.known || !strings.HasPrefix(v, "-"):
		case strings.HasPrefix(v, "--"):
			switch strings.SplitN(v, "=", 2)[0] {
			case "--install", "--unpack", "--recursive", "--upgrade", "--freshen", "--reinstall":
				return true
			}
		case c.name == "dpkg" && strings.ContainsAny(v[1:], "iR"):
			return true
		case c.name == "rpm" && strings.ContainsAny(v[1:], "iUF") && !strings.ContainsAny(v[1:], "qeV"):
			return true
		case c.name == "pacman" && strings.HasPrefix(v, "-U"):
			return true // -U and its clusters (-Udd): the operation comes first
		}
	}
	return false
}

// localProject returns the directory a package tool's operand a installs
// from when a names a local project or package file: a path, or a name
// ending like a package file; the value of an option naming one (opt: -r,
// -e, --path) is one whatever its shape (pip install -r req.txt reads
// ./req.txt). A word known only at run time counts when its known text
// looks like a path or it begins with what is known only then ("$p",
// $(cat list), xargs' and find's {}): pip, npm and apt take a value with a
// '/' as a path, and nothing shows this one has none. Names of packages
// in a repository, URLs and words that begin with a known name
// (linux-headers-$(uname -r)) do not count.
func localProject(a arg, opt bool) (arg, bool) {
	v := a.val
	if _, spec, ok := strings.Cut(v, " @ "); ok {
		v = strings.TrimSpace(spec) // pip's "name @ file:///tmp/x"
	}
	if f, ok := fileURLPath(v); ok {
		v = f // file:/tmp/x, file:///tmp/x.whl, npm's file:../x
	}
	if v == "" || strings.Contains(v, "://") || strings.HasPrefix(v, "git+") {
		return arg{}, false
	}
	pathLike := opt || strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "~") || strings.Contains(v, "/")
	if !a.known {
		if pathLike || unknownStart(v) {
			return arg{val: v}, true
		}
		return arg{}, false
	}
	file := false
	for _, ext := range packageFileExts {
		file = file || strings.HasSuffix(v, ext)
	}
	if !pathLike && !file {
		return arg{}, false
	}
	if file {
		v = path.Dir(v)
	}
	return arg{val: v, known: true, glob: a.glob}, true
}

// unknownStart reports whether the source text v of a word known only at
// run time begins with an expansion, so that its value may begin with
// anything: "$p", ${a[@]}, $(…), `…`, or the {} of xargs and find.
func unknownStart(v string) bool {
	if v == unknownArg.val {
		return true
	}
	v = strings.TrimLeft(v, "\"")
	return strings.HasPrefix(v, "$") || strings.HasPrefix(v, "`")
}

// fileURLPath returns the path a file: URL names (file:/x, file:///x,
// file://localhost/x, npm's relative file:x), which package tools install
// from as from the path itself.
func fileURLPath(v string) (string, bool) {
	if len(v) < 5 || !strings.EqualFold(v[:5], "file:") {
		return "", false
	}
	v = v[5:]
	if rest, ok := strings.CutPrefix(v, "//"); ok {
		i := strings.IndexByte(rest, '/')
		if i < 0 {
			return "", false
		}
		v = rest[i:] // the host (localhost, or none) is this machine
	}
	return v, v != ""
}
