package policy

import (
	"path"
	"slices"
	"strings"
)

// wrapperProgram classifies programs that run the command in their arguments.
func wrapperProgram(c *call) (Tier, string) {
	if why, ok := processQuery(c); ok {
		return TierRead, why
	}
	switch c.name {
	case "xargs":
		return xargsProgram(c)
	case "parallel":
		return parallelProgram(c)
	case "busybox", "toybox", "coreutils": // coreutils: uutils' multicall binary
		if len(c.args) == 0 || strings.HasPrefix(c.args[0].val, "--list") || c.args[0].val == "--help" {
			return TierRead, c.name + ": lists applets"
		}
		if strings.HasPrefix(c.args[0].val, "--install") {
			return TierMutate, c.name + " --install: writes applet links"
		}
		c.run(c.args)
		if c.ctx.root && c.args[0].known && c.args[0].val == "unzip" && !busyboxUnzipLists(c.args[1:]) {
			// Unlike Info-ZIP's, busybox's unzip restores the members'
			// modes, setuid included (checked as root): root's is tar's case.
			return TierDestructive, c.name + " unzip as root: extracts with the archive's modes kept, which can create setuid root files"
		}
		return TierRead, c.name
	case "firejail":
		return firejailProgram(c)
	case "bwrap":
		return bwrapProgram(c)
	case "proot":
		return prootProgram(c)
	case "valgrind", "systemd-inhibit", "prlimit", "setpriv":
		// GNU long options with = values only.
	case "sg":
		return sgProgram(c)
	case "setarch", "linux32", "linux64":
		return setarchProgram(c)
	case "runcon":
		// runcon CONTEXT COMMAND, or runcon [-c] [-u USER] [-r ROLE]
		// [-t TYPE] [-l RANGE] COMMAND: without options the first
		// operand is the context.
		if len(c.args) > 0 && !strings.HasPrefix(c.args[0].val, "-") {
			cc := *c
			cc.args = c.args[1:]
			c = &cc
		}
	case "newgrp":
		// newgrp [-] [group] never runs a command: it opens a shell,
		// which reads its commands from the input.
		c.shellInput()
		return TierDestructive, "newgrp: opens a shell with another group"
	case "exec":
		if t, why, ok := execInput(c); ok {
			return t, why
		}
	}
	spec, ok := wrapSpecs[c.name]
	if !ok {
		return TierMutate, c.name
	}
	own := c.ownArgs()
	c.wrapperDirs(own)
	roots := c.wrapperRoots(own)
	c.e.noteRoots(roots)
	if detaches(c.name, own) {
		// The command runs beside what follows: its runs meet every
		// write, as a background job's do.
		c.e.loops++
		defer func() { c.e.loops-- }()
	}
	t, why := c.peel(spec)
	if ot, owhy := wrapperOutput(c); ot > t {
		t, why = ot, owhy
	}
	return c.agentRoot(t, why, roots)
}

// ldsoListed: ld.so --list does not run the program it is given, but it
// loads and starts the audit modules the program's DT_AUDIT and
// DT_DEPAUDIT tags name, as ldd does (--verify only maps the program): a
// program a benign call could have written (under /tmp, relative to a
// temporary working directory, computed at run time) runs its code.
func ldsoListed(c *call) (Tier, string) {
	own := c.ownArgs()
	if !slices.ContainsFunc(own, func(a arg) bool { return a.val == "--list" }) {
		return TierRead, ""
	}
	rest := c.args[len(own):]
	if len(rest) > 0 && rest[0].val == "--" {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return TierRead, ""
	}
	where := "is known only at run time"
	if rest[0].known {
		where = c.programFileAgent(rest[0].val)
	}
	if where == "" {
		return TierRead, ""
	}
	c.e.opaque = true
	return TierDestructive, "ld.so --list " + truncate(rest[0].val, 64) + ", which " + where + ": loads the audit modules the program names, whose code runs"
}

// wrapperOutput classifies what a wrapper's own options write or run:
// strace -o file or -o '|cmd', valgrind --log-file, --db-command and the
// profiles its tools write, time -o, fakeroot -s, xvfb-run -e/-f, chpst
// and rlwrap's files, and systemd-run, whose command runs as a unit of the service
// manager, outside warden's confinement, with Exec properties of its own.
func wrapperOutput(c *call) (Tier, string) {
	var r raiser
	switch c.name {
	case "ld.so":
		for _, v := range exactOptVals(c.ownArgs(), ldsoCode[:3]...) {
			c.e.opaque = true
			r.raise(TierDestructive, "ld.so: loads the libraries "+truncate(v.val, 64)+" names into the program, as LD_PRELOAD does")
		}
		r.raise(ldsoListed(c))
	case "strace", "ltrace", "time":
		if c.name == "strace" {
			straceTamper(c, &r)
			// -E VAR=VAL sets VAR in the traced command's environment,
			// as env VAR=VAL does (-E VAR alone removes it).
			for _, v := range c.optVals(c.args, "-E", "--env") {
				if !v.known {
					c.e.opaque = true
					r.raise(TierDestructive, "strace -E: a variable computed at run time")
					continue
				}
				if n, ev, ok := strings.Cut(v.val, "="); ok {
					c.e.envVarCtx(n, ev, c.ctx, "strace -E")
				}
			}
		}
		for _, f := range c.optVals(c.args, "-o", "--output") {
			if c.name == "strace" && f.known && (strings.HasPrefix(f.val, "|") || strings.HasPrefix(f.val, "!")) {
				c.shell(f.val[1:], "strace -o command", nil, false)
				r.raise(TierDestructive, "strace -o "+truncate(f.val, 64)+": pipes the trace into a command")
				continue
			}
			r.raise(c.writeArg(f, c.name+" -o"))
		}
	case "valgrind":
		for _, f := range c.optVals(c.args, "--log-file", "--xml-file") {
			r.raise(c.writeArg(f, "valgrind log file"))
		}
		own := c.ownArgs()
		for _, h := range exactOptVals(own, "--log-socket", "--xml-socket", "--debuginfo-server") {
			c.checkHost(h.val)
			r.raise(TierBenign, "valgrind: sends its log to or reads debug info from "+truncate(h.val, 64))
		}
		outs := exactOptVals(own, "--callgrind-out-file", "--cachegrind-out-file", "--massif-out-file", "--dhat-out-file", "--bb-out-file", "--pc-out-file")
		for _, f := range outs {
			r.raise(c.writeArg(f, "valgrind profile"))
		}
		for _, tool := range exactOptVals(own, "--tool") {
			switch tool.val {
			case "callgrind", "cachegrind", "massif", "dhat", "exp-bbv":
				if len(outs) == 0 {
					r.raise(TierMutate, "valgrind --tool="+tool.val+": writes its profile in the working directory")
				}
			}
		}
		// valgrind takes its options spelled in full only: --vgdb=yes is
		// not an abbreviation of --vgdb-prefix.
		for _, d := range exactOptVals(own, "--db-command", "--vgdb-prefix") {
			r.raise(TierDestructive, "valgrind "+truncate(d.val, 64)+": runs a debugger command")
			c.shellArg(d, "valgrind --db-command")
		}
	case "fakeroot":
		own := c.ownArgs()
		for _, f := range c.optVals(own, "-s") {
			r.raise(c.writeArg(f, "fakeroot -s save file"))
		}
		// -l/--lib is the library fakeroot preloads into the command, and
		// -f/--faked the daemon it starts: code of the caller's choosing.
		for _, v := range c.optVals(own, "-l", "--lib", "-f", "--faked") {
			c.e.opaque = true
			r.raise(TierDestructive, "fakeroot: loads or runs "+truncate(v.val, 64)+" in place of its own library or daemon")
		}
	case "proxychains", "proxychains4":
		// -f's configuration lists the proxies every connection goes
		// through, which host rules cannot check (dig -f's kind).
		for _, f := range c.optVals(c.ownArgs(), "-f") {
			r.raise(TierMutate, c.name+" -f "+truncate(f.val, 64)+": reaches the proxies a file lists, which host rules cannot check")
		}
	case "xvfb-run":
		for _, f := range c.optVals(c.ownArgs(), "-e", "--error-file", "-f", "--auth-file") {
			r.raise(c.writeArg(f, "xvfb-run error or auth file"))
		}
	case "rlwrap":
		own := c.ownArgs()
		for _, f := range c.optVals(own, "-l", "--logfile", "-H", "--history-filename") {
			r.raise(c.writeArg(f, "rlwrap log or history file"))
		}
		for _, f := range c.optVals(own, "-z", "--filter") {
			r.raise(TierDestructive, "rlwrap -z: runs a filter program")
			c.shellArg(f, "rlwrap filter")
		}
	case "chpst":
		own := c.ownArgs()
		for _, f := range c.optVals(own, "-l", "-L") {
			r.raise(c.writeArg(f, "chpst lock file"))
		}
		if len(c.optVals(own, "-/")) > 0 {
			r.raise(TierMutate, "chpst -/: runs the program in another root")
		}
		if len(c.optVals(own, "-e")) > 0 {
			r.raise(TierDestructive, "chpst -e: sets the environment (LD_PRELOAD, PATH…) from files the classifier cannot read")
		}
	case "dbus-run-session", "dbus-launch":
		own := c.ownArgs()
		for _, d := range c.optVals(own, "--dbus-daemon") {
			r.raise(TierDestructive, c.name+" --dbus-daemon: runs "+truncate(d.val, 64))
			c.run([]arg{d})
		}
		if len(c.optVals(own, "--config-file")) > 0 {
			r.raise(TierDestructive, c.name+" --config-file: a bus configuration can run programs")
		}
	case "faketime":
		// --date-prog names the program that parses the timestamp.
		for _, d := range c.optVals(c.ownArgs(), "--date-prog") {
			c.run([]arg{d, unknownArg})
		}
	case "run0":
		r.raise(TierDestructive, "run0: runs the command as a unit of the service manager, outside warden's confinement")
		for _, v := range c.optVals(c.ownArgs(), "--setenv") {
			n, ev, _ := strings.Cut(v.val, "=")
			c.e.envVarCtx(n, ev, c.ctx, "run0 --setenv")
		}
	case "systemd-run":
		r.raise(TierDestructive, "systemd-run: runs a command as a unit of the service manager, outside warden's confinement")
		for _, p := range c.optVals(c.args, "-p", "--property") {
			k, v, _ := strings.Cut(p.val, "=")
			if strings.HasPrefix(k, "Exec") {
				c.shellArg(arg{val: strings.TrimLeft(v, "-@+!:|"), known: p.known}, "systemd-run "+k)
			}
		}
	}
	return r.t, r.why
}

// ownArgs returns a wrapper's own options: its arguments up to the
// command it runs, read as peel reads them, so that the command's options
// are not taken for the wrapper's.
func (c *call) ownArgs() []arg {
	spec := wrapSpecs[c.name]
	for i := 0; i < len(c.args); i++ {
		v := c.args[i].val
		if v == "--" || len(v) < 2 || v[0] != '-' {
			return c.args[:i]
		}
		if strings.HasPrefix(v, "--") {
			name, _, has := strings.Cut(v, "=")
			if !has && slices.Contains(spec.valueLong, longOpt(name, spec.valueLong)) {
				i++
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			if strings.IndexByte(spec.valueShort, v[j]) >= 0 {
				if j == len(v)-1 {
					i++
				}
				break
			}
		}
	}
	return c.args
}

// peel walks a wrapper's options and classifies the command it runs.
func (c *call) peel(spec wrapSpec) (Tier, string) {
	args := c.args
	i := 0
	mode := false
	var shellText []string
	var argv0 []arg
	unknownShell := false
	suLogin := false
	takes := func(opt string) bool {
		for _, l := range spec.valueLong {
			if opt == l {
				return true
			}
		}
		return false
	}
	isShellLong := func(opt string) bool {
		for _, l := range spec.shellLong {
			if opt == l {
				return true
			}
		}
		return false
	}
	for i < len(args) {
		a := args[i]
		if !a.known {
			if strings.HasPrefix(a.val, "-") {
				return c.unreadableArgs()
			}
			break
		}
		v := a.val
		if v == "--" {
			i++
			break
		}
		if (c.name == "su" || c.name == "runuser") && v == "-" {
			// su - root -c CMD, su - -c CMD: a login.
			suLogin = true
			i++
			continue
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if c.name == "su" || c.name == "runuser" {
			if v == "-l" || v == "--login" {
				suLogin = true
				i++
				continue
			}
			if l := strings.IndexByte(v, 'l'); l > 0 && v[1] != '-' && !strings.ContainsAny(v[1:l], "cCgGsw") {
				suLogin = true // -lc CMD, -fl
			}
		}
		if strings.HasPrefix(v, "--") {
			name, val, hasVal := strings.Cut(v, "=")
			// getopt_long takes any unambiguous prefix: --sig KILL is
			// --signal KILL.
			name = longOpt(name, append(append([]string(nil), spec.valueLong...), spec.shellLong...))
			switch {
			case isShellLong(name):
				if !hasVal {
					i++
					if i >= len(args) {
						break
					}
					if !args[i].known {
						unknownShell = true
					}
					val = args[i].val
				}
				shellText = append(shellText, val)
			case takes(name) && !hasVal:
				i++
			}
			if c.name == "watch" && (name == "--exec") {
				mode = true
			}
			if slices.Contains(spec.modeLong, longOpt(name, spec.modeLong)) {
				mode = true
			}
			i++
			continue
		}
		// A short-option cluster.
		for j := 1; j < len(v); j++ {
			f := v[j]
			if strings.IndexByte(spec.modeShort, f) >= 0 {
				mode = true
			}
			if strings.IndexByte(spec.shellShort, f) >= 0 {
				val := v[j+1:]
				if val == "" {
					i++
					if i < len(args) {
						if !args[i].known {
							unknownShell = true
						}
						val = args[i].val
					}
				}
				shellText = append(shellText, val)
				break
			}
			if strings.IndexByte(spec.valueShort, f) >= 0 {
				val := v[j+1:]
				if j == len(v)-1 {
					i++
					if i < len(args) {
						val = args[i].val
					}
				}
				if spec.argv0 != 0 && f == spec.argv0 {
					argv0 = append(argv0, arg{val: val, known: i < len(args) && args[i].known})
				}
				break
			}
		}
		if c.name == "watch" && strings.Contains(v, "x") && !strings.HasPrefix(v, "--") {
			mode = true
		}
		i++
	}
	if i > len(args) {
		i = len(args)
	}
	rest := args[i:]
	own, why := spec.own, c.name
	if lockWrappers[c.name] && len(rest) > 0 && !allDigits(rest[0].val) {
		// flock FILE creates FILE when it is missing.
		t, w, deny := c.e.writeTarget(rest[0])
		if deny != "" {
			c.e.deny(c.name + ": " + deny)
		}
		if t > own {
			own, why = t, c.name+" creates its lock file: "+w
		}
	}
	if unknownShell {
		c.e.opaque = true
		return TierDestructive, c.name + ": shell command computed at run time"
	}
	if c.name == "script" {
		// script [options] [FILE]: FILE is the typescript it writes; the
		// command is only ever -c's.
		r := raiser{own, why}
		if len(rest) > 0 {
			r.raise(c.writeArg(rest[0], "script typescript"))
		}
		r.raise(scriptLogs(c))
		for _, t := range shellText {
			c.loginShell(t, "script command")
		}
		if len(shellText) == 0 {
			c.shellInput()
			r.raise(spec.noCmd, spec.noCmdWhy)
		}
		return r.t, r.why
	}
	if c.name == "su" || c.name == "runuser" {
		// rootKeeps: tar and cp keep setuid modes as root; root's su bob
		// runs its command as bob, and bob's start-up files.
		c.runsAs(suUser(c.name, args[:i], rest))
	} else if c.name == "gosu" || c.name == "su-exec" {
		c.runsAs(leadingUser(rest))
	}
	if suLogin {
		// su - and runuser -l start the user's login shell, which reads
		// its profile.
		c.startupCode(profileFiles, true)
	}
	for _, t := range shellText {
		c.loginShell(t, c.name+" command")
	}
	if c.name == "watch" {
		// watch runs its arguments through sh -c unless -x is given.
		if mode {
			c.run(rest)
		} else if len(rest) > 0 {
			c.shell(strings.Join(argVals(rest), " "), "watch command", nil, false)
			if !allKnown(rest) {
				c.e.opaque = true
				return TierDestructive, "watch: command computed at run time"
			}
		}
		return TierRead, "watch"
	}
	if mode && spec.modeWhy != "" {
		if spec.modeTier == TierRead {
			return TierRead, spec.modeWhy
		}
		return maxTier(own, spec.modeTier), spec.modeWhy
	}
	if c.name == "su" || c.name == "runuser" {
		// su [user] [args]: without -c, remaining arguments go to the
		// user's shell; runuser -u user -- cmd runs cmd directly.
		if c.name == "runuser" && len(rest) > 0 && hasOpt(args[:i], 'u', "--user") {
			c.run(rest)
			return TierRead, c.name
		}
		if len(shellText) > 0 {
			return TierRead, c.name
		}
		if len(rest) > 1 {
			c.e.opaque = true
			return TierDestructive, c.name + ": passes arguments to a login shell"
		}
		c.shellInput()
		return spec.noCmd, spec.noCmdWhy
	}
	if c.name == "flock" && len(rest) > spec.leading+1 && (rest[spec.leading].val == "-c" || rest[spec.leading].val == "--command") {
		if !rest[spec.leading+1].known {
			c.e.opaque = true
			return TierDestructive, "flock: shell command computed at run time"
		}
		c.loginShell(rest[spec.leading+1].val, "flock command")
		return own, why
	}
	if len(shellText) > 0 && len(rest) <= spec.leading {
		return own, why
	}
	if c.name == "systemd-cat" {
		// What systemd-cat logs goes to the journal, which more people
		// read than its source: a command's output (systemd-cat cat
		// /etc/shadow) or input the classifier cannot see is logger -f
		// FILE.
		if len(rest) > 0 {
			own, why = TierMutate, "systemd-cat: copies the output of "+truncate(rest[0].val, 64)+" into the journal"
		} else if c.ctx.stdin.kind == stdinUnknown {
			return TierMutate, "systemd-cat: copies its input, which the classifier cannot see, into the journal"
		}
	}
	if len(rest) <= spec.leading {
		if spec.noCmd == TierDestructive {
			c.shellInput()
		}
		if spec.noCmdWhy != "" {
			return spec.noCmd, spec.noCmdWhy
		}
		return spec.noCmd, c.name + " with no command"
	}
	if c.name == "time" && hasOpt(args[:i], 'o', "--output") {
		own, why = TierMutate, "time -o: writes a file"
	}
	c.run(rest[spec.leading:])
	c.runAs(argv0, rest[spec.leading+1:])
	return own, why
}

// runAs classifies a command run under other names for its argv[0] (exec
// -a NAME, env --argv0=NAME): multi-call programs choose what to do by
// it, so busybox run as "reboot" reboots and systemctl run as "telinit"
// changes the run level.
// Only names the classifier knows count: under any other name a program
// is itself.
func (c *call) runAs(names []arg, args []arg) {
	for _, n := range names {
		if !n.known {
			c.e.opaque = true
			c.e.note(TierDestructive, c.ctx.covered, "%s: argv[0] computed at run time", c.name)
			continue
		}
		if name := normaliseName(path.Base(n.val)); handlerFor(name) != nil || isDenyTrigger(name) {
			c.run(append([]arg{n}, args...))
		}
	}
}

// setarchProgram classifies setarch ARCH [options] [PROGRAM [ARGS]] and
// linux32 and linux64, which take no ARCH: their flags may follow the
// architecture, and without a program they run /bin/sh.
func setarchProgram(c *call) (Tier, string) {
	args := c.args
	needArch := c.name == "setarch"
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.known {
			return c.unreadableArgs()
		}
		v := a.val
		if v == "--" {
			i++
			if needArch && i < len(args) {
				i++
			}
			break
		}
		if len(v) > 1 && v[0] == '-' {
			switch v {
			case "--list", "-h", "--help", "-V", "--version":
				return TierRead, c.name + ": lists architectures"
			}
			continue // setarch's flags take no values
		}
		if !needArch {
			break
		}
		needArch = false
	}
	if needArch {
		return TierRead, c.name + " with no architecture"
	}
	if i >= len(args) {
		return TierDestructive, c.name + ": opens a shell"
	}
	c.run(args[i:])
	return TierRead, c.name
}

// sgProgram classifies sg [-] GROUP [[-c] COMMAND]: the command is shell
// text for /bin/sh -c; with none, sg opens a shell.
func sgProgram(c *call) (Tier, string) {
	args := c.args
	if len(args) > 0 && args[0].known && args[0].val == "-" {
		args = args[1:]
	}
	if len(args) > 0 {
		args = args[1:] // the group
	}
	if len(args) > 0 && args[0].known && args[0].val == "-c" {
		args = args[1:]
	}
	if len(args) == 0 {
		c.shellInput()
		return TierDestructive, "sg: opens a shell with another group"
	}
	if !allKnown(args) {
		c.e.opaque = true
		return TierDestructive, "sg: shell command computed at run time"
	}
	c.shell(strings.Join(argVals(args), " "), "sg command", nil, false)
	return TierMutate, "sg"
}

// endOfOptions classifies "--" read as a program: bash's time keyword and
// its eval builtin take "--" as the end of their options (time -- init 1,
// eval -- init 1), and the parser leaves it in command position.
func endOfOptions(c *call) (Tier, string) {
	if len(c.args) == 0 {
		return TierRead, "--: no command"
	}
	c.run(c.args)
	return TierRead, "--"
}

// runPartsProgram: run-parts runs every program in a directory, which the
// classifier cannot see; --test and --list only name them.
func runPartsProgram(c *call) (Tier, string) {
	if hasOpt(c.args, 0, "--test") || hasOpt(c.args, 0, "--list") {
		return TierRead, "run-parts: lists the programs it would run"
	}
	c.e.opaque = true
	// Each program the directory holds is read as one named by its path.
	for _, a := range c.args {
		if a.known && !strings.HasPrefix(a.val, "-") {
			for _, p := range c.e.localDirs(a.val) {
				for _, f := range c.e.recentFilesUnder(p, false) {
					c.run([]arg{{val: f, known: true}})
				}
			}
		}
	}
	return TierDestructive, "run-parts: runs every program in a directory"
}

func allKnown(args []arg) bool {
	for _, a := range args {
		if !a.known {
			return false
		}
	}
	return true
}

// allExact reports whether every one of args is known and no glob
// expands it into other names.
func allExact(args []arg) bool {
	for _, a := range args {
		if !a.known || a.glob {
			return false
		}
	}
	return true
}

// execInput classifies exec with no command that moves standard input:
// the shell itself then reads from there, and a session shell or a later
// "sh" or "source /dev/stdin" runs what it reads as commands.
func execInput(c *call) (Tier, string, bool) {
	if !c.ctx.stdinRd {
		return 0, "", false
	}
	for _, a := range c.args {
		if !a.known || !strings.HasPrefix(a.val, "-") {
			return 0, "", false // exec runs a command
		}
	}
	switch in := c.ctx.stdin; {
	case in.kind == stdinUnknown:
		c.e.opaque = true
		return TierDestructive, "exec: the shell's input becomes a file or descriptor the classifier cannot see", true
	case in.text != "":
		c.shell(in.text, "exec input", nil, false)
	}
	return TierRead, "exec: redirections only", true
}

// hasOpt is hasFlag over resolved arguments.
func hasOpt(args []arg, short byte, long string) bool {
	return hasFlag(argVals(args), short, long)
}

// allDigits reports whether s is a non-empty decimal number (a descriptor).
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// scriptLogs checks the logs script writes besides its typescript:
// -O/--log-out, -I/--log-in, -B/--log-io, -T/--log-timing and
// --timing=FILE.
func scriptLogs(c *call) (Tier, string) {
	r := raiser{TierRead, ""}
	for _, f := range c.optVals(c.args, "-O", "--log-out", "-I", "--log-in", "-B", "--log-io", "-T", "--log-timing") {
		r.raise(c.writeArg(f, "script log"))
	}
	for _, a := range c.args {
		if f, ok := strings.CutPrefix(a.val, "--timing="); ok {
			r.raise(c.writeArg(arg{val: f, known: a.known, glob: a.glob}, "script --timing"))
		}
	}
	return r.t, r.why
}

// straceTamper raises strace's tampering: -e inject= and -e fault= make
// the traced program's system calls fail or return what they say (its
// error paths run, or it acts on a result it never got), -e kill= kills
// it mid-call, and -e poke_enter=/poke_exit= write into its memory, the
// arguments of its calls included (an open for reading made one that
// truncates).
func straceTamper(c *call, r *raiser) {
	qs := c.optVals(c.args, "-e")
	for _, l := range []string{"--inject", "--fault", "--kill", "--poke-enter", "--poke-exit"} {
		for _, v := range c.optVals(c.args, l) {
			qs = append(qs, arg{val: strings.TrimPrefix(l, "--") + "=" + v.val, known: v.known})
		}
	}
	for _, q := range qs {
		if !q.known {
			c.e.opaque = true
			r.raise(TierDestructive, "strace -e: a qualifier computed at run time")
			continue
		}
		k, _, _ := strings.Cut(q.val, "=")
		switch strings.ReplaceAll(k, "-", "_") {
		case "poke_enter", "poke_exit":
			r.raise(TierDestructive, "strace -e "+k+": writes into the traced program's memory")
		case "inject", "fault", "kill":
			r.raise(TierMutate, "strace -e "+k+": changes what the traced program's system calls do")
		}
	}
}

// busyboxUnzipLists reports whether busybox unzip's options list, test or
// print the members (-l, -v, -t, -p) rather than extract them.
func busyboxUnzipLists(args []arg) bool {
	for _, a := range args {
		if a.val == "--" || !strings.HasPrefix(a.val, "-") {
			break
		}
		if strings.ContainsAny(a.val[1:], "lvtp") {
			return true
		}
	}
	return false
}
