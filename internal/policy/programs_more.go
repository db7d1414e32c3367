package policy

import (
	"strings"
)

// moreProgram classifies the remaining argument-dependent programs.
func moreProgram(c *call) (Tier, string) {
	vals := c.vals()
	ops := operands(vals)
	n := c.name
	switch n {
	case "cd", "pushd":
		return cdProgram(c)
	case "journalctl":
		for _, v := range vals {
			if v == "--" {
				break
			}
			for _, m := range []string{"--vacuum-size", "--vacuum-files", "--vacuum-time"} {
				if longFlag(v, m) {
					return TierDestructive, "journalctl " + v + ": deletes archived journal files, the host's log history"
				}
			}
			if longFlag(v, "--image") {
				// As systemd-analyze's: the image is attached to a
				// loop device and mounted to read its journal.
				return TierMutate, "journalctl --image: mounts a disk image"
			}
			for _, m := range []string{"--rotate", "--flush", "--sync",
				"--relinquish-var", "--smart-relinquish-var", "--setup-keys", "--update-catalog"} {
				if longFlag(v, m) {
					return TierMutate, "journalctl " + v + ": changes the journal"
				}
			}
		}
		// --cursor-file writes the last entry's cursor back to the file.
		r := raiser{TierRead, "journalctl"}
		for _, f := range c.optVals(c.args, "--cursor-file") {
			r.raise(c.writeArg(f, "journalctl --cursor-file"))
		}
		return r.t, r.why
	case "ip":
		return ipProgram(c)
	case "service":
		if t, why, ok := c.runnerScriptTier(); ok {
			return t, why
		}
		if len(ops) == 0 && !serviceListsOnly(vals) {
			// FreeBSD's service -R restarts every enabled service.
			return TierMutate, "service: restarts or controls services"
		}
		if len(ops) == 0 || hasFlag(vals, 0, "--status-all") {
			return TierRead, "service --status-all"
		}
		if len(ops) >= 2 {
			switch ops[1] {
			case "status", "onestatus", "rcvar", "onercvar":
				// FreeBSD's one* forms act whether or not the
				// service is enabled; rcvar prints its variables.
				return TierRead, "service " + ops[0] + " " + ops[1]
			case "stop", "onestop":
				if cutsAccess(ops[0]) {
					return TierDestructive, "service " + ops[0] + " " + ops[1] + ": can cut off access"
				}
			}
		}
		return TierMutate, "service: controls a service"
	case "dpkg":
		for _, v := range vals {
			if strings.HasPrefix(v, "--force") {
				return TierDestructive, "dpkg " + v + ": overrides package safety checks"
			}
		}
		// --status-logger starts its command with sh -c while dpkg reads
		// its options, before any action (a query too); the invoke hooks
		// run around the actions that change packages.
		hooks := c.optVals(c.args, "--status-logger", "--pre-invoke", "--post-invoke")
		for _, h := range hooks {
			c.shellArg(h, "dpkg hook command")
		}
		if len(hooks) > 0 {
			return TierDestructive, "dpkg " + truncate(hooks[0].val, 64) + ": runs a shell command"
		}
		var logged raiser
		for _, f := range c.optVals(c.args, "--log") {
			logged.raise(c.writeArg(f, "dpkg --log"))
		}
		if logged.t > TierRead {
			return logged.t, logged.why
		}
		for _, v := range vals {
			if v == "--" {
				break
			}
			act, ok := dpkgWriteAction(v)
			if !ok {
				continue
			}
			if act == 'r' || act == 'P' {
				for _, o := range ops {
					if essentialPackage(o) {
						return TierDestructive, "dpkg " + v + " " + o + ": removes an essential package"
					}
				}
			}
			if strings.IndexByte("xXeb", act) >= 0 {
				// dpkg runs dpkg-deb for these, which may extract over
				// the system.
				if t, why := dpkgDebProgram(c); t > TierMutate {
					return t, why
				}
			}
			return TierMutate, "dpkg " + v + ": changes packages or writes files"
		}
		return TierRead, "dpkg: queries packages"
	case "rpm":
		for _, m := range c.optVals(c.args, "-E", "--eval", "-D", "--define") {
			if !m.known || rpmMacroRuns(m.val) {
				if m.known {
					for _, x := range rpmShell(m.val) {
						c.shell(x, "rpm %( ) command", nil, false)
					}
				}
				c.e.opaque = true
				return TierDestructive, "rpm " + truncate(m.val, 64) + ": macro runs a shell command or Lua"
			}
		}
		for _, p := range c.optVals(c.args, "--pipe") {
			c.shellArg(p, "rpm --pipe command")
			return TierDestructive, "rpm --pipe: runs a command"
		}
		if (hasFlag(vals, 'V', "--verify") || hasFlag(vals, 'y', "")) && hasFlag(vals, 'p', "--package") && !hasFlag(vals, 0, "--noscripts") {
			// rpm -V runs each package's %verifyscript as it checks it
			// (--noscripts skips it); with -p the package is a file, and
			// its script one the classifier cannot see.
			c.e.opaque = true
			return TierDestructive, "rpm -V -p: runs the %verifyscript of a package file the classifier cannot see"
		}
		if hasFlag(vals, 0, "--specfile") {
			// Querying a spec file expands its macros: %(…) and %{lua:…} run.
			c.e.opaque = true
			return TierDestructive, "rpm --specfile: expands the macros of a spec file the classifier cannot see"
		}
		if len(c.optVals(c.args, "--macros", "--rcfile", "--load", "--dbpath", "--root", "-r")) > 0 {
			c.e.opaque = true
			return TierDestructive, "rpm: reads macros or a database the classifier cannot see"
		}
		for _, v := range vals {
			if v == "--nodeps" || strings.HasPrefix(v, "--force") || v == "--noscripts" && false {
				return TierDestructive, "rpm " + v + ": overrides package safety checks"
			}
		}
		query := false // -i after query mode (-qi, -q -i) is --info, not --install
		for _, v := range vals {
			short := len(v) > 1 && v[0] == '-' && v[1] != '-'
			qi, ii := strings.IndexByte(v, 'q'), strings.IndexByte(v, 'i')
			if v == "--query" || short && qi > 0 && (ii < 0 || qi < ii) {
				query = true
			}
			install := short && (strings.ContainsAny(v[1:], "UFe") || ii > 0 && !query)
			if install ||
				v == "--install" || v == "--upgrade" || v == "--freshen" || v == "--erase" || v == "--import" || v == "--rebuilddb" || v == "--initdb" || v == "--setperms" || v == "--setugids" || v == "--restore" ||
				v == "--reinstall" || v == "--setcaps" || v == "--addsign" || v == "--resign" || v == "--delsign" || v == "--delfilesign" {
				for _, o := range ops {
					if rpmEssential(o) && (strings.Contains(v, "e") || v == "--erase") {
						return TierDestructive, "rpm -e " + o + ": removes an essential package"
					}
				}
				return TierMutate, "rpm " + v
			}
		}
		return TierRead, "rpm: queries packages"
	case "pacman", "yay", "paru":
		if len(vals) > 0 {
			v := vals[0]
			switch {
			case (strings.HasPrefix(v, "-F") || v == "--files") && hasComputedOption(c):
				return TierMutate, n + " " + v + ": a word computed at run time can become -y, which refreshes the file databases"
			case (strings.HasPrefix(v, "-F") || v == "--files") && hasFlag(vals, 'y', "--refresh"):
				// -Fy downloads the file lists into /var/lib/pacman/sync,
				// as -Sy the package lists: -F -y and --files --refresh
				// too. Tier 1 runs where only the temporary directories
				// are writable, so it is tier 2.
				return TierMutate, n + " " + v + ": refreshes the file databases under /var/lib/pacman"
			case strings.HasPrefix(v, "-Q") || strings.HasPrefix(v, "-F") || v == "--query" || v == "--files" || v == "-V" || v == "--version" || v == "-h":
				return TierRead, n + " -Q"
			case strings.HasPrefix(v, "-S") && strings.Trim(v[2:], "sil") == "" && v != "-S":
				return TierRead, n + " " + v
			case strings.HasPrefix(v, "-R"):
				for _, o := range ops {
					if essentialPackage(o) {
						return TierDestructive, n + " " + v + " " + o + ": removes an essential package"
					}
				}
			}
		}
		for _, v := range vals {
			if strings.Contains(v, "dd") && strings.HasPrefix(v, "-R") || v == "--nodeps" || strings.HasPrefix(v, "--overwrite") {
				return TierDestructive, n + " " + v + ": overrides package safety checks"
			}
		}
		return TierMutate, n + ": changes packages"
	case "nginx":
		for k, v := range vals {
			if v == "-s" && k+1 < len(vals) {
				if vals[k+1] == "stop" || vals[k+1] == "quit" {
					return TierDestructive, "nginx -s " + vals[k+1] + ": stops the web server"
				}
				return TierMutate, "nginx -s " + vals[k+1]
			}
			if v == "-c" || v == "-g" {
				return TierMutate, "nginx " + v
			}
		}
		if len(vals) > 0 && onlyOps(vals, "-t", "-T", "-v", "-V", "-h", "-?", "-q", "-tq") {
			return TierRead, "nginx: tests or shows configuration"
		}
		return TierMutate, "nginx: starts the server"
	case "apachectl", "apache2ctl", "httpd", "apache2":
		if len(vals) > 0 && onlyOps(vals, "configtest", "-t", "-S", "-M", "-v", "-V", "status", "fullstatus", "-D", "DUMP_VHOSTS", "DUMP_MODULES") {
			return TierRead, n + ": tests or shows configuration"
		}
		if len(vals) > 0 && (vals[0] == "stop" || vals[0] == "graceful-stop" || vals[0] == "-k" && len(vals) > 1 && vals[1] == "stop") {
			return TierDestructive, n + " stop: stops the web server"
		}
		return TierMutate, n
	case "ansible":
		if t, why := ansibleInventory(c); t > TierRead {
			return t, why
		}
		// argparse takes -mshell, --module-name=shell and --mod shell;
		// with -a and no -m the module is command.
		mod := ""
		for _, m := range c.optVals(c.args, "-m", "--module-name") {
			mod = m.val
		}
		args := c.optVals(c.args, "-a", "--args")
		for _, a := range args {
			c.e.scanText(a.val)
		}
		if mod == "" && len(args) > 0 {
			mod = "command"
		}
		for _, v := range vals {
			if v == "--list-hosts" {
				return TierRead, "ansible --list-hosts"
			}
		}
		switch mod {
		case "ping", "setup", "gather_facts", "debug", "stat", "slurp", "service_facts", "package_facts":
			if t, why := ansibleAdhocRisk(c, mod, args); t > TierBenign {
				return t, why
			}
			return TierBenign, "ansible -m " + mod + ": reads facts from other hosts"
		case "shell", "command", "raw", "script", "ansible.builtin.shell", "ansible.builtin.command", "ansible.builtin.raw", "ansible.builtin.script":
			c.e.opaque = true
			return TierDestructive, "ansible -m " + mod + ": runs commands on other hosts"
		}
		return TierMutate, "ansible: changes other hosts"
	}
	return TierMutate, n
}

// ipMutations are ip(8) verbs that change state.
var ipMutations = set(`add del delete change chg replace set flush append prepend save restore attach
	detach update test identify exec add-port del-port deleteall delall allocspi setdefault`)

// ipProgram classifies ip(8): show commands read; verbs change; "ip netns
// exec NS cmd" runs cmd; taking a link down can cut the operator off.
func ipProgram(c *call) (Tier, string) {
	args := c.args
	vals := c.vals()
	for k, v := range vals {
		// ip takes "--opt" for "-opt" and any prefix of it (-ba, -bat).
		o := v
		if strings.HasPrefix(o, "--") {
			o = o[1:]
		}
		if strings.HasPrefix(o, "-b") && strings.HasPrefix("-batch", o) || o == "-force" {
			return TierDestructive, "ip -batch: runs commands from a file"
		}
		if v == "exec" && k >= 1 && (vals[k-1] == "netns" || vals[k-1] == "vrf") {
			if k+2 < len(args) {
				c.run(args[k+2:])
			}
			return TierMutate, "ip " + vals[k-1] + " exec"
		}
	}
	for k, v := range vals {
		if v == "down" && k > 0 {
			return TierDestructive, "ip link set down: takes an interface down"
		}
	}
	if why := ipCutsOff(vals); why != "" {
		return TierDestructive, why
	}
	if why := ipComputedVerb(c, vals); why != "" {
		c.e.opaque = true
		return TierDestructive, why
	}
	if obj := ipObject(vals); obj != "" && !ipKnownObject(obj) {
		return TierMutate, "ip " + truncate(obj, 32) + ": no object of iproute2's (on RouterOS, an ip menu: ip service disable ssh)"
	}
	for _, v := range vals {
		if routerOSVerbs[v] {
			return TierMutate, "ip … " + v + ": no verb of iproute2's, RouterOS's that changes its menu (ip address remove 0)"
		}
	}
	for _, v := range vals {
		if ipMutations[v] {
			return TierMutate, "ip " + v + ": changes network configuration"
		}
	}
	// ip link checks set, add, change, replace and delete before show, so
	// "ip l s eth0 up" sets; netns has no show, and for sr and mptcp the
	// order is taken the same way, toward caution; the other objects
	// check show first.
	if obj, v := ipVerb(vals); v != "" && (!ipReadVerb(v) || strings.HasPrefix("link", obj) ||
		len(obj) >= 3 && strings.HasPrefix("netns", obj) || strings.HasPrefix("sr", obj) ||
		len(obj) >= 2 && strings.HasPrefix("mptcp", obj)) {
		for m := range ipMutations {
			if strings.HasPrefix(m, v) {
				return TierMutate, "ip " + v + ": an abbreviated verb that changes network configuration"
			}
		}
	}
	return TierRead, "ip: shows network configuration"
}

// ipVerb returns ip's object and the word after it that chooses the
// action (ip -4 route VERB), or after its part for the objects that have
// parts (ip xfrm state VERB, ip mptcp endpoint VERB, ip sr tunsrc VERB, ip
// ioam namespace VERB), skipping global options and their values. ip
// takes the first object in its own order that a word begins: "s" is sr,
// "mp" mptcp, "io" ioam, "x" xfrm.
func ipVerb(vals []string) (string, string) {
	var words []string
	for i := 0; i < len(vals) && len(words) < 3; i++ {
		v := vals[i]
		if strings.HasPrefix(v, "-") {
			switch v {
			case "-n", "-netns", "-f", "-family", "-l", "-loops", "-rc", "-rcvbuf":
				i++
			}
			continue
		}
		words = append(words, v)
	}
	if len(words) < 2 {
		return "", ""
	}
	obj, at := words[0], 1
	if strings.HasPrefix("xfrm", obj) || strings.HasPrefix("sr", obj) ||
		len(obj) >= 2 && (strings.HasPrefix("mptcp", obj) || strings.HasPrefix("ioam", obj)) {
		at = 2
	}
	if at >= len(words) {
		return obj, ""
	}
	return obj, words[at]
}

// routerOSVerbs are the RouterOS menu commands that change state and that
// iproute2 has no verb for: over ssh to a MikroTik router, "ip address
// remove 0" removes an address where Linux's ip would fail.
var routerOSVerbs = set(`remove disable enable unset edit move comment reset import export`)

// ipObjects are iproute2's objects; ip takes any prefix of one.
var ipObjects = strings.Fields(`address addrlabel maddress route rule neighbor neighbour ntable ntbl link l2tp fou
	ila macsec tunnel tuntap tap token tcpmetrics tcp_metrics monitor xfrm mroute mrule netns netconf vrf sr
	nexthop mptcp ioam stats help`)

// ipKnownObject reports whether ip takes w for one of its objects. Any
// other word makes iproute2 fail; on RouterOS, whose shell an ssh host may
// be, ip is a menu whose verbs (remove, disable) the iproute2 reading
// does not know.
func ipKnownObject(w string) bool {
	for _, o := range ipObjects {
		if strings.HasPrefix(o, w) {
			return true
		}
	}
	return false
}

// ipObject returns ip's first word after its global options, or "".
func ipObject(vals []string) string {
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		if !strings.HasPrefix(v, "-") {
			return v
		}
		switch v {
		case "-n", "-netns", "-f", "-family", "-l", "-loops", "-rc", "-rcvbuf":
			i++
		}
	}
	return ""
}

// ipReadVerb reports whether ip would take the verb w, whole or as the
// prefix it accepts, for one of its showing verbs: ip checks show, list
// and lst before the verbs that change things, so "ip r s" shows.
func ipReadVerb(w string) bool {
	for _, r := range []string{"show", "list", "lst", "get", "help", "monitor"} {
		if strings.HasPrefix(r, w) {
			return true
		}
	}
	return false
}

// rpmShell returns the shell commands of %(…) macros in rpm macro text.
func rpmShell(s string) []string {
	var out []string
	for len(out) < maxAlts {
		i := strings.Index(s, "%(")
		if i < 0 {
			break
		}
		s = s[i+2:]
		depth, j := 1, 0
		for ; j < len(s) && depth > 0; j++ {
			switch s[j] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		out = append(out, strings.TrimSuffix(s[:j], ")"))
		s = s[j:]
	}
	return out
}

// dpkgWriteLong are dpkg's actions that change the package database or
// write files, with the short letter of each that has one (0 for none):
// its own and the dpkg-deb actions it passes on (--build, --extract,
// --vextract, --control). dpkg takes long names whole, never abbreviated.
var dpkgWriteLong = map[string]byte{
	"--install": 'i', "--unpack": 0, "--configure": 0, "--triggers-only": 0, "--remove": 'r', "--purge": 'P',
	"--update-avail": 0, "--merge-avail": 0, "--record-avail": 'A', "--forget-old-unavail": 0, "--clear-avail": 0,
	"--set-selections": 0, "--clear-selections": 0, "--add-architecture": 0, "--remove-architecture": 0,
	"--build": 'b', "--extract": 'x', "--vextract": 'X', "--control": 'e',
}

// dpkgWriteAction reports whether the dpkg option word v names an action
// that writes, and which (its short letter, or 'l' for a long-only one).
// Short options cluster (-Ei is --skip-same-version --install) up to -D,
// whose value is the rest of the word.
func dpkgWriteAction(v string) (byte, bool) {
	if strings.HasPrefix(v, "--") {
		name, _, _ := strings.Cut(v, "=")
		if f, ok := dpkgWriteLong[name]; ok {
			if f == 0 {
				f = 'l'
			}
			return f, true
		}
		return 0, false
	}
	if len(v) < 2 || v[0] != '-' {
		return 0, false
	}
	for i := 1; i < len(v) && v[i] != 'D'; i++ {
		if strings.IndexByte("irPAbxXe", v[i]) >= 0 {
			return v[i], true
		}
	}
	return 0, false
}

// hasComputedOption reports whether a word of c computed at run time can
// become an option.
func hasComputedOption(c *call) bool {
	_, ok := c.computedOption(c.args)
	return ok
}

// serviceListsOnly reports whether service's options, given no operand,
// only list or print: Debian's --status-all, --help and --version,
// FreeBSD's -e, -l and -r (with -v). FreeBSD's -R restarts every enabled
// local service, and an option not known here may act as well.
func serviceListsOnly(vals []string) bool {
	for _, v := range vals {
		switch {
		case v == "--status-all" || v == "--help" || v == "--version":
		case len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.Trim(v[1:], "elrvh") == "":
		default:
			return false
		}
	}
	return true
}
