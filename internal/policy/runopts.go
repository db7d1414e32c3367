package policy

import (
	"fmt"
	"path"
	"strings"
)

// Options whose value is a program the program runs, or the arguments of
// one: in programs the classifier knows, a table of them; in programs it
// does not, the option's name says so (--exec, --pinentry-program,
// --root-command, --hook-init, -sshcmd).

// runOpt is a long option whose value names a program the program runs.
// min is the shortest prefix its parser takes for it (getopt_long, gnupg's
// and zip's parsers and argparse take any unambiguous one; an ambiguous
// one is refused, so matching it as well errs safe). With via set the
// value is not a program but the arguments the program gives via, or,
// with configVia, a configuration that can name such programs.
type runOpt struct {
	name, min, via string
}

// programRunOpts are the run options of programs the classifier knows
// whose handlers do not see them.
var programRunOpts = map[string][]runOpt{
	// The command rdiff-backup runs to reach a remote side
	// ('ssh -C {h} rdiff-backup --server' unless this names another).
	"rdiff-backup": {{"--remote-schema", "--remote-s", ""}},
	// Actions kopia runs around every later snapshot of the path, a
	// command stored in the policy (kingpin takes whole names only).
	"kopia": {{"--before-folder-action", "--before-folder-action", ""},
		{"--after-folder-action", "--after-folder-action", ""},
		{"--before-snapshot-root-action", "--before-snapshot-root-action", ""},
		{"--after-snapshot-root-action", "--after-snapshot-root-action", ""}},
	// certbot's hooks run around each issue or renewal, and are stored in
	// the renewal configuration the timer runs later.
	"certbot": {{"--pre-hook", "--pre-h", ""}, {"--post-hook", "--post-h", ""},
		{"--deploy-hook", "--deploy-h", ""}, {"--renew-hook", "--renew-h", ""},
		{"--manual-auth-hook", "--manual-a", ""}, {"--manual-cleanup-hook", "--manual-c", ""}},
	// fio runs these before and after a job.
	"fio": {{"--exec_prerun", "--exec_prerun", ""}, {"--exec_postrun", "--exec_postrun", ""}},
	// mosh runs --client locally (--ssh is read with ssh's options).
	"mosh": {{"--client", "--cl", ""}},
	// openvpn runs its scripts on tunnel and client events.
	"openvpn": {{"--up", "--up", ""}, {"--down", "--down", ""}, {"--route-up", "--route-up", ""},
		{"--route-pre-down", "--route-pre-down", ""}, {"--ipchange", "--ipchange", ""},
		{"--learn-address", "--learn-address", ""}, {"--tls-verify", "--tls-verify", ""},
		{"--client-connect", "--client-connect", ""}, {"--client-disconnect", "--client-disconnect", ""},
		{"--auth-user-pass-verify", "--auth-user-pass-verify", ""}},
	// The spell checker nano runs on ^T (-s too, runShorts).
	"nano": {{"--speller", "--sp", ""}},
	"pico": {{"--speller", "--sp", ""}},
	// dnsmasq runs the script on every lease change, as root at start;
	// --conf-script's output is read as configuration; the Lua file is
	// loaded as dhcp-script's code.
	"dnsmasq": {{"--dhcp-script", "--dhcp-scr", ""}, {"--conf-script", "--conf-s", ""},
		{"--dhcp-luascript", "--dhcp-lu", configVia}},
	// npm runs git and node-gyp as these name them, its scripts' node with
	// node-options as NODE_OPTIONS, and the init module (npm init) and
	// onload script (npm 6) as JavaScript.
	"npm": {{"--git", "--git", ""}, {"--node-gyp", "--node-g", ""}, {"--node-options", "--node-o", "node"},
		{"--init-module", "--init-m", "node"}, {"--onload-script", "--onload", "node"}},
	// gem open runs its --editor on the gem's directory.
	"gem": {{"--editor", "--ed", ""}},
	// --strip-program=PROG runs PROG on each file installed with -s.
	"install": {{"--strip-program", "--strip-", ""}},
	// The event hooks run PROG GID N FILE; every long option beginning
	// --on is one of them.
	"aria2c": {{"--on-download-complete", "--on", ""}, {"--on-download-error", "--on", ""},
		{"--on-download-pause", "--on", ""}, {"--on-download-start", "--on", ""},
		{"--on-download-stop", "--on", ""}, {"--on-bt-download-complete", "--on", ""}},
	// The photo viewer is a shell command line run on every photo ID
	// listed; the agent, dirmngr and keyboxd programs are started in
	// place of the installed ones.
	"gpg":  gpgRunOpts,
	"gpg2": gpgRunOpts,
	"gpgsm": {{"--agent-program", "--ag", ""}, {"--dirmngr-program", "--dirm", ""},
		{"--keyboxd-program", "--keyb", ""}, {"--protect-tool-program", "--prot", ""},
		{"--options", "--opt", configVia}, {"--homedir", "--homed", configVia}},
	"gpg-agent": {{"--options", "--opt", configVia}, {"--homedir", "--homed", configVia}},
	// duplicity hands these to the ssh, rsync and gpg it runs (an ssh
	// -oProxyCommand=… runs that command), and runs the gpg binary named.
	"duplicity": {{"--ssh-options", "--ssh-o", "ssh"}, {"--rsync-options", "--rsync", "rsync"},
		{"--gpg-options", "--gpg-o", "gpg"}, {"--gpg-binary", "--gpg-b", ""},
		{"--scp-command", "--scp", ""}, {"--sftp-command", "--sftp", ""}},
}

// runShorts are the short spellings of run options programRunOpts
// lists, read as getopt reads them (attached, or ending a cluster of the
// program's clusterValues), and the subcommand they belong to when other
// subcommands give the letter another meaning (gem list -e is --exact).
var runShorts = map[string]struct{ opt, long, verb string }{
	"nano":    {"-s", "--speller", ""},
	"pico":    {"-s", "--speller", ""},
	"dnsmasq": {"-6", "--dhcp-script", ""},
	"gem":     {"-e", "--editor", "open"},
}

// gpgRunOpts are gpg's run options and the options naming the
// configuration that can set them.
var gpgRunOpts = []runOpt{{"--photo-viewer", "--ph", ""}, {"--agent-program", "--ag", ""},
	{"--dirmngr-program", "--dirm", ""}, {"--keyboxd-program", "--keyb", ""},
	{"--options", "--opt", configVia}, {"--homedir", "--homed", configVia}}

// configVia marks a run option whose value is a configuration file or
// directory that can set the others (gpg --options FILE, --homedir DIR
// and its gpg.conf): one a benign call may have written, under a
// temporary directory, or one known only at run time, is tier 3.
const configVia = "\x00config"

// runOpts classifies c's run options: the program named is classified as
// a command (the deny list meets it), and runs with arguments the
// classifier does not see, so the call is TierDestructive.
func (c *call) runOpts() (Tier, string) {
	opts := programRunOpts[c.name]
	if opts == nil {
		return TierRead, ""
	}
	var r raiser
	if c.name == "dnsmasq" && hasFlag(c.vals(), 0, "--test") {
		// It reads its configuration, which runs --conf-script, and
		// exits: no lease script runs.
		opts = []runOpt{{"--conf-script", "--conf-s", ""}}
	} else if sh, ok := runShorts[c.name]; ok && (sh.verb == "" || firstOperand(c.name, c.vals()) == sh.verb) {
		for _, v := range c.optVals(c.args, sh.opt) {
			r.raise(c.shellArg(v, c.name+" "+sh.opt))
			r.raise(TierDestructive, c.name+" "+sh.opt+" ("+sh.long+"): runs "+truncate(v.val, 64))
		}
	}
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if a.val == "--" {
			break
		}
		if !strings.HasPrefix(a.val, "--") {
			continue
		}
		name, val, eq := strings.Cut(a.val, "=")
		for _, o := range opts {
			if len(name) < len(o.min) || !strings.HasPrefix(o.name, name) {
				continue
			}
			v := arg{val: val, known: a.known, glob: a.glob}
			if !eq {
				if i+1 >= len(c.args) {
					break
				}
				i++
				v = c.args[i]
			}
			what := c.name + " " + o.name
			if o.via == configVia {
				if !v.known || strings.HasPrefix(v.val, "/") && (agentDir(v.val) || agentDir(path.Dir(v.val))) {
					c.e.opaque = true
					r.raise(TierDestructive, what+" "+truncate(v.val, 64)+": configuration a benign call may have written names programs it runs")
				} else {
					c.configViaCode(o.name, v.val)
				}
				break
			}
			if o.via != "" {
				v.val = o.via + " " + v.val
				r.raise(c.shellArg(v, what))
				break
			}
			r.raise(c.shellArg(v, what))
			r.raise(TierDestructive, what+": runs "+truncate(v.val, 64))
			break
		}
	}
	return r.t, r.why
}

// configViaCode meets the deny list with the configuration a configVia
// option names, when it changed since warden started (configcode.go): the
// file, or a home directory's (gpg --homedir) configuration files.
func (c *call) configViaCode(opt, val string) {
	var files []string
	for _, p := range c.atCwds(val) {
		if opt == "--homedir" {
			for _, f := range gpgConfigs {
				files = append(files, path.Join(p, path.Base(f)))
			}
			continue
		}
		files = append(files, p)
	}
	c.startupCode(files, false)
}

// runOptWords are the words of an option's name that say its value is a
// program to run, when the name ends in one (--exec, --root-command,
// --pinentry-program, --diff-cmd, --use-askpass, --script, fetchmail's
// --mda, chromium's --gpu-launcher; a cmd-prefix, --renderer-cmd-prefix,
// counts as cmd); hook says so anywhere in it (--hook-init), and so does
// a leading on- (--on-complete). --exec-prefix (a directory) and
// --cmd-timeout end in other words.
var runOptWords = set(`exec command cmd program prog editor pager viewer rsh helper askpass browser
	wrapper runner interpreter script mda launcher`)

// unknownRunOpt returns the value of an unknown program's option whose
// name says it is a program to run, and whether a.val is one; a name
// ending in shell counts when the value is a path (--root-shell=/tmp/x,
// not --shell bash, which names a shell dialect to print code for).
// next is the word after a, taken when a has no "=".
func unknownRunOpt(a arg, next []arg) (arg, bool) {
	if len(a.val) < 4 || a.val[0] != '-' {
		return arg{}, false
	}
	name, val, eq := strings.Cut(strings.TrimLeft(a.val, "-"), "=")
	if !a.known && (!eq || strings.ContainsAny(name, "$`\\\"'*?[{")) {
		// The source text of a word with an expansion: only a literal
		// name before "=" is read (--sign-command="$S").
		return arg{}, false
	}
	name = strings.ToLower(name)
	if strings.HasPrefix(name, "no-") || strings.HasPrefix(name, "no_") {
		return arg{}, false
	}
	last := name
	if i := strings.LastIndexAny(name, "-_."); i >= 0 {
		last = name[i+1:]
	}
	shell := strings.HasSuffix(last, "shell")
	if last == "prefix" && (strings.HasSuffix(name, "cmd-prefix") || strings.HasSuffix(name, "command-prefix") || strings.HasSuffix(name, "cmd_prefix")) {
		last = "cmd" // chromium's --renderer-cmd-prefix: a command line put before its own
	}
	// An event hook, on-NAME, runs its value too (--on-complete=PROG),
	// as aria2c's --on-download-complete does.
	if !shell && !runOptWords[last] && !strings.Contains(name, "hook") && !strings.HasPrefix(name, "on-") &&
		!strings.HasSuffix(last, "cmd") && !strings.HasSuffix(last, "command") && !strings.HasSuffix(last, "program") &&
		!strings.HasSuffix(last, "prog") {
		return arg{}, false
	}
	v := arg{val: val, known: a.known, glob: a.glob}
	if !eq {
		if len(next) == 0 {
			return arg{}, false
		}
		v = next[0]
	}
	if shell && v.known && !strings.Contains(v.val, "/") {
		return arg{}, false
	}
	return v, true
}

// runOptCommand classifies the value of an unknown program's run option
// as a command it runs: one computed at run time, or one that is tier 3
// or denied, makes the call tier 3.
func (c *call) runOptCommand(opt string, v arg) (Tier, string) {
	if !v.known {
		c.e.opaque = true
		return TierDestructive, fmt.Sprintf("unknown program %q %s: program computed at run time", truncate(c.name, 64), truncate(opt, 64))
	}
	if v.val == "" {
		return TierMutate, ""
	}
	if _, line := commandLine(v.val); line || strings.Contains(v.val, "/") {
		return c.lineCommand(v.val)
	}
	// A bare name is run with arguments not shown: a shell or an
	// interpreter runs whatever they name, a wrapper or a pager alone
	// (--root-command=fakeroot, --pager=less) is not judged by itself.
	n := normaliseName(v.val)
	if posixShells[n] || interpreters[n] {
		return TierDestructive, fmt.Sprintf("unknown program %q %s: runs %s on arguments the classifier does not see", truncate(c.name, 64), truncate(opt, 64), truncate(v.val, 64))
	}
	if why := denyCheck(n, nil); why != "" {
		return TierDestructive, fmt.Sprintf("unknown program %q %s may run %s (denied: %s)", truncate(c.name, 64), truncate(opt, 64), truncate(v.val, 64), why)
	}
	return TierMutate, ""
}

// pipeCommand classifies the command of an output named as a pipe. It
// reads what the program writes, text the classifier never sees, so a
// shell there (|bash -i, |sh -s) runs code from unseen input, as one at
// the end of a pipeline does.
func (c *call) pipeCommand(cmd string) (Tier, string) {
	fed := *c
	fed.ctx.stdin = stdinSrc{kind: stdinUnknown}
	return fed.runOptCommand("output", arg{val: cmd, known: true})
}

// zipTestCommand returns the values of zip's -TT in the spellings zip's
// own parser takes beside "-TT cmd": attached (-TTcmd), after "="
// (-TT=cmd), and at the end of a cluster of flags (-qTT cmd).
func zipTestCommand(args []arg) []arg {
	var out []arg
	for i, a := range args {
		if a.val == "--" {
			break
		}
		if a.val == "-TT" || !strings.HasPrefix(a.val, "-") || strings.HasPrefix(a.val, "--") {
			continue
		}
		j := strings.Index(a.val, "TT")
		if j < 0 {
			continue
		}
		v := strings.TrimPrefix(a.val[j+2:], "=")
		switch {
		case v != "":
			out = append(out, arg{val: v, known: a.known, glob: a.glob})
		case i+1 < len(args):
			out = append(out, args[i+1])
		}
	}
	return out
}

// pipeOutput returns the command of an output named as a pipe, the
// convention of Ghostscript (-sOutputFile=%pipe%cmd, -o '|cmd') and
// others that popen a name beginning "|": the whole word, or an
// option's value after "=".
func pipeOutput(v string) (string, bool) {
	if v[0] == '-' {
		i := strings.IndexByte(v, '=')
		if i < 0 {
			return "", false
		}
		v = v[i+1:]
	}
	if rest, ok := strings.CutPrefix(v, "|"); ok {
		return strings.TrimSpace(rest), true
	}
	if len(v) > len("%pipe%") && strings.EqualFold(v[:len("%pipe%")], "%pipe%") {
		return strings.TrimSpace(v[len("%pipe%"):]), true
	}
	return "", false
}

// runOptWords classifies the run options, by name, of a program known
// only by a table entry, as argCommand does an unknown program's.
func (c *call) runOptWords() (Tier, string) {
	for k, a := range c.args {
		if a.val == "" || a.val == "--" {
			break
		}
		if v, ok := unknownRunOpt(a, c.args[k+1:]); ok {
			opt, _, _ := strings.Cut(a.val, "=")
			if t, why := c.runOptCommand(opt, v); t == TierDestructive {
				return t, why
			}
		}
	}
	return TierRead, ""
}

// runsDenied denies the input when one of the command lines a value names
// (a unixexec: bus address, a libvirt URI's command=) runs a command the
// deny rules refuse: such values are tier 3 already, which open mode
// admits, so without this DBUS_SESSION_BUS_ADDRESS=unixexec:path=/bin/sh,
// argv1=-c,argv2=reboot busctl status would reboot there. what names the
// value for the reason.
func (e *eval) runsDenied(lines []string, ctx cctx, what string) {
	for _, line := range lines {
		if why := e.deniedAside(ctx, line, func(sub *eval, sctx cctx) { sub.script(line, sctx, "argument") }); why != "" {
			e.deny(fmt.Sprintf("%s runs %s (%s)", what, truncate(line, 96), why))
		}
	}
}

// deniedAside runs run on a fork of e, one level down in the arguments of
// the command being judged, and returns why the deny rules refused what
// it classified ("" when they did not); only the denial reaches e, and,
// for namedFiles, what text, the arguments walked, could not be seen into.
func (e *eval) deniedAside(ctx cctx, text string, run func(sub *eval, sctx cctx)) string {
	sub := e.fork()
	defer sub.release()
	sctx := ctx
	sctx.inArgs = true
	sctx.nest++
	run(sub, sctx)
	if sub.denied {
		return sub.denyWhy
	}
	e.keepUnseen(sub, text, sub.opaque)
	return ""
}
