package policy

import (
	"path"
	"strings"
)

// Options that run programs or write files in programs that otherwise
// read: pagers, upload-pack and config programs of git, tracer outputs,
// build tools' eval options, job schedulers, setuid modes. A written file
// goes through writeTarget (devices, warden's state, sensitive files); a
// program run through a shell is classified as shell text, and one the
// classifier cannot see is TierDestructive.

// writeArg classifies a file an option writes.
func (c *call) writeArg(a arg, what string) (Tier, string) {
	t, why, deny := c.e.writeTarget(a)
	if deny != "" {
		c.e.deny(what + ": " + deny)
	}
	return maxTier(t, TierMutate), what + ": " + why
}

// shellArg classifies an option value a program runs through a shell.
func (c *call) shellArg(a arg, what string) (Tier, string) {
	if !a.known {
		c.e.opaque = true
		return TierDestructive, what + ": command computed at run time"
	}
	c.shell(a.val, what, nil, false)
	return TierRead, what
}

// raiser keeps the highest tier seen and its reason.
type raiser struct {
	t   Tier
	why string
}

func (r *raiser) raise(t Tier, why string) {
	if t > r.t || r.why == "" {
		r.t, r.why = t, why
	}
}

// pagerOpts are options of any program whose value is a pager or browser
// command line run through a shell (bat --pager, mysql --pager, man -P).
var pagerOpts = []string{"--pager", "--cli-pager", "--browser"}

// wordRules classifies what every command's words can do whatever the
// program: generic pager options, and paths naming warden's own state.
func (e *eval) wordRules(args []arg, ctx cctx) (Tier, string) {
	e.protectWords(args, ctx)
	e.urlWords(args)
	if len(args) > 0 && hostNamed[path.Base(args[0].val)] {
		e.probeHosts(args)
		e.forwarderWords(args)
		e.hostFiles(args, ctx)
	}
	e.codeLiterals(args, ctx)
	ht, hwhy := e.hostOptWords(args)
	t, why := e.genericOpts(args, ctx)
	if ht > t {
		return ht, hwhy
	}
	return t, why
}

// genericOpts classifies options that mean the same in every program.
func (e *eval) genericOpts(args []arg, ctx cctx) (Tier, string) {
	if len(args) < 2 {
		return TierRead, ""
	}
	name := path.Base(args[0].val)
	if _, short := runShorts[name]; !short && !argsHavePrefix(args[1:], "--") {
		return TierRead, ""
	}
	c := &call{e: e, name: name, args: args[1:], ctx: ctx}
	var r raiser
	vals := exactOptVals(c.args, pagerOpts...)
	if pagerAbbrev[c.name] {
		vals = append(vals, abbrevPager(c.args)...)
	}
	for _, v := range vals {
		if v.val == "" || v.val == "false" || v.val == "never" {
			continue
		}
		r.raise(c.shellArg(v, c.name+" pager"))
	}
	if !logReaders[c.name] {
		for _, v := range exactOptVals(c.args, logFileOpts...) {
			if v.val != "-" && v.val != "/dev/null" && v.val != "/dev/stderr" && v.val != "/dev/stdout" {
				r.raise(c.writeArg(v, c.name+" log file"))
			}
		}
	}
	for _, o := range programShellOpts[c.name] {
		for _, v := range exactOptVals(c.args, o) {
			r.raise(c.shellArg(v, c.name+" "+o))
			if o != "--editor" {
				r.raise(TierDestructive, c.name+" "+o+": replaces the shell its scripts run in")
			} else {
				r.raise(TierMutate, c.name+" --editor: runs "+truncate(v.val, 64))
			}
		}
	}
	r.raise(c.runOpts())
	return r.t, r.why
}

// logFileOpts name, in any program that has them, a file the program
// writes its log, debug or trace output or TLS keys to: tshark
// --log-file=/etc/x -r a.pcap writes /etc/x. logReaders take them as the
// log to read.
var (
	logFileOpts = []string{"--log-file", "--logfile", "--log-basename", "--debug-file", "--trace-file", "--keylogfile", "--keylog-file"}
	logReaders  = set(`goaccess logwatch lnav fail2ban-regex`)
)

func argsHavePrefix(args []arg, p string) bool {
	for _, a := range args {
		if strings.HasPrefix(a.val, p) {
			return true
		}
	}
	return false
}

// optsProgram returns the handler of a program whose options this file
// classifies, or nil.
func optsProgram(name string) func(*call) (Tier, string) {
	if fuseMounters[name] || strings.HasPrefix(name, "mount.fuse") {
		// mount.fuse, mount.fuse3 and mount.fuse.TYPE are the helpers
		// mount -t fuse… runs, with mount's operands and -o.
		return fuseMountProgram
	}
	switch name {
	case "systemd-dissect":
		return dissectProgram
	case "systemd-sysext", "systemd-confext", "portablectl":
		return extensionProgram
	case "git":
		return gitChecked
	case "man":
		return manProgram
	case "groff", "nroff", "troff":
		return roffProgram
	case "tc":
		return tcProgram
	case "fzf", "sk":
		return fzfProgram
	case "anacron":
		return anacronProgram
	case "smbclient":
		return smbclientProgram
	case "systemd-tmpfiles", "systemd-sysusers":
		return sysConfProgram
	case "dbus-update-activation-environment":
		return dbusActivationEnv
	case "less", "more", "most":
		return lessProgram
	case "ps":
		return psProgram
	case "lynx", "links", "links2", "elinks", "w3m", "lnav":
		return textBrowserProgram
	case "tcpdump", "tshark", "dumpcap":
		return captureProgram
	case "udhcpc", "udhcpc6", "ifplugd", "ntpd", "reformime", "inotifyd", "tcpsvd", "udpsvd", "crond":
		return hookProgram
	case "make", "gmake", "bmake":
		return makeProgram
	case "rake":
		return rakeProgram
	case "hg", "svn":
		return vcsProgram
	case "dpkg-statoverride":
		return statoverrideProgram
	case "cmake":
		return cmakeProgram
	case "gradle", "gradlew":
		return gradleProgram
	case "ninja":
		return ninjaProgram
	case "gdb", "lldb":
		return debuggerProgram
	case "at", "batch", "atrm":
		return atProgram
	case "chmod", "chown", "chgrp":
		return modeChecked
	case "install", "cp":
		return copyProgram
	case "ln":
		return lnProgram
	case "tar", "bsdtar", "gtar":
		return tarChecked
	case "sort":
		return sortChecked
	case "split":
		return splitProgram
	case "fc", "history":
		return historyProgram
	case "crontab":
		return crontabProgram
	case "incrontab", "fcrontab":
		return otherCrontabProgram
	case "apt", "apt-get", "apt-cache", "apt-mark", "aptitude":
		return aptChecked
	case "apt-config", "ack":
		return readCodeProgram
	case "vim", "vi", "nvim", "gvim", "view", "ex", "rvim", "emacs", "emacsclient",
		"vimdiff", "gvimdiff", "rview", "gview", "evim", "eview", "vimx":
		return editorChecked
	case "logrotate":
		return logrotateProgram
	case "whois", "upsc", "apcaccess":
		return serverQueryProgram
	case "tree", "sar", "sdiff", "diff3", "dmidecode", "file", "ss", "sensors", "lastlog", "fd", "fdfind", "rg", "bat", "batcat",
		"lshw", "zstdcat", "systemd-analyze", "vcgencmd", "pidstat", "ausearch", "blkid", "procs", "base64", "colordiff", "ag",
		"lz4cat", "getent", "nstat", "ifstat", "named-checkconf":
		return readOpts
	case "nmap":
		return nmapProgram
	case "--":
		return endOfOptions
	case "patch":
		return patchProgram
	case "run-parts":
		return runPartsProgram
	case "unzip":
		return unzipChecked
	case "cpio":
		return cpioProgram
	case "setfattr":
		return setfattrProgram
	case "start-stop-daemon":
		return startStopProgram
	case "mktemp":
		return mktempProgram
	case "nfsstat", "netstat":
		return counterProgram
	case "coredumpctl":
		return coredumpctlProgram
	case "busctl", "gdbus", "qdbus", "qdbus-qt5", "qdbus-qt6", "qdbus6", "dbus-send", "dbus-monitor":
		return dbusProgram
	}
	if toolchainPrograms[name] {
		return toolchainProgram
	}
	if convertPrograms[name] {
		return convertProgram
	}
	if _, ok := dumpOutputs[name]; ok {
		return dumpProgram
	}
	if diskCopyPrograms[name] || strings.HasPrefix(name, "partclone.") {
		return diskCopyProgram
	}
	switch name {
	case "logger", "sendmail", "exim", "exim4", "mutt", "neomutt", "msmtp", "mail", "mailx", "Mail", "s-nail",
		"nail", "bsd-mailx", "heirloom-mailx":
		return mailProgram
	case "ulimit":
		return ulimitProgram
	case "umask":
		return umaskProgram
	}
	if _, ok := wrapSpecs[name]; ok {
		return wrapperProgram // a program with a wrapper grammar runs the command after it
	}
	return nil
}

// manProgram: man runs its pager and browser through a shell.
func manProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, "man: interactive program that can run commands"}
	for _, v := range c.optVals(c.args, "-P", "--pager", "-H", "--html") {
		r.raise(c.shellArg(v, "man pager"))
	}
	// A man-db configuration DEFINEs the pager, troff and the other
	// programs man runs.
	for _, f := range c.optVals(c.args, "-C", "--config-file") {
		c.e.opaque = true
		r.raise(TierDestructive, "man -C "+truncate(f.val, 64)+": its configuration names the programs man runs")
	}
	return r.t, r.why
}

// lessProgram: less runs "!cmd" and "|cmd" from its +commands and writes
// its log file.
func lessProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, c.name + ": interactive program that can run commands"}
	for _, a := range c.args {
		if !strings.HasPrefix(a.val, "+") {
			continue
		}
		if !a.known {
			c.e.opaque = true
			r.raise(TierDestructive, c.name+": start-up command computed at run time")
			continue
		}
		cmd := strings.TrimLeft(a.val, "+")
		if i := strings.IndexAny(cmd, "!|"); i >= 0 {
			text := cmd[i+1:]
			if cmd[i] == '|' && text != "" {
				text = text[1:] // |m: the mark comes first
			}
			c.shell(text, c.name+" start-up shell command", nil, false)
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" "+a.val+": runs a shell command")
		}
	}
	for _, f := range c.optVals(c.args, "-o", "-O", "--log-file", "--LOG-FILE") {
		r.raise(c.writeArg(f, c.name+" log file"))
	}
	return r.t, r.why
}

// tsharkRunPrefs are the preference modules whose settings name a program
// tshark runs: the Snort dissector runs snort.binary (with snort.config,
// which loads its own modules) on every packet once alerts_source asks
// for a running Snort, and extcap.IFACE.ARG is the argument list of an
// extcap capture program (sshdump's proxycommand and remote capture
// command among them).
var tsharkRunPrefs = set(`snort extcap`)

// extcapIfaces are the interfaces of Wireshark's extcap programs, which
// tshark runs to capture from them: sshdump, ciscodump and wifidump log in
// to another host and run a capture command there, udpdump listens on a
// port, androiddump starts adb's server, sdjournal reads the journal.
var extcapIfaces = set(`sshdump ciscodump wifidump udpdump randpkt sdjournal dpauxmon etwdump falcodump`)

// extcapIface says why tshark's -i value may run an extcap program: its
// name, an android- interface, a number (its place in tshark -D's list,
// where the extcap programs follow the kernel's interfaces) or a value
// known only at run time.
func extcapIface(a arg) string {
	v := strings.ToLower(a.val)
	switch {
	case !a.known:
		return "an interface known only at run time may be an extcap program's"
	case extcapIfaces[strings.TrimSuffix(v, ".exe")] || strings.HasPrefix(v, "android-"):
		return "runs the extcap program that captures it, which may log in to another host, listen on a port or start a daemon"
	case v != "" && strings.Trim(v, "0123456789") == "":
		return "an interface by its number in tshark -D's list, where extcap programs follow the kernel's interfaces"
	}
	return ""
}

// captureProgram: packet captures only read, but -w writes a file and
// tcpdump -z runs a program on every file it writes.
func captureProgram(c *call) (Tier, string) {
	r := raiser{TierRead, c.name + ": captures packets"}
	if c.flagSet('I', "--monitor-mode", len("--mon")) {
		// A wireless interface in monitor mode leaves its network.
		r.raise(TierMutate, c.name+" -I: puts the interface in monitor mode, which drops its connection")
	}
	for _, f := range c.optVals(c.args, "-w") {
		if f.val != "-" {
			r.raise(c.writeArg(f, c.name+" -w"))
		}
	}
	if c.name == "tcpdump" {
		for _, z := range c.optVals(c.args, "-z") {
			if !z.known {
				c.e.opaque = true
				r.raise(TierDestructive, "tcpdump -z: program computed at run time")
				continue
			}
			c.run([]arg{z, unknownArg})
			r.raise(TierMutate, "tcpdump -z: runs "+truncate(z.val, 64))
		}
	}
	if c.name == "tshark" || c.name == "dumpcap" {
		// --temp-dir DIR: a live capture not given -w (dumpcap's always)
		// goes to a temporary file created in DIR, as TMPDIR=DIR would
		// put it, and grows there until the capture stops.
		for _, d := range c.optVals(c.args, "--temp-dir") {
			if !d.known || !tmpPath(d.val) && path.Clean(d.val) != "/tmp" && path.Clean(d.val) != "/var/tmp" {
				r.raise(c.writeArg(d, c.name+" --temp-dir"))
			}
		}
	}
	if c.name == "tshark" {
		// --export-objects PROTO,DIR writes every object it finds into DIR.
		for _, e := range c.optVals(c.args, "--export-objects") {
			_, dir, _ := strings.Cut(e.val, ",")
			r.raise(c.writeArg(arg{val: dir, known: e.known, glob: e.glob}, "tshark --export-objects"))
		}
		for _, f := range c.optVals(c.args, "--export-tls-session-keys") {
			r.raise(c.writeArg(f, "tshark --export-tls-session-keys"))
		}
		// A preference ending in debug_file (tls.debug_file, dtls.debug_file,
		// the older ssl.debug_file) is a file tshark opens for writing, and
		// truncates, as soon as it applies its preferences.
		for _, o := range c.optVals(c.args, "-o") {
			k, v, ok := strings.Cut(o.val, ":")
			switch {
			case !o.known:
				// It may name a file to write or a program to run.
				c.e.opaque = true
				r.raise(TierDestructive, "tshark -o: a preference computed at run time")
			case ok && strings.HasSuffix(k, "debug_file") && v != "" && v != "-":
				r.raise(c.writeArg(arg{val: v, known: true, glob: o.glob}, "tshark -o "+truncate(k, 32)))
			case tsharkRunPrefs[strings.ToLower(strings.SplitN(k, ".", 2)[0])]:
				c.e.opaque = true
				r.raise(TierDestructive, "tshark -o "+truncate(k, 32)+": sets a program tshark runs or its command line")
			}
		}
		for _, i := range c.optVals(c.args, "-i", "--interface") {
			if why := extcapIface(i); why != "" {
				r.raise(TierMutate, "tshark -i "+truncate(i.val, 64)+": "+why)
			}
		}
		// -C names a profile under the profiles directory; one named with
		// a slash is a directory elsewhere, whose preferences can name
		// such files.
		for _, p := range c.optVals(c.args, "-C") {
			if !p.known || strings.ContainsRune(p.val, '/') {
				r.raise(TierMutate, "tshark -C "+truncate(p.val, 64)+": a configuration profile outside the profiles directory, whose preferences can name files tshark writes")
			}
		}
	}
	for _, x := range c.optVals(c.args, "-X") {
		if strings.HasPrefix(x.val, "lua_script") || !x.known {
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" -X: runs a Lua script")
		}
	}
	return r.t, r.why
}

// sortChecked: sort --compress-program runs that program.
func sortChecked(c *call) (Tier, string) {
	for _, p := range c.optVals(c.args, "--compress-program") {
		if !p.known {
			c.e.opaque = true
			return TierDestructive, "sort --compress-program: program computed at run time"
		}
		c.run([]arg{p})
		c.run([]arg{p, {val: "-d", known: true}})
	}
	return filterProgram(c)
}

// splitProgram: split writes pieces (TierMutate); --filter runs a shell
// command for each.
func splitProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, "split: writes files"}
	for _, f := range c.optVals(c.args, "--filter") {
		r.raise(c.shellArg(f, "split --filter command"))
	}
	return r.t, r.why
}

// historyProgram: fc re-runs commands from history (fc -s, fc -e), which
// the classifier cannot see; fc -l and history only list.
func historyProgram(c *call) (Tier, string) {
	vals := c.vals()
	if c.name == "history" {
		if t, why := historyFile(c); t > TierMutate {
			return t, why
		}
		if a, ok := computedArg(c.args); ok {
			// "$@" or $x can be -w FILE or -s ENTRY.
			return TierDestructive, "history: option computed at run time: " + truncate(a.val, 64)
		}
		for _, v := range vals {
			if strings.HasPrefix(v, "-") && strings.ContainsAny(v, "rwan") {
				return TierMutate, "history " + v + ": reads or writes a history file"
			}
			if strings.HasPrefix(v, "-") && strings.ContainsAny(v, "sp") {
				return TierDestructive, "history " + v + ": adds or expands history entries"
			}
		}
		return TierRead, "history"
	}
	if hasFlag(vals, 'l', "") {
		return TierRead, "fc -l"
	}
	c.e.opaque = true
	return TierDestructive, "fc: re-runs commands from history the classifier cannot see"
}

// aptHookKeys are apt configuration keys that run commands or programs.
var aptHookKeys = []string{"invoke", "pre-install-pkgs", "post-install", "dir::bin", "autodetect", "auto-detect",
	"dpkg::options", "dpkg::tools", "methods", "::exec", "scripts", "proxy-auto", "helper", "dir::etc", "dir::state",
	"dir::cache", "dir::log", "debug::", "ap::", "rootdir"}

// aptChecked: apt's -o hooks and -c configuration files run programs.
func aptChecked(c *call) (Tier, string) {
	if t, why := aptOptions(c); t > TierRead {
		return t, why
	}
	return subcommandProgram(c)
}

// aptOptions classifies the -c and -o options every apt program takes.
func aptOptions(c *call) (Tier, string) {
	for _, f := range c.optVals(c.args, "-c", "--config-file") {
		c.e.opaque = true
		return TierDestructive, c.name + " -c " + truncate(f.val, 64) + ": reads configuration that can run programs"
	}
	for _, o := range c.optVals(c.args, "-o", "--option") {
		k, v, _ := strings.Cut(o.val, "=")
		lk := strings.ToLower(k)
		if !o.known {
			c.e.opaque = true
			return TierDestructive, c.name + " -o: option computed at run time"
		}
		for _, h := range aptHookKeys {
			if strings.Contains(lk, h) {
				if strings.Contains(lk, "invoke") || strings.Contains(lk, "pre-install-pkgs") || strings.Contains(lk, "auto") {
					c.shell(v, c.name+" "+k+" hook", nil, false)
				}
				c.e.opaque = true
				return TierDestructive, c.name + " -o " + truncate(k, 64) + ": runs or replaces programs"
			}
		}
	}
	return TierRead, ""
}

// editorChecked adds to editorProgram the shell commands its start-up
// options run: vim -c '!cmd', -c'!cmd', +'!cmd', --cmd 'silent !cmd'; and
// the commands vim reads from its standard input when that is not a
// terminal: keystrokes, or Ex commands in Ex mode (vim -es, ex -s).
func editorChecked(c *call) (Tier, string) {
	if strings.HasPrefix(c.name, "emacs") {
		for _, v := range c.optVals(c.args, "--eval", "-eval", "--execute") {
			c.e.scanText(v.val)
		}
		return editorProgram(c)
	}
	r := raiser{}
	r.raise(c.vimClusters())
	stdinFile := false // vim - edits its input instead
	for i, a := range c.args {
		v := a.val
		text := ""
		switch {
		case (v == "-c" || v == "--cmd") && i+1 < len(c.args):
			text = c.args[i+1].val
		case strings.HasPrefix(v, "-c") && len(v) > 2:
			text = v[2:]
			r.raise(TierDestructive, c.name+" -c: runs editor commands")
		case strings.HasPrefix(v, "+") && len(v) > 1:
			text = v[1:]
		case v == "-":
			stdinFile = true
			continue
		default:
			continue
		}
		c.exCommand(text)
	}
	for _, f := range c.optVals(c.args, "-W", "--startuptime") {
		r.raise(c.writeArg(f, c.name+" script output"))
	}
	if !stdinFile {
		switch in := c.ctx.stdin; in.kind {
		case stdinUnknown:
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" reads editor commands from input the classifier cannot see")
		case stdinText:
			c.e.scanText(in.text)
			for _, line := range strings.Split(in.text, "\n") {
				c.exCommand(line)
			}
			if strings.TrimSpace(in.text) != "" {
				r.raise(TierDestructive, c.name+" runs editor commands from its input")
			}
		}
	}
	t, why := editorProgram(c)
	if r.t > t {
		t, why = r.t, r.why
	}
	if t >= TierDestructive {
		// Editor commands given a cron table or a start-up file may
		// write any text into it (-c 'normal Oreboot'): the words
		// meet the deny list.
		texts := c.vals()
		for _, v := range texts {
			if k := strings.Index(v, "norm"); k >= 0 {
				texts = append(texts, typedText(v[k:]))
			}
		}
		c.scanAdded(c.args, texts)
	}
	return t, why
}

// typedText returns the text a vim normal command's keys may type: what
// follows each key that starts inserting (normal ggOreboot types reboot),
// one per line, each up to maxTyped bytes.
func typedText(keys string) string {
	var b strings.Builder
	for k := 0; k < len(keys); k++ {
		if strings.IndexByte("iaoOIAsSCR", keys[k]) >= 0 {
			b.WriteString(keys[k+1 : min(len(keys), k+1+maxTyped)])
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// maxTyped bounds each text typedText returns: a command line's words
// are short, and a long key string would cost its square.
const maxTyped = 128

// exCommand classifies one vim Ex command: a shell command after "!" as
// shell text, and the deny matchers over anything that can run or write.
func (c *call) exCommand(text string) {
	s := strings.TrimLeft(text, ": \t")
	for _, p := range []string{"silent!", "silent", "sil!", "sil", "exe", "execute"} {
		s = strings.TrimLeft(strings.TrimPrefix(s, p), " \t")
	}
	if strings.HasPrefix(s, "!") {
		c.shell(s[1:], c.name+" shell command", nil, false)
	}
	if strings.Contains(text, "system(") || strings.Contains(text, "!") || strings.HasPrefix(s, "w") || strings.HasPrefix(s, "r!") {
		c.e.scanText(text)
	}
}

// (postrotate, prerotate, firstaction); only a debug run (-d) runs none.
func logrotateProgram(c *call) (Tier, string) {
	vals := c.vals()
	if hasFlag(vals, 'd', "--debug") || len(vals) == 1 && (vals[0] == "--version" || vals[0] == "--help" || vals[0] == "--usage") {
		// -l writes its verbose log even in debug mode.
		r := raiser{TierRead, "logrotate -d: reports what it would do"}
		for _, f := range c.optVals(c.args, "-l", "--log") {
			r.raise(c.writeArg(f, "logrotate -l"))
		}
		return r.t, r.why
	}
	c.e.opaque = true
	return TierDestructive, "logrotate: runs the scripts of a configuration the classifier cannot see"
}

// nmapProgram: nmap scans (TierMutate: raw packets to other hosts), its
// scripts are Lua programs, and -o writes files.
func nmapProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, "nmap: scans other hosts"}
	for _, a := range c.args {
		v := a.val
		// nmap reads long options with getopt_long_only: --scr=x is
		// --script=x, and one dash does as well as two.
		name, _, _ := strings.Cut(strings.TrimLeft(v, "-"), "=")
		if strings.HasPrefix(v, "-") && len(name) >= 3 && (strings.HasPrefix("script", name) || strings.HasPrefix("datadir", name)) ||
			strings.HasPrefix(v, "--script") && !strings.HasPrefix(v, "--script-help") || v == "--interactive" || strings.HasPrefix(v, "--datadir") {
			c.e.opaque = true
			r.raise(TierDestructive, "nmap "+truncate(v, 64)+": runs Lua scripts")
		}
	}
	for _, f := range c.optVals(c.args, "-oN", "-oX", "-oG", "-oA", "-oS", "--resume", "--stylesheet") {
		if f.val != "-" {
			r.raise(c.writeArg(f, "nmap output"))
		}
	}
	return r.t, r.why
}

// patchProgram: patch writes the files it patches (TierMutate) and the
// files its -o and -r options name.
func patchProgram(c *call) (Tier, string) {
	if patchDryRun(c) {
		return TierRead, "patch --dry-run: prints what it would change"
	}
	r := raiser{TierMutate, "patch: changes the system"}
	for _, f := range c.optVals(c.args, "-o", "--output", "-r", "--reject-file") {
		r.raise(c.writeArg(f, "patch output"))
	}
	// The patch names the files it writes, relative to -d: at / or a
	// system directory they are the system's.
	for _, d := range c.optVals(c.args, "-d", "--directory") {
		r.raise(c.extractDir(d, "patch -d"))
	}
	return r.t, r.why
}
