package policy

import "strings"

// Granting root: an account given uid 0 (usermod -u 0 -o, useradd -o -u
// 0), a group given gid 0, a user added to a group whose members are root
// or can become it (sudo, wheel, docker: its daemon runs what they ask as
// root; disk: the raw devices), users made from a file of any uids
// (newusers), or the password, group and sudoers files edited whole
// (vipw, vigr, visudo). Writing those files directly is tier 3
// (sensitivePath); the tools that write them are too when this is what
// they write.

// rootGroups are the groups whose members are root or can become it.
var rootGroups = set(`root sudo wheel admin docker lxd incus libvirt disk shadow`)

// grantsRoot says how c's words grant root, or returns "".
func (c *call) grantsRoot() string {
	vals := c.vals()
	switch c.name {
	case "newusers":
		return "newusers: makes accounts of any uid, root's included, from its input"
	case "vipw", "vigr":
		return c.name + ": edits the account files whole"
	}
	for _, v := range c.optVals(c.args, "-u", "--uid", "-g", "--gid") {
		if strings.TrimLeft(v.val, "0") == "" && v.val != "" {
			return c.name + ": gives an account or group id 0, root's"
		}
	}
	for _, g := range c.optVals(c.args, "-G", "--groups", "-g", "--gid", "--ingroup") {
		for _, n := range strings.Split(g.val, ",") {
			if rootGroups[n] && !hasFlag(vals, 'r', "--remove") {
				return c.name + ": adds a user to " + n + ", whose members are root or can become it"
			}
		}
	}
	ops := operands(vals)
	switch c.name {
	case "gpasswd":
		// gpasswd -a USER GROUP, -A USER GROUP (the group's admin).
		if (hasFlag(vals, 'a', "--add") || hasFlag(vals, 'A', "--administrators")) && len(ops) > 0 && rootGroups[ops[len(ops)-1]] {
			return "gpasswd: adds a user to " + ops[len(ops)-1] + ", whose members are root or can become it"
		}
	case "adduser", "addgroup":
		// Debian's adduser USER GROUP adds USER to GROUP.
		if len(ops) == 2 && rootGroups[ops[1]] {
			return c.name + ": adds " + ops[0] + " to " + ops[1] + ", whose members are root or can become it"
		}
	}
	return ""
}
