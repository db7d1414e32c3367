package policy

import (
	"slices"
	"strings"
)

// kitty's and wezterm's own commands that run one: kitty's remote control
// (kitty @ launch CMD, kitten @ run CMD, kitten @ action launch CMD), its
// +runpy, +launch and +hold, the ssh kitten, and wezterm ssh and connect.
// Without these the classifier could only guess at a command among their
// words, which raises the tier but denies nothing.

var (
	// kittyLaunch is the grammar of remote control's launch, new-window
	// and run, and of the launch action: their options, then the command.
	kittyLaunch = subWrap{spec: wrapSpec{valueShort: "mw", valueLong: []string{"--title", "--window-title", "--tab-title",
		"--type", "--cwd", "--env", "--var", "--location", "--next-to", "--bias", "--match", "--remote-control-password",
		"--stdin-source", "--marker", "--os-window-class", "--os-window-name", "--os-window-title", "--os-window-state",
		"--logo", "--logo-position", "--logo-alpha", "--color", "--spacing", "--watcher", "--os-panel", "--source-window",
		"--window-type", "--response-timeout"}}}
	// kittyRemoteValues are remote control's global options with a value.
	kittyRemoteValues = []string{"--to", "--password", "--password-file", "--password-env", "--use-password"}
	// kittyTypes are the remote control commands and actions that type
	// into another window, whose shell may run what they type.
	kittyTypes = set("send-text send-key send_text send_key combine remote_control remote_control_script pipe kitten run_kitten")
	// kittyLaunches are the actions that start a command of their words.
	kittyLaunches = set("launch new_window new_window_with_cwd new_tab new_tab_with_cwd new_os_window new_os_window_with_cwd")
)

// kittyOwn classifies kitty's own command words (+runpy CODE, @ launch
// CMD), or the kitten binary's words, ops. ok is false when they run
// nothing the classifier can name.
func (c *call) kittyOwn(ops []arg) (Tier, string, bool) {
	if len(ops) == 0 || !ops[0].known {
		return TierMutate, c.name, false
	}
	first := ops[0].val
	switch {
	case first == "+runpy":
		if len(ops) < 2 {
			return TierMutate, c.name, false
		}
		c.run(append([]arg{{val: "python3", known: true}, {val: "-c", known: true}}, ops[1:]...))
		return TierMutate, c.name + " +runpy", true
	case first == "+launch" || first == "+shebang":
		if len(ops) < 2 {
			return TierMutate, c.name, false
		}
		c.run(append([]arg{{val: "python3", known: true}}, ops[1:]...))
		return TierMutate, c.name + " " + first, true
	case first == "+hold":
		if len(ops) < 2 {
			return TierMutate, c.name, false
		}
		c.run(ops[1:])
		return TierMutate, c.name + " +hold", true
	case first == "+kitten" || first == "+" && len(ops) > 1 && ops[1].known && ops[1].val == "kitten":
		if first == "+" {
			ops = ops[1:]
		}
		return c.kitten(ops[1:])
	case first == "@":
		return c.kittyRemote(ops[1:])
	case strings.HasPrefix(first, "@"):
		// kitty @ls is kitty @ ls.
		return c.kittyRemote(append([]arg{{val: first[1:], known: true}}, ops[1:]...))
	}
	return TierMutate, c.name, false
}

// kitten classifies a kitten and its words (kitten ssh HOST CMD, kitty
// +kitten @ launch CMD, kitty +kitten /tmp/k.py).
func (c *call) kitten(ops []arg) (Tier, string, bool) {
	if len(ops) == 0 {
		return TierMutate, c.name, false
	}
	if !ops[0].known {
		c.e.opaque = true
		return TierDestructive, c.name + ": kitten known only at run time", true
	}
	switch name := ops[0].val; {
	case name == "ssh":
		// kitten ssh takes ssh's options and destination, and its own
		// --kitten KEY=VALUE.
		rest := []arg{{val: "ssh", known: true}}
		for i := 1; i < len(ops); i++ {
			if ops[i].known && (ops[i].val == "--kitten" || strings.HasPrefix(ops[i].val, "--kitten=")) {
				if ops[i].val == "--kitten" {
					i++
				}
				continue
			}
			rest = append(rest, ops[i])
		}
		c.run(rest)
		return TierMutate, c.name + " ssh", true
	case name == "@" || strings.HasPrefix(name, "@"):
		return c.kittyOwn(ops)
	case strings.HasSuffix(name, ".py") || strings.Contains(name, "/"):
		// A kitten of one's own: a Python file kitty runs.
		c.run(append([]arg{{val: "python3", known: true}}, ops...))
		return TierMutate, c.name + " kitten " + truncate(name, 64), true
	}
	return TierMutate, c.name, false
}

// kittyRemote classifies remote control's words after "@": its global
// options, then a command.
func (c *call) kittyRemote(ops []arg) (Tier, string, bool) {
	i := 0
	for ; i < len(ops); i++ {
		a := ops[i]
		if !a.known {
			if strings.HasPrefix(a.val, "-") {
				c.e.opaque = true
				return TierDestructive, c.name + " @: options computed at run time", true
			}
			break
		}
		if !strings.HasPrefix(a.val, "-") {
			break
		}
		if name, _, has := strings.Cut(a.val, "="); !has && slices.Contains(kittyRemoteValues, name) {
			i++
		}
	}
	if i >= len(ops) {
		return TierMutate, c.name + " @", false // the interactive remote control shell
	}
	if !ops[i].known {
		c.e.opaque = true
		return TierDestructive, c.name + " @: command known only at run time", true
	}
	verb, rest := ops[i].val, ops[i+1:]
	if verb == "action" {
		// action [--self] [--no-response] NAME ARGS...
		j := 0
		for j < len(rest) && rest[j].known && strings.HasPrefix(rest[j].val, "-") {
			j++
		}
		if j >= len(rest) {
			return TierMutate, c.name + " @ action", false
		}
		if !rest[j].known {
			c.e.opaque = true
			return TierDestructive, c.name + " @ action: action known only at run time", true
		}
		verb, rest = rest[j].val, rest[j+1:]
	}
	what := c.name + " @ " + verb
	switch {
	case verb == "launch" || verb == "new-window" || verb == "run" || kittyLaunches[verb]:
		p := kittyLaunch.parse(rest)
		if p.computed {
			c.e.opaque = true
			return TierDestructive, what + ": options computed at run time", true
		}
		if len(p.cmd) == 0 {
			return TierMutate, what, false
		}
		c.run(p.cmd)
		return TierMutate, what, true
	case kittyTypes[verb]:
		// What is typed into another window runs there if a shell reads
		// it: the deny rules see its text, and a person approves it.
		var lines []string
		for _, a := range rest {
			if a.known && !strings.HasPrefix(a.val, "-") {
				lines = append(lines, strings.TrimSpace(kittyEscapes.Replace(a.val)))
			}
		}
		c.e.runsDenied(lines, c.ctx, what)
		c.e.opaque = true
		return TierDestructive, what + ": types into another window, whose shell may run it", true
	case verb == "env":
		return TierDestructive, what + ": sets the environment of the programs kitty starts later", true
	}
	return TierMutate, what, false
}

// kittyEscapes turns the escapes send-text reads into what it types.
var kittyEscapes = strings.NewReplacer(`\r`, "\n", `\n`, "\n", `\x0d`, "\n", `\x0a`, "\n", `\u000d`, "\n")

// weztermRemote classifies wezterm ssh [OPTIONS] DEST [PROG...] as ssh
// DEST PROG would be, its -o options included, and wezterm connect
// DOMAIN [PROG...] as running PROG.
func (c *call) weztermRemote(verb string, ops []arg) (Tier, string, bool) {
	what := c.name + " " + verb
	ssh := []arg{{val: "ssh", known: true}}
	var dest *arg
	var prog []arg
	for i := 0; i < len(ops); i++ {
		a := ops[i]
		if !a.known && strings.HasPrefix(a.val, "-") {
			c.e.opaque = true
			return TierDestructive, what + ": options computed at run time", true
		}
		if !a.known || !strings.HasPrefix(a.val, "-") {
			dest, prog = &ops[i], ops[i+1:]
			break
		}
		name, val, has := strings.Cut(a.val, "=")
		switch {
		case name == "-o" || name == "--ssh-option":
			if has {
				ssh = append(ssh, arg{val: "-o" + val, known: true})
			} else if i++; i < len(ops) {
				ssh = append(ssh, arg{val: "-o", known: true}, ops[i])
			}
		case strings.HasPrefix(a.val, "-o") && !strings.HasPrefix(a.val, "--"):
			ssh = append(ssh, a)
		case name == "--class" || name == "--position" || name == "--workspace":
			if !has {
				i++
			}
		case name == "--":
			if i+1 < len(ops) {
				dest, prog = &ops[i+1], ops[i+2:]
			}
			i = len(ops)
		}
	}
	if dest == nil {
		return TierMutate, what, false
	}
	if verb == "connect" {
		if len(prog) == 0 {
			return TierMutate, what, false
		}
		c.run(prog)
		return TierMutate, what, true
	}
	c.run(append(append(ssh, *dest), prog...))
	return TierMutate, what, true
}
