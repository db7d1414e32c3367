package policy

import "strings"

// Ansible runs code from the files it is given, on this machine, before it
// reaches any host: an inventory can be an executable script, or a plugin
// configuration (constructed's compose and groups are Jinja2, whose
// lookup('pipe', …) runs a command), and a playbook's tasks run anything.

// ansibleInventory classifies the -i/--inventory (and the old
// --inventory-file) values of an ansible command: a comma-separated host
// list ("h1,h2," or "localhost,") is data; anything else names a file or
// directory whose scripts and plugins run code the classifier cannot see.
func ansibleInventory(c *call) (Tier, string) {
	for _, inv := range c.optVals(c.args, "-i", "--inventory", "--inventory-file") {
		if inv.known && strings.Contains(inv.val, ",") {
			continue
		}
		c.e.opaque = true
		return TierDestructive, c.name + " -i " + truncate(inv.val, 64) + ": an inventory can be a script or a plugin that runs code"
	}
	return TierRead, ""
}

// ansiblePlaybookProgram: ansible-playbook runs the tasks of playbook
// files the classifier cannot read (tier 3), its inventory included; only
// listing and checking the syntax stop before running any task (tier 2,
// as lookups in vars can still run).
func ansiblePlaybookProgram(c *call) (Tier, string) {
	if t, why := ansibleInventory(c); t > TierRead {
		return t, why
	}
	for _, a := range c.args {
		switch a.val {
		case "--syntax-check", "--list-tasks", "--list-hosts", "--list-tags", "--version", "--help", "-h":
			return TierMutate, "ansible-playbook " + a.val
		}
	}
	c.e.opaque = true
	return TierDestructive, "ansible-playbook: runs the tasks of playbooks the classifier cannot read"
}
