package policy

import (
	"strings"
)

// Power changes asked of a service over D-Bus, denied like the commands
// that ask for them: logind's and systemd's power methods, starting a
// power or run-level unit (StartUnit with its name, or Start on the
// unit's object path), and the older or desktop services that do the
// same (ConsoleKit's Stop and Restart, UPower's Suspend, the session
// managers' Shutdown and Reboot, KDE's logout with a shutdown type). The
// method is read where each client puts it, so a read (CanPowerOff, a
// property) or a call that only passes such a word as data (Inhibit
// "shutdown:sleep", CancelScheduledShutdown) is not denied.

// dbusPowerMethods are, per service (a word its name, path or interface
// carries), the methods that change the machine's power state, lowercased.
var dbusPowerMethods = []struct {
	svc     string
	methods map[string]bool
}{
	{"login1", set(`poweroff reboot halt kexec suspend hibernate hybridsleep suspendthenhibernate sleep
		poweroffwithflags rebootwithflags haltwithflags kexecwithflags suspendwithflags hibernatewithflags
		hybridsleepwithflags suspendthenhibernatewithflags scheduleshutdown`)},
	{"systemd1", set(`poweroff reboot halt kexec softreboot switchroot exit`)},
	{"consolekit", set(`stop restart suspend hibernate hybridsleep poweroff reboot`)},
	{"upower", set(`suspend hibernate`)},
	{"powermanagement", set(`suspend hibernate shutdown reboot`)},
	{"sessionmanager", set(`shutdown reboot requestshutdown requestreboot`)},
	{"org.kde.shutdown", set(`logoutandshutdown logoutandreboot`)},
	{"org.kde.ksmserver", set(`logoutandshutdown logoutandreboot`)},
}

// dbusStartMethods start the unit they name (systemd1's Manager) or whose
// object path they are called on (its Unit).
var dbusStartMethods = set(`startunit startunitreplace startunitwithflags enqueueunitjob restartunit
	tryrestartunit reloadorrestartunit reloadortryrestartunit start restart tryrestart reloadorrestart
	reloadortryrestart`)

// dbusStopMethods stop, kill or freeze the unit they name or are called on.
var dbusStopMethods = set(`stopunit killunit freezeunit stop kill freeze`)

// dbusCallParts returns the method a D-Bus client calls, its object path
// and the words after it, or ok false when the client only reads.
func dbusCallParts(name string, args []string) (method, object string, rest []string, ok bool) {
	switch name {
	case "busctl":
		// busctl [OPTS] call SERVICE OBJECT INTERFACE METHOD [SIG [ARG…]]
		ops := getoptOperands(args, "HMC", busctlValueLong)
		if len(ops) < 5 || ops[0] != "call" {
			return "", "", nil, false
		}
		return ops[4], ops[2], ops[5:], true
	case "gdbus":
		// gdbus call --dest D --object-path O --method IFACE.METHOD [ARG…]
		ops := operandsSkipping(args, "deomt", []string{"--dest", "--object-path", "--method", "--timeout", "--address"})
		if len(ops) == 0 || ops[0] != "call" {
			return "", "", nil, false
		}
		for i, a := range args {
			opt, val, eq := strings.Cut(a, "=")
			if !eq && i+1 < len(args) {
				val = args[i+1]
			}
			switch {
			case opt == "-m" || longFlag(opt, "--method"):
				method = val
			case opt == "-o" || longFlag(opt, "--object-path"):
				object = val
			case strings.HasPrefix(a, "-m") && len(a) > 2 && !eq:
				method = a[2:]
			}
		}
		return method, object, ops[1:], method != ""
	case "dbus-send":
		// dbus-send [--opt=V…] OBJECT INTERFACE.MEMBER [CONTENTS…]
		ops := operandsSkipping(args, "", nil)
		if len(ops) < 2 {
			return "", "", nil, false
		}
		return ops[1], ops[0], ops[2:], true
	default:
		// qdbus [--address A] SERVICE PATH METHOD [ARG…]
		ops := operandsSkipping(args, "", []string{"--address"})
		if len(ops) < 3 {
			return "", "", nil, false
		}
		return ops[2], ops[1], ops[3:], true
	}
}

// dbusUnescape turns a systemd object path's unit name back into the
// unit's: poweroff_2etarget is poweroff.target.
var dbusUnescape = strings.NewReplacer("_2e", ".", "_2d", "-", "_5f", "_", "_40", "@")

// dbusPowerDeny returns why a D-Bus client's call changes the machine's
// power state, or "".
func dbusPowerDeny(name string, args []string) string {
	method, object, rest, ok := dbusCallParts(name, args)
	if !ok {
		return ""
	}
	m := strings.ToLower(method[strings.LastIndexByte(method, '.')+1:])
	all := strings.ToLower(strings.Join(args, " "))
	for _, p := range dbusPowerMethods {
		svc := p.svc
		if !p.methods[m] || !strings.Contains(all, svc) {
			continue
		}
		if m == "scheduleshutdown" && strings.Contains(all, "dry-") {
			continue // dry-poweroff, dry-reboot: only announced
		}
		if svc == "login1" || svc == "systemd1" {
			svc = "systemd" // logind is systemd's too
		}
		return name + ": asks " + svc + " to " + m
	}
	if strings.Contains(all, "ksmserver") && m == "logout" {
		// logout(confirm, type, mode): type 1 reboots, 2 halts.
		for i, r := range rest {
			if i > 0 && (r == "1" || r == "2" || r == "int32:1" || r == "int32:2") {
				return name + ": asks ksmserver to log out and shut down or reboot"
			}
		}
	}
	if !strings.Contains(all, "systemd1") {
		return ""
	}
	if m == "killunit" && strings.Contains(all, "init.scope") {
		// KillUnit of init.scope signals PID 1, like systemctl kill init.scope.
		return name + ": asks systemd to signal init.scope"
	}
	start, stop := dbusStartMethods[m], dbusStopMethods[m]
	if !start && !stop {
		return ""
	}
	units := append([]string{dbusUnescape.Replace(object[strings.LastIndexByte(object, '/')+1:])}, rest...)
	for _, u := range units {
		u = strings.ToLower(strings.TrimPrefix(strings.Trim(u, `"'`), "string:"))
		if start && (denyTargets[u] || denyUnits[u]) {
			return name + ": asks systemd to start " + u
		}
		if stop && everyUnit[u] {
			return name + ": asks systemd to stop " + u + ", every service with it"
		}
	}
	return ""
}
