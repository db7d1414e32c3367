package policy

import (
	"path"
	"strings"
)

// Destinations read from a file. curl -K, wget -i and --config, and ssh
// -F take their URLs, proxies, jump hosts and forwards from a file or
// standard input, which the command line does not show: such a program
// stays at least tier 2 for that (each handler says so), and when the
// text is known — a here-document or printed line on standard input, a
// file the script itself wrote, a process substitution that prints
// literal text — its every field meets the host rules as a forwarding
// spec's do.

// stdinNames are the spellings of a file operand that read standard
// input.
var stdinNames = set(`- /dev/stdin /dev/fd/0 /proc/self/fd/0`)

// configHosts denies a host named in the known text of the file a
// program reads its destinations from.
func (c *call) configHosts(what string, f arg) {
	if len(c.e.p.denyHosts) == 0 || !f.known {
		return
	}
	if stdinNames[f.val] {
		if c.ctx.stdin.kind == stdinText {
			c.forwardSpec(what, c.ctx.stdin.text)
		}
		for _, t := range c.ctx.stdin.alts {
			c.forwardSpec(what, t)
		}
		return
	}
	for _, t := range c.ctx.sc.fileTexts(f.val) {
		c.forwardSpec(what, t)
	}
}

// hostNamed are the programs probeHosts, forwarderWords and hostFiles
// read: one lookup on every command says whether any of them has work.
var hostNamed = func() map[string]bool {
	m := map[string]bool{"pdsh": true, "stunnel": true}
	for _, names := range []map[string]bool{probeOperands, forwarders, tunnelConfigs} {
		for n := range names {
			m[n] = true
		}
	}
	for n := range hostFileOpts {
		m[n] = true
	}
	return m
}()

// hostFileOpts are the options of clients and scanners that read the
// hosts or URLs they reach from a file ("-" is standard input).
var hostFileOpts = map[string][]string{
	"nmap":         {"-iL"},
	"masscan":      {"-iL", "--includefile"},
	"fping":        {"-f", "--file"},
	"fping6":       {"-f", "--file"},
	"ssh-keyscan":  {"-f"},
	"pssh":         {"-h", "--hosts"},
	"parallel-ssh": {"-h", "--hosts"},
	"pscp":         {"-h", "--hosts"},
	"pscp.pssh":    {"-h", "--hosts"},
	"prsync":       {"-h", "--hosts"},
	"pslurp":       {"-h", "--hosts"},
	"pnuke":        {"-h", "--hosts"},
	"clush":        {"--hostfile"},
	"aria2c":       {"-i", "--input-file"},
	"httping":      {"-f"},
	"dig":          {"-f"},
	"mtr":          {"-F", "--filename"},
}

// hostFiles holds a program that reads its destinations from a file to
// tier 2 when host rules are set — no rule sees them — and applies the
// rules to the file's text when it is known. fping with no target reads
// its targets from standard input, pdsh -w ^FILE its hosts from FILE,
// and stunnel its services' connect = HOST:PORT from its operand or
// -fd 0.
func (e *eval) hostFiles(args []arg, ctx cctx) {
	if len(e.p.denyHosts) == 0 || len(args) < 1 {
		return
	}
	name := path.Base(args[0].val)
	opts, ok := hostFileOpts[name]
	if !ok && name != "pdsh" && name != "stunnel" {
		return
	}
	c := &call{e: e, name: name, args: args[1:], ctx: ctx}
	// Read as getopt reads them: in a cluster (ssh-keyscan -Hf FILE),
	// attached, or a long name abbreviated (fping --fi=FILE).
	files := c.optVals(c.args, opts...)
	if name == "pdsh" {
		for _, w := range exactOptVals(c.args, "-w") {
			if f, ok := strings.CutPrefix(w.val, "^"); ok {
				files = append(files, arg{val: f, known: w.known})
			}
		}
	}
	if name == "stunnel" {
		// stunnel FILE, or -fd N: its services' connect = HOST:PORT.
		for i, a := range c.args {
			switch {
			case a.val == "-fd" && i+1 < len(c.args) && c.args[i+1].val == "0":
				files = append(files, arg{val: "-", known: true})
			case !strings.HasPrefix(a.val, "-") && (i == 0 || c.args[i-1].val != "-fd"):
				files = append(files, a)
			}
		}
	}
	if strings.HasPrefix(name, "fping") && len(files) == 0 && !hasOperand(c.args) {
		files = append(files, arg{val: "-", known: true})
	}
	for _, f := range files {
		e.note(TierMutate, ctx.covered, "%s %s: reads the hosts it reaches from a file, which host rules cannot check", name, truncate(f.val, 64))
		c.configHosts("host file", f)
	}
}

// hasOperand reports whether args hold a word that is not an option.
func hasOperand(args []arg) bool {
	for _, a := range args {
		if !strings.HasPrefix(a.val, "-") {
			return true
		}
	}
	return false
}
