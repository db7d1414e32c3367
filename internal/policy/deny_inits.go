package policy

import (
	"path"
	"strings"
)

// The power and run-level commands of init systems other than systemd and
// sysvinit (OpenRC, runit, s6, dinit, GNU Shepherd, launchd), of SysV init
// scripts run through service, and rtcwake's suspend and power-off modes:
// denied like reboot, poweroff and init 1, which they are.

// otherInits are the programs otherInitDeny reads.
var otherInits = set(`rtcwake openrc openrc-shutdown openrc-init runit-init s6-svscanctl s6-linux-init-shutdown
	s6-linux-init-hpr dinitctl herd launchctl service invoke-rc.d rc-service rcctl`)

// scriptRunners run the init script their first operand names, found in
// their script directory (/etc/init.d, /etc/rc.d) by joining the name to
// it, or taken as it is when absolute (OpenRC's rc-service): a name with
// a slash in it ("../../sbin/reboot") is a program anywhere.
var scriptRunners = set(`service invoke-rc.d rc-service rcctl`)

// runnerScript returns the script a script runner's operands name and
// the arguments it gets: rcctl takes the verb first (rcctl start NAME),
// the others the name (service NAME start).
func runnerScript(name string, ops []string) (string, []string) {
	switch {
	case !scriptRunners[name] || len(ops) == 0:
		return "", nil
	case name == "rcctl":
		for _, o := range ops[1:] {
			if scriptPath(o) {
				return o, ops[:1]
			}
		}
		return "", nil
	}
	return ops[0], ops[1:]
}

// runnerScriptTier: a script runner given a path for its service name
// runs that program with the verb as its argument, whatever the verb
// (service ../../tmp/x status runs /tmp/x).
func (c *call) runnerScriptTier() (Tier, string, bool) {
	script, _ := runnerScript(c.name, operands(c.vals()))
	if !scriptPath(script) {
		return TierRead, "", false
	}
	c.e.opaque = true
	return TierDestructive, c.name + " " + truncate(script, 64) + ": a service name with a slash runs that program, not an init script", true
}

// scriptPath reports whether a script runner's service name is a path to
// a program of its own rather than a name in the script directory.
func scriptPath(name string) bool { return strings.Contains(name, "/") }

// powerScripts are SysV init scripts that halt, reboot or drop to
// single-user mode when run (Debian's /etc/init.d/halt stop, single start).
var powerScripts = set(`halt reboot poweroff single shutdown sendsigs umountroot killprocs`)

// otherInitDeny returns why a command of otherInits is denied, or "".
func otherInitDeny(name string, args []string) string {
	ops := operands(args)
	first := ""
	if len(ops) > 0 {
		first = ops[0]
	}
	if script, rest := runnerScript(name, ops); scriptPath(script) {
		// What runs is that program, given the verb and the rest.
		if why := denyCheck(normaliseName(path.Base(script)), rest); why != "" {
			return name + " " + truncate(script, 64) + " runs " + why
		}
		return ""
	}
	switch name {
	case "rtcwake":
		return rtcwakeDeny(args)
	case "openrc":
		// openrc RUNLEVEL switches to it; -s SERVICE runs a service command.
		if hasFlag(args, 's', "--service") {
			return ""
		}
		for _, o := range ops {
			switch strings.ToLower(o) {
			case "single", "shutdown", "reboot", "off":
				return "openrc " + o + ": changes the machine's power state or run level"
			}
		}
	case "openrc-shutdown":
		if hasFlag(args, 'D', "--dry-run") || hasFlag(args, 'c', "--cancel") || hasFlag(args, 'w', "--write-only") {
			return ""
		}
		for _, f := range []struct {
			short byte
			long  string
		}{{'H', "--halt"}, {'p', "--poweroff"}, {'r', "--reboot"}, {'s', "--single"}, {'k', "--kexec"}, {'R', "--reexec"}} {
			if hasFlag(args, f.short, f.long) {
				return "openrc-shutdown: changes the machine's power state or run level"
			}
		}
	case "openrc-init", "runit-init":
		switch first {
		case "0", "6", "poweroff", "reboot", "halt", "single":
			return name + " " + first + ": changes the machine's power state"
		}
	case "s6-svscanctl":
		// -0 halts, -6 reboots, -7 powers off when svscan is PID 1.
		for _, a := range args {
			if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "067") {
				return "s6-svscanctl " + a + ": changes the machine's power state"
			}
		}
	case "s6-linux-init-hpr":
		return name + ": changes the machine's power state"
	case "s6-linux-init-shutdown":
		if hasFlag(args, 'c', "") || hasFlag(args, 'k', "") {
			return ""
		}
		return name + ": changes the machine's power state"
	case "dinitctl", "launchctl":
		switch first {
		case "shutdown", "reboot", "poweroff", "halt", "kexec", "soft-reboot":
			if name == "launchctl" && len(ops) > 1 && (ops[1] == "logout" || ops[1] == "apps") {
				return ""
			}
			return name + " " + first + ": changes the machine's power state"
		}
	case "herd":
		// GNU Shepherd: stopping root (or shepherd) powers off.
		if len(ops) > 1 && (ops[1] == "root" || ops[1] == "shepherd") {
			switch first {
			case "stop", "power-off", "reboot", "halt", "kexec":
				return "herd " + first + " " + ops[1] + ": changes the machine's power state"
			}
		}
	case "service", "invoke-rc.d":
		if len(ops) > 1 && powerScripts[strings.TrimSuffix(first, ".sh")] && ops[1] != "status" {
			return name + " " + first + " " + ops[1] + ": changes the machine's power state or run level"
		}
	}
	return ""
}

// rtcwakeDeny: rtcwake sets a wake alarm, then suspends (standby, the
// default, freeze, mem, disk) or powers off (off); no, on, disable and
// show do neither, and -n only says what it would do. With no wake time
// (-s, -t, --date) it suspends nothing: it refuses, or only shows help.
func rtcwakeDeny(args []string) string {
	mode, timed := "standby", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if name, val, has := strings.Cut(a, "="); strings.HasPrefix(a, "--") {
			switch {
			case len(name) > 2 && strings.HasPrefix("--mode", name):
				if !has && i+1 < len(args) {
					i++
					val = args[i]
				}
				mode = val
			case len(name) > 3 && strings.HasPrefix("--dry-run", name):
				return ""
			case len(name) > 2 && (strings.HasPrefix("--adjfile", name) || strings.HasPrefix("--date", name) ||
				strings.HasPrefix("--device", name) || strings.HasPrefix("--seconds", name) || strings.HasPrefix("--time", name)):
				timed = timed || !strings.HasPrefix("--adjfile", name) && !strings.HasPrefix("--device", name)
				if !has {
					i++
				}
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		for j := 1; j < len(a); j++ {
			switch c := a[j]; {
			case c == 'n':
				return ""
			case strings.IndexByte("mAdst", c) >= 0:
				val := a[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i]
				}
				if c == 'm' {
					mode = val
				}
				timed = timed || c == 's' || c == 't'
				j = len(a)
			}
		}
	}
	switch strings.ToLower(mode) {
	case "no", "on", "disable", "show":
		return ""
	}
	if !timed {
		return ""
	}
	switch strings.ToLower(mode) {
	case "off":
		return "rtcwake -m off: powers the machine off"
	}
	return "rtcwake -m " + mode + ": suspends the machine"
}
