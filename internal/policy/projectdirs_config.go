package policy

import (
	"path"
	"strings"
)

// Servers and their configuration checks load code a configuration file
// names: nginx's load_module and Apache's LoadModule (a shared object,
// run as root), haproxy's lua-load, unbound's python module, VCL's inline
// C, php.ini's extension=, slapd's and kamailio's modules, gunicorn's
// Python configuration, openvpn's and wg-quick's up scripts, redis's
// loadmodule, supervisord's programs, named's DLZ drivers, dnsmasq's
// conf-script (run to print more configuration, --test included), a
// gemrc's gemhome and gempath (gem --config-file), whose .gemspec files,
// Ruby, gem list evaluates. A tier 1 write can put such a file
// under a temporary directory, so naming one there, or one known only at
// run time, is tier 3 as a build there is (projectdirs.go): open mode
// would otherwise run what the agent wrote, reboot included, unapproved.
// The system's own configuration stays what the program's verdict says.

// codeConfigs are the options naming a configuration that loads code, and
// whether the first operand is one.
var codeConfigs = map[string]struct {
	opts    []string
	operand bool
}{
	"nginx":             {opts: []string{"-c"}},
	"apachectl":         {opts: []string{"-f"}},
	"apache2ctl":        {opts: []string{"-f"}},
	"httpd":             {opts: []string{"-f"}},
	"apache2":           {opts: []string{"-f"}},
	"haproxy":           {opts: []string{"-f"}},
	"unbound-checkconf": {operand: true},
	"unbound":           {opts: []string{"-c"}},
	"varnishd":          {opts: []string{"-f"}},
	"php-fpm":           {opts: []string{"-y", "--fpm-config", "-c", "--php-ini"}},
	"lighttpd":          {opts: []string{"-f"}},
	"slapd":             {opts: []string{"-f", "-F"}},
	"slaptest":          {opts: []string{"-f", "-F"}},
	"kamailio":          {opts: []string{"-f"}},
	"proftpd":           {opts: []string{"-c", "--config"}},
	"gunicorn":          {opts: []string{"-c", "--config"}},
	"uwsgi":             {opts: []string{"--ini", "--yaml", "--json", "--xml"}},
	"openvpn":           {opts: []string{"--config"}},
	"redis-server":      {operand: true},
	"valkey-server":     {operand: true},
	"mosquitto":         {opts: []string{"-c", "--config-file"}},
	"supervisord":       {opts: []string{"-c", "--configuration"}},
	"postgres":          {opts: []string{"-D", "--config-file"}},
	"named":             {opts: []string{"-c"}},
	"wg-quick":          {operand: true},
	"dnsmasq":           {opts: []string{"-C", "--conf-file"}},
	"gem":               {opts: []string{"--config-file"}}, // gemhome and gempath: the .gemspec files (Ruby) gem list evaluates
	// An auth file's credHelpers and credsStore name the
	// docker-credential-* program podman search runs for the registry (a
	// name with a slash runs from the working directory); --config is
	// podman's hidden spelling of its directory, as docker's.
	"podman": {opts: []string{"--authfile", "--config"}},
}

// configCode raises the tier t of call c to tier 3 when c loads code from
// a configuration the agent may have written.
func (c *call) configCode(t Tier, why string) (Tier, string) {
	return c.agentCode(t, why, "loads the modules or scripts its configuration names", c.configAgent)
}

// configAgent says why a configuration c loads code from may be one the
// agent wrote, or returns "".
func (c *call) configAgent() string {
	spec, ok := codeConfigs[c.name]
	if !ok {
		return ""
	}
	files := c.optVals(c.args, spec.opts...)
	if spec.operand {
		if ops := operandsSkipping(c.vals(), "", nil); len(ops) > 0 {
			for _, a := range c.args {
				if a.val == ops[0] {
					files = append(files, a)
					break
				}
			}
		}
	}
	if c.name == "wg-quick" {
		// wg-quick up|down CONFIG runs its PostUp and PreDown lines; a
		// bare interface name is /etc/wireguard's.
		files = nil
		ops := operands(c.vals())
		if len(ops) >= 2 && (ops[0] == "up" || ops[0] == "down") {
			for _, a := range c.args {
				if a.val == ops[1] && (!a.known || strings.Contains(a.val, "/") || strings.HasSuffix(a.val, ".conf")) {
					files = append(files, a)
				}
			}
		}
	}
	for _, f := range files {
		if where := codePathAgent(f); where != "" {
			return where // a directory itself (podman --config /tmp)
		}
		if where := c.fileDirAgent(f); where != "" {
			return strings.Replace(where, "project directory", "configuration's directory", 1)
		}
	}
	if c.name == "nginx" || c.name == "apachectl" || c.name == "apache2ctl" || c.name == "httpd" || c.name == "apache2" {
		// Directives given on the command line: nginx -g, Apache -C/-c.
		for _, g := range c.optVals(c.args, "-g", "-C", "-c") {
			if c.name == "nginx" && g.val != "" && !strings.HasPrefix(g.val, "/") && g.known && !strings.Contains(strings.ToLower(g.val), "load_module") {
				continue
			}
			if c.name != "nginx" && g.known && !strings.Contains(strings.ToLower(g.val), "loadmodule") && !strings.Contains(strings.ToLower(g.val), "include") {
				continue
			}
			if c.name == "nginx" && strings.HasPrefix(g.val, "/") {
				continue // -c's file, read above
			}
			return "its command line loads a module (" + truncate(g.val, 64) + ")"
		}
	}
	return ""
}

// fileDirAgent says why the directory of a file c reads may be one a
// benign call wrote, or returns "": known only at run time, a pattern
// that can match there, under a temporary directory, or relative to a
// working directory the input makes one. Without path rules, where
// relative and computed names lead is not followed.
func (c *call) fileDirAgent(f arg) string {
	d := f
	if f.known && !f.glob {
		d.val = path.Dir(f.val)
		if !strings.Contains(f.val, "/") {
			d.val = "."
		}
	}
	if c.e.paths == nil && (!d.known || !strings.HasPrefix(d.val, "/")) {
		return ""
	}
	return c.projectDirsAgent([]arg{d})
}
