package policy

import "strings"

// Read-only forms of storage, network and appliance tools whose other
// forms change the system. Each handler names the options it knows to
// only read, and anything else (an unknown option, an abbreviation, a
// word computed at run time) keeps the program at TierMutate: the
// whitelist cannot be widened by a spelling it does not list.

// optSpec is the options a read-only form may use: short flags, short
// options taking a value (attached or next), and long ones likewise,
// spelled in full.
type optSpec struct {
	flags, valueShort   string
	longFlags, longVals map[string]bool
}

// readOpts reads c's arguments by spec. It returns the operands and the
// option letters and long names seen, and false when an argument is not
// known or is an option spec does not list.
func (c *call) readOpts(spec optSpec) (ops []string, seen string, ok bool) {
	return readArgs(c.args, spec)
}

// readArgs is readOpts over args.
func readArgs(args []arg, spec optSpec) (ops []string, seen string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known || a.glob && strings.HasPrefix(a.val, "-") {
			return nil, "", false
		}
		v := a.val
		switch {
		case v == "--":
			for _, r := range args[i+1:] {
				if !r.known {
					return nil, "", false
				}
				ops = append(ops, r.val)
			}
			return ops, seen, true
		case strings.HasPrefix(v, "--"):
			name, _, hasVal := strings.Cut(v, "=")
			switch {
			case spec.longVals[name]:
				if !hasVal {
					i++
				}
			case spec.longFlags[name] && !hasVal:
			default:
				return nil, "", false
			}
			seen += " " + name
		case len(v) > 1 && v[0] == '-':
			for k := 1; k < len(v); k++ {
				b := v[k]
				seen += string(b)
				if strings.IndexByte(spec.valueShort, b) >= 0 {
					if k == len(v)-1 {
						i++
					}
					break
				}
				if strings.IndexByte(spec.flags, b) < 0 {
					return nil, "", false
				}
			}
		default:
			ops = append(ops, v)
		}
	}
	return ops, seen, true
}

// inspectProgram classifies the tools below by their read-only forms.
func inspectProgram(c *call) (Tier, string) {
	mutate := func() (Tier, string) { return TierMutate, c.name + ": changes the system" }
	switch c.name {
	case "bridge":
		return iprouteShow(c)
	case "brctl":
		ops, _, ok := c.readOpts(optSpec{})
		if ok && len(ops) > 0 && (ops[0] == "show" || ops[0] == "showmacs" || ops[0] == "showstp") {
			return TierRead, "brctl " + ops[0]
		}
		return mutate()
	case "exportfs":
		// -v and -s list the exports; every other option exports or
		// unexports, and operands name exports to make.
		if ops, _, ok := c.readOpts(optSpec{flags: "vs"}); ok && len(ops) == 0 {
			return TierRead, "exportfs: lists the exports"
		}
		if v := c.vals(); hasFlag(v, 'u', "") && hasFlag(v, 'a', "") {
			return TierDestructive, "exportfs -ua: unexports every file system from its clients"
		}
		if why := exportsRoot(c); why != "" {
			return TierDestructive, why
		}
		return mutate()
	case "showmount":
		ops, _, ok := c.readOpts(optSpec{flags: "eadvh", longFlags: set(`--exports --all --directories --no-headers --version --help`)})
		if !ok || len(ops) > 1 {
			return mutate()
		}
		for _, h := range ops {
			c.checkHost(h)
		}
		return TierRead, "showmount: asks an NFS server what it exports"
	case "smbstatus":
		// The shared Samba options (-l log base, -s/--configfile,
		// --option) can make it write logs elsewhere: not listed.
		if _, _, ok := c.readOpts(optSpec{flags: "bvpSLBnjf", valueShort: "u",
			longFlags: set(`--brief --verbose --processes --shares --locks --byterange --numeric --json --fast`),
			longVals:  set(`--user`)}); ok {
			return TierRead, "smbstatus"
		}
		return mutate()
	case "testparm":
		if _, _, ok := c.readOpts(optSpec{flags: "sv",
			longFlags: set(`--suppress-prompt --verbose --show-all-parameters --skip-logic-checks`),
			longVals:  set(`--parameter-name --section-name`)}); ok {
			return TierRead, "testparm: checks the Samba configuration"
		}
		return mutate()
	case "multipath":
		// -l and -ll list the maps; without them multipath creates or
		// reloads maps, and -f/-F/-r/-a/-w change them.
		ops, seen, ok := c.readOpts(optSpec{flags: "l", valueShort: "v"})
		if ok && strings.Contains(seen, "l") && len(ops) <= 1 {
			return TierRead, "multipath -l: lists the maps"
		}
		return mutate()
	case "iscsiadm":
		return iscsiadmProgram(c)
	case "conntrack":
		return conntrackProgram(c)
	case "logread":
		// OpenWrt's -F, -p, -r and -S write files or send the log
		// elsewhere; busybox's -F follows. Neither is listed.
		if _, _, ok := c.readOpts(optSpec{flags: "ft0", valueShort: "lez"}); ok {
			return TierRead, "logread"
		}
		return mutate()
	case "fw4", "fw3":
		// fw3 is fw4's iptables predecessor (OpenWrt 21.02 and older).
		// fw3 also takes -4, -6 and -d. stop and flush remove every rule
		// (fw4's table inet fw4), as iptables -F does.
		flags := "q"
		if c.name == "fw3" {
			flags = "q46d"
		}
		ops, _, ok := c.readOpts(optSpec{flags: flags})
		if ok && len(ops) == 1 && (ops[0] == "print" || ops[0] == "check" && c.name == "fw4") {
			return TierRead, "fw4 " + ops[0] + ": renders or checks the ruleset"
		}
		for _, o := range operands(c.vals()) {
			if o == "stop" || o == "flush" {
				return TierDestructive, c.name + " " + o + ": removes every firewall rule"
			}
		}
		return mutate()
	case "swconfig":
		return swconfigProgram(c)
	case "mdcmd":
		if ops, _, ok := c.readOpts(optSpec{}); ok && len(ops) == 1 && ops[0] == "status" {
			return TierRead, "mdcmd status"
		}
		return mutate()
	case "sshd":
		// -t and -T test and print the configuration and exit; -E
		// appends to a log file and without them sshd is the daemon.
		_, seen, ok := c.readOpts(optSpec{flags: "tTq46eDdGiV", valueShort: "fCchoEgkp"})
		if ok && strings.ContainsAny(seen, "tT") && !strings.ContainsRune(seen, 'E') {
			return TierRead, "sshd -T: prints the configuration"
		}
		if !ok || strings.ContainsAny(seen, "fo") {
			// Its own configuration decides who logs in and how
			// (PermitRootLogin, PermitEmptyPasswords, AuthorizedKeysFile).
			return TierDestructive, "sshd -f/-o: starts an SSH server on a configuration the agent chose"
		}
		return mutate()
	case "midclt":
		return midcltProgram(c)
	case "k3s":
		// k3s kubectl and k3s crictl are those programs with the
		// cluster's own configuration.
		if len(c.args) > 0 && c.args[0].known && (c.args[0].val == "kubectl" || c.args[0].val == "crictl") {
			c.run(c.args)
			return TierRead, "k3s " + c.args[0].val
		}
		if ops, _, ok := c.readOpts(optSpec{}); ok && len(ops) == 1 && ops[0] == "check-config" {
			return TierRead, "k3s check-config"
		}
		// etcd-snapshot delete, rm and prune drop the cluster's backups.
		if words, opaque := c.leadWords(3); opaque || len(words) > 1 && words[0] == "etcd-snapshot" &&
			(words[1] == "delete" || words[1] == "rm" || words[1] == "prune") {
			c.e.opaque = c.e.opaque || opaque
			return TierDestructive, "k3s etcd-snapshot: deletes the cluster's snapshots, or a subcommand computed at run time"
		}
		return mutate()
	}
	return diagProgram(c)
}

// iprouteShow classifies bridge and tc from iproute2: an object and its
// show verb (or none, which shows) read; -b/-batch runs the commands of a
// file, and every other verb changes the system.
func iprouteShow(c *call) (Tier, string) {
	objects := map[string][]string{
		"bridge": {"link", "fdb", "mdb", "vlan", "vni", "monitor"},
		"tc":     {"qdisc", "class", "filter", "chain", "monitor"},
	}[c.name]
	words := argVals(c.args)
	i := 0
	for ; i < len(words) && strings.HasPrefix(words[i], "-"); i++ {
		switch strings.TrimLeft(words[i], "-") {
		case "s", "stats", "statistics", "d", "details", "j", "json", "p", "pretty", "c", "color", "o", "oneline",
			"t", "timestamp", "ts", "tshort", "r", "raw", "i", "iec", "g", "graph", "N", "numeric", "V", "Version", "compressvlans":
		case "n", "netns", "cf", "conf":
			i++
		default:
			return TierMutate, c.name + " " + words[i] + ": reads commands or options the classifier does not list"
		}
	}
	for _, a := range c.args {
		if !a.known {
			return TierMutate, c.name + ": a word computed at run time"
		}
	}
	if i >= len(words) {
		return TierRead, c.name
	}
	object := ""
	for _, o := range objects {
		if strings.HasPrefix(o, words[i]) {
			object = o
			break
		}
	}
	if object == "" {
		return TierMutate, c.name + " " + words[i] + ": changes the system"
	}
	if object == "monitor" || i+1 >= len(words) {
		return TierRead, c.name + " " + object
	}
	switch words[i+1] {
	case "show", "list", "lst", "ls", "tunnelshow":
		return TierRead, c.name + " " + object + " " + words[i+1]
	case "get":
		if c.name == "tc" {
			return TierRead, "tc " + object + " get"
		}
	}
	return TierMutate, c.name + " " + object + " " + words[i+1] + ": changes the system"
}

// iscsiadmProgram: listing sessions, node and interface records and host
// and firmware information reads; logging in or out, discovery (-t), and
// -o operations on records change the system.
func iscsiadmProgram(c *call) (Tier, string) {
	ops, _, ok := c.readOpts(optSpec{flags: "s", valueShort: "mPrTpIHd",
		longFlags: set(`--stats --version --help`),
		longVals:  set(`--mode --print --sid --targetname --portal --interface --host --debug`)})
	if !ok || len(ops) > 0 {
		return TierMutate, "iscsiadm: changes sessions or records"
	}
	for _, m := range c.optVals(c.args, "-m", "--mode") {
		switch m.val {
		case "session", "node", "iface", "host", "fw", "discovery", "discoverydb":
		default:
			return TierMutate, "iscsiadm -m " + truncate(m.val, 32)
		}
	}
	return TierRead, "iscsiadm: lists sessions and records"
}

// conntrackProgram: -L, -G, -C, -S and -E read the connection tracking
// table; -D, -F, -U, -I and -R change it, and -z zeroes counters.
func conntrackProgram(c *call) (Tier, string) {
	_, seen, ok := c.readOpts(optSpec{flags: "LGCSEngjx", valueShort: "psdrqfoumblwtce",
		longFlags: set(`--dump --get --count --stats --event --src-nat --dst-nat --any-nat`),
		longVals: set(`--proto --protonum --src --orig-src --dst --orig-dst --reply-src --reply-dst --sport --orig-port-src
			--dport --orig-port-dst --reply-port-src --reply-port-dst --family --output --mark --status --buffer-size
			--label --zone --orig-zone --reply-zone --event-mask`)})
	if ok && (strings.ContainsAny(seen, "LGCSE") || strings.Contains(seen, " --dump") || strings.Contains(seen, " --get") ||
		strings.Contains(seen, " --count") || strings.Contains(seen, " --stats") || strings.Contains(seen, " --event")) {
		return TierRead, "conntrack: reads the connection table"
	}
	return TierMutate, "conntrack: changes the connection table"
}

// swconfigProgram: list, show, get and help read a switch's settings; set,
// load, apply and reset change them.
func swconfigProgram(c *call) (Tier, string) {
	ops, _, ok := c.readOpts(optSpec{})
	if ok && len(ops) == 1 && ops[0] == "list" {
		return TierRead, "swconfig list"
	}
	if ok && len(ops) >= 3 && ops[0] == "dev" {
		rest := ops[2:]
		if len(rest) >= 2 && (rest[0] == "port" || rest[0] == "vlan") {
			rest = rest[2:]
		}
		if len(rest) == 1 && (rest[0] == "show" || rest[0] == "help") || len(rest) == 2 && rest[0] == "get" {
			return TierRead, "swconfig " + rest[0]
		}
	}
	return TierMutate, "swconfig: configures the switch"
}

// midcltProgram: TrueNAS's middleware client. A call of a query, config,
// get_instance, info, version or list method, a *_choices list or one of
// the few named getters (disk.temperatures, boot.get_state) reads; any
// other method may change anything the web UI can.
func midcltProgram(c *call) (Tier, string) {
	ops, _, ok := c.readOpts(optSpec{valueShort: "t", longVals: set(`--timeout`)})
	if !ok || len(ops) == 0 {
		return TierMutate, "midclt"
	}
	if len(ops) == 1 && ops[0] == "ping" {
		return TierRead, "midclt ping"
	}
	if ops[0] != "call" || len(ops) < 2 {
		return TierMutate, "midclt " + truncate(ops[0], 32)
	}
	method := ops[1]
	k := strings.LastIndexByte(method, '.')
	// Power, deletion, export (a pool's, with destroy) and wiping are
	// what the web UI asks twice about.
	switch method[k+1:] {
	case "reboot", "shutdown", "delete", "do_delete", "wipe", "destroy", "export", "rollback", "format", "factory_restore":
		return TierDestructive, "midclt call " + truncate(method, 64) + ": reboots, deletes, exports or wipes"
	}
	verb := method[k+1:]
	switch verb {
	case "query", "config", "get_instance", "info", "version", "list", "list_categories", "list_policies",
		"temperatures", "temperature_agg", "results", "get_state", "get_disks", "get_unused", "ready", "state", "host_id", "product_type":
		if k > 0 {
			return TierRead, "midclt call " + truncate(method, 64)
		}
	}
	// The *_choices methods list what a form offers (compression_choices).
	if k > 0 && strings.HasSuffix(verb, "_choices") && !strings.ContainsAny(verb, "./") {
		return TierRead, "midclt call " + truncate(method, 64)
	}
	return TierMutate, "midclt call " + truncate(method, 64) + ": may change the system"
}

// nmcliObject spells out an nmcli object as nmcli reads it, by any prefix
// (d, dev, conn): the table lists the full words.
func nmcliObject(w string) string {
	for _, o := range []string{"general", "networking", "radio", "connection", "device", "agent", "monitor"} {
		if w != "" && strings.HasPrefix(o, w) {
			return o
		}
	}
	return w
}

// composeGlobals drops compose's own options before its subcommand
// (docker compose -f x.yml ps), so the subcommand and its flags are read
// as the table lists them.
func composeGlobals(rest []string) []string {
	for i := 0; i < len(rest); i++ {
		v := rest[i]
		if v == "--" || !strings.HasPrefix(v, "-") {
			return rest[i:]
		}
		switch v {
		case "-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile",
			"--ansi", "--progress", "--parallel":
			i++
		}
	}
	return nil
}
