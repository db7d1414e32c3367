package policy

import "strings"

// Samba's account and daemon tools: pdbedit, smbpasswd, smbcontrol,
// samba-tool (in wordCLIs) and wbinfo. Listing accounts and asking the
// daemons for state read; deleting, disabling or locking an account,
// leaving or demoting the domain, and stopping a daemon or dropping its
// clients cut access and are TierDestructive.

// pdbeditProgram classifies Samba's pdbedit: -L lists the accounts (-v
// and -w in detail), -u NAME shows one and -P reads an account policy;
// -x deletes the account; every other option changes an account, the
// policy or the backend. -l names a log file it writes.
func pdbeditProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "pdbedit: reports"}
	for _, f := range c.optVals(c.args, "-l", "--log-basename") {
		r.raise(c.writeArg(f, "pdbedit --log-basename"))
	}
	if hasFlag(c.vals(), 'x', "--delete") {
		return TierDestructive, "pdbedit --delete: deletes a Samba account"
	}
	for _, f := range c.optVals(c.args, "-c", "--account-control") {
		// [D] disables the account, [L] locks it.
		if !f.known || strings.ContainsAny(f.val, "DL") {
			return TierDestructive, "pdbedit --account-control: disables or locks an account"
		}
	}
	for _, a := range c.args {
		if !a.known && c.mayBeOption(a) {
			return c.computed("option")
		}
	}
	_, _, ok := c.readOpts(optSpec{flags: "LvwmV", valueShort: "udsbPl",
		longFlags: set(`--list --verbose --smbpasswd-style --machine --version --help`),
		longVals:  set(`--user --debuglevel --configfile --backend --account-policy --log-basename`)})
	vals := c.vals()
	if ok && (hasFlag(vals, 'L', "--list") || hasFlag(vals, 'u', "--user") || hasFlag(vals, 'P', "--account-policy") ||
		hasFlag(vals, 'V', "--version") || hasFlag(vals, 0, "--help")) {
		return r.t, "pdbedit: reports"
	}
	return TierMutate, "pdbedit: changes a Samba account or policy"
}

// smbcontrolDangers are the smbcontrol messages that stop a daemon,
// close shares under their users, drop clients or take winbind offline.
var smbcontrolDangers = set(`shutdown close-share close-denied-share kill-client-ip offline disconnect-dc`)

// smbcontrolReads are the messages that only ask for state.
var smbcontrolReads = set(`ping pool-usage debuglevel ringbuf-log num-children`)

// smbcontrolProgram classifies smbcontrol DESTINATION MESSAGE.
func smbcontrolProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "smbcontrol: reports"}
	for _, f := range c.optVals(c.args, "-l", "--log-basename") {
		r.raise(c.writeArg(f, "smbcontrol --log-basename"))
	}
	ops := optionOperands(c.args, "tsdl", "--timeout --configfile --debuglevel --log-basename --option")
	for _, o := range ops {
		// An abbreviated option's value may shift the message along.
		if o.known && smbcontrolDangers[strings.ToLower(o.val)] {
			return TierDestructive, "smbcontrol " + strings.ToLower(o.val) + ": stops a Samba daemon or drops its clients"
		}
	}
	if len(ops) < 2 {
		return r.t, "smbcontrol: prints its usage"
	}
	if !ops[1].known {
		return c.computed("message")
	}
	msg := strings.ToLower(ops[1].val)
	switch {
	case smbcontrolDangers[msg]:
		return TierDestructive, "smbcontrol " + msg + ": stops a Samba daemon or drops its clients"
	case smbcontrolReads[msg]:
		return r.t, "smbcontrol " + msg + ": reports"
	}
	return maxTier(r.t, TierMutate), "smbcontrol " + truncate(msg, 32) + ": tells a Samba daemon to act"
}

// smbpasswdProgram classifies smbpasswd: -x deletes a Samba account and
// -d disables it; anything else sets a password or adds or enables an
// account.
func smbpasswdProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		if !a.known && c.mayBeOption(a) {
			return c.computed("option")
		}
	}
	vals := c.vals()
	for i := 0; i < len(vals); i++ {
		v := vals[i]
		if v == "--" || len(v) < 2 || v[0] != '-' || v[1] == '-' {
			continue
		}
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case 'x', 'd':
				return TierDestructive, "smbpasswd -" + string(v[j]) + ": deletes or disables a Samba account"
			case 'c', 'D', 'r', 'R', 'U', 'w':
				if j == len(v)-1 {
					i++ // the value is the next word
				}
				j = len(v)
			}
		}
	}
	return TierMutate, "smbpasswd: sets a password or adds an account"
}

// wbinfoProgram classifies winbind's wbinfo: its lookups, listings and
// pings read; removing an id mapping is TierDestructive (the files of
// that user or group lose their owner); allocating ids, setting
// mappings, changing the machine secret and any option not listed are
// TierMutate.
func wbinfoProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		if a.known && (strings.HasPrefix(a.val, "--remove-uid-mapping") || strings.HasPrefix(a.val, "--remove-gid-mapping")) {
			return TierDestructive, "wbinfo " + truncate(a.val, 24) + ": removes an id mapping"
		}
	}
	_, _, ok := c.readOpts(optSpec{flags: "ugmtpPV", valueShort: "nsUGSYDirNI",
		longFlags: set(`--domain-users --domain-groups --trusted-domains --all-domains --own-domain --online-status
			--check-secret --ping --ping-dc --separator --interface-version --verbose --help --sequence --version`),
		longVals: set(`--name-to-sid --sid-to-name --sid-to-fullname --uid-to-sid --gid-to-sid --sid-to-uid --sid-to-gid
			--domain-info --user-info --uid-info --group-info --user-groups --user-domgroups --user-sids --getdcname
			--dsgetdcname --dc-info --domain --lookup-rids --lookup-sids --sids-to-unix-ids --unix-ids-to-sids
			--WINS-by-name --WINS-by-ip`)})
	if ok {
		return TierRead, "wbinfo: reports"
	}
	return TierMutate, "wbinfo: changes winbind's mappings or secrets"
}
