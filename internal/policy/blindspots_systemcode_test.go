package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlindSpotSystemCode: administrative commands that make the system's
// services run code their configuration names — an interface's PostUp, an
// if-up.d script, a grub.d script, a udev rule's RUN, a unit generator, a
// renewal hook, a package's postinst, a Proxmox hookscript — meet the
// deny list with such a file written since warden started. The files are
// the system's own, so only root writes them: each is uniquely named,
// cannot act if something else on the host ran it during the test (not
// executable, matching no device, inside a block never defined, a key
// that does not exist), and is removed after, with the directories made
// for it.
func TestBlindSpotSystemCode(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("writes the system's configuration directories: needs root")
	}
	dir, _ := lastingDir(t, "syscode-")
	p, err := New(Rules{Path: "/usr/bin:/bin:/usr/sbin:/sbin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	n := "wz" + strings.TrimPrefix(filepath.Base(dir), "syscode-") // unique
	for _, tc := range []struct {
		file, text string
		cmds       []string
	}{
		{"/etc/wireguard/" + n + ".conf", "[Interface]\nPostUp = systemctl reboot\n", []string{"wg-quick up " + n, "wg-quick down /etc/wireguard/" + n + ".conf"}},
		{"/etc/network/if-up.d/" + n, "#!/bin/sh\nhalt\n", []string{"ifup eth0", "ifup -a", "ifreload -a"}},
		{"/etc/network/interfaces.d/" + n, "iface " + n + " inet manual\n  post-up poweroff\n", []string{"ifup " + n}},
		{"/etc/NetworkManager/dispatcher.d/" + n, "#!/bin/sh\nreboot\n", []string{"nmcli con up home"}},
		{"/etc/grub.d/99_" + n, "#!/bin/sh\npoweroff\n", []string{"update-grub", "grub-mkconfig -o /boot/grub/grub.cfg"}},
		{"/etc/default/grub.d/" + n + ".cfg", "GRUB_CMDLINE_LINUX=\"$(reboot)\"\n", []string{"update-grub"}},
		{"/etc/initramfs-tools/hooks/" + n, "#!/bin/sh\nsystemctl poweroff\n", []string{"update-initramfs -u"}},
		{"/etc/systemd/system-generators/" + n, "#!/bin/sh\nreboot\n", []string{"systemctl daemon-reload", "systemctl daemon-reexec"}},
		{"/etc/udev/rules.d/99-" + n + ".rules", "KERNEL==\"" + n + "\", RUN+=\"/sbin/reboot\"\n", []string{"udevadm trigger", "udevadm control --reload"}},
		{"/etc/letsencrypt/renewal-hooks/deploy/" + n, "#!/bin/sh\nhalt -p\n", []string{"certbot renew"}},
		{"/etc/letsencrypt/renewal/" + n + ".conf", "[renewalparams]\nrenew_hook = systemctl reboot\n", []string{"certbot renew"}},
		{"/etc/apache2/sites-enabled/" + n + ".conf", "<IfDefine " + n + ">\nErrorLog \"|/sbin/reboot\"\n</IfDefine>\n", []string{"apachectl graceful", "apache2ctl restart"}},
		{"/etc/fail2ban/jail.d/" + n + ".local", "[" + n + "]\nenabled = false\nactionban = reboot\n", []string{"fail2ban-client reload"}},
		{"/etc/sysctl.d/99-" + n + ".conf", n + ".never = |/sbin/poweroff\n", []string{"sysctl --system"}},
		{"/var/lib/vz/snippets/" + n + ".sh", "#!/bin/sh\nreboot\n", []string{"qm start 100", "pct start 101"}},
		{"/var/lib/dpkg/info/" + n + ".postinst", "#!/bin/sh\nset -e\nreboot\n", []string{"dpkg-reconfigure " + n, "dpkg-reconfigure -f noninteractive " + n}},
		{"/etc/monit/conf.d/" + n, "check file " + n + " with path /" + n + "\n  if changed checksum then exec \"/sbin/reboot\"\n", []string{"monit reload"}},
		{"/etc/keepalived/" + n + ".conf", "vrrp_instance " + n + " {\n  notify_master \"/sbin/poweroff\"\n}\n", []string{"keepalived -t"}},
		{"/usr/local/opnsense/service/conf/actions.d/actions_" + n + ".conf", "[x]\ncommand:/sbin/reboot\n", []string{"configctl " + n + " x"}},
		{"/etc/hotplug.d/iface/99-" + n, "#!/bin/sh\n[ \"$INTERFACE\" = " + n + " ] && reboot\n", []string{"ifup wan", "wifi up", "reload_config"}},
		{"/etc/zfs/zed.d/" + n + ".sh", "#!/bin/sh\n[ \"$ZEVENT_POOL\" = " + n + " ] && reboot\n", []string{"zpool scrub tank"}},
		{dir + "/vpn/" + n + ".conf", "client\nscript-security 2\nup /sbin/reboot\n", []string{"openvpn --config " + dir + "/vpn/" + n + ".conf"}},
	} {
		writeSystemFile(t, tc.file, tc.text)
		newFileDenies(t, p, tc.file, tc.text, truncate(tc.file, 64), tc.cmds)
		os.Remove(tc.file)
	}
	// Services whose configuration is one file of a fixed name: written
	// only where the host has none (a fresh machine), since the test must
	// not replace the host's own.
	for _, tc := range []struct {
		file, text, cmd string
	}{
		{"/etc/mdadm/mdadm.conf", "PROGRAM /sbin/reboot\n", "mdadm --monitor --scan --oneshot"},
		{"/etc/nut/upsmon.conf", "SHUTDOWNCMD \"/sbin/poweroff\"\n", "upsmon -c reload"},
		{"/etc/postfix/master.cf", n + " unix - n n - - pipe\n  flags=F user=nobody argv=/sbin/reboot\n", "postfix reload"},
	} {
		if _, err := os.Lstat(tc.file); err == nil {
			t.Logf("%s exists: not replaced", tc.file)
			continue
		}
		writeSystemFile(t, tc.file, tc.text)
		newFileDenies(t, p, tc.file, tc.text, tc.file, []string{tc.cmd})
		os.Remove(tc.file)
	}
	// What runs nothing is not held against the command, nor a file the
	// command does not read.
	writeSystemFile(t, "/etc/grub.d/98_"+n, "#!/bin/sh\necho 'menuentry \"x\" { linux /vmlinuz }'\n")
	writeSystemFile(t, "/etc/network/if-up.d/"+n, "#!/bin/sh\nlogger up\n")
	for _, c := range []string{"update-grub", "ifup eth0", "systemctl --user daemon-reload", "wg-quick up " + n + "x"} {
		if v := p.Evaluate(Input{Command: c}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: what it runs is harmless", c, formatVerdict(v))
		}
	}
}

// writeSystemFile writes text to the system's file f, not executable,
// and removes it and the directories made for it when the test ends.
func writeSystemFile(t *testing.T, f, text string) {
	t.Helper()
	var made []string
	for d := filepath.Dir(f); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		made = append(made, d)
	}
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.Remove(f)
		for _, d := range made {
			os.Remove(d)
		}
	})
}
