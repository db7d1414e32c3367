package policy

import "strings"

// VMware ESXi's esxcli (and localcli), vim-cmd and vmkfstools; see
// programs_appliance.go for the tiers these families share.

// esxcliDangers are the esxcli commands (the last word of the namespace
// path) that delete, power off, kill, unmount or take down.
var esxcliDangers = set(`remove delete kill poweroff reboot unmount destroy leave down unload unclaim detach
	erase format wipe reset unset disable stop`)

// esxcliValued are esxcli's global options that take the next word.
var esxcliValued = set(`--formatter --format-param --server --username --password --config --sessionfile
	--savesessionfile --vihost --protocol --portnumber --url --cacertsfile --thumbprint --credstore -s -u -p -c -h -d`)

// esxcliProgram classifies VMware ESXi's esxcli: esxcli [options]
// namespace… command [command options]. A list or get command reads;
// the commands of esxcliDangers, setting an interface, service or
// firewall disabled, a device's state off, or maintenance mode on are
// TierDestructive; anything else changes the host.
func esxcliProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "esxcli: reports"}
	for _, f := range exactOptVals(c.args, "--savesessionfile") {
		r.raise(c.writeArg(f, "esxcli --savesessionfile"))
	}
	i := 0
	for ; i < len(c.args); i++ {
		a := c.args[i]
		if !a.known {
			return c.computed("namespace")
		}
		if !strings.HasPrefix(a.val, "-") {
			break
		}
		if name, _, eq := strings.Cut(a.val, "="); esxcliValued[name] && !eq {
			i++
		}
	}
	var path []string
	for ; i < len(c.args) && !(c.args[i].known && strings.HasPrefix(c.args[i].val, "-")); i++ {
		if !c.args[i].known {
			return c.computed("namespace")
		}
		path = append(path, strings.ToLower(c.args[i].val))
	}
	rest := c.args[i:]
	if len(path) == 0 {
		return r.t, "esxcli: prints its namespaces"
	}
	cmd := path[len(path)-1]
	label := "esxcli " + truncate(strings.Join(path, " "), 64)
	if esxcliDangers[cmd] {
		return TierDestructive, label + ": deletes, powers off, kills, unmounts or takes down"
	}
	if cmd == "set" {
		ns := " " + strings.Join(path, " ") + " "
		if strings.Contains(ns, " network ip interface ") {
			return TierDestructive, label + ": changes a VMkernel interface, which may carry the management network"
		}
		for _, v := range c.optVals(rest, "--enabled", "--enable", "-e", "--state") {
			switch {
			case !v.known:
				return c.computed("setting")
			case strings.Contains(ns, " maintenancemode ") && !falseValue(v.val):
				return TierDestructive, label + ": enters maintenance mode, which stops or moves the guests"
			case falseValue(v.val):
				return TierDestructive, label + ": disables a service, interface, firewall or device"
			}
		}
	}
	switch cmd {
	case "list", "get", "ping":
		return r.t, label + ": reports"
	}
	return maxTier(r.t, TierMutate), label + ": changes the host"
}

// vimCmdDangers are words whose presence in a vim-cmd command (vmsvc/
// destroy, vmsvc/power.off, hostsvc/maintenance_mode_enter) makes it a
// teardown: a guest destroyed, powered off, reset or reverted, a
// datastore, network or permission removed, the host put in maintenance
// or standby, or its SSH and shell stopped.
var vimCmdDangers = []string{"destroy", "remove", "delete", "unregister", "power.off", "shutdown", "reset", "restore",
	"reboot", "suspend", "hibernate", "revert", "kill", "disable", "stop", "_enter", "unset", "unmount",
	"offline", "poweroff", "standby"}

// vimCmdServices are vim-cmd's services, which alone list their commands.
var vimCmdServices = set(`hostsvc internalsvc proxysvc solo vimsvc vmsvc hbrsvc supportsvc help`)

// vimCmdReads are whole vim-cmd command words that only report.
var vimCmdReads = set(`info hostsummary hosthardware hostconfig runtimeinfo summary help`)

// vimCmdProgram classifies ESXi's vim-cmd, whose command is a path of a
// service and an action (vmsvc/getallvms, hostsvc/datastore/listsummary,
// vmsvc/power.off 12). Actions that get, list or query read.
func vimCmdProgram(c *call) (Tier, string) {
	ops := optionOperands(c.args, "HOUPpt", "")
	if len(ops) == 0 {
		return TierRead, "vim-cmd: lists its services"
	}
	if !ops[0].known {
		return c.computed("command")
	}
	cmd := strings.ToLower(ops[0].val)
	if !strings.Contains(cmd, "/") && len(ops) > 1 {
		// vim-cmd vmsvc power.off 1: taken as the path it would be.
		if !ops[1].known {
			return c.computed("command")
		}
		cmd += "/" + strings.ToLower(ops[1].val)
	}
	label := "vim-cmd " + truncate(cmd, 64)
	for _, d := range vimCmdDangers {
		if strings.Contains(cmd, d) {
			return TierDestructive, label + ": destroys, powers off, reverts or removes"
		}
	}
	if !strings.Contains(cmd, "/") {
		if vimCmdServices[cmd] {
			return TierRead, label + ": lists the service's commands"
		}
		return TierMutate, label + ": changes the host or a guest"
	}
	// The action's first or last part says what it does: get.summary,
	// power.getstate, task_list, query_networkhint.
	parts := strings.FieldsFunc(cmd[strings.LastIndexByte(cmd, '/')+1:], func(r rune) bool { return r == '.' || r == '_' })
	if len(parts) == 0 {
		return TierMutate, label + ": changes the host or a guest"
	}
	for _, a := range []string{parts[0], parts[len(parts)-1]} {
		if vimCmdReads[a] || strings.HasPrefix(a, "get") || strings.HasPrefix(a, "list") || strings.HasPrefix(a, "query") {
			return TierRead, label + ": reports"
		}
	}
	if strings.HasPrefix(cmd, "hostsvc/summary/") {
		return TierRead, label + ": reports"
	}
	return TierMutate, label + ": changes the host or a guest"
}

// vmkfstools classifies ESXi's vmkfstools: querying a file system, an
// RDM or a disk chain reads; deleting a virtual disk, creating a VMFS on
// a partition and zeroing a disk destroy data; other options change
// disks.
func vmkfstoolsProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		if !a.known && c.mayBeOption(a) {
			return c.computed("option")
		}
	}
	vals := c.vals()
	if hasFlag(vals, 'U', "--deletevirtualdisk") || hasFlag(vals, 'C', "--createfs") || hasFlag(vals, 'w', "--writezeros") {
		return TierDestructive, "vmkfstools: deletes or zeroes a virtual disk or formats a partition"
	}
	if _, _, ok := c.readOpts(optSpec{flags: "Pqeh", valueShort: "v",
		longFlags: set(`--queryfs --queryrdm --chainConsistent --humanreadable`),
		longVals:  set(`--verbose`)}); ok && len(vals) > 0 {
		return TierRead, "vmkfstools: reports"
	}
	return TierMutate, "vmkfstools: changes a disk or file system"
}
