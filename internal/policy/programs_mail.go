package policy

import "strings"

// The system log and mail. logger writes the local log (TierBenign), but
// -n sends the message (or the file -f names) to another host, which host
// rules check, and -u to a local socket of the caller's choosing:
// TierMutate. The MTAs' test modes run what the configuration or the
// caller gives them: exim -be expands ${run{…}} and ${readfile{…}},
// -bf/-bF run filter files and -bh the ACLs; -C names another
// configuration (whose transports run programs) and Sendmail's -X writes
// a traffic log to any file. mailx -S sets the MTA, pager, editor or
// shell it runs, GNU mail -E/--exec runs mail commands (!cmd, |cmd),
// mutt -e and -F run muttrc commands, and msmtp's configuration and
// --passwordeval run a command.

// mailProgramVars are mailx variables (lower case) whose value is a
// program mailx runs, or a prefix of such names.
var mailProgramVars = []string{"sendmail", "mta", "pager", "editor", "visual", "shell", "pipe-", "on-", "mailcap",
	"smtp-auth-password-eval", "password-", "folder-hook", "message-inject"}

// mailProgram classifies logger, the MTAs' sendmail interfaces, mailx and
// its relatives, mutt and msmtp.
func mailProgram(c *call) (Tier, string) {
	switch c.name {
	case "logger":
		return loggerProgram(c)
	case "sendmail", "exim", "exim4":
		return mtaProgram(c)
	case "mutt", "neomutt":
		for _, a := range c.args {
			if a.val == "-e" || a.val == "-F" || strings.HasPrefix(a.val, "-e") || strings.HasPrefix(a.val, "-F") {
				c.e.opaque = true
				return TierDestructive, c.name + " " + truncate(a.val, 32) + ": runs configuration commands, which can run a shell"
			}
		}
		return TierMutate, c.name + ": interactive mail client that can run commands"
	case "msmtp":
		r := raiser{TierMutate, "msmtp: sends mail"}
		for _, p := range c.optVals(c.args, "--passwordeval") {
			r.raise(c.shellArg(p, "msmtp --passwordeval"))
			r.raise(TierDestructive, "msmtp --passwordeval: runs a command")
		}
		for _, f := range c.optVals(c.args, "-C", "--file") {
			c.e.opaque = true
			r.raise(TierDestructive, "msmtp -C "+truncate(f.val, 64)+": a configuration can run a command (passwordeval)")
		}
		for _, f := range c.optVals(c.args, "--logfile") {
			r.raise(c.writeArg(f, "msmtp --logfile"))
		}
		return r.t, r.why
	}
	return mailxProgram(c)
}

// loggerProgram: logger writes the local log; -n and -u send elsewhere.
func loggerProgram(c *call) (Tier, string) {
	r := raiser{TierBenign, "logger: benign side effects"}
	for _, h := range c.optVals(c.args, "-n", "--server") {
		c.checkHost(h.val)
		r.raise(TierMutate, "logger -n "+truncate(h.val, 64)+": sends to another host")
	}
	for _, s := range c.optVals(c.args, "-u", "--socket") {
		if !s.known || s.val != "/dev/log" {
			r.raise(TierMutate, "logger -u "+truncate(s.val, 64)+": writes to a local socket")
		}
	}
	files := c.optVals(c.args, "-f", "--file")
	for _, f := range files {
		// A file's lines in the system log, which more people read than
		// the file (logger -f /etc/shadow).
		r.raise(TierMutate, "logger -f "+truncate(f.val, 64)+": copies a file into the system log")
	}
	if len(files) == 0 && c.ctx.stdin.kind == stdinUnknown &&
		len(optionOperands(c.args, computedGrammars["logger"].short, loggerValueLong)) == 0 {
		// With no message, logger logs its input: logger < /etc/shadow
		// and cat /etc/shadow | logger are logger -f /etc/shadow.
		r.raise(TierMutate, "logger: copies its input, which the classifier cannot see, into the system log")
	}
	for _, a := range c.args {
		// --journald=FILE sends FILE's lines as journal fields, as -f
		// does; the value is optional, so only an attached one is a file
		// (getopt_long takes --jour=FILE).
		if a.known && a.val == "--" {
			break
		}
		if name, f, eq := strings.Cut(a.val, "="); eq && f != "-" && len(name) >= len("--j") && strings.HasPrefix("--journald", name) {
			r.raise(TierMutate, "logger --journald="+truncate(f, 64)+": copies a file into the system log")
		}
	}
	return r.t, r.why
}

// loggerValueLong are logger's long options that take the next word.
const loggerValueLong = "--file --priority --size --tag --server --port --socket --sd-id --sd-param --msgid"

// wallProgram: wall writes a message to every terminal (tier 1), but
// its one operand, when a file of that name exists, is read and sent
// instead, and with no operand it sends its input: as root wall
// /etc/shadow shows the file to every logged-in user, as logger -f puts
// one in the system log. A single word without white space may name a
// file; a message of several words does not.
func wallProgram(c *call) (Tier, string) {
	ops := optionOperands(c.args, "tg", "--timeout --group")
	switch {
	case len(ops) == 1 && (!ops[0].known || !strings.ContainsAny(ops[0].val, " \t\n")):
		return TierMutate, "wall " + truncate(ops[0].val, 64) + ": may send a file's content to every terminal"
	case len(ops) == 0 && c.ctx.stdin.kind == stdinUnknown:
		return TierMutate, "wall: sends its input, which the classifier cannot see, to every terminal"
	}
	return TierBenign, "wall: writes a message to every terminal"
}

// mtaProgram classifies sendmail (Sendmail's, Postfix's or Exim's) and
// exim.
func mtaProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, c.name + ": sends mail"}
	vals := c.vals()
	for i, v := range vals {
		switch {
		case strings.HasPrefix(v, "-be") || strings.HasPrefix(v, "-bf") || strings.HasPrefix(v, "-bF") || strings.HasPrefix(v, "-bh"):
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" "+truncate(v, 16)+": test mode that expands strings, which can run commands and read files")
		case v == "-C" || strings.HasPrefix(v, "-C") && len(v) > 2:
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" -C: another configuration, whose transports run programs")
		case v == "-X" && i+1 < len(vals):
			r.raise(c.writeArg(c.args[i+1], c.name+" -X"))
		case strings.HasPrefix(v, "-X") && len(v) > 2:
			r.raise(c.writeArg(arg{val: v[2:], known: c.args[i].known}, c.name+" -X"))
		}
	}
	if r.t == TierMutate && len(vals) == 1 && (vals[0] == "-bp" || vals[0] == "-bpc" || vals[0] == "-bpu" || vals[0] == "-bpr") {
		return TierRead, c.name + " -bp: lists the queue"
	}
	return r.t, r.why
}

// mailxProgram classifies mail, mailx and their relatives.
func mailxProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, c.name + ": changes the system"}
	for i, a := range c.args {
		v := a.val
		var set string
		switch {
		case v == "-S" && i+1 < len(c.args):
			set = c.args[i+1].val
		case strings.HasPrefix(v, "-S") && len(v) > 2:
			set = v[2:]
		case v == "--exec" || strings.HasPrefix(v, "--exec="),
			v == "-E" && i+1 < len(c.args) && !strings.HasPrefix(c.args[i+1].val, "-"):
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" "+v+": runs mail commands, which can run a shell")
			continue
		case strings.HasPrefix(v, "-X") || strings.HasPrefix(v, "-Y"):
			// s-nail runs -X's command before it starts and -Y's after
			// it reads its input: !cmd runs a shell.
			cmd := v[2:]
			if cmd == "" && i+1 < len(c.args) {
				cmd = c.args[i+1].val
			}
			if rest, ok := strings.CutPrefix(strings.TrimSpace(cmd), "!"); ok {
				c.shell(rest, c.name+" "+v[:2]+" command", nil, false)
			}
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" "+v[:2]+": runs mail commands, which can run a shell")
			continue
		default:
			continue
		}
		name, val, _ := strings.Cut(set, "=")
		name = strings.ToLower(name)
		for _, p := range mailProgramVars {
			if strings.HasPrefix(name, p) {
				if val != "" {
					c.shell(val, c.name+" "+name, nil, false)
				}
				c.e.opaque = true
				r.raise(TierDestructive, c.name+" -S "+truncate(name, 32)+": names a program "+c.name+" runs")
				break
			}
		}
	}
	mailEscapes(c, &r)
	return r.t, r.why
}

// mailEscapes reads the tilde escapes of the message mail reads from its
// input: ~!cmd and ~|cmd run a shell command, ~< !cmd inserts one's
// output, ~: and ~_ run a mail command and ~w writes the message to a
// file. mail honours them when it runs interactively, which -I (BSD
// mailx) and -~ (s-nail) force with any input, so a literal line is
// classified whatever the options, and input the classifier cannot see
// is tier 3 once one of them is given.
func mailEscapes(c *call, r *raiser) {
	forced := false
	for _, a := range c.args {
		v := a.val
		if v == "--" || !strings.HasPrefix(v, "-") || strings.HasPrefix(v, "--") {
			continue
		}
		forced = forced || strings.ContainsAny(v[1:], "I~")
	}
	switch c.ctx.stdin.kind {
	case stdinUnknown:
		if forced {
			c.e.opaque = true
			r.raise(TierDestructive, c.name+": runs the tilde escapes of input the classifier cannot see, which can run a shell")
		}
		return
	case stdinText:
	default:
		return
	}
	for _, line := range strings.Split(c.ctx.stdin.text, "\n") {
		esc, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "~")
		if !ok || esc == "" {
			continue
		}
		body := strings.TrimSpace(esc[1:])
		switch esc[0] {
		case '!', '|':
			c.shell(body, c.name+" ~"+esc[:1]+" command", nil, false)
			r.raise(TierDestructive, c.name+" ~"+esc[:1]+": runs a shell command")
		case '<':
			if rest, ok := strings.CutPrefix(body, "!"); ok {
				c.shell(rest, c.name+" ~<! command", nil, false)
				r.raise(TierDestructive, c.name+" ~<!: runs a shell command")
			}
		case ':', '_':
			if rest, ok := strings.CutPrefix(body, "!"); ok {
				c.shell(rest, c.name+" ~"+esc[:1]+" command", nil, false)
			}
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" ~"+esc[:1]+": runs a mail command, which can run a shell")
		case 'w':
			if body != "" {
				r.raise(c.writeArg(arg{val: body, known: true}, c.name+" ~w"))
			}
		}
	}
}
