package policy

import "strings"

// Configuration management agents apply, as root, what a manifest or a
// recipe says: files written anywhere, packages, services, commands run.
// Applying the host's own manifest is a change like any other (tier 2;
// one a benign call may have written is tier 3, codesources.go). Code
// given on the command line (puppet apply -e, chef-apply -e) is the
// agent's own, in a language the classifier does not read: tier 3. So is
// a puppet resource set to run a command, and a file resource writes the
// file it names.

// confMgmtProgram classifies puppet and chef-apply.
func confMgmtProgram(c *call) (Tier, string) {
	vals := c.vals()
	for _, v := range vals {
		switch {
		case v == "-e" || v == "--execute" || strings.HasPrefix(v, "--execute=") || strings.HasPrefix(v, "-e") && len(v) > 2 && v[1] != '-':
			c.e.opaque = true
			return TierDestructive, c.name + " " + truncate(v, 32) + ": applies code given on its command line, which the classifier cannot read"
		}
	}
	ops := operands(vals)
	if c.name != "puppet" || len(ops) == 0 {
		return TierMutate, c.name + ": applies configuration"
	}
	switch ops[0] {
	case "help", "facts", "parser", "describe":
		return TierRead, "puppet " + ops[0]
	case "config", "module":
		if len(ops) > 1 && (ops[1] == "print" || ops[1] == "list" || ops[1] == "search" || ops[1] == "changes") {
			return TierRead, "puppet " + ops[0] + " " + ops[1]
		}
	case "resource":
		return c.puppetResource(ops[1:])
	}
	return TierMutate, "puppet " + truncate(ops[0], 32) + ": applies configuration"
}

// puppetResource classifies puppet resource TYPE [NAME [ATTR=VALUE…]]:
// without an attribute it lists; with one it sets the resource.
func (c *call) puppetResource(ops []string) (Tier, string) {
	var attrs []string
	for _, o := range ops {
		if strings.Contains(o, "=") {
			attrs = append(attrs, o)
		}
	}
	if len(attrs) == 0 {
		return TierRead, "puppet resource: lists resources"
	}
	typ, name := strings.ToLower(ops[0]), ""
	if len(ops) > 1 && !strings.Contains(ops[1], "=") {
		name = ops[1]
	}
	switch typ {
	case "exec", "cron":
		for _, a := range attrs {
			if k, v, _ := strings.Cut(a, "="); k == "command" || k == "onlyif" || k == "unless" {
				c.shell(v, "puppet resource "+typ+" "+k, nil, false)
			}
		}
		c.e.opaque = true
		return TierDestructive, "puppet resource " + typ + ": runs or schedules a command"
	case "file":
		if name != "" {
			r := raiser{TierMutate, "puppet resource file: writes " + truncate(name, 64)}
			r.raise(c.writeArg(arg{val: name, known: true}, "puppet resource file"))
			return r.t, r.why
		}
	}
	return TierMutate, "puppet resource " + truncate(typ, 32) + ": changes a resource"
}
