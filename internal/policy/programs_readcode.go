package policy

import "strings"

// Reads that run code. Some subcommands the tables list as reads still run
// code from a file or directory named on the command line, or from the
// project they are pointed at: terraform's read commands start the
// project's provider plugins, npm's page commands start the browser or
// viewer npm's configuration names, pip --python re-runs pip under another
// interpreter, dnf loads Python plugins from the path its configuration
// names, ansible's documentation and inventory commands load plugins
// from the directories and configuration given to them, brew evaluates a
// formula file it is given, and restic starts the program -o names to
// reach its repository. Others write a log, cache or report where an
// option says (npm --logs-dir, pip --cache-dir, dnf --setopt=logdir). On
// an SSH host the classifier is all that stands between such a call and
// the host, so none of these may stay tier 0.

// terraformPluginReads are the terraform and tofu subcommands, listed as
// reads, that load provider schemas and so start the provider binaries
// installed in the project's .terraform directory (or wherever its CLI
// configuration's dev_overrides point). output, state list, workspace
// and providers (without schema) start no provider.
var terraformPluginReads = phrases(`validate|console|graph|show|state show|providers schema|refresh`)

// terraformBackendReads are the reading subcommands that configure the
// project's backend to reach its state, and a backend runs programs: the
// kubernetes backend's exec block (or its kubeconfig's), the
// credential_process of the AWS profile an s3 backend names, a gcs
// backend's executable credential source. The project is -chdir's
// directory; a working directory that may be the agent's makes terraform
// tier 3 already (shimCode).
var terraformBackendReads = phrases(`output|state list|providers|workspace list`)

// npmOpeners are npm's reading subcommands that start a browser (docs,
// repo, bugs; fund with a package) or a manual viewer (help with a topic):
// the program is whatever the npm configuration names, and a project's
// .npmrc or --userconfig can name any program.
var npmOpeners = set(`docs repo bugs fund help`)

// pathLike reports whether an operand is spelled as a file path rather
// than a name: absolute, or relative from . or .. or ~.
func pathLike(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "~")
}

// readCodeProgram classifies reading programs outside the subcommand
// tables whose options name code: apt-config takes apt's -c and -o (it
// runs Dir::Bin::dpkg to learn the architectures before it dumps), and an
// ack configuration given by --ackrc can name the pager ack runs.
func readCodeProgram(c *call) (Tier, string) {
	switch c.name {
	case "apt-config":
		return aptOptions(c)
	case "ack":
		for _, f := range c.optVals(c.args, "--ackrc") {
			c.e.opaque = true
			return TierDestructive, "ack --ackrc " + truncate(f.val, 64) + ": a configuration file can name the pager ack runs"
		}
	}
	return TierRead, c.name
}

// readCodeEnv reports whether the variable u (upper case) points reading
// commands at code: terraform's CLI configuration names provider
// overrides and credentials helpers (run by terraform output against a
// remote backend), TF_DATA_DIR the providers validate starts and
// TF_CLI_ARGS* add options to every command; RubyGems loads the plugins
// of GEM_HOME and GEM_PATH on every gem command (and gem list evaluates
// the .gemspec files, Ruby, found there and in GEM_VENDOR), a gemrc named
// by GEMRC (or gem --config-file) sets them as gemhome and gempath, and
// GEM_SPEC_CACHE holds the Marshal data of remote specs gem search and
// outdated load; RUBYGEMS_GEMDEPS and
// BUNDLE_GEMFILE name a Gemfile, which is Ruby; KUBERC sets kubectl's
// aliases and default flags, as --kuberc does; ack's configuration file,
// default options and pagers name the pager ack runs.
func readCodeEnv(u string) bool {
	switch u {
	case "TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG", "TF_DATA_DIR", "GEM_HOME", "GEM_PATH", "GEMRC", "GEM_VENDOR", "GEM_SPEC_CACHE",
		"RUBYGEMS_GEMDEPS", "BUNDLE_GEMFILE", "KUBERC",
		"ACKRC", "ACK_OPTIONS", "ACK_PAGER", "ACK_PAGER_COLOR":
		return true
	}
	return strings.HasPrefix(u, "TF_CLI_ARGS")
}

// podmanPrograms are podman's global options naming a program it runs
// even to list or report (ps asks the OCI runtime for each container's
// state; info runs the runtime, conmon and the network tool for their
// versions), a containers.conf module that can name them, or storage
// whose mount program it runs; or a directory it creates and writes its
// runtime files (locks, the pause process's pid) or network
// configuration in, even to list; the image store and the volume path are
// created when the runtime starts, whatever the command.
var podmanPrograms = []string{"--runtime", "--conmon", "--network-cmd-path", "--module", "--storage-opt", "--hooks-dir", "--root", "--runroot", "--storage-driver",
	"--tmpdir", "--network-config-dir", "--cni-config-dir", "--imagestore", "--volumepath"}

// cargoBuiltins are cargo's own commands and built-in aliases: help for
// any other name runs the external program cargo-NAME.
var cargoBuiltins = set(`add b bench build c check clean config d doc fetch fix generate-lockfile
	git-checkout help info init install locate-project login logout metadata new owner package pkgid
	publish r read-manifest remove report rm run rustc rustdoc search t test tree uninstall update
	vendor verify-project version yank`)

// hasGoFlag reports whether a go command's words hold the flag name, with
// one or two dashes and any "=value", as Go's flag package reads it.
func hasGoFlag(vals []string, name string) bool {
	for _, v := range vals {
		if v == "--" {
			return false
		}
		n, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(v, "-"), "-"), "=")
		if strings.HasPrefix(v, "-") && n == name {
			return true
		}
	}
	return false
}

// dnfPluginKeys are dnf and yum configuration keys naming where plugins
// (Python modules, or shared objects for dnf5) are loaded from; every
// command, list and info included, loads them.
var dnfPluginKeys = []string{"pluginpath", "pluginconfpath"}

// dnfWriteKeys name directories every dnf and yum command writes: its
// logs, metadata cache and history.
var dnfWriteKeys = set(`cachedir system_cachedir logdir persistdir`)

// readCode classifies the code a subcommand-table program's reading
// subcommand runs from a file or directory it is given, and the files its
// options make it write.
func (c *call) readCode() (Tier, string) {
	vals := c.vals()
	ops := subOperands(c.name, vals)
	first, two := "", ""
	if len(ops) > 0 {
		first = ops[0]
		two = first
	}
	if len(ops) > 1 {
		two = first + " " + ops[1]
	}
	switch c.name {
	case "terraform", "tofu":
		switch {
		case terraformPluginReads[two]:
			return TierMutate, c.name + " " + two + ": starts the project's provider plugins"
		case terraformPluginReads[first]:
			return TierMutate, c.name + " " + first + ": starts the project's provider plugins"
		case terraformBackendReads[two] || terraformBackendReads[first]:
			if where := c.codeSourceAgent(codeSources[c.name]); where != "" {
				c.e.opaque = true
				return TierDestructive, c.name + " " + first + " configures the project's backend, whose credential programs run: " + where
			}
		}
	case "npm":
		// Every npm command writes a debug log into --logs-dir, and view
		// and the like cache what they fetch; nopt takes abbreviations.
		for _, d := range abbrevOptVals(c.args, []string{"--cache", "--logs-dir"}) {
			return c.writeArg(d, "npm --cache or --logs-dir")
		}
		if npmOpeners[first] && (len(ops) > 1 || first == "docs" || first == "repo" || first == "bugs") {
			return TierMutate, "npm " + first + ": starts the browser or viewer npm's configuration names (a project's .npmrc can name any program)"
		}
		if why := c.npmPrefixAgent(); why != "" {
			return TierMutate, "npm reads the .npmrc of its prefix directory, whose logs-dir and cache name where it writes, and " + why
		}
		for _, a := range c.args {
			if n, _, eq := strings.Cut(a.val, "="); !a.known && eq && strings.HasPrefix(n, "--") &&
				(longFlag(n, "--userconfig") || longFlag(n, "--globalconfig")) {
				return TierMutate, "npm reads a configuration named only at run time"
			}
		}
		for _, f := range abbrevOptVals(c.args, []string{"--userconfig", "--globalconfig"}) {
			// An .npmrc a tier 1 write made names the programs npm starts
			// (git, script-shell); codeSources makes that tier 3.
			if why := c.pluginPlaceAgent(f, true); why != "" {
				return TierMutate, "npm reads the configuration " + truncate(f.val, 64) + ", and " + why
			}
		}
		if why := c.e.agentCwd(); why != "" {
			// The project's .npmrc is read from there: its logs-dir and
			// cache say where this command writes.
			return TierMutate, "npm reads the .npmrc of the working directory, whose logs-dir and cache name where it writes, and " + why
		}
	case "pnpm":
		for i, a := range c.args {
			if !a.known {
				continue
			}
			n, _, has := strings.Cut(a.val, "=")
			switch n {
			case "--pnpmfile", "--global-pnpmfile", "--config.pnpmfile", "--config.global-pnpmfile":
				return c.namedCode("pnpm "+n+": loads a pnpmfile whose hooks run JavaScript", optValue(c.args, i, a.val, "=", has), true)
			}
		}
	case "pip", "pip3":
		// pip's version check writes its state into the cache directory.
		for _, d := range abbrevOptVals(c.args, []string{"--cache-dir"}) {
			return c.writeArg(d, "pip --cache-dir")
		}
		// optparse takes unique abbreviations: --py, --pyth.
		if ps := abbrevOptVals(c.args, []string{"--python"}); len(ps) > 0 {
			p := ps[0]
			if !p.known {
				c.e.opaque = true
				return TierDestructive, c.name + " --python: an interpreter computed at run time"
			}
			// pip --python X runs X -m pip: the interpreter is classified
			// as the program it is, with a reading subcommand standing in
			// for the real one, which the table judges.
			c.run(append([]arg{p}, argsOf("-m", "pip", "list")...))
			return TierRead, c.name + " --python " + truncate(p.val, 64)
		}
	case "dnf", "yum", "dnf5", "microdnf":
		for _, f := range c.optVals(c.args, "-c", "--config") {
			return c.namedCode(c.name+" -c "+truncate(f.val, 64)+": a configuration file names the plugins loaded", f, true)
		}
		for _, o := range c.optVals(c.args, "--setopt") {
			k, _, _ := strings.Cut(o.val, "=")
			k = strings.ToLower(strings.TrimSpace(k))
			if !o.known {
				c.e.opaque = true
				return TierDestructive, c.name + " --setopt: an option computed at run time"
			}
			for _, p := range dnfPluginKeys {
				if k == p || strings.HasSuffix(k, "."+p) {
					why := c.name + " --setopt=" + truncate(k, 32) + ": loads plugins from the path it names"
					_, v, _ := strings.Cut(o.val, "=")
					for _, d := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
						if t, w := c.namedCode(why, arg{val: d, known: true}, false); t == TierDestructive {
							return t, w
						}
					}
					return TierMutate, why
				}
			}
			if dnfWriteKeys[k] {
				_, v, _ := strings.Cut(o.val, "=")
				return c.writeArg(arg{val: v, known: true}, c.name+" --setopt="+k)
			}
		}
		for _, d := range c.optVals(c.args, "--installroot") {
			return c.writeArg(d, c.name+" --installroot (its cache and logs)")
		}
	case "ansible-doc", "ansible-config", "ansible-inventory":
		return c.ansibleReadCode()
	case "brew":
		if first == "home" {
			return TierMutate, "brew home: starts a browser"
		}
		// info --github opens the formula's source page in the browser
		// brew home starts.
		if first == "info" && c.flagSet(0, "--github", len("--gi")) {
			return TierMutate, "brew info --github: starts a browser"
		}
		// A formula or cask named by path or URL is Ruby brew evaluates
		// to read it (brew info ./x.rb, brew --prefix ./x.rb); a name or
		// tap/name is installed code.
		for _, o := range ops {
			if strings.HasSuffix(o, ".rb") || strings.Contains(o, "://") || pathLike(o) {
				c.e.opaque = true
				return TierDestructive, "brew " + first + " " + truncate(o, 64) + ": evaluates the Ruby of a formula file the classifier cannot read"
			}
		}
	case "helm":
		// The repository cache is where a chart named by repository is
		// downloaded, for show and template too.
		for _, d := range exactOptVals(c.args, "--repository-cache") {
			return c.writeArg(d, "helm --repository-cache")
		}
		// The registry configuration's credHelpers and credsStore name the
		// docker-credential-* program helm runs to pull an oci:// chart,
		// as HELM_REGISTRY_CONFIG's do.
		for _, f := range exactOptVals(c.args, "--registry-config") {
			if where := c.pluginPlaceAgent(f, true); where != "" {
				c.e.opaque = true
				return TierDestructive, "helm --registry-config: its credential helpers run, and " + where
			}
		}
		// pflag takes long names whole, a boolean's value after "=".
		for _, v := range vals {
			if n, val, _ := strings.Cut(v, "="); n == "--dependency-update" && val != "false" {
				return TierMutate, "helm " + first + " --dependency-update: downloads the chart's dependencies into its charts directory"
			}
		}
	case "yarn":
		// yarn runs the release and plugins a .yarnrc.yml names (yarnPath,
		// plugins), from the directory --cwd points it at.
		if len(exactOptVals(c.args, "--cwd")) > 0 {
			return TierMutate, "yarn --cwd: runs the yarn release and plugins the directory's .yarnrc.yml names"
		}
	case "podman":
		// pflag takes long names whole, the value after "=" or next.
		for _, o := range podmanPrograms {
			vs := exactOptVals(c.args, o)
			if len(vs) == 0 {
				continue
			}
			if !vs[0].known {
				c.e.opaque = true
				return TierDestructive, "podman " + o + ": a value computed at run time"
			}
			return TierMutate, "podman " + o + " " + truncate(vs[0].val, 64) + ": names a program or storage podman runs or writes"
		}
	case "nerdctl":
		// --data-root holds nerdctl's own state (container names, logs,
		// etc hosts), which every command opens and creates.
		for _, d := range exactOptVals(c.args, "--data-root") {
			return c.writeArg(d, "nerdctl --data-root")
		}
	case "kubectl":
		// A kuberc sets aliases and default flags for kubectl's commands,
		// --kubeconfig among them.
		if len(exactOptVals(c.args, "--kuberc")) > 0 {
			c.e.opaque = true
			return TierDestructive, "kubectl --kuberc: preferences that change the flags of every command"
		}
	case "go":
		// go doc -http builds and runs pkgsite and opens a browser.
		if first == "doc" && hasGoFlag(vals, "http") {
			return TierMutate, "go doc -http: builds and runs a documentation server"
		}
	case "cargo":
		// cargo help NAME runs cargo-NAME --help when NAME is not built in.
		if first == "help" && len(ops) > 1 && !cargoBuiltins[ops[1]] {
			return TierMutate, "cargo help " + truncate(ops[1], 32) + ": runs the external subcommand cargo-" + truncate(ops[1], 32)
		}
	case "virsh":
		// -l FILE logs every command there, listing included.
		for _, f := range c.optVals(c.args, "-l", "--log") {
			return c.writeArg(f, "virsh --log")
		}
	case "zypper":
		// --plugin-dir holds the executables zypper runs as URL resolver,
		// service and commit plugins, and a zypp.conf can name it; the
		// root and cache directories get the refreshed repository data.
		for _, d := range c.optVals(c.args, "--plugin-dir", "-c", "--config") {
			return TierMutate, "zypper " + truncate(d.val, 64) + ": names the plugins zypper runs"
		}
		for _, d := range c.optVals(c.args, "-R", "--root", "-C", "--cache-dir", "--raw-cache-dir", "--solv-cache-dir", "--pkg-cache-dir") {
			return c.writeArg(d, "zypper root or cache directory")
		}
	case "restic":
		// -o sftp.command and rclone.program name the program restic
		// starts to reach its repository, listing snapshots included.
		r := raiser{TierRead, ""}
		for _, o := range c.optVals(c.args, "-o", "--option") {
			k, v, _ := strings.Cut(o.val, "=")
			k = strings.ToLower(strings.TrimSpace(k))
			switch {
			case !o.known:
				c.e.opaque = true
				r.raise(TierDestructive, "restic -o: an option computed at run time")
			case k == "sftp.command" || k == "rclone.program":
				r.raise(c.shellArg(arg{val: v, known: true}, "restic -o "+k))
			case k == "sftp.args":
				// Options of the ssh restic starts (-oProxyCommand=…).
				r.raise(c.shellArg(arg{val: "ssh " + v, known: true}, "restic -o sftp.args"))
			}
		}
		// The repository a file names may be sftp:HOST, whose host (one
		// beginning with '-' is ssh's option) the command line does not
		// show; pflag takes --repository-file whole.
		for _, f := range exactOptVals(c.args, "--repository-file") {
			if where := c.pluginPlaceAgent(f, true); where != "" {
				c.e.opaque = true
				r.raise(TierDestructive, "restic --repository-file: the repository, and the ssh it runs, are named by a file where "+where)
			}
		}
		return r.t, r.why
	}
	return TierRead, ""
}

// ansibleReadCode: ansible-doc imports the plugins it documents (filter and
// test plugins are Python modules it loads) from -M and --playbook-dir;
// ansible-inventory runs the vars plugins of --playbook-dir; a -c
// configuration names plugin paths; and a vault password file that is
// executable is run to get the password.
func (c *call) ansibleReadCode() (Tier, string) {
	r := raiser{TierRead, ""}
	if c.name == "ansible-inventory" {
		// --output=FILE as well as --output FILE (the subcommand table
		// reads only the second).
		for _, f := range c.optVals(c.args, "--output") {
			r.raise(c.writeArg(f, "ansible-inventory --output"))
		}
	}
	for _, v := range c.optVals(c.args, "--vault-password-file", "--vault-pass-file", "--vault-id") {
		// --vault-id LABEL@SOURCE: a SOURCE other than "prompt" is a file,
		// run when executable.
		_, src, _ := strings.Cut(v.val, "@")
		if !v.known || !strings.Contains(v.val, "@") || src != "prompt" {
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" "+truncate(v.val, 64)+": an executable vault password file is run")
		}
	}
	for _, d := range c.optVals(c.args, "-M", "--module-path", "--playbook-dir") {
		r.raise(c.namedCode(c.name+" "+truncate(d.val, 64)+": loads plugins from the directory it names", d, false))
	}
	if c.name == "ansible-config" {
		for _, f := range c.optVals(c.args, "-c", "--config") {
			r.raise(c.namedCode("ansible-config -c "+truncate(f.val, 64)+": a configuration names the plugins loaded", f, true))
		}
	}
	return r.t, r.why
}

// namedCode classifies a read that loads the code a file or directory it
// is given names (plugins, a hooks file, a configuration naming them):
// tier 2 where the operator keeps it, tier 3 where a tier 1 call may have
// written it, as a build there is (codesources.go).
func (c *call) namedCode(why string, place arg, file bool) (Tier, string) {
	if where := c.pluginPlaceAgent(place, file); where != "" {
		c.e.opaque = true
		return TierDestructive, why + ", and " + where
	}
	return TierMutate, why
}

// pluginPlaceAgent says why the plugin directory (or, with file, the
// configuration file) a names may be one a tier 1 call wrote, or returns
// "": known only at run time, a pattern, under a temporary directory, or
// relative to a working directory the input makes one.
func (c *call) pluginPlaceAgent(a arg, file bool) string {
	if why := codePathAgent(a); why != "" {
		return why
	}
	if file {
		return c.fileDirAgent(a)
	}
	if c.e.paths == nil && !strings.HasPrefix(a.val, "/") {
		return "" // where relative ones lead is not followed
	}
	return c.projectDirsAgent([]arg{a})
}
