package policy

import (
	"path"
	"strings"
)

// The system's services run the code their configuration names as root
// when an administrative command asks them to: wg-quick runs an
// interface's PreUp and PostUp lines, ifup the interfaces file's up lines
// and the if-up.d scripts (OpenWrt's hotplug scripts), NetworkManager its
// dispatcher scripts, update-grub the /etc/grub.d scripts and sources
// /etc/default/grub, update-initramfs its hooks, systemctl daemon-reload
// the unit generators, udevadm trigger the rules' RUN programs, certbot
// renew the renewal hooks, apachectl envvars and piped logs, a Proxmox
// guest's start its hookscript, dpkg-reconfigure a package's maintainer
// scripts. Written since warden started (an approved download), such a
// file meets the deny list when the command that runs it does, as the
// user's configuration does (configcode.go): scripts read as scripts,
// configuration scanned as raw text. Only a denial follows.

// systemFiles are the scripts a program runs (read as scripts) and the
// configuration files whose lines name commands (read as raw text); named
// says its operands name more (systemCode). systemCodeFiles has them per
// program.
type systemFiles struct {
	scripts, configs []string
	named            bool
}

var (
	systemCodeFiles = map[string]systemFiles{
		"ifup": ifFiles, "ifdown": ifFiles, "ifreload": ifFiles,
		"nmcli":       {scripts: []string{"/etc/NetworkManager/dispatcher.d/*", "/etc/NetworkManager/dispatcher.d/*/*"}},
		"update-grub": grubFiles, "update-grub2": grubFiles, "grub-mkconfig": grubFiles, "grub2-mkconfig": grubFiles,
		"update-initramfs": initramfsFiles, "mkinitramfs": initramfsFiles,
		"certbot": {scripts: []string{"/etc/letsencrypt/renewal-hooks/*/*"}, configs: []string{"/etc/letsencrypt/renewal/*.conf", "/etc/letsencrypt/cli.ini"}},
		"qm":      proxmoxHooks, "pct": proxmoxHooks,
		"apachectl": apacheFiles, "apache2ctl": apacheFiles, "httpd": apacheFiles, "apache2": apacheFiles,
		"udevadm":         {configs: []string{"/etc/udev/rules.d/*.rules", "/run/udev/rules.d/*.rules", "/lib/udev/rules.d/*.rules", "/usr/lib/udev/rules.d/*.rules"}},
		"fail2ban-client": fail2banFiles, "fail2ban-server": fail2banFiles,
		"sysctl":  {configs: []string{"/etc/sysctl.conf", "/etc/sysctl.d/*.conf", "/run/sysctl.d/*.conf", "/usr/local/lib/sysctl.d/*.conf", "/usr/lib/sysctl.d/*.conf"}},
		"mount":   {configs: []string{"/etc/fstab"}},
		"postfix": {configs: []string{"/etc/postfix/master.cf", "/etc/postfix/main.cf", "/etc/aliases"}}, "newaliases": {configs: []string{"/etc/aliases"}},
		"monit":      {configs: []string{"/etc/monit/monitrc", "/etc/monit/conf.d/*", "/etc/monit/conf-enabled/*", "/etc/monitrc"}},
		"keepalived": {configs: []string{"/etc/keepalived/*.conf"}},
		"configctl":  {configs: []string{"/usr/local/opnsense/service/conf/actions.d/*.conf"}}, // OPNsense's actions
		"wifi":       {scripts: []string{"/etc/hotplug.d/*/*"}}, "reload_config": {scripts: []string{"/etc/hotplug.d/*/*"}},
		// Storage and power: ZFS's event daemon runs its zedlets on a
		// scrub's or resilver's events, mdadm's monitor the PROGRAM of
		// mdadm.conf, NUT's upsmon its NOTIFYCMD and SHUTDOWNCMD.
		"zpool":    {scripts: []string{"/etc/zfs/zed.d/*"}},
		"mdadm":    {configs: []string{"/etc/mdadm/mdadm.conf", "/etc/mdadm.conf"}},
		"upsmon":   {configs: []string{"/etc/nut/upsmon.conf", "/etc/ups/upsmon.conf"}},
		"wg-quick": {named: true}, "openvpn": {named: true}, "dpkg-reconfigure": {named: true},
		"sv": {named: true}, "runsv": {named: true}, "s6-svc": {named: true},
	}

	ifFiles = systemFiles{scripts: []string{"/etc/network/if-pre-up.d/*", "/etc/network/if-up.d/*", "/etc/network/if-down.d/*",
		"/etc/network/if-post-down.d/*", "/etc/hotplug.d/iface/*"}, configs: []string{"/etc/network/interfaces", "/etc/network/interfaces.d/*"}}
	grubFiles      = systemFiles{scripts: []string{"/etc/grub.d/*", "/etc/default/grub", "/etc/default/grub.d/*.cfg"}}
	initramfsFiles = systemFiles{scripts: []string{"/etc/initramfs-tools/hooks/*", "/etc/initramfs-tools/scripts/*/*", "/etc/initramfs-tools/initramfs.conf",
		"/etc/initramfs-tools/conf.d/*", "/usr/share/initramfs-tools/hooks/*"}}
	proxmoxHooks = systemFiles{scripts: []string{"/var/lib/vz/snippets/*"}}
	apacheFiles  = systemFiles{scripts: []string{"/etc/apache2/envvars"}, configs: []string{"/etc/apache2/apache2.conf", "/etc/apache2/sites-enabled/*",
		"/etc/apache2/conf-enabled/*", "/etc/apache2/mods-enabled/*.conf", "/etc/httpd/conf/httpd.conf", "/etc/httpd/conf.d/*.conf"}}
	fail2banFiles = systemFiles{configs: []string{"/etc/fail2ban/jail.local", "/etc/fail2ban/jail.d/*", "/etc/fail2ban/action.d/*.local", "/etc/fail2ban/action.d/*.conf"}}
	generatorDirs = []string{"/etc/systemd/system-generators/*", "/run/systemd/system-generators/*",
		"/usr/local/lib/systemd/system-generators/*", "/lib/systemd/system-generators/*", "/usr/lib/systemd/system-generators/*"}
)

// systemCode meets the deny list with the system's code c's program runs
// (systemCodeFiles), and the files its operands name: a
// WireGuard interface's configuration, the OpenVPN configuration, the
// maintainer scripts of the packages dpkg-reconfigure configures.
func (c *call) systemCode() {
	sf, ok := systemCodeFiles[c.name]
	if !ok || !c.startupCode(sf.scripts, true) || !c.startupCode(sf.configs, false) || !sf.named {
		return
	}
	var named []string
	vals := c.vals()
	switch c.name {
	case "wg-quick":
		// wg-quick up|down|save|strip NAME or FILE: its PreUp, PostUp,
		// PreDown and PostDown lines run through bash.
		if ops := operands(vals); len(ops) == 2 {
			if strings.Contains(ops[1], "/") {
				named = append(named, ops[1])
			} else {
				named = append(named, "/etc/wireguard/"+ops[1]+".conf", "/usr/local/etc/wireguard/"+ops[1]+".conf")
			}
		}
	case "openvpn":
		// --config FILE, or a lone operand: its up, down and other
		// script lines run.
		for i, v := range vals {
			if v == "--config" && i+1 < len(vals) {
				named = append(named, vals[i+1])
			}
		}
		if ops := operands(vals); len(ops) == 1 && len(vals) == 1 {
			named = append(named, ops[0])
		}
	case "sv", "runsv", "s6-svc":
		// runit's and s6's services run their directory's run script:
		// sv up NAME (in runit's service directories) or a directory.
		ops := operands(vals)
		if c.name == "sv" && len(ops) > 0 {
			ops = ops[1:]
		}
		for _, o := range ops {
			if strings.Contains(o, "/") || c.name != "sv" {
				named = append(named, path.Join(o, "run"))
				continue
			}
			for _, d := range []string{"/etc/sv/", "/etc/service/", "/var/service/", "/run/runit/service/"} {
				named = append(named, d+o+"/run")
			}
		}
	case "dpkg-reconfigure":
		for i, v := range vals {
			if strings.HasPrefix(v, "-") || i > 0 && (vals[i-1] == "-f" || vals[i-1] == "-p" || vals[i-1] == "--frontend" || vals[i-1] == "--priority") {
				continue
			}
			if !strings.ContainsAny(v, "/*?[") {
				named = append(named, "/var/lib/dpkg/info/"+v+".config", "/var/lib/dpkg/info/"+v+".postinst")
			}
		}
	}
	if len(named) == 0 {
		return
	}
	var files []string
	for _, f := range named {
		files = append(files, c.atCwds(f)...)
	}
	c.startupCode(files, c.name != "wg-quick" && c.name != "openvpn")
}

// atCwds is the file p names: itself when absolute or in the home (~/),
// else p in each directory the call may run in.
func (c *call) atCwds(p string) []string {
	if path.IsAbs(p) || strings.HasPrefix(p, "~/") {
		return []string{p}
	}
	dirs, _ := c.e.cwds()
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, localPath(d, p))
	}
	return out
}
