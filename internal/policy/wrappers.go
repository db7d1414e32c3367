package policy

import (
	"fmt"
	"strings"

	"github.com/warden-mcp/warden/internal/shellword"
)

// wrapSpec is the option grammar of a program that runs another program.
type wrapSpec struct {
	valueShort string   // short options that take a value (-n 10, -n10)
	valueLong  []string // long options that take a separate value (--user root)
	shellShort string   // short options whose value is shell text (su -c)
	shellLong  []string // long options whose value is shell text
	leading    int      // operands before the command (timeout DURATION, chroot DIR)
	own        Tier     // the wrapper's own tier
	noCmd      Tier     // tier when no command follows
	noCmdWhy   string
	modeShort  string // short flags after which the wrapper does something else (command -v)
	modeTier   Tier
	modeWhy    string
	stopAtArg  bool // options end at the first operand (POSIX); otherwise GNU-style
}

var wrapSpecs = map[string]wrapSpec{
	"nice":             {valueShort: "n", valueLong: []string{"--adjustment"}, noCmdWhy: "nice: prints the niceness"},
	"nohup":            {},
	"stdbuf":           {valueShort: "ioe", valueLong: []string{"--input", "--output", "--error"}},
	"setsid":           {},
	"chrt":             {valueShort: "TPD", valueLong: []string{"--sched-runtime", "--sched-period", "--sched-deadline"}, leading: 1, modeShort: "pm", modeTier: TierMutate, modeWhy: "chrt: changes another process's scheduling"},
	"taskset":          {leading: 1, modeShort: "p", modeTier: TierMutate, modeWhy: "taskset: changes another process's affinity"},
	"ionice":           {valueShort: "cnP", valueLong: []string{"--class", "--classdata", "--pgid", "--uid"}, modeShort: "pPu", modeTier: TierMutate, modeWhy: "ionice: changes another process's I/O priority"},
	"timeout":          {valueShort: "sk", valueLong: []string{"--signal", "--kill-after"}, leading: 1},
	"time":             {valueShort: "fo", valueLong: []string{"--format", "--output"}},
	"command":          {modeShort: "vV", modeTier: TierRead, modeWhy: "command -v: looks a name up", stopAtArg: true},
	"builtin":          {stopAtArg: true},
	"exec":             {valueShort: "a", noCmdWhy: "exec: redirections only", stopAtArg: true},
	"caffeinate":       {valueShort: "tw"},
	"firejail":         {},
	"cgexec":           {valueShort: "g"},
	"systemd-run":      {valueShort: "pEuMHs", valueLong: []string{"--property", "--setenv", "--unit", "--machine", "--host", "--slice", "--uid", "--gid", "--nice", "--working-directory", "--description", "--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--timer-property", "--path-property", "--socket-property", "--service-type"}, own: TierMutate, noCmd: TierMutate},
	"chroot":           {leading: 1, own: TierMutate, noCmd: TierDestructive, noCmdWhy: "chroot: opens a shell in another root"},
	"unshare":          {valueShort: "SGRw", valueLong: []string{"--setuid", "--setgid", "--root", "--wd", "--map-user", "--map-group", "--propagation"}, own: TierMutate, noCmd: TierDestructive, noCmdWhy: "unshare: opens a shell in new namespaces"},
	"nsenter":          {valueShort: "tSGRw", valueLong: []string{"--target", "--setuid", "--setgid"}, own: TierMutate, noCmd: TierDestructive, noCmdWhy: "nsenter: opens a shell in another process's namespaces"},
	"setpriv":          {valueLong: []string{"--reuid", "--regid", "--ruid", "--euid", "--rgid", "--egid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule", "--pdeathsig"}, own: TierMutate},
	"strace":           {valueShort: "eopsuabEIOPSUX", modeShort: "p", modeTier: TierMutate, modeWhy: "strace: attaches to another process"},
	"ltrace":           {valueShort: "eopsuaAbDEFlLnSTx", modeShort: "p", modeTier: TierMutate, modeWhy: "ltrace: attaches to another process"},
	"valgrind":         {},
	"faketime":         {valueShort: "f", leading: 1},
	"proxychains":      {valueShort: "f"},
	"proxychains4":     {valueShort: "f"},
	"torsocks":         {valueShort: "uapP"},
	"catchsegv":        {},
	"eatmydata":        {},
	"unbuffer":         {},
	"rlwrap":           {valueShort: "aAbcCefFhHlmMoOpPqsStwz"},
	"fakeroot":         {valueShort: "is", valueLong: []string{"--lib", "--faked"}},
	"dbus-run-session": {valueLong: []string{"--config-file", "--dbus-daemon"}},
	"systemd-inhibit":  {},
	"setarch":          {leading: 1},
	"linux32":          {},
	"linux64":          {},
	"prlimit":          {modeShort: "p", modeTier: TierMutate, modeWhy: "prlimit: changes another process's limits", noCmdWhy: "prlimit: prints limits"},
	"numactl":          {valueShort: "CNmpiP", valueLong: []string{"--physcpubind", "--cpunodebind", "--membind", "--preferred", "--interleave"}},
	"cpulimit":         {valueShort: "lpe", valueLong: []string{"--limit", "--pid", "--exe"}},
	"trickle":          {valueShort: "udwtlnL"},
	"sshpass":          {valueShort: "pfdP"},
	"sg":               {leading: 1, own: TierMutate},
	"newgrp":           {noCmd: TierDestructive, noCmdWhy: "newgrp: opens a shell with another group"},
	"su":               {valueShort: "gGsw", valueLong: []string{"--group", "--supp-group", "--shell", "--whitelist-environment"}, shellShort: "c", shellLong: []string{"--command", "--session-command"}, noCmd: TierDestructive, noCmdWhy: "su: opens a shell as another user"},
	"runuser":          {valueShort: "gGsuw", valueLong: []string{"--group", "--supp-group", "--shell", "--user", "--whitelist-environment"}, shellShort: "c", shellLong: []string{"--command", "--session-command"}, noCmd: TierDestructive, noCmdWhy: "runuser: opens a shell as another user"},
	"flock":            {valueShort: "wE", valueLong: []string{"--timeout", "--conflict-exit-code"}, shellShort: "c", shellLong: []string{"--command"}, leading: 1, noCmdWhy: "flock: locks a descriptor"},
	"script":           {valueShort: "OIBTEm", valueLong: []string{"--log-out", "--log-in", "--log-io", "--log-timing", "--echo", "--logging-format"}, shellShort: "c", shellLong: []string{"--command"}, own: TierMutate, noCmd: TierDestructive, noCmdWhy: "script: opens an interactive shell"},
	"watch":            {valueShort: "nq", valueLong: []string{"--interval", "--equexit"}},
}

// wrapperProgram classifies programs that run the command in their arguments.
func wrapperProgram(c *call) (Tier, string) {
	switch c.name {
	case "xargs":
		return xargsProgram(c)
	case "parallel":
		return parallelProgram(c)
	case "busybox", "toybox":
		if len(c.args) == 0 || strings.HasPrefix(c.args[0].val, "--list") || c.args[0].val == "--help" {
			return TierRead, c.name + ": lists applets"
		}
		if strings.HasPrefix(c.args[0].val, "--install") {
			return TierMutate, c.name + " --install: writes applet links"
		}
		c.run(c.args)
		return TierRead, c.name
	case "firejail", "valgrind", "systemd-inhibit", "prlimit", "setpriv":
		// GNU long options with = values only.
	case "exec":
		if t, why, ok := execInput(c); ok {
			return t, why
		}
	}
	spec, ok := wrapSpecs[c.name]
	if !ok {
		return TierMutate, c.name
	}
	t, why := c.peel(spec)
	if ot, owhy := wrapperOutput(c); ot > t {
		return ot, owhy
	}
	return t, why
}

// wrapperOutput classifies what a wrapper's own options write or run:
// strace -o file or -o '|cmd', valgrind --log-file and --db-command,
// time -o, and systemd-run, whose command runs as a unit of the service
// manager, outside warden's confinement, with Exec properties of its own.
func wrapperOutput(c *call) (Tier, string) {
	var r raiser
	switch c.name {
	case "strace", "ltrace", "time":
		for _, f := range optVals(c.args, "-o", "--output") {
			if c.name == "strace" && f.known && (strings.HasPrefix(f.val, "|") || strings.HasPrefix(f.val, "!")) {
				c.shell(f.val[1:], "strace -o command", nil, false)
				r.raise(TierDestructive, "strace -o "+truncate(f.val, 64)+": pipes the trace into a command")
				continue
			}
			r.raise(c.writeArg(f, c.name+" -o"))
		}
	case "valgrind":
		for _, f := range optVals(c.args, "--log-file", "--xml-file") {
			r.raise(c.writeArg(f, "valgrind log file"))
		}
		for _, d := range optVals(c.args, "--db-command", "--vgdb-prefix") {
			r.raise(TierDestructive, "valgrind "+truncate(d.val, 64)+": runs a debugger command")
			c.shellArg(d, "valgrind --db-command")
		}
	case "systemd-run":
		r.raise(TierDestructive, "systemd-run: runs a command as a unit of the service manager, outside warden's confinement")
		for _, p := range optVals(c.args, "-p", "--property") {
			k, v, _ := strings.Cut(p.val, "=")
			if strings.HasPrefix(k, "Exec") {
				c.shellArg(arg{val: strings.TrimLeft(v, "-@+!:|"), known: p.known}, "systemd-run "+k)
			}
		}
	}
	return r.t, r.why
}

// peel walks a wrapper's options and classifies the command it runs.
func (c *call) peel(spec wrapSpec) (Tier, string) {
	args := c.args
	i := 0
	mode := false
	var shellText []string
	unknownShell := false
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
				c.e.opaque = true
				return TierDestructive, c.name + ": arguments computed at run time"
			}
			break
		}
		v := a.val
		if v == "--" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if c.name == "su" || c.name == "runuser" {
			if v == "-" || v == "-l" || v == "--login" {
				i++
				continue
			}
		}
		if strings.HasPrefix(v, "--") {
			name, val, hasVal := strings.Cut(v, "=")
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
				if j == len(v)-1 {
					i++
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
	if unknownShell {
		c.e.opaque = true
		return TierDestructive, c.name + ": shell command computed at run time"
	}
	for _, t := range shellText {
		c.shell(t, c.name+" command", nil, false)
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
		return spec.noCmd, spec.noCmdWhy
	}
	if c.name == "flock" && len(rest) > spec.leading+1 && (rest[spec.leading].val == "-c" || rest[spec.leading].val == "--command") {
		if !rest[spec.leading+1].known {
			c.e.opaque = true
			return TierDestructive, "flock: shell command computed at run time"
		}
		c.shell(rest[spec.leading+1].val, "flock command", nil, false)
		return own, why
	}
	if len(shellText) > 0 && len(rest) <= spec.leading {
		return own, why
	}
	if len(rest) <= spec.leading {
		if spec.noCmdWhy != "" {
			return spec.noCmd, spec.noCmdWhy
		}
		return spec.noCmd, c.name + " with no command"
	}
	if c.name == "time" && hasOpt(args[:i], 'o', "--output") {
		own, why = TierMutate, "time -o: writes a file"
	}
	c.run(rest[spec.leading:])
	return own, why
}

func allKnown(args []arg) bool {
	for _, a := range args {
		if !a.known {
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

// sudoProgram peels sudo, doas and pkexec.
func sudoProgram(c *call) (Tier, string) {
	args := c.args
	i := 0
	shellMode, editMode, listMode := false, false, false
	valueShort := "CDghpRrtTUu"
	valueLong := map[string]bool{"--chdir": true, "--close-from": true, "--group": true, "--host": true,
		"--prompt": true, "--chroot": true, "--role": true, "--type": true, "--command-timeout": true,
		"--other-user": true, "--user": true}
	switch c.name {
	case "doas":
		valueShort = "uC"
	case "pkexec":
		valueShort = ""
		valueLong = map[string]bool{"--user": true}
	}
	for i < len(args) {
		a := args[i]
		if !a.known {
			c.e.opaque = true
			return TierDestructive, c.name + ": arguments computed at run time"
		}
		v := a.val
		if v == "--" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if strings.HasPrefix(v, "--") {
			name, _, has := strings.Cut(v, "=")
			switch name {
			case "--shell", "--login":
				shellMode = true
			case "--edit":
				editMode = true
			case "--list", "--validate", "--version", "--help", "--reset-timestamp", "--remove-timestamp":
				listMode = true
			}
			if valueLong[name] && !has {
				i++
			}
			i++
			continue
		}
		for j := 1; j < len(v); j++ {
			f := v[j]
			switch f {
			case 's', 'i':
				shellMode = true
			case 'e':
				editMode = c.name == "sudo"
			case 'l', 'v', 'V', 'k', 'K', 'L':
				listMode = true
			}
			if strings.IndexByte(valueShort, f) >= 0 {
				if j == len(v)-1 {
					i++
				}
				break
			}
		}
		i++
	}
	if i > len(args) {
		i = len(args)
	}
	rest := args[i:]
	// sudo VAR=value cmd sets the variable for cmd.
	for len(rest) > 0 && rest[0].known && strings.Contains(rest[0].val, "=") && validName(strings.SplitN(rest[0].val, "=", 2)[0]) && c.name == "sudo" {
		n, v, _ := strings.Cut(rest[0].val, "=")
		c.e.envVarCtx(n, v, c.ctx, "sudo")
		rest = rest[1:]
	}
	switch {
	case editMode:
		return TierMutate, "sudoedit: edits files as root"
	case shellMode && len(rest) == 0:
		return TierDestructive, c.name + ": opens a root shell"
	case shellMode:
		c.shell(strings.Join(argVals(rest), " "), c.name+" -s command", nil, false)
		if !allKnown(rest) {
			c.e.opaque = true
			return TierDestructive, c.name + ": shell command computed at run time"
		}
		return TierRead, c.name
	case len(rest) == 0 && listMode:
		return TierRead, c.name + ": lists or refreshes privileges"
	case len(rest) == 0:
		return TierRead, c.name + " with no command"
	}
	c.run(rest)
	return TierRead, c.name
}

// envProgram peels env(1).
func envProgram(c *call) (Tier, string) {
	args := c.args
	i := 0
	var split []string
	for i < len(args) {
		a := args[i]
		if !a.known {
			c.e.opaque = true
			return TierDestructive, "env: arguments computed at run time"
		}
		v := a.val
		if v == "--" || v == "-" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if strings.HasPrefix(v, "--") {
			name, val, has := strings.Cut(v, "=")
			switch name {
			case "--unset", "--chdir":
				if !has {
					i++
				}
			case "--split-string":
				if !has && i+1 < len(args) {
					i++
					val = args[i].val
				}
				split = append(split, val)
			}
			i++
			continue
		}
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case 'u', 'C':
				if j == len(v)-1 {
					i++
				}
				j = len(v)
			case 'P':
				return TierDestructive, "env -P: looks the command up in another PATH"
			case 'S':
				s := v[j+1:]
				if s == "" && i+1 < len(args) {
					i++
					s = args[i].val
				}
				split = append(split, s)
				j = len(v)
			}
		}
		i++
	}
	if i > len(args) {
		i = len(args)
	}
	rest := args[i:]
	for len(rest) > 0 && rest[0].known && strings.Contains(rest[0].val, "=") {
		n, v, _ := strings.Cut(rest[0].val, "=")
		c.e.envVarCtx(n, v, c.ctx, "env")
		rest = rest[1:]
	}
	if len(split) > 0 {
		text := strings.Join(split, " ")
		for _, r := range rest {
			text += " " + shellword.Quote(r.val)
		}
		c.shell(text, "env -S command", nil, false)
		return TierRead, "env -S"
	}
	if len(rest) == 0 {
		return TierRead, "env: prints the environment"
	}
	c.run(rest)
	return TierRead, "env"
}

// xargsProgram classifies xargs: the command it runs, with arguments from
// its input that cannot be known.
func xargsProgram(c *call) (Tier, string) {
	args := c.args
	i := 0
	repl := ""
	argFile, delim := false, ""
	for i < len(args) {
		v := args[i].val
		if !args[i].known {
			c.e.opaque = true
			return TierDestructive, "xargs: arguments computed at run time"
		}
		if v == "--" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if strings.HasPrefix(v, "--") {
			name, val, has := strings.Cut(v, "=")
			switch name {
			case "--replace":
				repl = "{}"
				if has && val != "" {
					repl = val
				}
			case "--arg-file":
				argFile = true
			case "--null":
				delim = "\x00"
			case "--delimiter":
				delim = val
			}
			i++
			continue
		}
	cluster:
		for j := 1; j < len(v); j++ {
			switch f := v[j]; f {
			case 'a', 'd', 'E', 'L', 'n', 'P', 's', 'I':
				val := v[j+1:]
				if val == "" {
					i++
					if i < len(args) {
						val = args[i].val
					}
				}
				switch f {
				case 'I':
					repl = val
				case 'a':
					argFile = true
				case 'd':
					delim = val
				}
				break cluster
			case '0':
				delim = "\x00"
			case 'i':
				repl = "{}"
				if j+1 < len(v) {
					repl = v[j+1:]
				}
				break cluster
			case 'e', 'l':
				break cluster
			}
		}
		i++
	}
	if i >= len(args) {
		return TierRead, "xargs: echoes its input"
	}
	cmd := append([]arg(nil), args[i:]...)
	if in, ok := xargsInput(c.ctx.stdin, argFile, delim, repl != ""); ok {
		// The input is known text (echo 0 | xargs init): run the
		// command with it.
		if repl == "" {
			for _, f := range in {
				cmd = append(cmd, arg{val: f, known: true})
			}
			c.run(cmd)
			return TierRead, "xargs"
		}
		for k, line := range in {
			if k >= maxAlts {
				break
			}
			sub := make([]arg, len(cmd))
			for j, a := range cmd {
				sub[j] = a
				if strings.Contains(a.val, repl) {
					sub[j] = arg{val: strings.ReplaceAll(a.val, repl, line), known: a.known}
				}
			}
			c.run(sub)
		}
		if len(in) <= maxAlts {
			return TierRead, "xargs"
		}
	}
	if repl != "" {
		for k := range cmd {
			if strings.Contains(cmd[k].val, repl) {
				cmd[k] = arg{val: cmd[k].val}
			}
		}
	} else {
		cmd = append(cmd, unknownArg)
	}
	c.run(cmd)
	return TierRead, "xargs"
}

// xargsInput splits known standard input the way xargs would: lines with
// -I, the delimiter with -d or -0, otherwise blank-separated words with
// quotes and backslashes removed. ok is false when the input is unknown.
func xargsInput(in stdinSrc, argFile bool, delim string, lines bool) ([]string, bool) {
	if argFile || in.kind != stdinText {
		return nil, false
	}
	text := in.text
	switch {
	case delim != "":
		d := ansiC(delim)
		if d == "" {
			return nil, false
		}
		var out []string
		for _, f := range strings.Split(strings.TrimSuffix(text, "\n"), d[:1]) {
			if f != "" {
				out = append(out, f)
			}
		}
		return out, true
	case lines:
		var out []string
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimLeft(l, " \t"); l != "" {
				out = append(out, l)
			}
		}
		return out, true
	}
	var out []string
	var b strings.Builder
	have := false
	quote := byte(0)
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else {
				b.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			quote, have = ch, true
		case ch == '\\' && i+1 < len(text):
			i++
			b.WriteByte(text[i])
			have = true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if have {
				out = append(out, b.String())
				b.Reset()
				have = false
			}
		default:
			b.WriteByte(ch)
			have = true
		}
	}
	if have {
		out = append(out, b.String())
	}
	return out, true
}

// parallelProgram classifies GNU parallel, which runs its template through
// a shell once per input.
func parallelProgram(c *call) (Tier, string) {
	args := c.args
	valued := map[string]bool{"-j": true, "-S": true, "--jobs": true, "-P": true, "-n": true, "-N": true,
		"-L": true, "-l": true, "-s": true, "-E": true, "-I": true, "--sshlogin": true, "--results": true,
		"--joblog": true, "--delay": true, "--timeout": true, "--tmpdir": true, "--workdir": true,
		"-a": true, "--arg-file": true, "--colsep": true, "-C": true, "-d": true, "--delimiter": true}
	i := 0
	remote := false
	for i < len(args) && strings.HasPrefix(args[i].val, "-") && args[i].val != "--" {
		if args[i].val == "-S" || args[i].val == "--sshlogin" {
			remote = true
		}
		if valued[args[i].val] {
			i++
		}
		i++
	}
	if i < len(args) && args[i].val == "--" {
		i++
	}
	var tmpl []string
	var inputs []string
	sawSep, unknown := false, false
	for _, a := range args[min(i, len(args)):] {
		if strings.HasPrefix(a.val, ":::") {
			sawSep = true
			continue
		}
		if !a.known {
			unknown = true
		}
		if sawSep {
			inputs = append(inputs, a.val)
		} else {
			tmpl = append(tmpl, a.val)
		}
	}
	if unknown {
		c.e.opaque = true
		return TierDestructive, "parallel: command computed at run time"
	}
	template := strings.Join(tmpl, " ")
	if template == "" {
		// Each input line is a command.
		return c.stdinProgram("parallel")
	}
	if !sawSep {
		inputs = nil
	}
	run := func(v string, known bool) {
		q := `"$__warden_unknown_input"`
		if known {
			q = shellword.Quote(v)
		}
		text := template + " " + q
		if strings.Contains(template, "{}") {
			text = strings.ReplaceAll(template, "{}", q)
		}
		c.shell(text, "parallel command", nil, false)
	}
	if len(inputs) == 0 {
		run("", false)
	}
	for k, v := range inputs {
		if k >= maxAlts {
			run("", false)
			break
		}
		run(v, true)
	}
	if remote {
		return TierMutate, "parallel: runs commands on other hosts"
	}
	return TierRead, "parallel"
}

// stdinProgram classifies a shell or interpreter that reads its program
// from standard input.
func (c *call) stdinProgram(what string) (Tier, string) {
	switch c.ctx.stdin.kind {
	case stdinText:
		if c.ctx.stdin.text == "" {
			return TierRead, what + ": empty input"
		}
		c.shell(c.ctx.stdin.text, what+" input", nil, false)
		return TierRead, what
	case stdinUnknown:
		c.e.opaque = true
		return TierDestructive, what + " runs commands from input the classifier cannot see"
	}
	return TierBenign, fmt.Sprintf("%s: interactive shell; lines sent to it are classified one by one", what)
}
