package policy

// What a host trusts: a signing key apt accepts packages by, a CA every
// TLS client accepts servers by, or a system file moved aside so that
// another takes its name. One added by the agent is a way into every
// later package install or TLS connection, so adding one is
// TierDestructive; listing reads.

// aptKeyProgram classifies apt-key: add, adv (which runs gpg with any
// options, --recv-keys and --import among them) and the updates add
// trusted keys; del removes one; list, finger and export read.
func aptKeyProgram(c *call) (Tier, string) {
	if !allKnown(c.args) {
		c.e.opaque = true
		return TierDestructive, "apt-key: a word computed at run time can add a trusted key"
	}
	for _, v := range c.vals() {
		switch v {
		case "list", "finger", "fingerprint", "export", "exportall", "help":
			return TierRead, "apt-key " + v + ": reads keys"
		case "add", "adv", "update", "net-update":
			return TierDestructive, "apt-key " + v + ": adds a key apt trusts packages by"
		case "del", "rm":
			return TierMutate, "apt-key " + v + ": removes a trusted key"
		}
	}
	return TierMutate, "apt-key: changes apt's trusted keys"
}

// trustProgram classifies p11-kit's trust: "trust anchor FILE" adds a CA
// every TLS client on the host then accepts (--remove takes one away);
// list and dump read; extract writes a bundle.
func trustProgram(c *call) (Tier, string) {
	if !allKnown(c.args) {
		c.e.opaque = true
		return TierDestructive, "trust: a word computed at run time can add a trusted CA"
	}
	vals := c.vals()
	ops := operands(vals)
	if len(ops) == 0 {
		return TierRead, "trust: prints its usage"
	}
	switch ops[0] {
	case "list", "dump":
		return TierRead, "trust " + ops[0] + ": reads the trust store"
	case "anchor":
		if hasFlag(vals, 'r', "--remove") {
			return TierMutate, "trust anchor --remove: removes a trusted CA"
		}
		return TierDestructive, "trust anchor: adds a CA every TLS client on the host accepts"
	}
	return TierMutate, "trust " + ops[0] + ": changes or writes the trust store"
}

// divertProgram classifies dpkg-divert: --rename moves a system file
// aside (dpkg-divert --add --rename /usr/bin/ls leaves no ls, and a file
// of the agent's can take its name); other changes only redirect later
// package installs; the listing options read.
func divertProgram(c *call) (Tier, string) {
	if !allKnown(c.args) {
		c.e.opaque = true
		return TierDestructive, "dpkg-divert: a word computed at run time can move a system file aside"
	}
	vals := c.vals()
	for _, v := range vals {
		if v == "--list" || v == "--listpackage" || v == "--truename" || v == "--help" || v == "--version" {
			return TierRead, "dpkg-divert " + v + ": reads diversions"
		}
	}
	if hasFlag(vals, 0, "--rename") {
		return TierDestructive, "dpkg-divert --rename: moves a system file aside"
	}
	if len(operands(vals)) > 0 || hasFlag(vals, 0, "--add") || hasFlag(vals, 0, "--remove") {
		return TierMutate, "dpkg-divert: changes where packages install a file"
	}
	return TierRead, "dpkg-divert: lists diversions"
}
