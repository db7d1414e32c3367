package policy

import "strings"

// vboxProgram classifies VirtualBox's VBoxManage: its listings (list
// vms, list runningvms, list hdds …) and a machine's or medium's
// description (showvminfo VM [--details|--machinereadable|--log N],
// showmediuminfo) only read the VirtualBox settings; every other
// subcommand can stop, delete or reconfigure a machine, as the program
// as a whole was before.
func vboxProgram(c *call) (Tier, string) {
	deny := func() (Tier, string) { return TierDestructive, c.name + ": destructive or raw" }
	var ops []string
	opts := map[string]string{} // option → its value, after the subcommand
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known || strings.HasPrefix(a.val, "@") {
			return deny()
		}
		v := a.val
		switch {
		case len(ops) == 0 && (v == "-q" || v == "--nologo"):
		case len(ops) == 0 && (v == "--version" || v == "-v" || v == "-V" || v == "--help" || v == "-h" || v == "help"):
			return TierRead, c.name + " " + v + ": prints its version or usage"
		case strings.HasPrefix(v, "-"):
			if len(ops) == 0 {
				return deny()
			}
			name, val, eq := strings.Cut(v, "=")
			if name == "--log" && !eq && i+1 < len(c.args) {
				i++
				val = c.args[i].val
			}
			opts[name] = val
		default:
			ops = append(ops, strings.ToLower(v))
		}
	}
	if len(ops) == 0 {
		return deny()
	}
	switch ops[0] {
	case "list":
		for n := range opts {
			switch n {
			case "-l", "--long", "-s", "--sorted", "-o", "--optimization":
			default:
				return deny()
			}
		}
		return TierRead, c.name + " list: lists VirtualBox's settings"
	case "showvminfo", "showmediuminfo", "showhdinfo":
		for n := range opts {
			switch n {
			case "--details", "--machinereadable", "--log":
			default:
				return deny()
			}
		}
		if len(ops) == 2 {
			return TierRead, c.name + " " + ops[0] + ": describes a machine or medium"
		}
	}
	return deny()
}
