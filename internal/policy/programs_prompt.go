package policy

import "strings"

// Programs with a command prompt: given no command of their own, they read
// their commands from standard input, one a line, so what they do is what
// their input says (echo 'destroy vm' | virsh, lvm < cmds).

// promptPrograms are the programs with a subcommand table that read their
// own commands from standard input when given none: virsh's shell, lvm's
// shell, openssl's prompt and supervisorctl's shell (echo 'stop all' |
// supervisorctl stops every program). ftp and lftp are read in ftpInput.
var promptPrograms = set(`virsh lvm openssl supervisorctl`)

// maxPromptLines caps the input lines classified as commands; more is
// tier 3.
const maxPromptLines = 64

// commandPrompt classifies a program that reads its own commands from
// standard input: literal input is classified line by line as "PROGRAM
// LINE" (with nothing on standard input, so a line with no command of its
// own ends there), input the classifier cannot see is tier 3, and a
// terminal is a prompt whose commands can change anything the program can
// (tier 2).
func (c *call) commandPrompt() (Tier, string) {
	switch c.ctx.stdin.kind {
	case stdinText:
		lines := strings.Split(c.ctx.stdin.text, "\n")
		if len(lines) > maxPromptLines {
			c.e.opaque = true
			c.e.scanText(c.ctx.stdin.text)
			return TierDestructive, c.name + ": more commands on its input than the classifier reads"
		}
		ctx := c.ctx
		ctx.nest++
		ctx.stdin, ctx.stdinRd = stdinSrc{}, false
		for _, line := range lines {
			line = strings.TrimSpace(line)
			if line == "" || line[0] == '#' {
				continue
			}
			c.e.script(c.name+" "+line, ctx, c.name+" command")
		}
		return TierRead, c.name
	case stdinUnknown:
		c.e.opaque = true
		return TierDestructive, c.name + " runs its commands from input the classifier cannot see"
	}
	return TierMutate, c.name + ": interactive prompt whose commands can change the system"
}

// supervisorctlShell classifies what supervisorctl's shell adds to its
// command. The shell runs when no command is given, and with -i after
// one in supervisor 3 (4 ignores -i there; fail2ban-client -i CMD does
// the same in every version): it reads its commands from standard input
// ("echo shutdown | supervisorctl -i status" stops supervisord), and on
// leaving writes its readline history to the -r/--history-file file,
// whatever that file held. subcommandTier has classified the input of a
// shell with no command already.
func supervisorctlShell(c *call) (Tier, string) {
	tab := subcommandTables[c.name]
	command := false
	for i := 0; i < len(c.args); i++ {
		v := c.args[i].val
		if v == "--" {
			command = i+1 < len(c.args)
			break
		}
		if v == "" || v[0] != '-' || v == "-" {
			command = true
			break
		}
		if subOptTakesNext(c.name, tab, v) {
			i++
		}
	}
	interactive := hasFlag(c.vals(), 'i', "--interactive")
	if command && !interactive {
		return TierRead, c.name
	}
	r := raiser{TierRead, c.name}
	if command {
		r.raise(c.commandPrompt())
	}
	for _, f := range c.optVals(c.args, "-r", "--history-file") {
		r.raise(c.writeArg(f, c.name+" --history-file"))
	}
	return r.t, r.why
}

// ftpInput classifies the commands ftp and lftp read from standard input
// when no -c, -e or -f gives them: "!" runs a local shell command, so
// literal input has each such line classified as shell, and input the
// classifier cannot see is tier 3.
func (c *call) ftpInput() (Tier, string) {
	switch c.ctx.stdin.kind {
	case stdinText:
		var r raiser
		r.raise(TierMutate, c.name+": file transfer session")
		for _, line := range strings.Split(c.ctx.stdin.text, "\n") {
			line = strings.TrimSpace(line)
			if rest, ok := strings.CutPrefix(line, "!"); ok {
				c.shell(rest, c.name+" ! command", nil, false)
				r.raise(TierDestructive, c.name+" !: runs a local shell command")
			}
		}
		return r.t, r.why
	case stdinUnknown:
		c.e.opaque = true
		return TierDestructive, c.name + " runs commands, which can include local shell commands, from input the classifier cannot see"
	}
	return TierMutate, c.name + ": file transfer session"
}

// tcProgram: the show and get forms read (iprouteShow); tc exec bpf … run
// CMD runs CMD with the eBPF maps it imports, so CMD is classified as a
// command; a batch file (-b, -batch) can hold such a line and is tier 3.
func tcProgram(c *call) (Tier, string) {
	t, why := iprouteShow(c) // tc qdisc show reads
	r := raiser{t, why}
	if w := tcCutsOff(c.vals()); w != "" {
		r.raise(TierDestructive, w)
	}
	sawExec := false
	for i, a := range c.args {
		switch {
		case !a.known && (strings.HasPrefix(a.val, "-") || sawExec):
			c.e.opaque = true
			r.raise(TierDestructive, "tc: command computed at run time")
		case tcBatch(a.val):
			c.e.opaque = true
			r.raise(TierDestructive, "tc -batch: runs commands from a file the classifier cannot see")
		case a.val == "exec":
			sawExec = true
		case sawExec && a.val == "run":
			c.run(c.args[i+1:])
			return r.t, r.why
		}
	}
	return r.t, r.why
}

// tcBatch reports whether a tc word is -batch: iproute2 takes an option
// by any prefix, with one dash or two, and tc checks -batch before any
// other option beginning with b (-b, -ba, --bat, -batch=FILE).
func tcBatch(v string) bool {
	name, _, _ := strings.Cut(v, "=")
	w := strings.TrimPrefix(strings.TrimPrefix(name, "-"), "-")
	return strings.HasPrefix(v, "-") && w != "" && strings.HasPrefix("batch", w)
}

// fzfRunOpts are fzf's and skim's options whose value holds shell
// commands: --bind actions execute(…), become(…), reload(…) and the
// start/load events that fire without a key, the preview command, the
// shell they run in, --listen (actions taken over HTTP) and skim's
// -c/--cmd.
var fzfRunOpts = map[string]set0{
	"fzf": {"--bind": {}, "--preview": {}, "--with-shell": {}, "--listen": {}, "--listen-unsafe": {}},
	"sk":  {"--bind": {}, "--preview": {}, "--cmd": {}, "-c": {}},
}

type set0 = map[string]struct{}

// fzfProgram: fzf -f/--filter only filters its input (tier 0); an
// interactive fzf is tier 2, and any option that runs commands is tier 3,
// its text scanned by the deny list.
func fzfProgram(c *call) (Tier, string) {
	for i, a := range c.args {
		if !a.known && strings.HasPrefix(a.val, "-") {
			c.e.opaque = true
			return TierDestructive, c.name + ": options computed at run time"
		}
		name, val, has := strings.Cut(a.val, "=")
		if name == "-" || !strings.HasPrefix(name, "-") {
			continue
		}
		if _, ok := fzfRunOpts[c.name][name]; !ok {
			continue
		}
		v := arg{val: val, known: a.known}
		if !has && i+1 < len(c.args) {
			v = c.args[i+1]
		}
		if name == "--preview" && v.known {
			// The preview runs on the current line, {}.
			c.shell(strings.ReplaceAll(v.val, "{}", `"$__warden_unknown_input"`), c.name+" preview", nil, false)
			continue
		}
		c.e.opaque = true
		c.e.scanText(v.val)
		return TierDestructive, c.name + " " + name + ": runs shell commands"
	}
	for i, a := range c.args {
		if a.val == "-f" || a.val == "--filter" || strings.HasPrefix(a.val, "--filter=") || strings.HasPrefix(a.val, "-f") && len(a.val) > 2 {
			if i+1 < len(c.args) {
				c.e.scanText(c.args[i+1].val)
			}
			return TierRead, c.name + " --filter"
		}
	}
	return TierMutate, c.name + ": interactive finder whose key bindings can run commands"
}

// smbclientProgram: smbclient's commands, from -c/--command (separated by
// ";") or its standard input, include "!" which runs a local shell
// command, as ftp's do.
func smbclientProgram(c *call) (Tier, string) {
	cmds := c.optVals(c.args, "-c", "--command")
	if len(cmds) == 0 {
		return c.ftpInput()
	}
	r := raiser{TierMutate, c.name + ": file transfer session"}
	for _, v := range cmds {
		if !v.known {
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" -c: commands computed at run time")
			continue
		}
		for _, x := range strings.Split(v.val, ";") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(x), "!"); ok {
				c.shell(rest, c.name+" ! command", nil, false)
				r.raise(TierDestructive, c.name+" !: runs a local shell command")
			}
		}
	}
	return r.t, r.why
}
