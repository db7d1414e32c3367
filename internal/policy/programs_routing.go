package policy

import "strings"

// The routing daemons' shells: FRR's vtysh and BIRD's birdc. Their show
// commands read; clearing sessions, removing configuration (a "no" line),
// shutting a neighbour or interface, and BIRD's down, disable, restart
// and graceful restart take routes away, which can cut the host or the
// network behind it off: TierDestructive. Commands read from a file or
// from the input are not seen, and may be any of those.

// vtyshLong are vtysh's long options and whether each takes a value.
var vtyshLong = map[string]bool{"--boot": false, "--eval": true, "--command": true, "--daemon": true,
	"--vty_socket": true, "--config_dir": true, "--inputfile": true, "--histfile": true, "--echo": false,
	"--dryrun": false, "--help": false, "--noerror": false, "--mark": false, "--writeconfig": false,
	"--pathspace": true, "--user": false, "--timestamp": false}

// vtyshProgram classifies FRR's vtysh by its -c commands (each may hold
// several lines). -f applies a file of commands, and with neither vtysh
// reads commands from its input; -H writes a history file.
func vtyshProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "vtysh: reports"}
	var cmds []arg
	file, dryrun, help, mutate := false, false, false, false
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known {
			return c.computed("command")
		}
		v := a.val
		if v == "--" || !strings.HasPrefix(v, "-") || v == "-" {
			continue // vtysh takes no operands
		}
		value := func(attached string, has bool) arg {
			if has {
				return arg{val: attached, known: true}
			}
			if i+1 < len(c.args) {
				i++
				return c.args[i]
			}
			return arg{known: true}
		}
		var opt string
		var val arg
		if strings.HasPrefix(v, "--") {
			name, attached, has := strings.Cut(v, "=")
			full, n := "", 0
			for l := range vtyshLong {
				if l == name {
					full, n = l, 1
					break
				}
				if len(name) > 2 && strings.HasPrefix(l, name) {
					full, n = l, n+1
				}
			}
			if n != 1 {
				// Unknown or ambiguous: getopt_long refuses the line.
				return TierMutate, "vtysh " + truncate(name, 32) + ": unknown option"
			}
			opt = full
			if vtyshLong[full] {
				val = value(attached, has)
			}
		} else {
			for j := 1; j < len(v); j++ {
				b := v[j]
				if strings.IndexByte("ecdfHN", b) >= 0 {
					opt = map[byte]string{'e': "--eval", 'c': "--command", 'd': "--daemon", 'f': "--inputfile",
						'H': "--histfile", 'N': "--pathspace"}[b]
					val = value(v[j+1:], j+1 < len(v))
					break
				}
				switch b {
				case 'b', 'w':
					mutate = true
				case 'C':
					dryrun = true
				case 'h':
					help = true
				case 'E', 'm', 'u', 't':
				default:
					return TierMutate, "vtysh -" + string(b) + ": unknown option"
				}
			}
		}
		switch opt {
		case "--command", "--eval":
			cmds = append(cmds, val)
		case "--inputfile":
			file = true
		case "--histfile":
			r.raise(c.writeArg(val, "vtysh --histfile"))
		case "--boot", "--writeconfig":
			mutate = true
		case "--dryrun":
			dryrun = true
		case "--help":
			help = true
		}
	}
	switch {
	case file && !dryrun:
		return TierDestructive, "vtysh -f: applies commands from a file the classifier does not read"
	case len(cmds) == 0 && !file && !mutate && !help && !dryrun:
		return TierDestructive, "vtysh: reads commands from its input"
	}
	if mutate {
		r.raise(TierMutate, "vtysh: applies or writes the saved configuration")
	}
	config := false
	for _, cmd := range cmds {
		if !cmd.known {
			return c.computed("command")
		}
		for _, line := range strings.Split(cmd.val, "\n") {
			if f := strings.Fields(strings.ToLower(line)); len(f) > 0 && len(f[0]) >= 4 && strings.HasPrefix("configure", f[0]) {
				config = true
			}
			r.raise(c.vtyshLine(line, config))
		}
	}
	return r.t, r.why
}

// vtyshLine classifies one line of vtysh commands. FRR takes any
// unambiguous prefix of a word, so show is sh or sho; a pipe may only
// filter with include.
func (c *call) vtyshLine(line string, config bool) (Tier, string) {
	f := strings.Fields(strings.ToLower(line))
	orig := strings.Fields(line)
	if len(f) > 0 && f[0] == "do" {
		f, orig, config = f[1:], orig[1:], false
	}
	if len(f) == 0 {
		return TierRead, "vtysh: reports"
	}
	label := "vtysh " + truncate(strings.TrimSpace(line), 64)
	prefixOf := func(w, full string, min int) bool { return len(w) >= min && strings.HasPrefix(full, w) }
	switch {
	case prefixOf(f[0], "no", 2) && f[len(f)-1] != "shutdown":
		return TierDestructive, label + ": removes routing configuration"
	case prefixOf(f[0], "clear", 2) && !strings.Contains(line, "soft") && !strings.Contains(line, "counters"):
		return TierDestructive, label + ": resets routing sessions"
	case prefixOf(f[0], "start-shell", 3):
		return TierDestructive, label + ": starts a shell"
	case prefixOf(f[0], "copy", 3):
		return TierDestructive, label + ": applies a configuration file the classifier does not read"
	}
	for i, w := range f {
		// shut is shutdown; in a configuration node, where show is
		// not a command, so is sh.
		if f[0] != "no" && (len(w) >= 4 || config && i == 0 && len(w) >= 2) && strings.HasPrefix("shutdown", w) {
			return TierDestructive, label + ": shuts a neighbour, interface or daemon down"
		}
	}
	switch {
	case prefixOf(f[0], "show", 2):
		if i := strings.IndexByte(line, '|'); i >= 0 {
			p := strings.Fields(strings.ToLower(line[i+1:]))
			if len(p) == 0 || !prefixOf(p[0], "include", 2) || strings.Count(line, "|") > 1 {
				return TierMutate, label + ": pipes its output"
			}
		}
		return TierRead, label + ": reports"
	case f[0] == "ping" || f[0] == "traceroute" || f[0] == "end" || f[0] == "exit" || f[0] == "quit" ||
		len(f) > 1 && prefixOf(f[0], "terminal", 4) && (f[1] == "length" || f[1] == "paginate" || f[1] == "no") ||
		len(f) > 1 && f[0] == "write" && prefixOf(f[1], "terminal", 1):
		return TierRead, label + ": reports"
	case len(f) > 2 && f[0] == "log" && f[1] == "file":
		return c.writeArg(arg{val: orig[2], known: true}, "vtysh log file")
	}
	return TierMutate, label + ": changes the routing configuration"
}

// birdCommands are BIRD's top-level CLI commands: true for those that
// only report.
var birdCommands = map[string]bool{"show": true, "help": true, "quit": true, "exit": true, "restrict": true,
	"dump": false, "echo": false, "disable": false, "enable": false, "restart": false, "reload": false,
	"debug": false, "mrtdump": false, "eval": false, "down": false, "configure": false, "graceful": false,
	"timeformat": false}

// birdDangers shut BIRD down or take protocols (and their routes) away.
var birdDangers = set(`down disable restart graceful`)

// birdcProgram classifies birdc [-s SOCKET] [-l] [-v] [-r] [COMMAND…].
// BIRD takes any unambiguous prefix of a word (sh pro is show
// protocols); a prefix matching a teardown is taken for it. -r makes the
// session restricted to reading; with no command birdc reads commands
// from its input.
func birdcProgram(c *call) (Tier, string) {
	restricted, known := false, true
	var ops []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known {
			if c.mayBeOption(a) || len(ops) == 0 {
				known = false
			}
			ops = append(ops, a)
			continue
		}
		if len(ops) > 0 || !strings.HasPrefix(a.val, "-") {
			ops = append(ops, a)
			continue
		}
		for j := 1; j < len(a.val); j++ {
			switch a.val[j] {
			case 'r':
				restricted = true
			case 's':
				if j == len(a.val)-1 {
					i++
				}
				j = len(a.val)
			}
		}
	}
	if restricted && known {
		return TierRead, c.name + " -r: restricted to reading"
	}
	if !known {
		return c.computed("command")
	}
	if len(ops) == 0 {
		return TierDestructive, c.name + ": reads commands from its input"
	}
	if !ops[0].known {
		return c.computed("command")
	}
	w := strings.ToLower(strings.Fields(ops[0].val + " x")[0])
	read, any := true, false
	for cmd, isRead := range birdCommands {
		if !strings.HasPrefix(cmd, w) {
			continue
		}
		any = true
		if birdDangers[cmd] {
			return TierDestructive, c.name + " " + truncate(w, 16) + ": shuts BIRD or its protocols down"
		}
		read = read && isRead
	}
	if any && read {
		return TierRead, c.name + " " + truncate(w, 16) + ": reports"
	}
	if line := strings.Join(argVals(ops), " "); strings.HasPrefix("configure", w) && len(w) >= 2 &&
		strings.Contains(line, "\"") && !strings.Contains(line, " check") {
		// configure "FILE" loads a configuration the classifier does
		// not read, which may drop every protocol.
		return TierDestructive, c.name + " configure FILE: loads a configuration the classifier does not read"
	}
	return TierMutate, c.name + " " + truncate(w, 16) + ": changes the routing daemon"
}
