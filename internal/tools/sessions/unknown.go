package sessions

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// The lists of readers (readers.go, partial.go, askers.go, elsewhere.go)
// name the programs warden knows to read the terminal, but a program that
// is on none of them may read it too: nslookup and terraform apply read
// their own lines, dpkg and fsck ask, pinentry and whiptail read keys. Were
// the model to take the shell to read the lines typed after one, a send
// such as "cat <<'EOF'⏎exit⏎touch x⏎EOF", a here-document to the model,
// gives nslookup the first line, ends it with the second and has the
// shell run touch. So a program is taken to leave the terminal alone only
// when warden knows it to (quietPrograms, quietWhen, or a reader list
// whose rule says it reads nothing); any other may be reading it, in a
// language of its own, and the session is adrift after it until Ctrl-C,
// as after a line reader (partial.go). One known only to ask a question
// given its arguments (rm on a read-only file, apt install) leaves an
// asker's leeway (askers.go): lines that are each a complete command on
// their own, typed without edit keys, read alike whether it or the shell
// takes them.

// quietPrograms never read the terminal: shell builtins and programs
// that only report or change files by their arguments.
var quietPrograms = setOf(
	// Reports.
	"ls", "dir", "vdir", "stat", "df", "du", "free", "uptime", "uname", "hostname", "whoami",
	"id", "groups", "who", "w", "last", "lastb", "lastlog", "users", "date", "cal", "ncal", "ps", "pgrep",
	"pidof", "pstree", "lsof", "ss", "netstat", "ip", "ifconfig", "route", "arp", "ping", "ping6",
	"traceroute", "traceroute6", "tracepath", "dig", "host", "getent", "which", "whereis", "printenv",
	"locale", "tty", "nproc", "lscpu", "lsblk", "lsusb", "lspci", "lsmod", "blkid", "findmnt", "dmesg",
	"journalctl", "man", "vmstat", "iostat",
	"mpstat", "sar", "pidstat", "sensors", "lshw", "dmidecode", "hwinfo", "inxi", "smartctl", "nvme",
	"readlink", "realpath", "basename", "dirname", "seq", "yes", "expr", "sleep", "sync", "nl", "arch",
	"getconf", "ldd", "iptables-save", "ip6tables-save", "sysctl", "modinfo", "zpool", "zfs",
	"pvs", "vgs", "lvs", "pvdisplay", "vgdisplay", "lvdisplay", "umount", "swapon", "swapoff", "showmount",
	"exportfs", "iw", "iwconfig", "ethtool", "brctl", "bridge", "tc", "conntrack", "wg", "dpkg-query", "rpm",
	"rg", "ag", "fd", "fdfind", "exa", "eza", "duf", "dust", "apt-cache", "apt-config", "apt-mark",
	"aa-status", "apropos", "whatis", "atq", "dnsdomainname", "dumpe2fs", "e2freefrag", "fc-list",
	"filefrag", "fuser", "getenforce", "sestatus", "hostid", "ifquery", "ifstat", "ipcalc", "sipcalc", "ipcs",
	"iwgetid", "klist", "locate", "plocate", "mlocate", "logname", "lsb_release", "lscgroup", "lsfd",
	"lsinitramfs", "lsipc", "lslocks", "lsmem", "lsns", "lsscsi", "lvscan", "mailq", "mountpoint",
	"named-checkconf", "named-checkzone", "namei", "nfsstat", "nstat", "ntpstat", "numastat", "nvidia-smi",
	"pg_lsclusters", "pmap", "postconf", "pveversion", "quota", "repquota", "runlevel", "smbstatus",
	"sockstat", "systemd-analyze", "systemd-cgls", "systemd-delta", "systemd-detect-virt", "uuidgen",
	"virt-what", "xfs_info", "zramctl", "whois", "upower", "vcgencmd",
	// File changes by their arguments.
	"mkdir", "rmdir", "touch", "chmod", "chown", "chgrp", "truncate", "install", "mktemp", "chattr",
	"lsattr", "setfacl", "getfacl", "mkfifo", "mknod", "rename", "shred", "fallocate",
)

// quietBuiltins are the shell's builtins that read nothing, whatever
// their arguments: "cd -" goes back, "echo -" prints.
var quietBuiltins = setOf(
	"cd", "pwd", "echo", "printf", "export", "unset", "set", "alias", "unalias", "type", "hash", "true", "false",
	"test", "[", ":", "shift", "local", "declare", "typeset", "readonly", "let", "jobs", "kill", "wait",
	"umask", "ulimit", "history", "dirs", "pushd", "popd", "shopt", "help", "times", "disown", "enable",
	"caller", "compgen", "complete", "compopt", "getopts", "break", "continue", "return", "exit", "logout",
	// What changes how keys are read is rekey.go's; printing it reads nothing.
	"trap", "bind", "stty", "clear",
)

// quietWhen are programs that leave the terminal alone given some
// arguments only.
var quietWhen = map[string]func(rest []string) bool{
	// tree --fromfile and ack -x (bundled too: -ix) or --files-from
	// (abbreviated) read the names they list from their input.
	// tput -S reads the capabilities it outputs from its input, a line
	// each (init and reset among them).
	"tput": func(r []string) bool {
		return !some(r, func(a string) bool { return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'S') })
	},
	// aureport --stdin (abbreviated: --std) reads the log from its input.
	"aureport": func(r []string) bool {
		return !some(r, func(a string) bool { return len(a) >= len("--std") && strings.HasPrefix("--stdin", a) })
	},
	"tree": func(r []string) bool { return !some(r, func(a string) bool { return strings.HasPrefix(a, "--from") }) },
	"ack": func(r []string) bool {
		return !some(r, func(a string) bool {
			return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'x') ||
				len(a) > len("--fi") && strings.HasPrefix("--files-from", strings.SplitN(a, "=", 2)[0])
		})
	},
	// rm and mv ask before removing or replacing a file that is not
	// writable when their input is a terminal, unless forced; cp asks
	// only when told to.
	"rm": forced, "mv": forced,
	"cp": func(r []string) bool { return !interactiveAsks(r) },
	// dpkg asks about a changed configuration file, and debconf its
	// questions, whatever -y says.
	"apt": aptQuiet, "apt-get": aptQuiet, "aptitude": aptQuiet,
	// find -ok asks before each file.
	// find -ok asks before each file; -exec runs a command with find's
	// input: handers.go sets find's rule (it reads this table).
	"git": gitQuiet,
	// systemctl asks for a password through polkit's terminal agent
	// for what it changes, when not run as root.
	"systemctl": ctlQuiet, "hostnamectl": ctlQuiet, "timedatectl": ctlQuiet, "localectl": ctlQuiet,
	"loginctl": ctlQuiet, "networkctl": ctlQuiet, "resolvectl": ctlQuiet, "machinectl": ctlQuiet,
	"nmcli":  func(r []string) bool { return !hasOpt(r, "-a", "--ask") },
	"docker": containerQuiet, "podman": containerQuiet, "nerdctl": containerQuiet,
	"kubectl": func(r []string) bool {
		switch firstWord(r) {
		case "get", "describe", "logs", "explain", "version", "api-resources", "api-versions", "top", "cluster-info":
			return !hasOpt(r, "-", "-i", "--stdin", "-f", "--follow") || firstWord(r) == "logs"
		}
		return false
	},
	"virsh": reports("list", "dominfo", "domstate", "nodeinfo", "version", "net-list", "pool-list", "vol-list",
		"dumpxml", "domifaddr", "domblklist", "capabilities", "uri", "hostname"),
	"lxc":   reports("list", "ls", "info", "version", "image", "config", "profile", "network", "storage", "remote"),
	"incus": reports("list", "ls", "info", "version", "image", "config", "profile", "network", "storage", "remote"),
	// curl reads its input for -d @-, -T - and -K -.
	"curl": func(r []string) bool {
		return !curlAsks(r) && !some(r, func(a string) bool { return a == "-" || strings.HasSuffix(a, "@-") }) &&
			!uploadsInput(r)
	},
	// npm init, login and exec ask; its reports do not.
	"npm": func(r []string) bool {
		switch firstWord(r) {
		case "ls", "list", "ll", "view", "info", "show", "outdated", "search", "help", "root", "prefix", "bin", "doctor":
			return true
		}
		return hasOpt(r, "-v", "--version")
	},
	// gzip, zstd and lz4 ask before replacing an output file that
	// exists; without a file they read their input (partial.go).
	"gzip": compressQuiet, "gunzip": compressQuiet, "pigz": compressQuiet, "unpigz": compressQuiet,
	"zstd": compressQuiet, "unzstd": compressQuiet, "lz4": compressQuiet,
	// perl's rename reads the names from its input when given none.
	"rename": func(r []string) bool { return len(operands(r)) >= 2 },
	// wg pubkey reads the private key from its input.
	"wg": func(r []string) bool { return firstWord(r) != "pubkey" },
	// zfs receive reads a stream from its input; load-key, change-key
	// and create (of an encrypted dataset) ask for a passphrase.
	"zfs": func(r []string) bool {
		switch firstWord(r) {
		case "receive", "recv", "load-key", "change-key", "create":
			return false
		}
		return true
	},
	// dpkg asks about changed configuration files when it installs or
	// configures, and reads selections from its input.
	"dpkg": func(r []string) bool {
		return !hasOpt(r, "-i", "--install", "--configure", "-a", "--pending", "--unpack", "--set-selections",
			"--merge-avail", "--update-avail", "-R", "--recursive")
	},
	// killall -i asks before each kill.
	"killall": func(r []string) bool { return !hasOpt(r, "-i", "--interactive") },
	"pkill":   func([]string) bool { return true },
	// mount without operands lists; with them it may ask for a share's
	// or a volume's password (mount.cifs, ecryptfs).
	"mount": func(r []string) bool { return len(operands(r)) == 0 },
	// tar reads its input when given no archive or "-".
	"tar": func(r []string) bool {
		for j, a := range r {
			if a == "-f" || a == "--file" || j == 0 && !strings.HasPrefix(a, "-") && strings.HasSuffix(a, "f") ||
				len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "f") {
				return j+1 < len(r) && r[j+1] != "-" && !namesTerminal(r[j+1])
			}
			if strings.HasPrefix(a, "--file=") {
				return a != "--file=-"
			}
		}
		return false
	},
	// pip uninstall asks; its reports do not.
	"pip":  pipQuiet,
	"pip3": pipQuiet,
	"wget": func(r []string) bool { return !hasOpt(r, "--ask-password", "-i", "--input-file") },
}

func aptQuiet(r []string) bool {
	return !pkgAsks([]string{firstWord(r)}) // as if without -y
}

// reports is quiet for the subcommands subs, which only print; a tool's
// other subcommands may attach a console, edit or ask.
func reports(subs ...string) func([]string) bool {
	return func(r []string) bool {
		for _, sub := range subs {
			if firstWord(r) == sub {
				return !hasOpt(r, "edit", "set", "unset", "-i", "--interactive")
			}
		}
		return false
	}
}

// ctlQuiet: systemd's tools ask for a password through polkit's
// terminal agent for what they change, when not run as root; their
// reports ask nothing.
func ctlQuiet(r []string) bool {
	switch w := firstWord(r); {
	case w == "", w == "status", w == "show", w == "cat", w == "help", w == "get-default", w == "is-system-running",
		strings.HasPrefix(w, "list"), strings.HasPrefix(w, "is-"), strings.HasPrefix(w, "show-"):
		return true
	}
	return hasOpt(r, "--version", "-h", "--help")
}

// compressQuiet: forced, to its output, only listing or testing, or
// reading its input, which partial.go decides.
func compressQuiet(r []string) bool {
	return len(operands(r)) == 0 || hasOpt(r, "-f", "--force", "-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test") ||
		some(r, func(a string) bool {
			return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a, "fclt")
		})
}

// operands are the words of rest that are not options.
func operands(rest []string) []string {
	var ops []string
	for _, a := range rest {
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	return ops
}

// namesInput reports whether one of a program's words names its input or
// the terminal as a file: "-", "--file=-", /dev/stdin, /dev/tty (ip
// -batch -, date -f -, setfacl --restore=-, dig -f -).
func namesInput(rest []string) bool {
	return some(rest, func(a string) bool {
		_, v, found := strings.Cut(a, "=")
		return a == "-" || found && v == "-" || namesTerminal(a) || found && namesTerminal(v)
	})
}

// uploadsInput reports whether curl's -T or --upload-file is ".", its
// input read as it comes.
func uploadsInput(r []string) bool {
	for j := 0; j+1 < len(r); j++ {
		if (r[j] == "-T" || r[j] == "--upload-file") && r[j+1] == "." {
			return true
		}
	}
	return slices.Contains(r, "-T.") || slices.Contains(r, "--upload-file=.")
}

func pipQuiet(r []string) bool {
	switch firstWord(r) {
	case "list", "show", "freeze", "check", "config", "debug", "help", "index", "inspect":
		return true
	}
	return hasOpt(r, "-V", "--version")
}

// forced reports whether rm or mv is told neither to ask nor to stop.
func forced(r []string) bool {
	return !interactiveAsks(r) && some(r, func(a string) bool {
		return a == "--force" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'f')
	})
}

// containerQuiet: docker and podman's reports; the rest may read the
// input (load, import, build -, cp -), attach it, or ask (prune, login).
func containerQuiet(r []string) bool {
	switch firstWord(r) {
	case "ps", "images", "logs", "inspect", "version", "info", "top", "port", "history", "stats", "events", "diff":
		return !some(r, func(a string) bool { return a == "-" || a == "-i" || a == "--interactive" })
	}
	return false
}

// ttyKeys are lineReaders that read keys from the terminal itself even
// when given a file: the pagers.
var ttyKeys = setOf("less", "more", "most", "pg")

// wrapperLongValues are, per wrapper, the long options that take the next
// word as their value, which may name a program (a user named man).
var wrapperLongValues = map[string]string{
	"sudo":    "--user --group --host --prompt --role --type --close-from --chdir --chroot --other-user --command-timeout",
	"env":     "--unset --chdir",
	"runuser": "--user --group --supp-group --shell --command --session-command",
	"setpriv": "--reuid --regid --ruid --euid --rgid --egid --groups --inh-caps --ambient-caps --bounding-set " +
		"--securebits --pdeathsig --selinux-label --apparmor-profile --landlock-access --landlock-rule",
	"systemd-run": "--unit --property --description --slice --uid --gid --working-directory --nice --setenv " +
		"--machine --host --on-active --on-boot --on-startup --on-calendar --timer-property --path-property " +
		"--socket-property --service-type --expand-environment",
	"unshare": "--map-user --map-group --setuid --setgid --wd --root --propagation --setgroups",
	"ionice":  "--class --classdata --pid --pgid --uid",
	"nice":    "--adjustment",
	"timeout": "--signal --kill-after",
	"stdbuf":  "--input --output --error",
}

// operandFirst are the wrappers that take an operand of their own before
// the program they run.
var operandFirst = setOf("flock", "sg", "chroot", "faketime", "taskset", "chrt")

// wrapperValues are, per wrapper, the short options that take the next
// word as their value.
var wrapperValues = map[string]string{
	"sudo": "ugCDhprtUT", "doas": "uC", "nice": "n", "ionice": "cnp", "timeout": "ks", "runuser": "ugl",
	"chroot": "", "exec": "a", "env": "uCS", "stdbuf": "ioe", "taskset": "", "setpriv": "", "systemd-run": "upEM", "sshpass": "pfd",
}

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// unknownReaders says why the complete commands text start a program
// warden does not know to leave the terminal alone, or returns "". asks
// says every such program only asks a question (questioners), whose
// answer is a line of data; any other may read the lines typed next in a
// language of its own (supervisorctl's "clear all" is a write, nslookup's
// lines are queries), so none of them can be classified as the shell's.
func unknownReaders(text string) (why string, asks bool) {
	return unknownIn(text, 0)
}

func unknownIn(text string, depth int) (why string, asks bool) {
	if depth > rekeyDepth {
		return "a program in strings nested too deep to follow, which may read the terminal", false
	}
	f, err := policy.ParseBash(text)
	if err != nil {
		return "", false
	}
	asks = true
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok {
			if w, a := unknownCall(literals(c.Args), depth); w != "" && (why == "" || asks && !a) {
				why, asks = w, a
			}
		}
		return why == "" || asks
	})
	return why, why != "" && asks
}

// unknownCall says why the simple command vals runs a program that may
// read the terminal and that no rule of warden's decides, or returns "",
// and whether it only asks a question. Its program is the first word or,
// after a wrapper, the first word that is none of the wrapper's options,
// assignments or durations; the code string of sh -c and eval is read as
// commands too.
func unknownCall(vals []string, depth int) (why string, asks bool) {
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		b := progName(v)
		if i > 0 && (strings.HasPrefix(v, "-") || strings.Contains(v, "=") || isDuration(v)) {
			continue
		}
		switch {
		case strings.ContainsRune(v, 0) || v == "":
			return "a command whose name is computed at run time may read the lines typed next", false
		case strings.Contains(v, "/") && !systemBin(v):
			// ./ls, /tmp/x/sudo: a program of that name elsewhere than
			// the system's is anything.
			return truncate(v, 48) + " is a program of its own, not the system's " + b +
				", so the lines typed next may be its input in a language of its own, not the shell's", false
		case b == "command" && hasOpt(vals[i+1:], "-v", "-V"):
			return "", false // it only looks a name up
		case wrappers[b] || wrapper[b] || b == "sshpass":
			// sudo -u bob: the value of an option is no program.
			for i+1 < len(vals) && strings.HasPrefix(vals[i+1], "-") {
				o := vals[i+1]
				if s, ok := splitString(b, o, vals[i+2:]); ok {
					// env -S 'prog args' runs the command in its string.
					return unknownIn(s, depth+1)
				}
				// -u bob, and -nu bob: the last of a cluster takes it;
				// so do some long options (env --unset man ./tool).
				if len(o) >= 2 && o[1] != '-' && strings.IndexByte(wrapperValues[b], o[len(o)-1]) >= 0 ||
					slices.Contains(strings.Fields(wrapperLongValues[b]), o) {
					i++
				}
				i++
			}
			// flock's lock file, sg's group, chroot's root come before
			// the program: "flock man ./tool" runs ./tool, not man. A
			// root other than / holds programs of its own.
			if operandFirst[b] && i+1 < len(vals) {
				if b == "chroot" && path.Clean(vals[i+1]) != "/" {
					return "chroot runs a program of the root " + truncate(vals[i+1], 48) + ", not the system's, " +
						"so the lines typed next may be its input in a language of its own, not the shell's", false
				}
				i++
			}
			continue
		case b == "eval":
			return unknownIn(strings.Join(vals[i+1:], " "), depth+1)
		case shells[b] || stringRunners[b]:
			// A shell with a script or its input is unreadCode's and
			// readers.go's; with -c its string is commands.
			for j := i + 1; j+1 < len(vals); j++ {
				if a := vals[j]; len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'c') {
					return unknownIn(vals[j+1], depth+1)
				}
			}
			// rekey.go ends the model at a shell of another language
			// named where a program stands; after a wrapper's option
			// value (nice -n 5 zsh, exec -a x ksh) it may not know it
			// for one, and the shell reads what is typed next.
			if shells[b] && !followedShells[b] && shellInteractive(vals[i+1:]) {
				return b + " is a shell whose language or line editing warden does not follow, and it reads " +
					"the lines typed next", false
			}
			return "", false
		}
		rest := vals[i+1:]
		switch {
		case knownReader(b, rest):
			return "", false
		case questioners[b] && !namesInput(rest):
			return b + " may ask a question on the terminal given these arguments (a confirmation, a password), " +
				"which takes the lines typed next", true
		case quietWhen[b] != nil:
			return b + " may read the terminal given these arguments, in a language of its own or as its input, " +
				"so the lines typed next may not be the shell's", false
		}
		return truncate(b, 32) + " is not known to leave the terminal alone, so the lines typed next may be its input " +
			"in a language of its own, not the shell's", false
	}
	return "", false
}

// splitString is the command string of env's -S (--split-string) option
// o, whose value is the next word or attached, and whether o is one.
func splitString(b, o string, next []string) (string, bool) {
	if b != "env" {
		return "", false
	}
	switch {
	case o == "-S" || o == "--split-string":
		if len(next) > 0 {
			return strings.Join(next, " "), true
		}
	case strings.HasPrefix(o, "--split-string="):
		return strings.TrimPrefix(o, "--split-string=") + " " + strings.Join(next, " "), true
	case strings.HasPrefix(o, "-S"):
		return o[2:] + " " + strings.Join(next, " "), true
	}
	return "", false
}

// systemBin reports whether the program path p is in one of the
// system's program directories, where a name means the program warden
// knows by it.
func systemBin(p string) bool {
	switch path.Dir(path.Clean(p)) {
	case "/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/usr/libexec", "/opt/bin":
		return true
	}
	return false
}

// questioners are the programs of quietWhen that, given arguments that
// make them read the terminal, only ask a question: their answer is a
// line of data, so the session keeps an asker's leeway (askers.go).
var questioners = setOf("rm", "mv", "cp", "killall", "pip", "pip3", "apt", "apt-get", "aptitude", "find", "systemctl", "hostnamectl",
	"timedatectl", "localectl", "loginctl", "networkctl", "resolvectl", "machinectl", "nmcli", "npm", "gzip",
	"gunzip", "pigz", "unpigz", "zstd", "unzstd", "lz4", "dpkg")

// knownReader reports whether a rule of warden's decides whether program
// b with arguments rest reads the terminal: it leaves it alone, or one of
// the reader lists covers it.
func knownReader(b string, rest []string) bool {
	switch {
	case quietBuiltins[b]:
		return true
	case ttyKeys[b]:
		return false
	case lineReaders[b] != 0 || b == "dd":
		// partial.go decides, "-" included; some ask as well.
		q := quietWhen[b]
		return q == nil || q(withoutGlobalValues(b, rest))
	case namesInput(rest) && !quietNamers[b]:
		return false
	case quietWhen[b] != nil:
		return quietWhen[b](withoutGlobalValues(b, rest))
	case quietPrograms[b] || askers[b] != nil:
		return true
	}
	if k, ok := readerKind(b); ok {
		// A debugger in batch mode still runs its program on the
		// terminal (debuggers.go).
		return k != 'g' || debuggerVersion(rest)
	}
	switch elsewhereKinds[b] {
	case 'h', 'n', 'a', 'e':
		return true
	}
	return false
}
