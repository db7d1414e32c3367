package policy

import (
	"path"
	"strings"
)

// Programs that take code from the project they run in. git runs what the
// repository's .git/config names on plain reads: core.fsmonitor on status,
// diff.external and a textconv driver on diff, log -p, show and blame, a
// filter's clean command where status re-reads a file, a pager on a
// session's terminal, and hooks on everything that commits. ansible and
// its tools read ./ansible.cfg, which names the inventory scripts, plugins
// and vault password programs they run. yarn runs the release a
// .yarnrc.yml's yarnPath (or a .yarnrc's yarn-path) names, whatever the
// command, --version included; pnpm switches to the version package.json
// names, fetched from the registry the project's .npmrc names. A tier 1
// write can make such a project anywhere under a temporary directory, so
// these programs, run where the working directory is a temporary one or
// known only at run time (agentCwd), are tier 3: on a plain SSH host
// nothing else stands between that file and the login's rights. python -m
// and npm are in pymodules.go and readCode.

// projectPrograms are the programs that load code their project
// directory's files name, and the file.
var projectPrograms = map[string]string{
	"git":               ".git/config",
	"ansible":           "ansible.cfg",
	"ansible-inventory": "ansible.cfg",
	"ansible-doc":       "ansible.cfg",
	"ansible-config":    "ansible.cfg",
	"ansible-galaxy":    "ansible.cfg",
	"ansible-vault":     "ansible.cfg",
	"ansible-console":   "ansible.cfg",
	"ansible-playbook":  "ansible.cfg",
	"ansible-pull":      "ansible.cfg",
	"yarn":              ".yarnrc.yml",
	"yarnpkg":           ".yarnrc.yml",
	"pnpm":              "package.json and .npmrc",
	"vagrant":           "Vagrantfile", // Ruby, run by every command
	// Front ends that run git in the working directory.
	"tig": ".git/config", "lazygit": ".git/config", "gitui": ".git/config", "gitk": ".git/config",
	"git-cola": ".git/config", "gh": ".git/config", "glab": ".git/config", "hub": ".git/config",
	// Other version control whose repository configuration runs
	// programs on reads: jj's pager and diff tools, Sapling's hooks and
	// extensions (as hg's), darcs' posthooks from _darcs/prefs/defaults,
	// fossil's settings (diff-command, editor), Breezy's branch hooks.
	"jj": ".jj/repo/config.toml", "sl": ".sl/config", "darcs": "_darcs/prefs/defaults", "fossil": ".fossil-settings",
	"brz": ".bzr/branch/branch.conf", "bzr": ".bzr/branch/branch.conf",
}

// inProject raises the tier t of call c to tier 3 when c is a program
// that loads code from the files of the project it runs in, and that
// project may be one the agent wrote without approval.
func (c *call) inProject(t Tier, why string) (Tier, string) {
	c.projectCode()
	c.homeCode()
	if t >= TierDestructive {
		return t, why
	}
	if src, ok := codeSources[c.name]; ok && t >= TierMutate {
		if where := c.codeSourceAgent(src); where != "" {
			c.scanWritten(projectFile)
			c.e.opaque = true
			return TierDestructive, c.name + " runs code a benign call could have written: " + where
		}
	}
	if c.name == "go" {
		if where := c.goDirAgent(); where != "" {
			c.e.opaque = true
			return TierDestructive, "go stamps version control state by running git in the module's repository, whose .git/config names programs, and " + where
		}
	}
	file, ok := projectPrograms[c.name]
	if !ok && t >= TierMutate {
		file, ok = c.buildCode()
	}
	if !ok && strings.HasPrefix(c.name, "git-") && gitRead[c.name[len("git-"):]] {
		// git's own programs, /usr/lib/git-core/git-status: git status.
		file, ok = ".git/config", true
	}
	if !ok {
		return c.laterCode(c.configCode(c.installedCode(c.shimCode(t, why))))
	}
	// What the script wrote to a project file by relative name is what
	// this program may run, wherever it runs (printf … > package.json;
	// npm i).
	c.scanWritten(projectFile)
	var where string
	switch {
	case c.name == "git":
		where = c.gitRepoAgent()
	case c.onlyAsksVersion() || c.e.paths == nil:
	case projectDirOpts[c.name] != nil:
		where = c.projectDirsAgent(c.optVals(c.args, projectDirOpts[c.name]...))
	default:
		where = c.e.agentCwdOf(true)
	}
	if where == "" {
		return c.laterCode(c.configCode(c.installedCode(c.shimCode(t, why))))
	}
	// What the script wrote by relative name may be that project's file
	// (cd /tmp/d && printf … > Makefile && make).
	c.scanWritten(projectFile)
	c.e.opaque = true
	return TierDestructive, c.name + " runs the programs its project's " + file + " names, and " + where
}

// onlyAsksVersion reports whether c's only words ask for its version or
// help, which ansible prints without loading a plugin.
func (c *call) onlyAsksVersion() bool {
	if !strings.HasPrefix(c.name, "ansible") || len(c.args) != 1 || !c.args[0].known {
		return false
	}
	switch c.args[0].val {
	case "--version", "--help", "-h":
		return true
	}
	return false
}

// gitRepoAgent says why the repository a git command works in may hold a
// configuration the agent wrote without approval, or returns "": -C and
// --git-dir name it, or else the working directory (or one above it)
// holds it. git version, init, clone, bare git help and its guides read
// no repository's configuration, but on a terminal -p (--paginate) sends
// any of them through the repository's core.pager, and so do help's
// lists of commands and of settings (-a, -c); a page git help shows is
// shown by the viewer the repository's configuration names.
func (c *call) gitRepoAgent() string {
	if c.e.paths == nil {
		return ""
	}
	args := c.args
	var dirs, gitDir, workTree []arg
	paged := false // the last of -p and -P decides
	repo := func() string {
		if len(workTree) > 0 {
			// Its submodules' repositories (SUB/.git) are in the work
			// tree, and git status and diff run git in each.
			if why := c.projectDirsAgent(append(dirs[:len(dirs):len(dirs)], workTree...)); why != "" {
				return "its work tree: " + why
			}
		}
		return c.projectDirsAgent(append(dirs, gitDir...))
	}
	i := 0
	for ; i < len(args); i++ {
		v := args[i].val
		if !strings.HasPrefix(v, "-") {
			break
		}
		switch {
		case v == "-p" || v == "--paginate":
			paged = true
		case v == "-P" || v == "--no-pager":
			paged = false
		case v == "-C":
			if i+1 < len(args) {
				i++
				dirs = append(dirs, args[i])
			}
		case v == "--git-dir":
			// git changes directory at each -C as it reads it, and
			// opens --git-dir (the last one) relative to where they
			// lead: git --git-dir=tmp/x/.git -C / log opens /tmp/x/.git.
			if i+1 < len(args) {
				i++
				gitDir = []arg{args[i]}
			}
		case strings.HasPrefix(v, "--git-dir="):
			a := args[i]
			gitDir = []arg{{val: v[len("--git-dir="):], known: a.known, glob: a.glob}}
		case v == "--work-tree":
			if i+1 < len(args) {
				i++
				workTree = []arg{args[i]}
			}
		case strings.HasPrefix(v, "--work-tree="):
			a := args[i]
			workTree = []arg{{val: v[len("--work-tree="):], known: a.known, glob: a.glob}}
		case gitValueGlobals[v]:
			i++
		case v == "--help" || v == "-h":
			// git --help CMD is git help CMD.
			if rest := argVals(args[i+1:]); paged || gitHelpPage(rest) || gitHelpPaged(rest) {
				return repo()
			}
			return ""
		case v == "--version" || v == "-v":
			if paged {
				return repo()
			}
			return ""
		case v == "--exec-path" || v == "--html-path" || v == "--man-path" || v == "--info-path":
			return "" // printed before any pager starts
		}
	}
	if i >= len(args) {
		if paged {
			return repo() // git -p pages its usage
		}
		return "" // git with global options only
	}
	switch args[i].val {
	case "help":
		// The viewer that shows a page is the repository's to name
		// (help.format, man.<tool>.cmd, browser.<tool>.cmd), and so is
		// the pager of a list.
		if rest := argVals(args[i+1:]); paged || gitHelpPage(rest) || gitHelpPaged(rest) {
			return repo()
		}
		return ""
	case "version", "init", "clone":
		if paged || i+1 < len(args) && args[i+1].val == "--help" {
			return repo() // git init --help is git help init
		}
		return ""
	}
	return repo()
}

// projectDirOpts are the options naming the project directory a program
// works in, as git's -C does.
var projectDirOpts = map[string][]string{
	"pnpm":    {"-C", "--dir"},
	"yarn":    {"--cwd"},
	"yarnpkg": {"--cwd"},
	// git's front ends, told which repository to open.
	"lazygit":  {"-p", "--path", "-g", "--git-dir", "-w", "--work-tree"},
	"gitui":    {"-d", "--directory", "--workdir"},
	"tig":      {"-C"},
	"git-cola": {"-r", "--repo"},
	"jj":       {"-R", "--repository"},
	"sl":       {"-R", "--repository", "--cwd"},
	"darcs":    {"--repodir"},
	"fossil":   {"-R", "--repository", "--chdir"},
	"brz":      {"-d", "--directory"},
	"bzr":      {"-d", "--directory"},
}

// projectDirsAgent says why the project directory a program works in may
// be one the agent wrote, or returns "": the last of dirs, each relative
// to the one before, or else the working directory.
func (c *call) projectDirsAgent(dirs []arg) string {
	base := "" // where the dirs so far lead, once one is absolute
	for _, d := range dirs {
		if !d.known || d.glob && isPattern(d.val) && !globUnderSafeDir(d.val) {
			return "its project directory is known only at run time"
		}
		switch {
		case strings.HasPrefix(d.val, "/"):
			base = d.val
		case base != "":
			// git -C / -C tmp/x: each is relative to the one before.
			base = strings.TrimSuffix(base, "/") + "/" + d.val
		}
		if base != "" {
			if agentPath(base) != "" { // also past a link and .. (/tmp/x/../../srv)
				return "its project directory " + truncate(base, 64) + " is under a temporary directory"
			}
			continue
		}
		if !strings.HasPrefix(path.Clean(d.val), "..") {
			if where := c.e.relIntoAgent(d.val); where != "" {
				return "its project directory " + truncate(d.val, 64) + " is " + where
			}
			continue
		}
		// Above the working directory: where that is.
		cwds, unknown := c.e.cwds()
		if unknown || c.e.paths.initial == "" {
			return "its project directory " + truncate(d.val, 64) + " is above a working directory known only at run time"
		}
		for _, w := range cwds {
			if agentDir(path.Join(w, d.val)) {
				return "its project directory " + truncate(d.val, 64) + " is under a temporary directory"
			}
		}
	}
	if base != "" {
		return "" // the last absolute one, and what follows it, decide
	}
	return c.e.agentCwdOf(true)
}

// agentDir reports whether d is a temporary directory or one below it,
// where a tier 1 call may have written, or another world-writable one
// (worldDirs), where any local user may have.
func agentDir(d string) bool {
	d = foldCase(path.Clean(d))
	if strings.HasPrefix(d, "/proc/") || strings.HasPrefix(d, "/dev/fd/") {
		return procAgentDir(d)
	}
	if d == "/tmp" || d == "/var/tmp" || d == "/dev/shm" || tmpPath(d) || strings.HasPrefix(d, "/dev/shm/") {
		return true
	}
	for _, a := range worldDirs {
		if strings.HasPrefix(d, a) && (len(d) == len(a) || d[len(a)] == '/') {
			return true
		}
	}
	for _, a := range tmpAliases {
		if strings.HasPrefix(d, a) && (len(d) == len(a) || d[len(a)] == '/') {
			return true
		}
	}
	return false
}

// foldCase returns p in lower case when it has an upper-case ASCII letter,
// or p itself. macOS's file systems ignore case by default, so on a Mac
// (an SSH host) /TMP/x and /Private/Tmp/x are /tmp/x, where a tier 1 write
// made it; on Linux no such directory exists to be told apart.
func foldCase(p string) string {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c >= 'A' && c <= 'Z' {
			return asciiLower(p)
		}
	}
	return p
}

// tmpAliases are other names of the temporary directories: links some
// systems keep (/usr/tmp to ../var/tmp on Red Hat, /run/shm to /dev/shm
// on older Debian, also as /var/run/shm) and macOS's /private, where /tmp
// and /var live. A tier 1 write to /tmp/x is read back through
// /private/tmp/x.
var tmpAliases = []string{"/usr/tmp", "/run/shm", "/var/run/shm", "/private/tmp", "/private/var/tmp"}

// worldDirs are the other directories every local user may create files
// in (mode 1777 or 3777): Debian's and Ubuntu's /run/lock, reached as
// /var/lock and /var/run/lock too, and Ubuntu's /var/crash. A repository,
// configuration or program there is whatever another user put there, as
// one under /tmp is: git -C /run/lock/x log runs the programs its
// .git/config names.
var worldDirs = []string{"/run/lock", "/var/lock", "/var/run/lock", "/var/crash"}

// procAgentDir is agentDir for a directory reached through /proc or
// /dev/fd: /proc/self/root/tmp/x is /tmp/x; another process's root or
// working directory (/proc/1/cwd, /proc/PID/root), and a directory held
// open (/proc/self/fd/3, /dev/fd/3), may be any directory, a temporary
// one included.
func procAgentDir(d string) bool {
	if strings.HasPrefix(d, "/dev/fd/") {
		return true
	}
	rest := strings.TrimPrefix(d, "/proc/")
	pid, sub, _ := strings.Cut(rest, "/")
	if t, ok := strings.CutPrefix(sub, "task/"); ok {
		_, sub, _ = strings.Cut(t, "/") // /proc/self/task/TID/root
	}
	first, after, _ := strings.Cut(sub, "/")
	switch first {
	case "root":
		if pid == "self" || pid == "thread-self" {
			return agentDir("/" + after)
		}
		return true
	case "cwd", "fd", "map_files":
		return true
	}
	return false
}

// chdirOpt records the directory a wrapper's option makes its command
// run in (env -C, sudo -D) as a directory the input can make current, as
// cd does: env -C /tmp/x python3 -m json.tool runs in /tmp/x. The option
// is args[i]; its value is val when attached, or else the next word.
func (e *eval) chdirOpt(args []arg, i int, val string, attached bool) {
	if e.pathsFor() == nil {
		return
	}
	switch {
	case attached:
		e.cdTo(arg{val: val, known: args[i].known, glob: args[i].glob})
	case i+1 < len(args):
		e.cdTo(args[i+1])
	}
}

// npmPrefixAgent says why the directory npm's --prefix (-C) names, whose
// .npmrc npm reads as the project's, may be one the agent wrote, or
// returns "".
func (c *call) npmPrefixAgent() string {
	for _, a := range c.args {
		if n, _, eq := strings.Cut(a.val, "="); !a.known && eq && (n == "-C" || n == "--C" || strings.HasPrefix(n, "--") && longFlag(n, "--prefix")) {
			return "--prefix names a directory known only at run time"
		}
	}
	for _, d := range noptOptVals(c.args, []string{"--prefix", "-C"}) {
		switch {
		case !d.known || d.glob && isPattern(d.val):
			return "--prefix names a directory known only at run time"
		case !strings.HasPrefix(d.val, "/"):
			if why := c.e.agentCwdOf(true); why != "" || strings.HasPrefix(path.Clean(d.val), "..") {
				return "--prefix names a directory relative to one that may be temporary"
			}
		case agentDir(d.val):
			return "--prefix names " + truncate(d.val, 64) + ", under a temporary directory"
		}
	}
	return ""
}

// execdirStarts records the directories find -execdir and -okdir run
// their command in, those below each start, as directories the input can
// make current: find /tmp -name .git -execdir git status \; runs git in
// every repository under /tmp. A start below the working directory (".",
// src) adds nothing the working directory does not decide.
func (e *eval) execdirStarts(starts []arg) {
	if e.pathsFor() == nil {
		return
	}
	for _, s := range starts {
		v := s.val
		if s.known && !s.glob && !strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "~") && !strings.HasPrefix(path.Clean(v), "..") {
			continue
		}
		e.cdTo(s)
	}
}

// buildPrograms are build tools, task runners, test runners and other
// project tools (linters whose configuration is code, hg with its hgrc)
// that run the project's own code (recipes, build scripts, tests,
// plugins) whenever they are classified as running a build (tier 2), and
// the files they take it from. A build is tier 2 where the operator's project holds that code;
// in a directory a tier 1 write can fill it runs what the agent wrote,
// rm -rf included, which open mode would run without approval: tier 3.
var buildPrograms = map[string]string{
	"make": "Makefile", "gmake": "Makefile", "bmake": "Makefile", "rake": "Rakefile", "gradle": "build.gradle",
	"gradlew": "build.gradle", "mvn": "pom.xml and .mvn", "just": "justfile", "task": "Taskfile.yml", "ninja": "build.ninja",
	"cmake": "CMakeLists.txt", "meson": "meson.build", "tox": "tox.ini", "nox": "noxfile.py", "pytest": "conftest.py",
	"scons": "SConstruct", "ant": "build.xml", "sbt": "build.sbt", "lein": "project.clj", "mix": "mix.exs",
	"bundle": "Gemfile", "composer": "composer.json", "cargo": "build.rs and .cargo/config.toml", "go": "tests",
	"npm": "package.json scripts", "go-task": "Taskfile.yml", "mvnw": "pom.xml and .mvn", "py.test": "conftest.py",
	"bazel": "BUILD files and .bazelrc", "bazelisk": "BUILD files and .bazelrc", "terraform": "configuration (providers, external programs)",
	"tofu": "configuration (providers, external programs)", "docker-compose": "compose.yaml", "podman-compose": "compose.yaml",
	"poetry": "pyproject.toml", "uv": "pyproject.toml", "pdm": "pyproject.toml", "invoke": "tasks.py", "inv": "tasks.py",
	"fab": "fabfile.py", "doit": "dodo.py", "grunt": "Gruntfile.js", "gulp": "gulpfile.js", "mage": "magefiles",
	"xmake": "xmake.lua", "premake5": "premake5.lua", "tilt": "Tiltfile", "helmfile": "helmfile.yaml",
	"terragrunt": "terragrunt.hcl", "nix-shell": "shell.nix", "nix-build": "default.nix", "qmake": "its .pro file",
	"zig": "build.zig", "dune": "dune files", "stack": "Setup.hs", "cabal": "Setup.hs", "devbox": "devbox.json",
	"mise": "mise.toml tasks", "hg": ".hg/hgrc (extensions, hooks)", "eslint": "eslint.config.js",
	"prettier": "prettier.config.js", "jest": "jest.config.js", "webpack": "webpack.config.js", "vite": "vite.config.js",
	"babel": "babel.config.js", "mocha": ".mocharc.js", "pre-commit": ".pre-commit-config.yaml",
	"golangci-lint": ".golangci.yml (its plugins)",
}

// npmScripts are npm's commands that run the package's lifecycle
// scripts (and its dependencies' install scripts), aliases included.
var npmScripts = set(`run run-script rum urn test t tst start stop restart install i in ins inst insta instal isnt isnta
	isntal isntall add ci clean-install ic install-clean isntall-clean install-test it cit install-ci-test clean-install-test
	sit rebuild rb exec x explore pack publish version link ln update up upgrade udpate dedupe ddp prune`)

// buildCode returns the file a build tool's run takes its code from.
func (c *call) buildCode() (string, bool) {
	file, ok := buildPrograms[c.name]
	if !ok {
		return "", false
	}
	if c.name != "npm" && c.name != "go" {
		return file, true
	}
	// Any operand: an option's value may come first (npm --loglevel
	// silent test). go build compiles (cgo's flags are held to a list);
	// go test and go run run the project's code.
	for _, o := range operands(c.vals()) {
		if c.name == "npm" && npmScripts[o] || c.name == "go" && (o == "test" || o == "run") {
			return file, true
		}
	}
	return "", false
}

// agentCode raises the tier t of call c to tier 3 when where says why the
// code c runs (does) may be the agent's; the call is then opaque.
func (c *call) agentCode(t Tier, why, does string, where func() string) (Tier, string) {
	if t >= TierDestructive {
		return t, why
	}
	if w := where(); w != "" {
		c.e.opaque = true
		return TierDestructive, c.name + " " + does + ", and " + w
	}
	return t, why
}

// TemporaryDir reports whether dir, an absolute working directory, is or
// is under a temporary directory, where a benign call may have planted
// any file: every program run there that reads its directory's code or
// configuration, and every program the classifier does not know, needs
// approval.
func TemporaryDir(dir string) bool {
	return strings.HasPrefix(dir, "/") && agentPath(dir) != ""
}
