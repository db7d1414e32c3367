package policy

import (
	"path"
	"regexp"
	"strings"
)

// Killing init or every process, whichever way the processes are chosen.
// kill takes its ids as strtol does (-01, +1, " 1" are -1 and 1), and
// util-linux's kill takes process names too; pkill and killall -r take an
// extended regular expression matched anywhere in the name (with -f the
// command line), so '', '.', 'd', 'sys' and '/sbin/init' reach PID 1 as
// "systemd" does, and pkill --inverse reaches it with any pattern init's
// name does not match. PID 1 signalled is the machine going down (systemd
// reboots on SIGINT, powers off on SIGRTMIN+4; busybox init and procd
// reboot on SIGTERM), and a pattern that matches init matches nearly
// every other process too.

// initNames are PID 1's process names on the hosts warden serves;
// initCmdlines are its command lines, for pkill -f.
var (
	initNames    = []string{"systemd", "init", "procd", "runit", "s6-svscan", "openrc-init", "dinit", "shepherd", "launchd"}
	initCmdlines = []string{"/sbin/init", "/sbin/init splash", "/lib/systemd/systemd --system --deserialize 31",
		"/usr/lib/systemd/systemd --switched-root --system --deserialize=31", "/sbin/procd", "init [2]"}
	initNameSet = set(strings.Join(initNames, " "))
)

// pidWord returns p as kill reads a process id ("-01" is "-1", "+1" and
// " 1" are "1"), or p when it is not a number.
func pidWord(p string) string {
	s := strings.TrimSpace(p)
	sign := ""
	if s != "" && (s[0] == '-' || s[0] == '+') {
		sign, s = s[:1], s[1:]
	}
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return p
	}
	s = strings.TrimLeft(s, "0")
	if s == "" {
		s = "0"
	}
	if sign == "+" {
		sign = ""
	}
	return sign + s
}

// initProcess reports whether a kill operand names PID 1 or every
// process: by number, or by name as util-linux's kill takes it.
func initProcess(p string) bool {
	n := pidWord(p)
	return n == "1" || n == "-1" || initNameSet[strings.TrimPrefix(n, "-")]
}

// signalName reports whether w (without its "-") is a signal as pkill and
// killall read a first option: a number, or a name with or without SIG
// in any case (-9, -KILL, -sigterm, -RTMIN+4).
func signalName(w string) bool {
	if w == "" {
		return false
	}
	if strings.Trim(w, "0123456789") == "" {
		return true
	}
	u := strings.TrimPrefix(strings.ToUpper(w), "SIG")
	if strings.HasPrefix(u, "RTMIN") || strings.HasPrefix(u, "RTMAX") {
		return true
	}
	return signalNames[u]
}

var signalNames = set(`HUP INT QUIT ILL TRAP ABRT IOT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM
	STKFLT CHLD CLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO POLL PWR SYS`)

// procMatcher is how pkill or killall picks processes, as read from its
// words: the patterns, and what narrows or turns the match.
type procMatcher struct {
	pats             []string
	regex, full      bool // patterns are regular expressions; -f: against command lines
	exact, fold, inv bool
	narrowed         bool // an option keeps PID 1 out (-t, -n, another user)
	all              bool // an option selects root's processes or init's children (-u root, -P 1)
}

// matcherOpts are pkill's and killall's options that take a value; of
// those, keep are the ones that leave PID 1 among the processes matched
// (a signal, a delimiter, older than, parent 1), and -u/--user/--euid/--uid
// do when the value names root. Every other one narrows the match to
// processes init is not among (a terminal, a session, another user).
var matcherOpts = map[string]struct{ short, long, keep string }{
	"pkill": {"dgGPstuUFqrO", "--delimiter --pgroup --group --parent --session --terminal --euid --uid --pidfile --queue --runstates --older --signal --ns --nslist --cgroup --logpidfile",
		"d --delimiter q --queue O --older --signal --nslist"},
	"killall": {"yosunZ", "--younger-than --older-than --signal --user --ns --context",
		"o --older-than s --signal"},
}

// readMatcher reads pkill's or killall's words.
func readMatcher(name string, args []string) procMatcher {
	pgrep := name == "pgrep"
	if pgrep {
		name = "pkill"
	}
	m := procMatcher{regex: name == "pkill"}
	spec := matcherOpts[name]
	longVal := strings.Fields(spec.long)
	keep := set(spec.keep)
	narrow := func(opt, val string) {
		switch opt {
		case "u", "U", "--euid", "--uid", "--user":
			for _, u := range strings.Split(val, ",") {
				if u == "root" || pidWord(u) == "0" {
					m.all = true
					return
				}
			}
			m.narrowed = true
		case "P", "--parent":
			// The children of init are every service.
			for _, p := range strings.Split(val, ",") {
				if pidWord(p) == "1" || pidWord(p) == "0" {
					m.all = true
					return
				}
			}
			m.narrowed = true
		default:
			m.narrowed = m.narrowed || !keep[opt]
		}
	}
	flag := func(c byte) {
		switch c {
		case 'f':
			m.full = name == "pkill"
		case 'x':
			m.exact = m.exact || name == "pkill"
		case 'e':
			m.exact = m.exact || name == "killall"
		case 'r':
			m.regex = m.regex || name == "killall"
		case 'i':
			m.fold = m.fold || name == "pkill"
		case 'I':
			m.fold = m.fold || name == "killall"
		case 'v':
			m.inv = m.inv || pgrep
		case 'n':
			// pkill -n: the newest process only (killall's -n takes a value).
			m.narrowed = m.narrowed || name == "pkill"
		}
	}
	first := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			m.pats = append(m.pats, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			m.pats = append(m.pats, a)
			continue
		}
		if first && signalName(a[1:]) {
			first = false
			continue
		}
		first = false
		if strings.HasPrefix(a, "--") {
			opt, val, hasVal := strings.Cut(a, "=")
			full := ""
			for _, l := range []string{"--full", "--exact", "--regexp", "--ignore-case", "--inverse", "--newest", "--terminal"} {
				if longFlag(opt, l) {
					full = l
				}
			}
			for _, l := range longVal {
				if longFlag(opt, l) {
					full = l
				}
			}
			switch full {
			case "--full":
				m.full = name == "pkill"
			case "--exact":
				m.exact = true
			case "--regexp":
				m.regex = true
			case "--ignore-case":
				m.fold = true
			case "--inverse":
				m.inv = name == "pkill"
			case "--newest":
				m.narrowed = true
			case "":
			default:
				if !hasVal && i+1 < len(args) {
					i++
					val = args[i]
				}
				narrow(full, val)
			}
			continue
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			if strings.IndexByte(spec.short, c) >= 0 {
				val := a[k+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i]
				}
				narrow(string(c), val)
				break
			}
			flag(c)
		}
	}
	return m
}

// matchesInit returns the name or command line of PID 1 that m's
// patterns reach, or "".
func (m procMatcher) matchesInit() string {
	if m.narrowed {
		return ""
	}
	if len(m.pats) == 0 && m.all {
		// No pattern: every process the options select, root's or
		// init's children (pkill -u root, killall -u root, pkill -P 1).
		return "every process of root or child of init"
	}
	for _, p := range m.pats {
		if !m.regex {
			// killall NAME: the name, or the program's path.
			b := p
			if strings.Contains(p, "/") {
				b = p[strings.LastIndexByte(p, '/')+1:]
			}
			if initNameSet[b] || m.fold && initNameSet[strings.ToLower(b)] {
				return b
			}
			continue
		}
		expr := p
		if m.exact {
			expr = "^(?:" + expr + ")$"
		}
		if m.fold {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			continue
		}
		targets := initNames
		if m.full {
			targets = append(append([]string(nil), initNames...), initCmdlines...)
		}
		if m.inv {
			// --inverse: init is signalled unless the pattern matches it.
			if !re.MatchString("systemd") && !re.MatchString("/sbin/init") {
				return "systemd (--inverse " + truncate(p, 32) + ")"
			}
			continue
		}
		for _, t := range targets {
			if re.MatchString(t) {
				return t
			}
		}
	}
	return ""
}

// pkillDeny denies a pkill or killall whose patterns reach PID 1.
func pkillDeny(name string, args []string) string {
	m := readMatcher(name, args)
	if t := m.matchesInit(); t != "" && len(m.pats) == 0 {
		return name + ": signals " + t + ", PID 1 and sshd among them"
	} else if t != "" {
		return name + ": the pattern matches " + t + ", PID 1, and with it nearly every process"
	}
	return ""
}

// everyUnit are units whose stop, kill or freeze takes every service down
// with it, sshd and the network included: the slices all services and
// logins run in, and sysinit.target, which every service with default
// dependencies requires.
var everyUnit = set(`-.slice system.slice user.slice sysinit.target`)

// everyUnitSample is what a pattern that matches every unit matches.
var everyUnitSample = []string{"ssh.service", "sshd.service", "dbus.service", "systemd-networkd.service", "nginx.service"}

// systemctlAllDeny denies stopping, killing or freezing every service:
// one of everyUnit, in any spelling systemctl mangles to it, or a pattern
// that matches every service ('*', '*.service').
func systemctlAllDeny(args []string) string {
	i := subWordIndex("systemctl", args)
	if i >= len(args) {
		return ""
	}
	verb := args[i]
	if verb != "stop" && verb != "kill" && verb != "freeze" {
		return ""
	}
	for _, a := range operands(args[i+1:]) {
		u := strings.TrimSuffix(a, "/")
		if everyUnit[u] {
			return "systemctl " + verb + " " + a + ": takes every service down, sshd included"
		}
		if !strings.ContainsAny(u, "*?[") {
			continue
		}
		all := true
		for _, s := range everyUnitSample {
			if ok, _ := path.Match(u, s); !ok {
				all = false
				break
			}
		}
		for n := range everyUnit {
			if ok, _ := path.Match(u, n); ok {
				all = true
			}
		}
		if all {
			return "systemctl " + verb + " " + a + ": the pattern matches every service, sshd included"
		}
	}
	return ""
}

// killSubstDeny denies a kill whose process ids are looked up at run time
// by init's name or a pattern that reaches it: kill -9 $(pidof systemd),
// kill $(pgrep -f .), kill `pgrep -v x`.
func killSubstDeny(args []arg) string {
	for _, a := range args {
		words := substWords(a)
		if len(words) == 0 {
			continue
		}
		prog := path.Base(words[0])
		switch prog {
		case "pidof":
			for _, w := range words[1:] {
				if initNameSet[path.Base(w)] {
					return "kill " + truncate(a.val, 64) + ": signals PID 1, " + w
				}
			}
		case "pgrep", "ps", "lsof":
			if why := pidListDeny(prog, words[1:]); why != "" {
				return "kill " + truncate(a.val, 64) + ": " + why
			}
		}
	}
	return ""
}

// substWords returns the words of a simple command substitution that an
// unknown argument is ($(pidof sshd), `pgrep -f x`), or nil.
func substWords(a arg) []string {
	if a.known {
		return nil
	}
	inner := a.val
	if i := strings.Index(inner, "$("); i >= 0 && strings.HasSuffix(inner, ")") {
		inner = inner[i+2 : len(inner)-1]
	} else if i := strings.IndexByte(inner, '`'); i >= 0 && strings.HasSuffix(inner, "`") && len(inner) > i+1 {
		inner = inner[i+1 : len(inner)-1]
	} else {
		return nil
	}
	if strings.ContainsAny(inner, "|;&$`<>") {
		return nil
	}
	return strings.Fields(unquote.Replace(inner))
}

// fuserDeny denies fuser -k of every process: those using / (every
// process has it as its root directory), or with -m the file system of a
// system directory.
func fuserDeny(args []string) string {
	if !getoptFlag(args, 'k', "--kill", "") {
		return ""
	}
	mount := getoptFlag(args, 'm', "--mount", "")
	for _, o := range operands(args) {
		if isRoot(o) || mount && criticalPath(o) {
			return "fuser -k " + o + ": kills every process using the file system the system runs from"
		}
	}
	return ""
}

// skillDeny denies skill (and snice's kill) naming init by command or pid.
func skillDeny(args []string) string {
	for i, a := range args {
		v := a
		if (a == "-c" || a == "-p") && i+1 < len(args) {
			v = args[i+1]
		} else if strings.HasPrefix(a, "-") {
			continue
		}
		if initNameSet[v] || pidWord(v) == "1" {
			return "skill " + v + ": signals PID 1"
		}
	}
	return ""
}

// killDeny denies killing init or every process.
func killDeny(args []string) string {
	if killZero(args) {
		return ""
	}
	var pids []string
	sigDone := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pids = append(pids, args[i+1:]...)
			i = len(args)
		case a == "-s" || a == "-n" || a == "--signal":
			i++
			sigDone = true
		case a == "-l" || a == "-L" || a == "--list" || a == "--table":
			return ""
		case !sigDone && len(a) > 1 && a[0] == '-':
			sigDone = true
			if a == "-1" && len(args) == 1 {
				return "kill -1: signals every process"
			}
		default:
			pids = append(pids, a)
		}
	}
	for _, p := range pids {
		if initProcess(p) {
			return "kill " + p + ": kills init or every process"
		}
	}
	return ""
}

// killZero reports whether kill sends signal 0, which only asks whether
// the processes exist (kill -0 1): -0 or -s 0 and positive process ids,
// no other option that a kill could read as the signal.
func killZero(args []string) bool {
	zero := false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-0":
			zero = true
		case (a == "-s" || a == "-n" || a == "--signal") && i+1 < len(args) && args[i+1] == "0":
			zero = true
			i++
		case a == "--":
		case strings.HasPrefix(a, "-"):
			return false
		}
	}
	return zero
}
