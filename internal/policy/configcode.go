package policy

import (
	"encoding/json"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Programs also run code their user's and the system's configuration
// names, wherever they run: a login shell its profile, an interactive one
// its rc file, zsh its zshenv on every start; ssh (and scp, rsync, git's
// remotes) the ProxyCommand, LocalCommand and Match exec of its
// ssh_config; npm the script-shell of its npmrc; editors, multiplexers and
// clients their start-up files; kubectl a kubeconfig's exec plugins;
// systemctl the Exec lines of the units it starts; apt, dpkg, logrotate
// and supervisor their hooks. Written since warden started by means the
// classifier could not follow (an approved download), such a file meets
// the deny list when a program that reads it runs, as a project's files do
// (projectcode.go): shell startup files read as shell, ssh's, a unit's and
// the hooks' commands as commands, the others scanned as raw text. Only a
// denial follows. "~/" is the home Rules.Home names.

var (
	profileFiles = []string{"/etc/profile", "/etc/profile.d/*.sh", "~/.bash_profile", "~/.bash_login", "~/.profile", "~/.bash_logout"}
	bashrcFiles  = []string{"/etc/bash.bashrc", "/etc/bashrc", "~/.bashrc", "~/.bash_aliases"} // Debian's .bashrc sources .bash_aliases
	zshenvFiles  = []string{"/etc/zsh/zshenv", "/etc/zshenv", "~/.zshenv"}
	zshrcFiles   = []string{"/etc/zsh/zshrc", "/etc/zshrc", "~/.zshrc"}
	zloginFiles  = []string{"/etc/zsh/zprofile", "/etc/zprofile", "~/.zprofile", "/etc/zsh/zlogin", "/etc/zlogin", "~/.zlogin", "~/.zlogout"}
	sshConfigs   = []string{"/etc/ssh/ssh_config", "/etc/ssh/ssh_config.d/*.conf", "~/.ssh/config"}
	npmrcFiles   = []string{"/etc/npmrc", "/usr/etc/npmrc", "~/.npmrc"}
)

// homeCodeFiles are, for programs other than shells, the configuration
// files they read whose settings name programs they run.
var homeCodeFiles = map[string][]string{
	"ssh": sshConfigs, "scp": sshConfigs, "sftp": sshConfigs, "rsync": sshConfigs, "sshfs": sshConfigs, "autossh": sshConfigs,
	"ssh-copy-id": sshConfigs, "mosh": sshConfigs, "git": sshConfigs,
	"npm": npmrcFiles, "npx": npmrcFiles, "pnpm": npmrcFiles, "yarn": {"~/.yarnrc.yml", "~/.yarnrc", "~/.npmrc"},
	"cargo": {"~/.cargo/config.toml", "~/.cargo/config"},
	"fish": {"/etc/fish/config.fish", "/etc/fish/conf.d/*.fish", "~/.config/fish/config.fish", "~/.config/fish/conf.d/*.fish",
		"~/.config/fish/functions/*.fish"}, // a function file is loaded when its name is run

	// Editors, multiplexers and clients whose start-up file runs shell
	// commands (:!cmd, run-shell, \!, .shell, pager=, shell), and the
	// tools whose configuration names a program they run for credentials
	// (kubeconfig's exec plugins, AWS's credential_process) or hooks.
	"vim": vimrcFiles, "vi": vimrcFiles, "view": vimrcFiles, "vimdiff": vimrcFiles, "nvim": vimrcFiles,
	"emacs":  {"~/.emacs", "~/.emacs.d/init.el", "~/.config/emacs/init.el", "/etc/emacs/site-start.el"},
	"tmux":   {"/etc/tmux.conf", "~/.tmux.conf", "~/.config/tmux/tmux.conf"},
	"screen": {"/etc/screenrc", "~/.screenrc"},
	"psql":   {"~/.psqlrc", "/etc/postgresql-common/psqlrc"},
	"mysql":  {"~/.my.cnf", "/etc/mysql/my.cnf", "/etc/my.cnf"}, "mariadb": {"~/.my.cnf", "/etc/mysql/my.cnf", "/etc/my.cnf"},
	"sqlite3": {"~/.sqliterc"}, "gdb": {"~/.gdbinit", "~/.config/gdb/gdbinit", "/etc/gdb/gdbinit"},
	"kubectl": kubeconfigs, "helm": helmFiles, "k9s": kubeconfigs, "kubectx": kubeconfigs, "kubens": kubeconfigs,
	"aws": {"~/.aws/config", "~/.aws/credentials"}, "gpg": gpgConfigs, "gpg2": gpgConfigs, "gpgsm": gpgConfigs,
	"hg": {"/etc/mercurial/hgrc", "~/.hgrc", "~/.config/hg/hgrc"}, "svn": {"/etc/subversion/config", "~/.subversion/config"},
	// Mail clients' and downloaders' start-up files (muttrc's source
	// "cmd|", aria2's on-download-complete, yt-dlp's --exec), X's start
	// script, the gh CLI's shell aliases and extensions, helm's plugins, and
	// the file managers, players and REPLs that run their configuration's code.
	"mutt": muttrcFiles, "neomutt": append([]string{"/etc/neomuttrc", "~/.neomuttrc", "~/.config/neomutt/neomuttrc"}, muttrcFiles...),
	"aria2c":     {"~/.aria2/aria2.conf", "~/.config/aria2/aria2.conf"},
	"yt-dlp":     {"/etc/yt-dlp.conf", "/etc/yt-dlp/config", "~/.config/yt-dlp/config", "~/.config/yt-dlp.conf", "~/.yt-dlp/config", "~/yt-dlp.conf"},
	"youtube-dl": {"/etc/youtube-dl.conf", "~/.config/youtube-dl/config", "~/.config/youtube-dl.conf"},
	"startx":     xinitFiles, "xinit": xinitFiles,
	"gh":     {"~/.config/gh/config.yml", "~/.local/share/gh/extensions/*/gh-*"},
	"ranger": {"~/.config/ranger/rc.conf", "~/.config/ranger/commands.py", "~/.config/ranger/plugins/*.py"},
	"mpv":    {"/etc/mpv/mpv.conf", "~/.config/mpv/mpv.conf", "~/.config/mpv/input.conf", "~/.config/mpv/scripts/*"},
	"pry":    {"~/.pryrc"}, "irb": {"~/.irbrc", "~/.config/irb/irbrc"},
	// rclone's configuration names an sftp remote's ssh command and the
	// password command it runs.
	"rclone":  {"~/.config/rclone/rclone.conf", "~/.rclone.conf"},
	"jupyter": jupyterFiles, "jupyter-lab": jupyterFiles, "jupyter-notebook": jupyterFiles, "jupyter-server": jupyterFiles,
	"ipython": {"~/.ipython/profile_default/startup/*", "~/.ipython/profile_default/ipython_config.py"},
	// less's key file (lesskey's #env can set LESSOPEN, a command less
	// runs on every file), for less and the pagers that start it.
	"less": lesskeyFiles, "man": lesskeyFiles,
	"ansible": ansibleCfgs, "ansible-playbook": ansibleCfgs, "ansible-inventory": ansibleCfgs, "ansible-pull": ansibleCfgs,
	// The package tools' and services' hooks: apt's Pre- and Post-Invoke
	// commands, dpkg's pre- and post-invoke, logrotate's scripts,
	// supervisor's programs.
	"apt": aptConfigs, "apt-get": aptConfigs, "aptitude": aptConfigs, "unattended-upgrade": aptConfigs,
	"dpkg":          {"/etc/dpkg/dpkg.cfg", "/etc/dpkg/dpkg.cfg.d/*", "~/.dpkg.cfg"},
	"logrotate":     {"/etc/logrotate.conf", "/etc/logrotate.d/*"},
	"supervisorctl": supervisorConfigs, "supervisord": supervisorConfigs,
}

var (
	vimrcFiles = []string{"/etc/vim/vimrc", "/etc/vimrc", "~/.vimrc", "~/.vim/vimrc", "~/.config/nvim/init.vim", "~/.config/nvim/init.lua", "~/.exrc",
		"~/.vim/plugin/*", "~/.vim/pack/*/start/*/plugin/*", "~/.config/nvim/plugin/*", "~/.local/share/nvim/site/pack/*/start/*/plugin/*"}
	kubeconfigs = []string{"~/.kube/config"}
	helmFiles   = []string{"~/.kube/config", "~/.local/share/helm/plugins/*/plugin.yaml", "~/.local/share/helm/plugins/*/*.sh"}
	gpgConfigs  = []string{"~/.gnupg/gpg.conf", "~/.gnupg/gpg-agent.conf", "~/.gnupg/dirmngr.conf"}
	muttrcFiles = []string{"/etc/Muttrc", "~/.muttrc", "~/.mutt/muttrc", "~/.config/mutt/muttrc"}
	xinitFiles  = []string{"~/.xinitrc", "~/.xserverrc", "/etc/X11/xinit/xinitrc"}
	// Jupyter runs its configuration files (Python) and its kernels
	// IPython's start-up files.
	jupyterFiles = []string{"~/.jupyter/*.py", "/etc/jupyter/*.py", "/usr/local/etc/jupyter/*.py", "~/.ipython/profile_default/startup/*"}
	lesskeyFiles = []string{"~/.lesskey", "~/.config/lesskey", "~/.less", "/etc/syslesskey", "/etc/sysless", "/usr/local/etc/syslesskey"}
	// docker runs its CLI plugins (compose, buildx: docker-NAME) from
	// these directories, each for its command and all of them for docker
	// info and help, which ask each plugin for its metadata.
	dockerPlugins = []string{"~/.docker/cli-plugins/docker-*", "/usr/local/lib/docker/cli-plugins/docker-*",
		"/usr/local/libexec/docker/cli-plugins/docker-*", "/usr/lib/docker/cli-plugins/docker-*", "/usr/libexec/docker/cli-plugins/docker-*"}
	ansibleCfgs = []string{"/etc/ansible/ansible.cfg", "~/.ansible.cfg"}
	aptConfigs  = []string{"/etc/apt/apt.conf", "/etc/apt/apt.conf.d/*"}
	// Every python start runs the import lines of the .pth files in its
	// site directories, and sitecustomize and usercustomize: the
	// interpreter's and its tools' (pythonTools).
	pythonStartFiles = []string{"~/.local/lib/python3*/site-packages/*.pth", "~/.local/lib/python3*/site-packages/usercustomize.py",
		"/usr/local/lib/python3*/dist-packages/*.pth", "/usr/lib/python3/dist-packages/*.pth", "/etc/python3*/sitecustomize.py",
		"/usr/local/lib/python3*/site-packages/*.pth"}

	supervisorConfigs = []string{"/etc/supervisor/supervisord.conf", "/etc/supervisor/conf.d/*", "/etc/supervisord.conf", "/etc/supervisord.d/*"}
)

// pythonTools are programs written in Python, which start it.
var pythonTools = set(`pip pip3 pipx ipython ipython3 pytest py.test tox nox poetry pdm hatch`)

// homeCode meets the deny list with the configuration files c's program
// reads wherever it runs (homeCodeFiles).
func (c *call) homeCode() {
	if files, ok := homeCodeFiles[c.name]; ok {
		c.startupCode(files, false)
	}
	if strings.HasPrefix(c.name, "python") || pythonTools[c.name] {
		c.startupCode(pythonStartFiles, false)
	}
	switch c.name {
	case "systemctl":
		c.unitCode()
	case "docker":
		c.startupCode(append(c.dockerPluginDirs(), dockerPlugins...), true)
	case "service", "invoke-rc.d", "rc-service":
		c.initCode()
	}
	c.systemCode()
}

// maxPluginDirs is how many directories of docker's CLI plugins its
// configuration adds that are read.
const maxPluginDirs = 8

// dockerPluginDirs are the plugins in the directories docker's
// configuration adds (cliPluginsExtraDirs), read whatever its age: an old
// configuration may name a directory written to since.
func (c *call) dockerPluginDirs() []string {
	home := c.homeDir()
	if home == "" || !c.e.local {
		return nil
	}
	text, ok := c.e.readLocal(path.Join(home, ".docker/config.json"))
	if !ok || !strings.Contains(text, "cliPluginsExtraDirs") {
		return nil
	}
	var cfg struct {
		Dirs []string `json:"cliPluginsExtraDirs"`
	}
	if json.Unmarshal([]byte(text), &cfg) != nil {
		return nil
	}
	var out []string
	for _, d := range upTo(c.e, cfg.Dirs, maxPluginDirs, "plugin directories in "+truncate(home, 64)+"/.docker/config.json") {
		if path.IsAbs(d) {
			out = append(out, path.Join(d, "docker-*"))
		}
	}
	return out
}

// shellStartup meets the deny list with the startup files the shell c
// reads: zsh's zshenv always, a login shell's profile, an interactive
// one's rc file.
func (c *call) shellStartup(login, interactive bool) {
	var files []string
	if c.name == "zsh" {
		files = append(files, zshenvFiles...)
		if login {
			files = append(files, zloginFiles...)
		}
		if interactive {
			files = append(files, zshrcFiles...)
		}
	} else {
		if login {
			files = append(files, profileFiles...)
		}
		switch {
		case !interactive:
		case c.name == "bash" || c.name == "rbash":
			files = append(files, bashrcFiles...)
		case c.name == "ksh" || c.name == "ksh93" || c.name == "mksh" || c.name == "pdksh" || c.name == "oksh":
			// Their ENV's default: ~/.kshrc, mksh's ~/.mkshrc after /etc/mkshrc.
			files = append(files, "/etc/ksh.kshrc", "~/.kshrc", "/etc/mkshrc", "~/.mkshrc")
		}
	}
	c.startupCode(files, true)
}

// maxStartupGlob is how many files a pattern of startupCode's is looked
// at (those changed since warden started are read): a system directory of
// rules or actions holds a hundred.
const maxStartupGlob = 256

// startupCode meets the deny list with files, those of them on the local
// host that changed since warden started: read as shell when script is
// set, else as their kind of file is (projectTextOf). It reports whether
// the call is still not denied.
func (c *call) startupCode(files []string, script bool) bool {
	e := c.e
	if len(files) == 0 || !e.local || e.p.files == nil || e.denied {
		return !e.denied
	}
	home := c.homeDir()
	if e.projectDirs == nil {
		e.projectDirs = map[string]bool{}
	}
	for _, f := range files {
		if rest, ok := strings.CutPrefix(f, "~/"); ok {
			if home == "" {
				continue
			}
			f = path.Join(home, rest)
		}
		// Each file, and each pattern, is looked at once per evaluation:
		// a script of many systemctl or docker calls globs their
		// directories once.
		if key := "\x00startup\x00" + f; e.projectDirs[key] {
			continue
		} else {
			e.projectDirs[key] = true
		}
		ps := []string{f}
		if strings.ContainsAny(f, "*?[") {
			ps, _ = filepath.Glob(f)
		}
		for _, p := range upTo(e, ps, maxStartupGlob, "files match "+truncate(f, 64)) {
			if key := "\x00startup\x00" + p; p != f && e.projectDirs[key] {
				continue
			} else {
				e.projectDirs[key] = true
			}
			if !c.projectFileAs(p, script, false) {
				return false
			}
		}
	}
	return true
}

// configFile reports whether p is a configuration file or script of the
// system's (under /etc, /usr, /lib, /run, dpkg's and Proxmox's state) or
// of the user's (a dot file or directory in the home).
func (e *eval) configFile(p string) bool {
	for _, d := range []string{"/etc/", "/usr/", "/lib/", "/run/", "/var/lib/dpkg/", "/var/lib/vz/"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return e.p.protect != nil && e.p.protect.home != "" && strings.HasPrefix(p, e.p.protect.home+"/.")
}

// sshConfigFile reports whether p is an ssh client configuration file.
func sshConfigFile(p string) bool {
	return strings.HasSuffix(p, "/.ssh/config") || p == "/etc/ssh/ssh_config" || strings.HasPrefix(p, "/etc/ssh/ssh_config.d/")
}

// sshIncludes returns the files the ssh_config p, holding text, includes:
// relative ones are in ~/.ssh for the user's, /etc/ssh for the system's.
func sshIncludes(p, text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(strings.ReplaceAll(line, "=", " "))
		if len(f) < 2 || !strings.EqualFold(f[0], "include") {
			continue
		}
		for _, inc := range f[1:] {
			if !strings.HasPrefix(inc, "/") && !strings.HasPrefix(inc, "~/") {
				inc = path.Dir(p) + "/" + inc
			}
			out = append(out, inc)
		}
	}
	return out
}

// sshConfigCommands returns the local commands an ssh_config runs: its
// ProxyCommand, LocalCommand and KnownHostsCommand, and the commands of
// its Match exec criteria.
func sshConfigCommands(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		i := strings.IndexAny(line, " \t=")
		if i < 0 || strings.HasPrefix(line, "#") {
			continue
		}
		key, val := strings.ToLower(line[:i]), strings.TrimLeft(line[i:], " \t=")
		switch key {
		case "proxycommand", "localcommand", "knownhostscommand":
			out = append(out, val)
		case "match":
			for rest := val; ; {
				j := strings.Index(strings.ToLower(rest), "exec")
				if j < 0 {
					break
				}
				rest = strings.TrimLeft(rest[j+len("exec"):], " \t")
				cmd := rest
				if strings.HasPrefix(rest, `"`) {
					cmd, _, _ = strings.Cut(rest[1:], `"`)
				} else if k := strings.IndexAny(rest, " \t"); k >= 0 {
					cmd = rest[:k]
				}
				out = append(out, cmd)
			}
		}
	}
	return out
}

// systemctlRuns are the systemctl verbs that start or reload units,
// which run their unit files' Exec lines.
var systemctlRuns = set(`start restart reload try-restart reload-or-restart try-reload-or-restart condrestart force-reload enable reenable isolate`)

var (
	systemUnitDirs = []string{"/etc/systemd/system", "/run/systemd/system", "/usr/local/lib/systemd/system", "/lib/systemd/system", "/usr/lib/systemd/system"}
	userUnitDirs   = []string{"~/.config/systemd/user", "/etc/systemd/user", "/usr/lib/systemd/user"}
)

// maxUnits is how many units of one systemctl call are read.
const maxUnits = 64

// unitCode meets the deny list with the Exec lines of the unit files, and
// their drop-ins, of the units systemctl starts or reloads (a timer, socket
// or path unit starts its service).
func (c *call) unitCode() {
	ops := subOperands(c.name, c.vals())
	user := slices.Contains(c.vals(), "--user")
	if len(ops) == 1 && (ops[0] == "daemon-reload" || ops[0] == "daemon-reexec") && !user {
		// The manager runs its generators, as root, before it reloads.
		c.startupCode(generatorDirs, true)
		return
	}
	if len(ops) < 2 || !systemctlRuns[ops[0]] {
		return
	}
	dirs := systemUnitDirs
	if user {
		dirs = userUnitDirs
	}
	c.startupCode(unitFiles(upTo(c.e, ops[1:], maxUnits, "units in one systemctl call"), dirs), false)
}

// initCode meets the deny list with what service, invoke-rc.d and
// rc-service run: the service's init script, whatever the action (the
// whole script runs), and, for an action that starts it, its systemd
// unit's Exec lines (service hands those to systemctl where the unit
// exists).
func (c *call) initCode() {
	ops := subOperands(c.name, c.vals())
	if len(ops) < 2 || strings.ContainsAny(ops[0], "/*?[") {
		return
	}
	if c.startupCode([]string{"/etc/init.d/" + ops[0]}, true) && systemctlRuns[ops[1]] {
		c.startupCode(unitFiles(ops[:1], systemUnitDirs), false)
	}
}

// unitFiles are the files in dirs that define units: each unit's file and
// drop-ins, a timer's, socket's or path unit's service, an instance's
// template.
func unitFiles(units, dirs []string) []string {
	var files []string
	for _, u := range units {
		if strings.ContainsAny(u, "/*?[") {
			continue
		}
		names := []string{u}
		if path.Ext(u) == "" {
			names[0] = u + ".service"
		}
		if ext := path.Ext(names[0]); ext == ".timer" || ext == ".socket" || ext == ".path" {
			names = append(names, strings.TrimSuffix(names[0], ext)+".service")
		}
		for _, n := range names {
			if at := strings.IndexByte(n, '@'); at > 0 {
				names = append(names, n[:at+1]+path.Ext(n)) // foo@bar.service's template, foo@.service
			}
		}
		for _, n := range names {
			for _, d := range dirs {
				files = append(files, d+"/"+n, d+"/"+n+".d/*.conf")
			}
		}
	}
	return files
}

// unitFile reports whether p is a systemd unit file or drop-in.
func unitFile(p string) bool {
	return strings.Contains(p, "/systemd/") && (strings.HasSuffix(p, ".conf") || strings.HasSuffix(p, ".service"))
}

// unitExecLines returns the commands of a unit file's Exec lines, without
// their prefixes (-, @, :, +, !).
func unitExecLines(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && strings.HasPrefix(k, "Exec") {
			out = append(out, strings.TrimLeft(strings.TrimSpace(v), "-@:+!"))
		}
	}
	return out
}

// hookCommands returns the commands the package tools' and services'
// configuration file p holds, and whether p is one such: apt's
// Pre-Invoke and Post-Invoke lists, dpkg's pre-invoke and post-invoke,
// logrotate's scripts, supervisor's command lines. Their comments name
// programs freely (50unattended-upgrades' "reboot"), so only these are
// read.
func hookCommands(p, text string) ([]string, bool) {
	var out []string
	switch {
	case strings.HasPrefix(p, "/etc/apt/"):
		for rest := text; ; {
			i := strings.Index(rest, "Invoke")
			if i < 0 {
				break
			}
			rest = rest[i:]
			block, after, _ := strings.Cut(rest, ";")
			if strings.Contains(block, "{") {
				block, after, _ = strings.Cut(rest, "}")
			}
			for q := strings.Split(block, `"`); len(q) > 2; q = q[2:] {
				out = append(out, q[1])
			}
			rest = after
		}
	case strings.HasPrefix(p, "/etc/dpkg/") || strings.HasSuffix(p, "/.dpkg.cfg"):
		for _, line := range strings.Split(text, "\n") {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok && strings.HasSuffix(k, "-invoke") {
				out = append(out, v)
			}
		}
	case strings.HasPrefix(p, "/etc/logrotate"):
		in := false
		for _, line := range strings.Split(text, "\n") {
			switch w := strings.TrimSpace(line); {
			case w == "endscript":
				in = false
			case in:
				out = append(out, w)
			case w == "postrotate" || w == "prerotate" || w == "firstaction" || w == "lastaction" || w == "preremove":
				in = true
			}
		}
	case strings.HasPrefix(p, "/etc/supervisor"):
		for _, line := range strings.Split(text, "\n") {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok && strings.TrimSpace(k) == "command" {
				out = append(out, strings.TrimSpace(v))
			}
		}
	default:
		return nil, false
	}
	return out, true
}
