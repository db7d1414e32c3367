package policy

import "strings"

// Hypervisor, storage-target and file-server CLIs of home-lab appliances:
// VMware ESXi's esxcli (and localcli), vim-cmd and vmkfstools, Proxmox
// VE's user, appliance, node, replication and boot tools, LIO's
// targetcli and targetctl, tgt's tgtadm and tgt-admin, SnapRAID,
// Samba's net and samba-tool (the other Samba tools are in
// programs_samba.go), mergerfs.ctl and Synology's disk, RAID and network
// tools. Each reads at tier 0 only in the forms that print state;
// deletes, power-offs and the forms that cut access are TierDestructive;
// everything else, and an unknown verb, is TierMutate. A verb computed
// at run time may be a teardown, so it is TierDestructive.

// applianceProgram returns the classifier for the programs this file,
// programs_routing.go, programs_samba.go, programs_ups.go and
// programs_fileread.go own, or nil.
func applianceProgram(name string) func(*call) (Tier, string) {
	switch name {
	case "esxcli", "localcli":
		return esxcliProgram
	case "vmkfstools":
		return vmkfstoolsProgram
	case "smbpasswd":
		return smbpasswdProgram
	case "wbinfo":
		return wbinfoProgram
	case "vim-cmd":
		return vimCmdProgram
	case "vtysh":
		return vtyshProgram
	case "birdc", "birdc6", "birdcl":
		return birdcProgram
	case "targetcli", "targetctl":
		return targetcliProgram
	case "tgtadm":
		return tgtadmProgram
	case "tgt-admin":
		return tgtAdminProgram
	case "snapraid":
		return snapraidProgram
	case "pdbedit":
		return pdbeditProgram
	case "smbcontrol":
		return smbcontrolProgram
	case "mergerfs.ctl":
		return mergerfsCtlProgram
	case "synodisk", "synoraid", "synonet":
		return synoToolProgram
	case "qmrestore":
		return qmrestoreProgram
	case "vzdump":
		return vzdumpProgram
	case "ffprobe":
		return ffprobeProgram
	case "dpkg-deb":
		return dpkgDebProgram
	case "zless", "bzless", "xzless", "lzless", "zstdless", "zmore", "bzmore", "xzmore", "lzmore":
		// They hand their options to less or more.
		return lessProgram
	}
	if _, ok := wordCLIs[name]; ok {
		return wordCLIProgram
	}
	return upsProgram(name)
}

// computed marks c opaque and returns the tier of a verb computed at run
// time, which may name a teardown.
func (c *call) computed(what string) (Tier, string) {
	c.e.opaque = true
	return TierDestructive, c.name + ": " + what + " computed at run time"
}

// wordCLI is a program whose operands name its command (pveum user
// delete bob, net ads leave): reads are whole operand lists and dangers
// leading words. In both, "_" stands for any one word and, in reads,
// "..." for any words after.
type wordCLI struct {
	reads, dangers [][]string
	why            string // what a danger form does
	valued, long   string // options taking the next word (optionOperands)
}

func wordForms(s string) [][]string {
	var out [][]string
	for p := range phrases(s) {
		out = append(out, strings.Fields(p))
	}
	return out
}

// Proxmox's tools take options as -name value or --name value, and the
// names are fixed words, so none of their values is mistaken for a verb
// as long as an option is followed by its value: valued is empty and
// operands after an option are skipped by wordOperands.
var wordCLIs = map[string]wordCLI{
	// pveum: Proxmox VE's users, groups, roles, ACLs, pools and realms,
	// in the current spelling and the old one-word aliases.
	"pveum": {reads: wordForms(`help ...|user list|user permissions ...|user token list _|user token permissions _ _ ...|
		user tfa list ...|tfa list ...|group list|role list|acl list|pool list|realm list|user list ...|group list ...|
		role list ...|acl list ...|pool list ...|realm list ...`),
		dangers: wordForms(`user delete|userdel|group delete|groupdel|role delete|roledel|acl delete|acldel|
			pool delete|realm delete|user token remove|user token delete|user tfa delete|tfa delete|tfa unlock|user tfa unlock`),
		why: "deletes a user, group, role, ACL, pool, realm, token or second factor"},
	// pveam: the container template catalogue.
	"pveam": {reads: wordForms(`help ...|list ...|available ...`),
		dangers: wordForms(`remove`), why: "removes a container template"},
	// pvenode: stopall stops every guest on the node.
	"pvenode": {reads: wordForms(`help ...|config get ...|cert info ...|task list ...|task log ...|task status ...|
		acme account list ...|acme account info ...|acme plugin list ...|acme plugin config ...`),
		dangers: wordForms(`stopall|cert delete|acme account deactivate|acme plugin remove`),
		why:     "stops every guest, or deletes the node's certificate or ACME account"},
	// proxmox-boot-tool: format wipes the partition it is given.
	"proxmox-boot-tool": {reads: wordForms(`status ...|help ...|kernel list ...`),
		dangers: wordForms(`format`), why: "formats a partition"},
	"pve-efiboot-tool": {reads: wordForms(`status ...|help ...|kernel list ...`),
		dangers: wordForms(`format`), why: "formats a partition"},
	// pvesr: storage replication; delete removes the job and, unless
	// --keep, the replicated volumes on the target.
	"pvesr": {reads: wordForms(`status ...|list ...|read ...|help ...`),
		dangers: wordForms(`delete`), why: "deletes a replication job and its replicated volumes"},
	"pvesubscription": {reads: wordForms(`get ...|help ...`),
		dangers: wordForms(`delete`), why: "removes the node's subscription"},
	// samba-tool: Samba AD's users, groups, DNS, domain and replication.
	"samba-tool": {reads: wordForms(`help ...|user list ...|user show ...|user getgroups ...|group list ...|
		group listmembers ...|group show ...|computer list ...|computer show ...|contact list ...|contact show ...|
		ou list ...|dns query ...|dns zonelist ...|dns zoneinfo ...|dns serverinfo ...|domain info ...|domain level show ...|
		domain passwordsettings show ...|domain trust list ...|domain trust show ...|fsmo show ...|drs showrepl ...|
		drs bind ...|drs options ...|sites list ...|sites view ...|gpo listall ...|gpo list ...|gpo show ...|spn list ...|
		testparm ...|ntacl get ...|visualize ...|forest directory_service show ...|schema attribute show ...|
		schema objectclass show ...|delegation show ...|processes ...|time ...|--version`),
		dangers: wordForms(`user delete|user disable|group delete|group removemembers|computer delete|contact delete|
			ou delete|dns delete|dns zonedelete|domain demote|domain trust delete|fsmo seize|gpo del|sites remove|
			sites subnet remove|spn delete|delegation remove-service|domain passwordsettings pso delete`),
		why:    "deletes or disables an account, group, DNS record or the domain controller itself",
		valued: "HUWsd", long: "--URL --username --realm --configfile --workgroup --debuglevel --option --password --server"},
	// Samba's net (ads, rpc, rap, conf, usershare …) and Windows' net.
	"net": {reads: wordForms(`help ...|conf list|conf listshares|conf showshare _|conf getparm _ _|conf getincludes _|
		ads info|ads testjoin|ads status|ads lookup|ads workgroup|ads user|ads user info _|ads group|ads search ...|
		ads dns gethostbyname ...|ads dns query ...|ads info ...|rpc info ...|
		ads dn ...|ads sid ...|ads keytab list ...|ads enctypes list ...|ads gpo list ...|ads gpo listall ...|
		rpc info|rpc testjoin|rpc user|rpc user info _|rpc group list ...|rpc share|rpc share list|rpc getsid|
		status ...|groupmap list ...|usershare list ...|usershare info ...|cache list|cache get _|lookup ...|time|
		getlocalsid ...|getdomainsid ...|registry enumerate ...|registry getvalue ...|registry getvalues ...|
		share|user|group|session|file|serverid list|idmap dump ...|start|localgroup|localgroup _|accounts|use|view|config`),
		dangers: wordForms(`ads leave|rpc user delete|rpc user del|user delete|user del|sam delete|rpc group delete|
			group delete|rpc share delete|share delete|conf drop|conf delshare|usershare delete|rpc shutdown|
			rpc service stop|rpc service delete|dom unjoin|ads dns unregister|rpc trustdom del|ads keytab flush|
			groupmap delete|stop|ads user delete|ads group delete|rpc group del|ads printer remove|sam deletelocalgroup|
			sam delmem|rpc group delmem|group delmem|rpc rights revoke|sam rights revoke|rpc file close|file close|rpc shell|
			rap user delete|rap share delete|rap group delete|rap service stop|rap file close|rpc user deluser`),
		why:    "leaves the domain, deletes a user, group, share or the configuration, or stops the server",
		valued: "USWsdnIpCMFjtTo", long: "--user --server --workgroup --configfile --debuglevel --netbiosname --ipaddress --port --comment --maxusers --flags --jobid --timeout --realm --option"},
}

// wordCLIProgram classifies the programs of wordCLIs.
func wordCLIProgram(c *call) (Tier, string) {
	w := wordCLIs[c.name]
	var ops []arg
	if w.valued == "" && w.long == "" {
		ops = wordOperands(c.args)
	} else {
		ops = optionOperands(c.args, w.valued, w.long)
	}
	if len(ops) > 0 && !ops[0].known {
		return c.computed("command")
	}
	if t, why, ok := c.wordDanger(w, ops); ok {
		return t, why
	}
	if c.name == "net" {
		// Windows' net user NAME /delete, net share NAME /delete.
		for _, a := range c.args {
			if l := strings.ToLower(a.val); a.known && (strings.HasPrefix(l, "/del") || strings.HasPrefix(l, "/active:n")) {
				return TierDestructive, "net " + truncate(l, 16) + ": " + w.why
			}
		}
	}
	if c.name == "pveum" {
		// modify and aclmod take --delete to remove a permission, and
		// --enable 0 disables an account.
		if t, why, ok := pveumOptions(c); ok {
			return t, why
		}
	}
	if len(ops) == 0 {
		if c.name == "net" && len(c.args) > 0 {
			return TierMutate, c.name + ": changes the system"
		}
		return TierRead, c.name + ": prints its usage"
	}
	for _, r := range w.reads {
		if formMatches(r, ops) {
			return TierRead, c.name + " " + truncate(ops[0].val, 32) + ": reports"
		}
	}
	return TierMutate, c.name + " " + truncate(ops[0].val, 32) + ": changes the system"
}

// wordDanger reports the TierDestructive form of w that ops begin with,
// also when a word the form needs is computed at run time.
func (c *call) wordDanger(w wordCLI, ops []arg) (Tier, string, bool) {
	for _, d := range w.dangers {
		// Anywhere, not only first: an option value misread as an
		// operand (an abbreviated option the table does not list)
		// shifts the verb along.
		for at := 0; at+len(d) <= len(ops); at++ {
			if t, why, ok := c.wordDangerAt(w, d, ops[at:], at == 0); ok {
				return t, why, true
			}
		}
	}
	return 0, "", false
}

// wordDangerAt reports whether ops begin with the danger form d; a
// computed word counts as matching only where the form is looked for
// first.
func (c *call) wordDangerAt(w wordCLI, d []string, ops []arg, first bool) (Tier, string, bool) {
	{
		match, unknown := true, false
		for i, word := range d {
			switch {
			case word == "_":
			case !ops[i].known:
				unknown = true
				match = match && first
			case strings.ToLower(ops[i].val) != word:
				match = false
			}
		}
		if !match {
			return 0, "", false
		}
		if unknown {
			t, why := c.computed("command")
			return t, why, true
		}
		return TierDestructive, c.name + " " + strings.Join(d, " ") + ": " + w.why, true
	}
}

// formMatches reports whether ops are the read form r.
func formMatches(r []string, ops []arg) bool {
	for i, word := range r {
		if word == "..." {
			return true
		}
		if i >= len(ops) {
			return false
		}
		if word != "_" && (!ops[i].known || strings.ToLower(ops[i].val) != word) {
			return false
		}
	}
	return len(ops) == len(r)
}

// wordOperands returns the operands of a Proxmox command line: an option
// is followed by its value unless the next word is another option, so
// the word after one is skipped (pveum user list --output-format json).
// Flags without a value (--full, --noborder) come last by convention; a
// verb misread as a value leaves the line unread, not read.
func wordOperands(args []arg) []arg {
	var ops []arg
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.known && strings.HasPrefix(a.val, "-") && len(a.val) > 1 {
			if !strings.Contains(a.val, "=") && i+1 < len(args) && !strings.HasPrefix(args[i+1].val, "-") {
				i++
			}
			continue
		}
		ops = append(ops, a)
	}
	return ops
}

// pveumOptions classifies pveum's options that remove access: --delete
// on acl modify (aclmod) removes the permission, --enable 0 on user
// modify disables the account. Proxmox reads options through
// Getopt::Long, with one dash or two.
func pveumOptions(c *call) (Tier, string, bool) {
	for i, a := range c.args {
		if !a.known || !strings.HasPrefix(a.val, "-") {
			continue
		}
		name, val, eq := strings.Cut(strings.TrimLeft(a.val, "-"), "=")
		switch {
		case len(name) >= 3 && strings.HasPrefix("delete", name):
			name = "delete"
		case len(name) >= 3 && strings.HasPrefix("enable", name):
			name = "enable"
		default:
			continue
		}
		if !eq {
			if i+1 >= len(c.args) {
				val = "1"
			} else if !c.args[i+1].known {
				t, why := c.computed("--" + name + " value")
				return t, why, true
			} else {
				val = c.args[i+1].val
			}
		}
		if name == "delete" && !falseValue(val) {
			return TierDestructive, "pveum --delete: removes a permission", true
		}
		if name == "enable" && falseValue(val) {
			return TierDestructive, "pveum --enable 0: disables an account", true
		}
	}
	return 0, "", false
}

// esxcliDangers are the esxcli commands (the last word of the namespace
// path) that delete, power off, kill, unmount or take down.
var esxcliDangers = set(`remove delete kill poweroff reboot unmount destroy leave down unload unclaim detach
	erase format wipe reset unset disable stop`)

// esxcliValued are esxcli's global options that take the next word.
var esxcliValued = set(`--formatter --format-param --server --username --password --config --sessionfile
	--savesessionfile --vihost --protocol --portnumber --url --cacertsfile --thumbprint --credstore -s -u -p -c -h -d`)

// esxcliProgram classifies VMware ESXi's esxcli: esxcli [options]
// namespace… command [command options]. A list or get command reads;
// the commands of esxcliDangers, setting an interface, service or
// firewall disabled, a device's state off, or maintenance mode on are
// TierDestructive; anything else changes the host.
func esxcliProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "esxcli: reports"}
	for _, f := range exactOptVals(c.args, "--savesessionfile") {
		r.raise(c.writeArg(f, "esxcli --savesessionfile"))
	}
	i := 0
	for ; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known {
			return c.computed("namespace")
		}
		if !strings.HasPrefix(a.val, "-") {
			break
		}
		if name, _, eq := strings.Cut(a.val, "="); esxcliValued[name] && !eq {
			i++
		}
	}
	var path []string
	for ; i < len(c.args) && !(c.args[i].known && strings.HasPrefix(c.args[i].val, "-")); i++ {
		if !c.args[i].known {
			return c.computed("namespace")
		}
		path = append(path, strings.ToLower(c.args[i].val))
	}
	rest := c.args[i:]
	if len(path) == 0 {
		return r.t, "esxcli: prints its namespaces"
	}
	cmd := path[len(path)-1]
	label := "esxcli " + truncate(strings.Join(path, " "), 64)
	if esxcliDangers[cmd] {
		return TierDestructive, label + ": deletes, powers off, kills, unmounts or takes down"
	}
	if cmd == "set" {
		ns := " " + strings.Join(path, " ") + " "
		if strings.Contains(ns, " network ip interface ") {
			return TierDestructive, label + ": changes a VMkernel interface, which may carry the management network"
		}
		for _, v := range c.optVals(rest, "--enabled", "--enable", "-e", "--state") {
			switch {
			case !v.known:
				return c.computed("setting")
			case strings.Contains(ns, " maintenancemode ") && !falseValue(v.val):
				return TierDestructive, label + ": enters maintenance mode, which stops or moves the guests"
			case falseValue(v.val):
				return TierDestructive, label + ": disables a service, interface, firewall or device"
			}
		}
	}
	switch cmd {
	case "list", "get", "ping":
		return r.t, label + ": reports"
	}
	return maxTier(r.t, TierMutate), label + ": changes the host"
}

// vimCmdDangers are words whose presence in a vim-cmd command (vmsvc/
// destroy, vmsvc/power.off, hostsvc/maintenance_mode_enter) makes it a
// teardown: a guest destroyed, powered off, reset or reverted, a
// datastore, network or permission removed, the host put in maintenance
// or standby, or its SSH and shell stopped.
var vimCmdDangers = []string{"destroy", "remove", "delete", "unregister", "power.off", "shutdown", "reset", "restore",
	"reboot", "suspend", "hibernate", "revert", "kill", "disable", "stop", "_enter", "unset", "unmount",
	"offline", "poweroff", "standby"}

// vimCmdServices are vim-cmd's services, which alone list their commands.
var vimCmdServices = set(`hostsvc internalsvc proxysvc solo vimsvc vmsvc hbrsvc supportsvc help`)

// vimCmdReads are whole vim-cmd command words that only report.
var vimCmdReads = set(`info hostsummary hosthardware hostconfig runtimeinfo summary help`)

// vimCmdProgram classifies ESXi's vim-cmd, whose command is a path of a
// service and an action (vmsvc/getallvms, hostsvc/datastore/listsummary,
// vmsvc/power.off 12). Actions that get, list or query read.
func vimCmdProgram(c *call) (Tier, string) {
	ops := optionOperands(c.args, "HOUPpt", "")
	if len(ops) == 0 {
		return TierRead, "vim-cmd: lists its services"
	}
	if !ops[0].known {
		return c.computed("command")
	}
	cmd := strings.ToLower(ops[0].val)
	if !strings.Contains(cmd, "/") && len(ops) > 1 {
		// vim-cmd vmsvc power.off 1: taken as the path it would be.
		if !ops[1].known {
			return c.computed("command")
		}
		cmd += "/" + strings.ToLower(ops[1].val)
	}
	label := "vim-cmd " + truncate(cmd, 64)
	for _, d := range vimCmdDangers {
		if strings.Contains(cmd, d) {
			return TierDestructive, label + ": destroys, powers off, reverts or removes"
		}
	}
	if !strings.Contains(cmd, "/") {
		if vimCmdServices[cmd] {
			return TierRead, label + ": lists the service's commands"
		}
		return TierMutate, label + ": changes the host or a guest"
	}
	// The action's first or last part says what it does: get.summary,
	// power.getstate, task_list, query_networkhint.
	parts := strings.FieldsFunc(cmd[strings.LastIndexByte(cmd, '/')+1:], func(r rune) bool { return r == '.' || r == '_' })
	if len(parts) == 0 {
		return TierMutate, label + ": changes the host or a guest"
	}
	for _, a := range []string{parts[0], parts[len(parts)-1]} {
		if vimCmdReads[a] || strings.HasPrefix(a, "get") || strings.HasPrefix(a, "list") || strings.HasPrefix(a, "query") {
			return TierRead, label + ": reports"
		}
	}
	if strings.HasPrefix(cmd, "hostsvc/summary/") {
		return TierRead, label + ": reports"
	}
	return TierMutate, label + ": changes the host or a guest"
}

// targetcliDangers are the targetcli commands that delete a storage
// object, target, LUN or ACL, clear or replace the whole configuration,
// or disable a portal group; targetctl's clear and restore likewise.
var targetcliDangers = set(`delete clearconfig restoreconfig disable clear restore`)

// targetcliReads are the targetcli commands that print.
var targetcliReads = set(`ls info get pwd help sessions status version`)

// targetcliProgram classifies targetcli, which runs its arguments as one
// line of its shell ([path] command [parameters]), and targetctl. With
// no command targetcli reads commands from its input, which may be any.
func targetcliProgram(c *call) (Tier, string) {
	var fields []string
	for _, a := range c.args {
		if !a.known {
			return c.computed("command")
		}
		fields = append(fields, strings.Fields(a.val)...)
	}
	if len(fields) == 0 {
		if c.name == "targetctl" {
			return TierMutate, "targetctl"
		}
		return TierDestructive, "targetcli: reads commands from its input"
	}
	switch fields[0] {
	case "--version", "-v", "--help", "-h":
		if len(fields) == 1 {
			return TierRead, c.name + ": prints its version or usage"
		}
	}
	for _, f := range fields {
		// configshell reads one command a line; a teardown word
		// anywhere on it is taken for the command.
		if targetcliDangers[strings.ToLower(f)] {
			return TierDestructive, c.name + " " + truncate(f, 32) + ": deletes a storage object, target or LUN, or replaces the configuration"
		}
	}
	cmd := strings.ToLower(fields[0])
	if c.name == "targetcli" && (strings.HasPrefix(cmd, "/") || strings.HasPrefix(cmd, ".") || strings.HasPrefix(cmd, "@")) {
		if len(fields) == 1 {
			return TierMutate, "targetcli " + truncate(cmd, 64) + ": changes the current path"
		}
		cmd = strings.ToLower(fields[1])
	}
	label := c.name + " " + truncate(cmd, 32)
	switch {
	case targetcliDangers[cmd]:
		return TierDestructive, label + ": deletes a storage object, target or LUN, or replaces the configuration"
	case targetcliReads[cmd] && c.name == "targetcli":
		return TierRead, label + ": reports"
	}
	return TierMutate, label + ": changes the iSCSI or SCSI target configuration"
}

// tgtadmValued are tgtadm's short options that take a value.
const tgtadmValued = "LomtsclnvbEfTIQupHPBYCSy"

// tgtadmProgram classifies tgt's tgtadm by --op: show and stat read;
// delete and unbind remove a target, LUN, account, connection or access;
// update setting the state offline takes a target away.
func tgtadmProgram(c *call) (Tier, string) {
	ops := scanOpts(c.args, tgtadmValued, true, []string{"-o", "--op"})
	if len(ops) == 0 {
		for _, a := range c.args {
			if a.known && (a.val == "-h" || longFlag(a.val, "--help")) {
				return TierRead, "tgtadm --help"
			}
		}
		return TierMutate, "tgtadm: changes the iSCSI target configuration"
	}
	read := true
	for _, op := range ops {
		if !op.known {
			return c.computed("--op")
		}
		switch strings.ToLower(op.val) {
		case "delete", "unbind":
			return TierDestructive, "tgtadm --op " + op.val + ": removes a target, LUN, account, connection or access"
		case "update":
			for _, v := range scanOpts(c.args, tgtadmValued, true, []string{"-v", "--value"}) {
				if !v.known {
					return c.computed("--value")
				}
				if strings.EqualFold(v.val, "offline") {
					return TierDestructive, "tgtadm --op update offline: takes the target offline"
				}
			}
			read = false
		case "show", "stat":
		default:
			read = false
		}
	}
	if read {
		return TierRead, "tgtadm --op show: reports"
	}
	return TierMutate, "tgtadm: changes the iSCSI target configuration"
}

// tgtAdminProgram classifies tgt-admin, a Perl script reading options
// with Getopt::Long (any unambiguous prefix, one dash or two): --delete
// and --offline take targets away unless --pretend only prints.
func tgtAdminProgram(c *call) (Tier, string) {
	danger, pretend, read := "", false, len(c.args) > 0
	for _, a := range c.args {
		if !a.known {
			return c.computed("option")
		}
		if !strings.HasPrefix(a.val, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a.val, "-"), "=")
		isOpt := func(long string, short string) bool {
			return name == short || len(name) >= 2 && strings.HasPrefix(long, name)
		}
		switch {
		case isOpt("pretend", "p"):
			pretend = true
		case isOpt("delete", "d"), isOpt("offline", ""):
			danger = name
		case isOpt("show", "s"), isOpt("dump", ""), isOpt("help", "h"), isOpt("verbose", "v"), isOpt("conf", "c"):
		default:
			read = false
		}
	}
	if danger != "" && !pretend {
		return TierDestructive, "tgt-admin --" + truncate(danger, 16) + ": removes targets or takes them offline"
	}
	if read || pretend {
		return TierRead, "tgt-admin: reports"
	}
	return TierMutate, "tgt-admin: changes the iSCSI target configuration"
}

// snapraidReads are the snapraid commands that only read the array.
var snapraidReads = set(`status diff list dup check smart probe devices`)

// snapraidProgram classifies SnapRAID by its command: fix rewrites the
// array's files from parity; sync, scrub, touch, rehash, pool, up and
// down change the array, its parity or its disks' power; the rest read.
// --log writes a file.
func snapraidProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "snapraid: reports"}
	for _, f := range c.optVals(c.args, "-l", "--log") {
		r.raise(c.writeArg(f, "snapraid --log"))
	}
	ops := optionOperands(c.args, "cfdpoSBLil", "--conf --filter --filter-disk --plan --percentage --older-than --start --count --error-limit --import --log")
	if len(ops) == 0 {
		return r.t, "snapraid: prints its usage"
	}
	if !ops[0].known {
		return c.computed("command")
	}
	for _, o := range ops {
		// getopt_long takes long options abbreviated (--co FILE), whose
		// value may be read here as the command.
		if o.known && strings.EqualFold(o.val, "fix") {
			return TierDestructive, "snapraid fix: rewrites the array's files from parity"
		}
	}
	cmd := strings.ToLower(ops[0].val)
	switch {
	case cmd == "fix":
		return TierDestructive, "snapraid fix: rewrites the array's files from parity"
	case snapraidReads[cmd]:
		return r.t, "snapraid " + cmd + ": reports"
	}
	return maxTier(r.t, TierMutate), "snapraid " + truncate(cmd, 32) + ": changes the array or its parity"
}

// mergerfsCtlProgram classifies mergerfs.ctl [-m MOUNT] COMMAND: info,
// list and get read; remove drops a branch, whose files leave the pool.
func mergerfsCtlProgram(c *call) (Tier, string) {
	ops := optionOperands(c.args, "m", "--mount")
	for _, a := range c.args {
		// argparse takes --mount abbreviated.
		if n, _, eq := strings.Cut(a.val, "="); a.known && !eq && len(n) > 3 && strings.HasPrefix("--mount", n) && n != "--mount" {
			ops = optionOperands(c.args, "m", "--mount "+n)
		}
	}
	if len(ops) == 0 {
		return TierRead, "mergerfs.ctl: prints its usage"
	}
	if !ops[0].known {
		return c.computed("command")
	}
	switch cmd := strings.ToLower(ops[0].val); cmd {
	case "info", "list", "get":
		return TierRead, "mergerfs.ctl " + cmd + ": reports"
	case "remove", "rm", "del", "delete":
		return TierDestructive, "mergerfs.ctl remove: drops a branch and its files from the pool"
	}
	return TierMutate, "mergerfs.ctl: changes the pool"
}

// synoToolProgram classifies Synology's synodisk, synoraid and synonet,
// which take their verb as the first option: the enumerating, showing
// and getting ones read, the ones that delete, format, erase, stop or
// disable are TierDestructive.
func synoToolProgram(c *call) (Tier, string) {
	if len(c.args) == 0 {
		return TierRead, c.name + ": prints its usage"
	}
	read := true
	for _, a := range c.args {
		if !a.known {
			return c.computed("verb")
		}
		if !strings.HasPrefix(a.val, "-") || a.val == "-t" || a.val == "-a" {
			continue // -t TYPE and -a narrow or widen a listing
		}
		v := strings.ToLower(strings.TrimLeft(a.val, "-"))
		for _, d := range []string{"del", "remove", "format", "erase", "wipe", "stop", "destroy", "disable", "down", "reset", "kill", "clean", "zero"} {
			if strings.Contains(v, d) {
				return TierDestructive, c.name + " " + truncate(a.val, 32) + ": deletes, wipes, stops or disables"
			}
		}
		// --smart_info_get and --get_if read, --set_info does not.
		isRead := false
		for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == '_' || r == '-' }) {
			switch w {
			case "enum", "info", "get", "show", "list", "status", "help", "read", "detail":
				isRead = true
			case "set", "add", "create", "write", "update", "change", "modify", "enable", "start", "run", "apply",
				"import", "install", "upgrade", "repair", "rebuild", "expand", "replace", "mount", "assemble",
				"move", "rename", "clear", "test", "check", "scan", "restore", "config":
				read = false
			}
		}
		read = read && isRead
	}
	if read {
		return TierRead, c.name + ": reports"
	}
	return TierMutate, c.name + ": changes disks, volumes or the network"
}

// synoWebAPIRead reports whether a synowebapi call only reads: --exec
// with every method= a get, list or info (the other KEY=VALUE pairs
// choose the API, its version and what to report).
func synoWebAPIRead(c *call) bool {
	methods := 0
	for _, a := range c.args {
		if !a.known {
			return false
		}
		k, v, ok := strings.Cut(a.val, "=")
		switch {
		case a.val == "--exec":
		case !ok || strings.HasPrefix(k, "-"):
			return false
		case strings.EqualFold(k, "method"):
			switch strings.ToLower(v) {
			case "get", "list", "info", "status":
				methods++
			default:
				return false
			}
		}
	}
	return methods > 0
}

// qmrestoreProgram: qmrestore makes a VM from a backup; --force first
// destroys the VM of that id and its disks.
func qmrestoreProgram(c *call) (Tier, string) {
	if t, why, ok := proxmoxForce(c); ok {
		return t, why
	}
	return TierMutate, "qmrestore: creates a VM from a backup"
}

// proxmoxForce reports whether c has Proxmox's --force (one dash or two,
// with a value that is not false, or none), which overwrites a guest.
func proxmoxForce(c *call) (Tier, string, bool) {
	for i, a := range c.args {
		if !a.known {
			if c.mayBeOption(a) {
				t, why := c.computed("option")
				return t, why, true
			}
			continue
		}
		name, val, eq := strings.Cut(strings.TrimLeft(a.val, "-"), "=")
		if !strings.HasPrefix(a.val, "-") || name != "force" {
			continue
		}
		if !eq && i+1 < len(c.args) && !strings.HasPrefix(c.args[i+1].val, "-") {
			if !c.args[i+1].known {
				t, why := c.computed("--force value")
				return t, why, true
			}
			val = c.args[i+1].val
			if !falseValue(val) && val != "1" && !strings.EqualFold(val, "true") {
				val = "1" // the next word is an operand
			}
		}
		if !falseValue(val) {
			return TierDestructive, c.name + " --force: destroys the guest of that id and its disks", true
		}
	}
	return 0, "", false
}

// vzdumpProgram: vzdump writes a backup (TierMutate) into --dumpdir and
// runs --script as a hook.
func vzdumpProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, "vzdump: backs up guests"}
	for i, a := range c.args {
		name, val, eq := strings.Cut(strings.TrimLeft(a.val, "-"), "=")
		if !a.known || !strings.HasPrefix(a.val, "-") {
			continue
		}
		d := arg{val: val, known: true}
		if !eq && i+1 < len(c.args) {
			d = c.args[i+1]
		}
		switch name {
		case "script":
			r.raise(TierDestructive, "vzdump --script: runs a hook script the classifier cannot see")
		case "dumpdir", "tmpdir":
			r.raise(c.writeArg(d, "vzdump --"+name))
		}
	}
	return r.t, r.why
}

// vmkfstools classifies ESXi's vmkfstools: querying a file system, an
// RDM or a disk chain reads; deleting a virtual disk, creating a VMFS on
// a partition and zeroing a disk destroy data; other options change
// disks.
func vmkfstoolsProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		if !a.known && c.mayBeOption(a) {
			return c.computed("option")
		}
	}
	vals := c.vals()
	if hasFlag(vals, 'U', "--deletevirtualdisk") || hasFlag(vals, 'C', "--createfs") || hasFlag(vals, 'w', "--writezeros") {
		return TierDestructive, "vmkfstools: deletes or zeroes a virtual disk or formats a partition"
	}
	if _, _, ok := c.readOpts(optSpec{flags: "Pqeh", valueShort: "v",
		longFlags: set(`--queryfs --queryrdm --chainConsistent --humanreadable`),
		longVals:  set(`--verbose`)}); ok && len(vals) > 0 {
		return TierRead, "vmkfstools: reports"
	}
	return TierMutate, "vmkfstools: changes a disk or file system"
}
