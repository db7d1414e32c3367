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
	c.ansibleHosts()
	for _, inv := range c.optVals(c.args, "-i", "--inventory", "--inventory-file") {
		if inv.known && strings.Contains(inv.val, ",") {
			continue
		}
		c.e.opaque = true
		return TierDestructive, c.name + " -i " + truncate(inv.val, 64) + ": an inventory can be a script or a plugin that runs code"
	}
	return TierRead, ""
}

// ansibleHosts applies the host rules to the hosts an ansible command
// names: an inline inventory's members, --limit's, and the host pattern
// operands (ansible 169.254.169.254 -m ping); the words of -a, -e and
// -m are the module's, not hosts.
func (c *call) ansibleHosts() {
	if len(c.e.p.denyHosts) == 0 {
		return
	}
	for _, v := range c.optVals(c.args, "-i", "--inventory", "--inventory-file", "-l", "--limit") {
		c.forwardSpec("host list", v.val)
	}
	for i, a := range c.args {
		if !a.known || strings.HasPrefix(a.val, "-") {
			continue
		}
		if i > 0 {
			switch c.args[i-1].val {
			case "-a", "--args", "-e", "--extra-vars", "-m", "--module-name", "-M", "--module-path", "-i", "--inventory", "-l", "--limit":
				continue
			}
		}
		c.forwardSpec("host pattern", a.val)
	}
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
		case "--syntax-check", "--list-tasks", "--list-hosts", "--list-tags":
			// Listing templates the plays' hosts, names and tags (a
			// lookup('pipe', …) runs here) and loads the plugins beside
			// the playbook (filter_plugins, vars_plugins): a playbook a
			// tier 1 write made is code.
			if where := c.playbookAgent(); where != "" {
				c.e.opaque = true
				return TierDestructive, "ansible-playbook " + a.val + " templates the plays and loads the plugins beside a playbook a benign call may have written: " + where
			}
			return TierMutate, "ansible-playbook " + a.val
		case "--version", "--help", "-h":
			return TierMutate, "ansible-playbook " + a.val
		}
	}
	c.e.opaque = true
	return TierDestructive, "ansible-playbook: runs the tasks of playbooks the classifier cannot read"
}

// playbookAgent says why a playbook ansible-playbook is given may be one a
// tier 1 call wrote, or returns "": under a temporary directory, known
// only at run time, or relative to a working directory that may be one.
func (c *call) playbookAgent() string {
	for i, a := range c.args {
		if a.known && (a.val == "--" || strings.HasPrefix(a.val, "-")) || i > 0 && ansibleTakesValue(c.args[i-1]) {
			continue
		}
		if why := codePathAgent(a); why != "" {
			return why
		}
		if why := c.fileDirAgent(a); why != "" {
			return why
		}
	}
	return ""
}

// ansibleAdhocRisk classifies what an ad hoc command's options add to a
// module that only reads (setup, ping, stat…): values templated on this
// machine ({{ lookup('pipe', CMD) }} in -a or -e runs CMD here), extra
// variables that choose the interpreter, connection or ssh arguments
// (ansible_python_interpreter, ansible_ssh_common_args, a vars file),
// setup's fact_path (whose executable .fact files run on the target,
// this machine for localhost), a module path, ssh's extra arguments
// (ProxyCommand runs here), a vault password file (run when it is
// executable) and --tree, which writes a file per host into its
// directory.
func ansibleAdhocRisk(c *call, mod string, args []arg) (Tier, string) {
	code := func(why string) (Tier, string) {
		c.e.opaque = true
		return TierDestructive, "ansible " + why
	}
	for i, a := range c.args {
		// A value computed at run time can become -M, --ssh-common-args
		// or -e, except as the value of an option that takes one.
		if a.known && a.val == "--" {
			break
		}
		if !a.known && c.mayBeOption(a) && !(i > 0 && ansibleTakesValue(c.args[i-1])) {
			return code("a word computed at run time can become an option that runs code here (-M, --ssh-common-args, -e)")
		}
	}
	for _, a := range args {
		if !a.known || strings.Contains(a.val, "{{") || strings.Contains(a.val, "{%") {
			return code("-a: module arguments are templated here, and a lookup('pipe', …) runs a command")
		}
		if (mod == "setup" || mod == "gather_facts") && strings.Contains(a.val, "fact_path") {
			return code("-m " + mod + " fact_path: the executable .fact files there run on the target")
		}
		if mod == "debug" && strings.Contains(a.val, "(") {
			// var= is a template expression without the braces.
			return code("-m debug var: the expression is templated here, and a lookup('pipe', …) runs a command")
		}
	}
	for _, e := range ansibleOptVals(c, "-e", "--extra-vars") {
		if !e.known || strings.HasPrefix(e.val, "@") || strings.Contains(e.val, "{{") || strings.Contains(e.val, "{%") ||
			strings.Contains(e.val, "ansible_") {
			return code("-e: extra variables can choose the interpreter, connection or ssh command, or run a lookup here")
		}
	}
	for _, o := range [][2]string{{"-M", "--module-path"}, {"", "--ssh-common-args"}, {"", "--ssh-extra-args"},
		{"", "--sftp-extra-args"}, {"", "--scp-extra-args"}, {"", "--vault-password-file"}, {"", "--vault-pass-file"}} {
		if len(ansibleOptVals(c, o[0], o[1])) > 0 {
			return code(o[1] + ": names code or ssh options that run here or in place of the module")
		}
	}
	for _, v := range ansibleOptVals(c, "", "--vault-id") {
		if _, src, _ := strings.Cut(v.val, "@"); !v.known || src != "prompt" && v.val != "prompt" {
			return code("--vault-id: a password file is run when it is executable")
		}
	}
	r := raiser{TierRead, ""}
	for _, d := range ansibleOptVals(c, "-t", "--tree") {
		r.raise(c.writeArg(d, "ansible --tree"))
	}
	return r.t, r.why
}

// ansibleLongs are ansible's long options, among which argparse resolves
// an abbreviation only when it is not ambiguous (--mod is not
// --module-path).
var ansibleLongs = []string{"--args", "--ask-become-pass", "--ask-pass", "--ask-vault-password", "--ask-vault-pass",
	"--background", "--become", "--become-method", "--become-password-file", "--become-pass-file", "--become-user",
	"--check", "--connection", "--connection-password-file", "--conn-pass-file", "--diff", "--extra-vars", "--forks",
	"--help", "--inventory", "--inventory-file", "--key-file", "--limit", "--list-hosts", "--module-name",
	"--module-path", "--one-line", "--playbook-dir", "--poll", "--private-key", "--scp-extra-args",
	"--sftp-extra-args", "--ssh-common-args", "--ssh-extra-args", "--syntax-check", "--task-timeout", "--timeout",
	"--tree", "--user", "--vault-id", "--vault-password-file", "--vault-pass-file", "--verbose", "--version"}

// ansibleOptVals returns the values ansible's option short or long
// gets: "-Xv" or "-X v", and the long name or an unambiguous
// abbreviation with "=v" or the next word.
func ansibleOptVals(c *call, short, long string) []arg {
	var out []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known || !strings.HasPrefix(a.val, "-") || a.val == "--" {
			if a.known && a.val == "--" {
				break
			}
			continue
		}
		if strings.HasPrefix(a.val, "--") {
			name, val, eq := strings.Cut(a.val, "=")
			if longOpt(name, ansibleLongs) != long {
				continue
			}
			if eq {
				out = append(out, arg{val: val, known: true})
			} else if i+1 < len(c.args) {
				i++
				out = append(out, c.args[i])
			}
			continue
		}
		// A cluster of flags may end in the option: -bt DIR, -vvvM DIR.
		for j := 1; short != "" && j < len(a.val); j++ {
			if a.val[j] == short[1] {
				if j+1 < len(a.val) {
					out = append(out, arg{val: a.val[j+1:], known: true, glob: a.glob})
				} else if i+1 < len(c.args) {
					i++
					out = append(out, c.args[i])
				}
				break
			}
			if strings.IndexByte(ansibleFlags, a.val[j]) < 0 {
				break
			}
		}
	}
	return out
}

// ansibleFlags are ansible's short options that take no value.
const ansibleFlags = "bCDKkov"

// ansibleTakesValue reports whether a is an ansible option whose value is
// the next word: a short one ending a cluster of flags (-l, -bu) or a long
// one without "=".
func ansibleTakesValue(a arg) bool {
	v := a.val
	if !a.known || len(v) < 2 || v[0] != '-' || strings.Contains(v, "=") {
		return false
	}
	if strings.HasPrefix(v, "--") {
		switch longOpt(v, ansibleLongs) {
		case "--args", "--become-method", "--become-password-file", "--become-pass-file", "--become-user", "--connection",
			"--connection-password-file", "--conn-pass-file", "--extra-vars", "--forks", "--inventory", "--inventory-file",
			"--key-file", "--limit", "--module-name", "--module-path", "--playbook-dir", "--poll", "--background",
			"--private-key", "--scp-extra-args", "--sftp-extra-args", "--ssh-common-args", "--ssh-extra-args",
			"--task-timeout", "--timeout", "--tree", "--user", "--vault-id", "--vault-password-file", "--vault-pass-file":
			return true
		}
		return false
	}
	for j := 1; j < len(v); j++ {
		if strings.IndexByte(ansibleFlags, v[j]) < 0 {
			return j == len(v)-1 && strings.IndexByte("aBcefilMmPtTu", v[j]) >= 0
		}
	}
	return false
}
