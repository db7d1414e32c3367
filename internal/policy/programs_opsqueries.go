package policy

import "strings"

// The query modes of an operator's network, VPN, DNS and monitoring
// tools: OpenVPN's listings of what its TLS library offers, vnStat's
// traffic reports, BIND's rndc status reports, strongSwan's swanctl and
// ipsec listings, Headscale's listings, lldpd's neighbour listing,
// needrestart's batch and list modes and iperf3's client. Each tool's
// read-only grammar is listed whole, so a mode that starts a tunnel,
// writes a database, reloads a server, restarts services or listens
// stays tier 2, and one that stops a name server or tears tunnels down
// (or restarts services unasked) is tier 3.

// opsQueryProgram returns the handler of one of these tools, or nil.
func opsQueryProgram(name string) func(*call) (Tier, string) {
	switch name {
	case "openvpn":
		return openvpnProgram
	case "vnstat":
		return vnstatProgram
	case "rndc":
		return rndcProgram
	case "swanctl":
		return swanctlProgram
	case "needrestart":
		return needrestartProgram
	case "iperf3":
		return iperf3Program
	case "lldpctl":
		return lldpctlProgram
	case "nix-env":
		return nixEnvProgram
	case "emerge":
		return emergeProgram
	}
	return nil
}

// opsQueryTables are the subcommand tables of strongSwan's ipsec script
// and of Headscale's client.
var opsQueryTables = map[string]subTable{
	// strongSwan's starter script: status and the list commands print
	// the charon daemon's state (listcounters too: resetcounters is the
	// one that clears them); stop and down tear the tunnels down, and
	// start, restart, up, reload, reread*, purge* and the rest change
	// the daemon's state. Libreswan's ipsec status reads as well.
	"ipsec": sub(`status|statusall|listall|listpubkeys|listcerts|listcacerts|listaacerts|listocspcerts|listacerts|
		listgroups|listcainfos|listcrls|listocsp|listalgs|listplugins|listcounters|leases|version|
		--version|--versioncode|--copyright|--help|--confdir|--piddir|--directory`,
		``, `stop|down`, TierRead, TierMutate, "", ""),
	// Headscale's cobra client: the list commands of each group (under
	// its aliases: nodes is node, machine, machines or m; users user,
	// namespace(s) or ns; ls and show are list), policy get and version
	// read; register, expire, rename, move, tag, approve-routes, create,
	// serve and the rest change the coordination server, and deleting
	// a node or user drops it from the tailnet.
	"headscale": sub(`version|help|--help|-h|--version|-v|completion|
		nodes list|nodes ls|nodes show|node list|node ls|node show|machine list|machine ls|machines list|machines ls|
		m list|m ls|nodes list-routes|node list-routes|
		users list|users ls|users show|user list|user ls|user show|namespace list|namespace ls|namespaces list|
		namespaces ls|ns list|ns ls|
		routes list|routes ls|route list|route ls|r list|r ls|
		preauthkeys list|preauthkeys ls|preauthkeys show|preauthkey list|preauthkey ls|authkey list|pre list|pre ls|
		apikeys list|apikeys ls|apikeys show|apikey list|apikey ls|api list|api ls|
		policy get`,
		``, `nodes delete|node delete|machine delete|machines delete|m delete|users destroy|user destroy|users delete|
		user delete|namespaces destroy|namespace destroy|ns destroy|routes delete|route delete|r delete`,
		TierRead, TierMutate, "co", "--config --output"),
}

// openvpnReads are OpenVPN's options that print what its crypto library
// offers, its version or its usage and exit. Every other form starts a
// tunnel (or writes a key, --genkey), which needs the network and
// root: tier 2. OpenVPN takes long options whole, never abbreviated.
var openvpnReads = set(`--show-ciphers --show-digests --show-tls --show-curves --show-groups --show-engines
	--version --help`)

// openvpnProgram classifies openvpn: alone it prints its usage.
func openvpnProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		if !a.known || !openvpnReads[a.val] {
			return TierMutate, "openvpn: starts a tunnel"
		}
	}
	return TierRead, "openvpn: prints what it supports"
}

// vnstatReads are vnStat's query options (1.x's and 2.x's): vnstat
// compares each word whole, so -hg and -ru are options of their own,
// never clusters, and --opt=value is not its syntax. -l runs until
// stopped, still only reading the interface counters. The options that
// add, remove, rename, alias, reset, rebuild, import, sync, enable or
// disable an interface, and 1.x's -u, write its database.
var vnstatReads = set(`-q --query -h --hours -hg --hoursgraph -d --days -m --months -y --years -w --weeks
	-t --top -5 --fiveminutes -s --short -l --live -tr --traffic --oneline --json --xml --alert --limit
	-ru --rateunit -D --debug -v --version -? --help --longhelp --iflist --dbiflist --dumpdb --exportdb
	--style --locale --config --dbdir -i --iface -b --begin -e --end`)

// vnstatValues are the query options that always take a value; the
// others' optional values (-d 7, --json d, -l 1) are operands here,
// and an operand never makes vnstat write.
var vnstatValues = set(`--style --locale --config --dbdir -i --iface -b --begin -e --end`)

// vnstatProgram classifies vnstat: tier 0 with query options only. A
// value computed at run time is still a value (-i "$IFACE"); another
// computed word may be an option.
func vnstatProgram(c *call) (Tier, string) {
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known {
			return TierMutate, "vnstat: option computed at run time (it may write the database)"
		}
		if !strings.HasPrefix(a.val, "-") || a.val == "-" {
			continue
		}
		if !vnstatReads[a.val] {
			return TierMutate, "vnstat " + truncate(a.val, 32) + ": not a query option (it may write the database)"
		}
		if vnstatValues[a.val] {
			i++
		}
	}
	return TierRead, "vnstat: traffic report"
}

// rndcReads are the rndc commands that report the name server's state,
// as their first one or two words. secroots, dumpdb, recursing and
// stats write a file in named's directory; querylog alone toggles
// logging; stop and halt stop the server.
var (
	rndcReads = phrases(`status|zonestatus|showzone|tsig-list|managed-keys status|validation status|
		serve-stale status|signing -list|dnssec -status|nta -dump`)
	rndcTwoWord = set(`managed-keys validation serve-stale signing dnssec nta`)
)

// rndcProgram classifies rndc. Its getopt stops at the command, whose
// words named compares ignoring case (rndc STOP stops it).
func rndcProgram(c *call) (Tier, string) {
	rest, ok := leadingOpts(c.args, "46hMmqrV", "bckpsty")
	for _, s := range c.optVals(c.args[:len(c.args)-len(rest)], "-s") {
		if !s.known && len(c.e.p.denyHosts) > 0 {
			c.e.opaque = true
			return TierDestructive, "rndc -s " + truncate(s.val, 64) + ": a server known only at run time may be one the host rules deny"
		}
		c.checkHost(s.val)
	}
	if !ok {
		return TierMutate, "rndc: options not known to be read-only"
	}
	if len(rest) == 0 {
		return TierRead, "rndc: prints its usage"
	}
	if !rest[0].known {
		c.e.opaque = true
		return TierDestructive, "rndc: command computed at run time"
	}
	first := strings.ToLower(rest[0].val)
	if first == "stop" || first == "halt" {
		return TierDestructive, "rndc " + first + ": stops the name server"
	}
	label := "rndc " + first
	if rndcTwoWord[first] {
		if len(rest) < 2 || !rest[1].known || !rndcReads[first+" "+strings.ToLower(rest[1].val)] {
			return TierMutate, label + ": changes the name server's state"
		}
		// After the reading option only operands (zone, class, view)
		// follow: nta -dump -remove would remove.
		for _, w := range rest[2:] {
			if !w.known || strings.HasPrefix(w.val, "-") {
				return TierMutate, label + " " + truncate(w.val, 32) + ": changes the name server's state"
			}
		}
		return TierRead, label + " " + rest[1].val + ": reports the name server's state"
	}
	if rndcReads[first] {
		return TierRead, label + ": reports the name server's state"
	}
	return TierMutate, label + ": changes the name server's state or writes its files"
}

// leadingOpts reads args as getopt without permutation does (BIND's
// isc_commandline_parse): options until the first operand or "--". It
// returns the rest, and false for an option letter not in flags or
// valueShort. A word not known before the first operand begins the
// rest: the caller takes it for a command computed at run time.
func leadingOpts(args []arg, flags, valueShort string) ([]arg, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known {
			return args[i:], true
		}
		v := a.val
		if v == "--" {
			return args[i+1:], true
		}
		if len(v) < 2 || v[0] != '-' {
			return args[i:], true
		}
		for k := 1; k < len(v); k++ {
			if strings.IndexByte(valueShort, v[k]) >= 0 {
				if k == len(v)-1 {
					i++
				}
				break
			}
			if strings.IndexByte(flags, v[k]) < 0 {
				return args[i:], false
			}
		}
	}
	return nil, true
}

// swanctlCommands are swanctl's commands by long name and letter. The
// first option picks the command; the options after it are the
// command's own (in swanctl --list-sas -i NAME, -i is --ike, not
// --initiate), and no listing command's own option changes anything.
var swanctlCommands = map[string]byte{
	"initiate": 'i', "terminate": 't', "rekey": 'R', "redirect": 'd', "install": 'p', "uninstall": 'u',
	"list-sas": 'l', "monitor-sa": 'm', "list-pols": 'P', "list-authorities": 'B', "list-conns": 'L',
	"list-certs": 'x', "list-pools": 'A', "list-algs": 'g', "flush-certs": 'f', "load-all": 'q',
	"load-authorities": 'b', "load-conns": 'c', "load-creds": 's', "load-pools": 'a', "log": 'T',
	"version": 'v', "stats": 'S', "reload-settings": 'r', "counters": 'C', "help": 'h',
}

// swanctlReads are the letters of the commands that list or watch the
// daemon's state (--counters is left out: its --reset clears them).
const swanctlReads = "lmPBLxAgTvSh"

// swanctlProgram classifies swanctl by its first option, which getopt_long
// also takes abbreviated (--list-s is --list-sas) and finds past
// operands (swanctl x --terminate terminates).
func swanctlProgram(c *call) (Tier, string) {
	if len(c.args) == 0 {
		return TierRead, "swanctl: prints its usage"
	}
	a := c.args[0]
	for _, w := range c.args {
		if !w.known {
			c.e.opaque = true
			return TierDestructive, "swanctl: command computed at run time"
		}
		if w.val == "--" {
			break
		}
		if strings.HasPrefix(w.val, "-") && w.val != "-" {
			a = w
			break
		}
	}
	var cmd byte
	switch v := a.val; {
	case strings.HasPrefix(v, "--") && len(v) > 2:
		cmd = swanctlLong(strings.TrimPrefix(v, "--"))
	case len(v) > 1 && v[0] == '-':
		cmd = v[1]
	}
	switch {
	case cmd == 't':
		return TierDestructive, "swanctl --terminate: tears tunnels down"
	case cmd != 0 && strings.IndexByte(swanctlReads, cmd) >= 0:
		return TierRead, "swanctl " + truncate(a.val, 32) + ": lists the IKE daemon's state"
	}
	return TierMutate, "swanctl " + truncate(a.val, 32) + ": changes the IKE daemon's state"
}

// swanctlLong is the letter of the command name names, whole or as an
// unambiguous abbreviation, or 0.
func swanctlLong(name string) byte {
	if l, ok := swanctlCommands[name]; ok {
		return l
	}
	var found byte
	for k, l := range swanctlCommands {
		if strings.HasPrefix(k, name) {
			if found != 0 {
				return 0
			}
			found = l
		}
	}
	return found
}

// needrestartReads are the options needrestart's list modes may take
// (its getopts string is c:vr:nm:bf:klpoqt:u:w): verbosity, answering
// no, the UI mode, what to check (-k kernel, -l libraries, -w
// microcode), the batch, Nagios and OpenMetrics outputs and the
// interpreter start-time tolerance. Left out: -f and -u, which pick a
// debconf frontend or UI module.
var needrestartReads = optSpec{flags: "vqnklwbpoh", valueShort: "rmt", longFlags: set(`--help --version`)}

// needrestartProgram classifies needrestart. In batch mode (-b, and -p
// and -o, which imply it) it only prints what needs a restart: it
// restarts nothing and notifies no one. -r l (or -m e, which implies
// it) lists too, but runs the notify.d hooks, which message the users
// whose sessions run outdated binaries, as wall does: tier 1. -r a
// restarts the services and containers it finds without asking; with
// no mode it asks or does what its configuration or NEEDRESTART_MODE
// says. -c names its configuration, which it evaluates as Perl.
func needrestartProgram(c *call) (Tier, string) {
	for _, f := range c.optVals(c.args, "-c") {
		c.e.opaque = true
		return TierDestructive, "needrestart -c " + truncate(f.val, 64) + ": evaluates that file as Perl"
	}
	modes := c.optVals(c.args, "-r")
	for _, m := range modes {
		if !m.known || m.val != "l" && m.val != "i" {
			return TierDestructive, "needrestart -r " + truncate(m.val, 16) + ": restarts services"
		}
	}
	_, seen, ok := c.readOpts(needrestartReads)
	uiModes := c.optVals(c.args, "-m")
	list := len(modes) > 0 && modes[len(modes)-1].val == "l" ||
		len(uiModes) > 0 && uiModes[len(uiModes)-1].known && uiModes[len(uiModes)-1].val == "e"
	batch := false
	for _, f := range strings.Fields(seen) {
		if f == "--help" || f == "--version" || !strings.HasPrefix(f, "--") && strings.ContainsAny(f, "bpoh") {
			batch = true
		}
	}
	switch {
	case ok && batch:
		return TierRead, "needrestart: lists what needs a restart"
	case ok && list:
		return TierBenign, "needrestart: lists what needs a restart and notifies the users whose sessions do"
	}
	return TierMutate, "needrestart: may restart services"
}

// iperf3Program classifies iperf3: a client (-c HOST) sends test
// traffic, a network request like curl's (the host goes through the
// host rules); a server (-s) or daemon listens; -F writes what a
// reversed or server test receives to a file (and sends a file's
// contents otherwise), and --logfile and --pidfile write theirs.
func iperf3Program(c *call) (Tier, string) {
	var r raiser
	for _, v := range c.optVals(c.args, "-F", "--file") {
		r.raise(c.writeArg(v, "iperf3 --file"))
	}
	for _, v := range c.optVals(c.args, "--logfile", "-I", "--pidfile") {
		if v.known && (v.val == "/dev/null" || v.val == "/dev/stdout" || v.val == "/dev/stderr") {
			continue
		}
		r.raise(c.writeArg(v, "iperf3 output file"))
	}
	if r.why != "" {
		return r.t, r.why
	}
	client, server := false, false
	for _, a := range c.args {
		if !a.known {
			return TierMutate, "iperf3: option computed at run time"
		}
	}
	for i := 0; i < len(c.args); i++ {
		v := c.args[i].val
		if v == "--" {
			break
		}
		if strings.HasPrefix(v, "--") {
			name, _, eq := strings.Cut(v[2:], "=")
			switch {
			case longFlag("--"+name, "--server") || longFlag("--"+name, "--daemon") || longFlag("--"+name, "--one-off"):
				server = true
			case longFlag("--"+name, "--client"):
				client = true
				if !eq {
					i++
				}
			case name == "version" || name == "help":
				return TierRead, "iperf3: prints its version or usage"
			}
			continue
		}
		for k := 1; k < len(v) && v[0] == '-'; k++ {
			switch b := v[k]; {
			case b == 's' || b == 'D' || b == '1':
				server = true
			case b == 'v' || b == 'h':
				// Parsing stops there: iperf3 prints its version or
				// usage and exits before it connects or listens.
				return TierRead, "iperf3: prints its version or usage"
			case strings.IndexByte(clusterValues["iperf3"], b) >= 0:
				client = client || b == 'c'
				if k == len(v)-1 {
					i++
				}
				k = len(v)
			}
		}
	}
	if server {
		return TierMutate, "iperf3: runs a test server listening for clients"
	}
	if !client {
		return TierMutate, "iperf3: neither a client nor its version or usage"
	}
	return TierBenign, "iperf3: network test against a server"
}

// lldpctlProgram classifies lldpd's lldpctl, which shows the neighbours
// lldpd saw and has no configure mode (lldpcli's -c and -C, which run a
// file's commands, are not its options): -d, -v and -h, -f the output
// format, -u the control socket. It joins its operands into one line,
// "show neigh ports A,B details", which lldpcli's parser splits again,
// so an operand is held to an interface name's characters: one with a
// space could add words to that command.
func lldpctlProgram(c *call) (Tier, string) {
	ops, _, ok := c.readOpts(optSpec{flags: "dvh", valueShort: "fu"})
	if !ok {
		return TierMutate, "lldpctl: options not known to be read-only"
	}
	for _, o := range ops {
		if o == "" || strings.Trim(o, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.:_@+-/") != "" {
			return TierMutate, "lldpctl " + truncate(o, 32) + ": not an interface name"
		}
	}
	return TierRead, "lldpctl: shows the LLDP neighbours"
}
