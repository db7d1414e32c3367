package policy

import "strings"

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
	if c.name == "samba-tool" && len(ops) > 0 && ops[0].val == "visualize" {
		// visualize draws the graph into the file -o names (optparse
		// takes --output abbreviated).
		for _, f := range c.optVals(c.args, "-o", "--output") {
			return c.writeArg(f, "samba-tool visualize --output")
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
