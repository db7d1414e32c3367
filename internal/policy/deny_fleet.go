package policy

import (
	"path"
	"strings"
)

// The tools that run one command on many hosts — pdsh, clush, pssh,
// dsh, salt's cmd.run — run it as ssh does, and ssh host reboot is
// denied: so is the same payload through them, and their own power
// functions (salt's system.reboot, ansible's reboot module), since a
// host pattern that names every host names this one and the ones it is
// reached through.

// fleetRunners are the programs fleetDeny reads.
var fleetRunners = set(`pdsh clush pssh parallel-ssh dsh mussh salt salt-ssh`)

// saltPowerFuncs are salt's execution functions that power a minion off
// or restart it.
var saltPowerFuncs = set(`system.reboot system.poweroff system.halt system.shutdown system.reboot_with_flags`)

// ansiblePowerModules are ansible's modules that do the same.
var ansiblePowerModules = set(`reboot shutdown ansible.builtin.reboot community.general.shutdown
	ansible.windows.win_reboot win_reboot`)

// fleetDeny returns why a fleet runner's command is on the deny list, or "".
func fleetDeny(name string, args []string) string {
	for k, a := range args {
		if (name == "salt" || name == "salt-ssh") && saltPowerFuncs[a] {
			return name + " " + a + ": changes the power state of every host it targets"
		}
		// The payload as separate words (pdsh -w h reboot) or one
		// word holding the command line (clush -a 'sudo reboot').
		if why := denyCheck(path.Base(a), args[k+1:]); why != "" && a != name {
			return name + " runs " + why
		}
		if f := strings.Fields(a); len(f) > 1 {
			for f[0] == "sudo" && len(f) > 1 {
				f = f[1:]
			}
			if why := denyCheck(path.Base(f[0]), f[1:]); why != "" {
				return name + " runs " + why
			}
		}
	}
	return ""
}

// ansibleDeny denies ansible's power modules, -m named as argparse takes
// it (-m reboot, -mreboot, --module-name=reboot, --mod reboot).
func ansibleDeny(args []string) string {
	for i, a := range args {
		opt, v, eq := strings.Cut(a, "=")
		switch {
		case a == "-m" || strings.HasPrefix(opt, "--") && len(opt) > 4 && longFlag(opt, "--module-name"):
			if !eq && i+1 < len(args) {
				v = args[i+1]
			}
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			v = a[2:]
		default:
			continue
		}
		if ansiblePowerModules[v] {
			return "ansible -m " + v + ": changes the power state of every host the pattern names"
		}
	}
	return ""
}
