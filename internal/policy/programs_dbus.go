package policy

import "strings"

// The programs that ask the service manager and other daemons over
// D-Bus, or read what they kept: coredumpctl and the D-Bus clients.

// coredumpctl's options that take a value, for finding its verb.
var coredumpctlValueLong = []string{"--output", "--field", "--directory", "--file", "--since", "--until",
	"--debugger", "--debugger-arguments", "--root", "--image", "--json", "--image-policy"}

// coredumpctlProgram classifies coredumpctl: list and info read, dump
// writes -o's file, and debug (gdb) runs a debugger on the core — gdb by
// default, whose prompt runs shell commands, or --debugger's program.
func coredumpctlProgram(c *call) (Tier, string) {
	ops := getoptOperands(c.vals(), "oFDSUnA", coredumpctlValueLong)
	verb := "list"
	if len(ops) > 0 {
		verb = ops[0]
	}
	switch verb {
	case "list", "info":
		if t, why := imageMount(c); t > TierRead {
			return t, why
		}
		return TierRead, "coredumpctl " + verb
	case "dump":
		r := raiser{TierRead, "coredumpctl dump"}
		for _, f := range c.optVals(c.args, "-o", "--output") {
			r.raise(c.writeArg(f, "coredumpctl dump -o"))
		}
		return r.t, r.why
	case "debug", "gdb":
		for _, d := range c.optVals(c.args, "--debugger") {
			c.run([]arg{d, unknownArg})
		}
		return TierDestructive, "coredumpctl " + verb + ": runs a debugger, which can run commands"
	}
	return TierMutate, "coredumpctl " + truncate(verb, 32)
}

// busctlValueLong are busctl's options that take a separate value.
var busctlValueLong = []string{"--host", "--machine", "--capsule", "--address", "--match", "--size", "--timeout", "--json",
	"--destination", "--augment-creds", "--expect-reply", "--auto-start", "--allow-interactive-authorization",
	"--watch-bind", "--limit-messages"}

// dbusCall classifies the D-Bus clients: listing, introspecting,
// reading properties and watching read; a method call, a property set or
// an emitted signal can ask a service to do anything (tier 2), and
// StartTransientUnit asks systemd to run a command outside warden's
// confinement, like systemd-run (tier 3). Powering off is on the deny list.
func dbusCall(c *call) (Tier, string) {
	vals := c.vals()
	for _, v := range vals {
		if strings.Contains(strings.ToLower(v), "starttransientunit") {
			return TierDestructive, c.name + ": StartTransientUnit runs a command as a unit of the service manager, outside warden's confinement"
		}
		m := v[strings.LastIndexByte(v, '.')+1:]
		if dbusDisruptive[strings.ToLower(m)] {
			return TierDestructive, c.name + ": " + m + " stops, kills, disables or powers off what the operator reaches the host through"
		}
	}
	switch c.name {
	case "dbus-send":
		return TierMutate, "dbus-send: sends a method call or signal"
	case "busctl":
		ops := getoptOperands(vals, "HMC", busctlValueLong)
		r := raiser{TierMutate, "busctl call, set-property or emit: asks a service to act"}
		if len(ops) == 0 {
			r = raiser{TierRead, "busctl list"}
		} else {
			switch ops[0] {
			case "list", "status", "monitor", "capture", "tree", "introspect", "get-property", "help", "wait":
				r = raiser{TierRead, "busctl " + ops[0]}
			}
		}
		r.raise(c.daemonHost()) // -H runs ssh
		return r.t, r.why
	case "gdbus":
		ops := operandsSkipping(vals, "deomt", []string{"--dest", "--object-path", "--method", "--timeout", "--address"})
		if len(ops) > 0 && (ops[0] == "introspect" || ops[0] == "monitor" || ops[0] == "help" || ops[0] == "wait") {
			return TierRead, "gdbus " + ops[0]
		}
		return TierMutate, "gdbus: calls a method or emits a signal"
	default: // qdbus: SERVICE PATH METHOD calls; fewer operands list
		if len(operandsSkipping(vals, "", nil)) <= 2 {
			return TierRead, c.name + ": lists services, objects or methods"
		}
		return TierMutate, c.name + ": calls a method"
	}
}

// dbusDisruptive are D-Bus methods that do what systemctl stop, kill,
// mask, disable, set-default and poweroff, loginctl terminate-* and
// kill-*, nmcli connection down and networking off, and date -s do:
// systemd's Manager and Unit, logind's Manager and NetworkManager's,
// lowercased.
var dbusDisruptive = map[string]bool{
	"stopunit": true, "killunit": true, "maskunitfiles": true, "disableunitfiles": true,
	"setdefaulttarget": true, "stop": true, "kill": true, "exit": true, "halt": true, "poweroff": true,
	"reboot": true, "kexec": true, "softreboot": true, "switchroot": true, "suspend": true,
	"hibernate": true, "hybridsleep": true, "terminateuser": true, "killuser": true,
	"terminatesession": true, "killsession": true, "terminateseat": true, "deactivateconnection": true,
	"sleep": true, "settime": true, "isolate": true,
}
