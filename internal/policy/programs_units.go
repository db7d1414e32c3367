package policy

import "strings"

// systemd's tools that set what runs later, as root, outside warden's
// confinement: the service manager's environment, and the tmpfiles and
// sysusers configurations, which create files of any mode (setuid
// included), write to any file (/proc/sysrq-trigger) and add users of any
// uid.

// systemctlSetEnv classifies systemctl set-environment NAME=VALUE…: every
// unit started later gets the variables, so one that makes programs load
// or run other code (LD_PRELOAD, PATH) is tier 3.
func systemctlSetEnv(c *call, ops []string) (Tier, string) {
	for _, a := range c.args {
		if !a.known && !strings.HasPrefix(a.val, "-") {
			c.e.opaque = true
			return TierDestructive, "systemctl set-environment: variables computed at run time"
		}
	}
	for _, o := range ops[1:] {
		name, _, _ := strings.Cut(o, "=")
		if t, why := envRisk(name); t == TierDestructive {
			return TierDestructive, "systemctl set-environment " + truncate(name, 32) + ": every unit started later " + why
		}
	}
	return TierMutate, "systemctl set-environment"
}

// dbusActivationEnv classifies dbus-update-activation-environment
// [--systemd] NAME[=VALUE]…: every service the bus starts later (and with
// --systemd every unit) gets the variables, outside warden's confinement,
// as systemctl set-environment gives them.
func dbusActivationEnv(c *call) (Tier, string) {
	r := raiser{TierMutate, c.name + ": sets the environment of services started later"}
	for _, a := range c.args {
		if strings.HasPrefix(a.val, "-") && a.known {
			continue
		}
		if !a.known {
			c.e.opaque = true
			return TierDestructive, c.name + ": variables computed at run time"
		}
		name, _, _ := strings.Cut(a.val, "=")
		if t, why := envRisk(name); t == TierDestructive {
			r.raise(TierDestructive, c.name+" "+truncate(name, 32)+": every service started later "+why)
		}
	}
	return r.t, r.why
}

// sysConfProgram: systemd-tmpfiles and systemd-sysusers given a
// configuration file (or "-", standard input, or --replace=FILE) apply
// lines the classifier cannot read: tier 3. With no file they apply the
// system's own configuration (tier 2); --cat-config and the like only
// show it.
func sysConfProgram(c *call) (Tier, string) {
	valued := map[string]bool{"--root": true, "--image": true, "--prefix": true, "--exclude-prefix": true,
		"--replace": true, "--image-policy": true}
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := a.val
		if !a.known {
			c.e.opaque = true
			return TierDestructive, c.name + ": arguments computed at run time"
		}
		name, _, has := longName(v, sysConfLongOpts)
		switch {
		case name == "--replace":
			c.e.opaque = true
			return TierDestructive, c.name + " --replace: applies a configuration the classifier cannot read"
		case !has && (name == "--cat-config" || name == "--tldr" || name == "--help" || name == "--version") || v == "-h":
			if t, why := imageMount(c); t > TierRead {
				return t, why
			}
			return TierRead, c.name + " " + name
		case strings.HasPrefix(v, "-") && v != "-":
			if valued[name] && !has {
				i++
			}
		default:
			c.e.opaque = true
			return TierDestructive, c.name + " " + truncate(v, 64) + ": applies a configuration the classifier cannot read (files of any mode, users of any uid)"
		}
	}
	return TierMutate, c.name + ": applies the system's configuration"
}

// anacronProgram: anacron runs the jobs of its table, /etc/anacrontab or
// the one -t names, now when they are due (-n: now, -f: forced), as root:
// a table the classifier cannot read is tier 3; the system's own jobs,
// and -u (update the timestamps), tier 2; -T only tests the table.
func anacronProgram(c *call) (Tier, string) {
	if hasFlag(c.vals(), 'T', "") {
		return TierRead, "anacron -T: tests the table"
	}
	for _, f := range c.optVals(c.args, "-t") {
		c.e.opaque = true
		return TierDestructive, "anacron -t " + truncate(f.val, 64) + ": runs the jobs of a table the classifier cannot read"
	}
	return TierMutate, "anacron: runs the system's periodic jobs"
}

// criticalUnits are services whose loss cuts the operator off or stops the host.
// default.target is an alias of multi-user.target or graphical.target, and
// on a host booted to graphical.target stopping that stops what it pulls in
// the same way.
var criticalUnits = set(`default.target graphical.target ssh sshd ssh.service sshd.service ssh.socket networking networking.service
	NetworkManager NetworkManager.service systemd-networkd systemd-networkd.service systemd-resolved
	dbus dbus.service systemd-logind systemd-journald tailscaled tailscaled.service wg-quick
	warden warden.service getty.target multi-user.target network.target network-online.target
	sockets.target basic.target sysinit.target dropbear dropbear.service firewall netifd`)
