package policy

import "testing"

// exactReads is exactCase for plain reads named by their command.
func exactReads(cmds ...string) []exactCase {
	cases := make([]exactCase, len(cmds))
	for i, c := range cmds {
		cases[i] = exactCase{c, c, TierRead}
	}
	return cases
}

// TestOverBlockGitConfigValues: git config's option values (-f FILE,
// --file F, --blob B, -t TYPE, --default V, --comment C, abbreviated
// --fil F) are not its operands, so reading a key from a named file is a
// read; a name and value, a writing action in any spelling (-e inside a
// cluster: -ze, -le) and a risky key keep it a write.
func TestOverBlockGitConfigValues(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, exactReads(
		"git config -f .gitmodules --get-regexp path",
		"git config -f /etc/gitconfig core.editor",
		"git config --file ~/.gitconfig user.email",
		"git config --file /srv/repo/.git/config remote.origin.url",
		"git config --fil .gitmodules submodule.x.url",
		"git config -zf .gitmodules --get-regexp path",
		"git config -t bool core.bare",
		"git config --type bool core.bare",
		"git config --blob HEAD:.gitmodules --get-regexp url",
		"git config --default main init.defaultBranch",
		"git config --get-color color.diff.new blue",
		"git config --get-urlmatch http.proxy https://example.com",
		"git config -f .gitmodules -l",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"git config -ze",
		"git config -le",
		"git config -lze",
		"git config --global -e",
		"git config -f /tmp/x -e",
		"git config -f .gitmodules --ed",
		"git config -f F a.b c",
		"git config -f F -- a.b c",
		"git config --file=F a.b c",
		"git config -fF a.b c",
		"git config -t bool a.b true",
		"git config --type=bool a.b true",
		"git config --default x a.b c",
		"git config --comment x a.b c",
		"git config --comment --get a.b c",
		"git config -f .gitmodules --unset submodule.x.url",
		"git config -f .gitmodules --uns submodule.x.url",
		"git config -f .gitmodules --add a.b c",
		"git config -f .gitmodules --replace-all a.b c",
		"git config -f .gitmodules --rename-section a b",
		"git config -f .gitmodules --remove-section a",
		"git config -f .gitmodules set a.b c",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"git config -f F core.editor vim",
		"git config --fil F core.pager 'sh -c id'",
		"git config -t string core.fsmonitor /tmp/x",
		"git config --comment x alias.st '!sh'",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"git config -f /etc/warden/config.yaml --list",
		"git config --file=/root/.local/state/warden/token --get a.b",
	))
}

// TestOverBlockGitReflog: git reflog's words other than its subcommands
// are show's log options and a ref (-n 10, --date=iso, main), a read;
// expire, delete and drop destroy recovery history wherever they stand.
func TestOverBlockGitReflog(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, exactReads(
		"git reflog -n 10",
		"git reflog show -n 5 main",
		"git reflog --date=iso -n 20",
		"git reflog main",
		"git reflog exists main",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"git reflog expire --all",
		"git reflog -n 5 expire",
		"git reflog delete HEAD@{1}",
		"git reflog drop main",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false, "git reflog --output=/tmp/x", "git reflog -n 1 --output /srv/x"))
}

// TestOverBlockReadTables: everyday reads of programs that were unknown
// or held whole (pv, FreeBSD's sysrc, swapinfo and jls, GSettings and
// dconf, net-snmp's queries, zipinfo) are tier 0 in their read-only forms
// and only there: pv's -o, -U, -P, -R and -d, sysrc's assignments, -x,
// -f, -R and -j, a settings write, snmp's -L, -Y and --DIRECTIVE= keep
// their tier, and the host rules still hold an SNMP agent.
func TestOverBlockReadTables(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, exactReads(
		"pv /var/log/syslog | wc -l",
		"pv -pterb big.log > /dev/null",
		"pv -L 1m -s 10g disk.img | sha256sum",
		"pv --rate-limit 1m --name img disk.img | wc -c",
		"sudo pv /var/log/syslog | grep -c error",
		"sysrc -a",
		"sysrc sshd_enable",
		"sysrc -n sshd_enable",
		"sysrc -e -A",
		"sysrc -c sshd_enable=YES",
		"sysrc -s sshd -a",
		"gsettings get org.gnome.desktop.interface gtk-theme",
		"gsettings list-recursively org.gnome.desktop.interface",
		"gsettings --schemadir /usr/share/glib-2.0/schemas list-keys org.gnome.desktop.interface",
		"dconf dump /org/gnome/",
		"dconf read /org/gnome/desktop/interface/gtk-theme",
		"dconf list /org/gnome/",
		"snmpget -v2c -c public 192.168.1.1 sysUpTime.0",
		"snmpwalk -v2c -c public 192.168.1.1 system",
		"snmpwalk -v 2c -c public -On 10.0.0.1 .1.3.6.1.2.1.2.2.1.2",
		"snmpbulkwalk -v2c -c public -Cr25 10.0.0.1 ifTable",
		"snmptable -v2c -c public -Cf , 10.0.0.1 ifTable",
		"snmpwalk -v3 -l authPriv -u admin -a SHA -A secret -x AES -X secret2 10.0.0.1",
		"snmptranslate -Td IF-MIB::ifTable",
		"zipinfo archive.zip",
		"zipinfo -1 archive.zip",
		"swapinfo -h",
		"jls -v",
		"jls --libxo json",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"pv -o /tmp/x file",
		"pv --output=/srv/x file",
		"pv -U /tmp/x file",
		"pv -P /tmp/pid file",
		"pv -R 123 -L 1k",
		"pv -d 1234",
		"pv --remote 123",
		"pv -qo /tmp/x file",
		"sysrc sshd_enable=YES",
		"sysrc sshd_flags+=-4",
		"sysrc -x sshd_enable",
		"sysrc -f /tmp/x -a",
		"sysrc -fa /tmp/x",
		"sysrc -R /mnt -a",
		"sysrc -j web -a",
		"sysrc -v ntpd_enable=NO",
		"gsettings set org.gnome.desktop.interface gtk-theme x",
		"gsettings reset a b",
		"gsettings reset-recursively a",
		"dconf write /org/gnome/x 1",
		"dconf load / < /srv/x",
		"dconf reset -f /",
		"dconf update",
		"dconf compile /srv/x /srv/d",
		"snmpwalk -Lf /tmp/log -v2c -c public 10.0.0.1",
		"snmpwalk -Y 'persistentDir /tmp' -v2c -c public 10.0.0.1",
		"snmpwalk --persistentDir=/tmp -v2c -c public 10.0.0.1",
		"snmpset -v2c -c private 10.0.0.1 sysName.0 s x",
		"zipinfo -Z archive.zip",
		`sysrc "$N"`,
		`pv "$F"`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`snmpwalk -v2c -c public "$H"`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"snmpwalk -v2c -c public 169.254.169.254",
		"pv /etc/warden/config.yaml",
		"zipinfo /root/.local/state/warden/audit.jsonl",
	))
}

// TestOverBlockRouterReads: OpenWrt's sysupgrade -l and -T IMAGE,
// U-Boot's fw_printenv and wpa_cli's reporting commands were tier 3 or
// unknown; each writes a file of its own as it reads (a list or a copy
// of the image under /tmp, a lock, a reply socket under /tmp), so they
// are tier 1, while flashing, backing up to or restoring from a file,
// fw_printenv's -l and -s, wpa_cli's changes, its command prompt and its
// action script keep their tier.
func TestOverBlockRouterReads(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"sysupgrade -h", "sysupgrade -h", TierRead},
		{"sysupgrade -l", "sysupgrade -l", TierBenign},
		{"sysupgrade --list-backup", "sysupgrade --list-backup", TierBenign},
		{"sysupgrade -c -l", "sysupgrade -c -l", TierBenign},
		{"sysupgrade -T", "sysupgrade -T /tmp/fw.bin", TierBenign},
		{"sysupgrade -T -n", "sysupgrade -T -n /tmp/openwrt-sysupgrade.bin", TierBenign},
		{"sysupgrade --test", "sysupgrade -v --test /tmp/fw.bin", TierBenign},
		{"fw_printenv", "fw_printenv", TierBenign},
		{"fw_printenv NAME", "fw_printenv bootcmd", TierBenign},
		{"fw_printenv -n", "fw_printenv -n bootcmd", TierBenign},
		{"fw_printenv -c", "fw_printenv -c /etc/fw_env.config", TierBenign},
		{"wpa_cli status", "wpa_cli status", TierBenign},
		{"wpa_cli -i status", "wpa_cli -i wlan0 status", TierBenign},
		{"wpa_cli -iwlan0", "wpa_cli -iwlan0 scan_results", TierBenign},
		{"wpa_cli list_networks", "wpa_cli list_networks", TierBenign},
		{"wpa_cli STATUS", "wpa_cli STATUS verbose", TierBenign},
		{"wpa_cli get_network", "wpa_cli -i wlan0 get_network 0 ssid", TierBenign},
		{"wpa_cli -p", "wpa_cli -p /var/run/wpa_supplicant -i wlan0 signal_poll", TierBenign},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"sysupgrade",
		"sysupgrade /tmp/fw.bin",
		"sysupgrade -n /tmp/fw.bin",
		"sysupgrade -F /tmp/fw.bin",
		"sysupgrade -b /tmp/backup.tgz",
		"sysupgrade --create-backup /tmp/backup.tgz",
		"sysupgrade -r /tmp/backup.tgz",
		"sysupgrade -b /tmp/b.tgz -l",
		"sysupgrade -T -b /tmp/b.tgz",
		"sysupgrade -T -r /tmp/b.tgz",
		"sysupgrade -T -f /tmp/c.tgz /tmp/fw.bin",
		"sysupgrade -T http://192.168.1.5/fw.bin",
		`sysupgrade -T "$IMG"`,
		`sysupgrade "$X" -l`,
		"sysupgrade -Tl",
		"fw_setenv bootcmd x",
		"wpa_cli -a /tmp/x.sh",
		"wpa_cli -a /tmp/x.sh status",
		"wpa_cli -Ba /tmp/x.sh",
		"wpa_cli -i wlan0 -a/tmp/x.sh status",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"fw_printenv -l /srv/lock",
		"fw_printenv -s /tmp/script",
		"wpa_cli",
		"wpa_cli set_network 0 ssid '\"x\"'",
		"wpa_cli terminate",
		"wpa_cli save_config",
		"wpa_cli stat",
		"wpa_cli -P /tmp/pid status",
		`wpa_cli "$C"`,
	))
}

// TestOverBlockRouterOSPrint: on an ssh host that is a MikroTik router,
// print of a menu (/ip address print, /system resource print, v7's
// /ip/firewall/filter/print) reads; a word that is not a known menu
// before print (/file remove print, /tool fetch print), print's file=
// in any abbreviation, a command substitution, a variable or a word that
// is not print's keeps the tier-2 reading of a program under /.
func TestOverBlockRouterOSPrint(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, exactReads(
		"/ip address print",
		"/system resource print",
		"/interface print",
		"/log print",
		"/ip route print detail",
		"/ip firewall filter print stats",
		"/interface ethernet print",
		"/system routerboard print",
		"/ip dhcp-server lease print",
		"/system identity print",
		"/interface print stats without-paging",
		"/ip/address/print",
		"/ip/firewall/filter/print detail",
		"/ip address print where interface=ether1",
		"/ip address print where disabled",
		`/log print where topics~"error"`,
		"/ip address print proplist=address,interface",
		"/tool netwatch print",
		"/file print",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"/ip address print file=x",
		"/ip address print fil=x",
		"/ip address print f=x",
		"/ip address print FILE=x",
		"/ip/address/print/file=x",
		"/ip address print where [/system reboot]",
		"/ip address print where address=$x",
		"/ip address print x",
		"/file remove print",
		"/ip address remove print",
		"/tool fetch print",
		"/tool ping print",
		"/ip addr print",
		"//ip address print",
		"/ip address print '$(x)'",
		`/ip address print "]"`,
		"/export",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"/system reset-configuration print",
		`/ip address print "$X"`,
	))
}

// TestOverBlockTrustedKubeconfig: a kubeconfig k3s, RKE2 or kubeadm
// keeps under /etc, or one in the operator's ~/.kube, is as trusted as
// the default one a plain kubectl get reads, on the command line or in
// KUBECONFIG; one anywhere else (a temporary directory a tier 1 call
// writes, the working directory, another user's home, ../ out of /etc,
// a glob, a computed word, one entry of a list) can name a credential
// program that runs, and stays tier 3.
func TestOverBlockTrustedKubeconfig(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, exactReads(
		"kubectl --kubeconfig /etc/rancher/k3s/k3s.yaml get pods",
		"kubectl --kubeconfig=/etc/rancher/k3s/k3s.yaml get nodes",
		"kubectl --kubeconfig /etc/kubernetes/admin.conf get nodes -o wide",
		"kubectl -n kube-system --kubeconfig /etc/rancher/rke2/rke2.yaml logs deploy/coredns --tail=50",
		"KUBECONFIG=/etc/rancher/k3s/k3s.yaml kubectl get pods -A",
		"KUBECONFIG=/etc/rancher/k3s/k3s.yaml:~/.kube/config kubectl get pods -A",
		"export KUBECONFIG=/etc/rancher/k3s/k3s.yaml; kubectl get pods",
		"kubectl --kubeconfig ~/.kube/prod.yaml get pods",
		"helm --kubeconfig /etc/rancher/k3s/k3s.yaml list -A",
		"sudo kubectl --kubeconfig /etc/rancher/k3s/k3s.yaml get pods",
	))
	runExact(t, p, []exactCase{{"local home .kube", "kubectl --kubeconfig /root/.kube/prod.yaml get pods", TierRead}})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"kubectl --kubeconfig /tmp/kc get pods",
		"kubectl --kubeconfig=/dev/shm/kc get pods",
		"kubectl --kubeconfig /etc/../tmp/kc get pods",
		"kubectl --kubeconfig ~/../../tmp/kc get pods",
		"kubectl --kubeconfig ~/.kube/../../../tmp/kc get pods",
		"kubectl --kubeconfig kc.yaml get pods",
		"kubectl --kubeconfig etc/kc.yaml get pods",
		`kubectl --kubeconfig "$K" get pods`,
		"kubectl --kubeconfig /etc/* get pods",
		"kubectl --kubeconfig /home/bob/.kube/config get pods",
		"kubectl --kubeconfig /etc/k3s.yaml --kubeconfig /tmp/kc get pods",
		"helm --kubeconfig /tmp/kc list",
		"KUBECONFIG=/tmp/kc kubectl get pods",
		"KUBECONFIG=/etc/k3s.yaml:/tmp/kc kubectl get pods",
		"KUBECONFIG=$K kubectl get pods",
		"KUBECONFIG= kubectl get pods",
		"export KUBECONFIG=/tmp/x; kubectl get pods",
		"kubectl --kubeconfig /etc/rancher/k3s/k3s.yaml delete pod x",
	))
	if got := p.Evaluate(Input{Command: "kubectl --kubeconfig /root/.kube/prod.yaml get pods", Host: "db1"}); got.Tier != TierDestructive {
		t.Errorf("remote /root/.kube = %s (%s); want tier 3: the remote user's home is not known", got.Tier, got.Reason)
	}
	runBlindHosts(t, p, sameCases(TierDestructive, true, "kubectl --kubeconfig /etc/warden/config.yaml get pods"))
}

// TestOverBlockSSHPrintsConfig: ssh -G prints the configuration it would
// use for a destination and -V its version; neither connects, so neither
// is a remote shell or command (tier 1). -F naming the operator's own
// configuration (~/.ssh/config, /etc/ssh/ssh_config), read by every
// plain ssh, is not a foreign file that can run commands. A -G in the
// remote command, a -F anywhere else, options that run programs or write
// a log keep their tier; the host rules still hold the destination.
func TestOverBlockSSHPrintsConfig(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, exactReads(
		"ssh -G host",
		"ssh -G myhost | grep -i '^hostname'",
		"ssh -V",
		"ssh host -G",
		"ssh -4G host",
		"ssh -l admin -G host",
		"ssh -F ~/.ssh/config -G host",
		"ssh -F /etc/ssh/ssh_config -G host",
		"ssh -G -F ~/.ssh/config.d/lab myhost",
	))
	runExact(t, p, []exactCase{{"local home .ssh", "ssh -G -F /root/.ssh/config myhost", TierRead}})
	runExactHosts(t, p, []exactCase{
		{"connects", "ssh host", TierBenign},
		{"remote command", "ssh host uptime", TierBenign},
		{"-G in the remote command", "ssh host ls -G", TierBenign},
		{"-G as -o's value", "ssh -oG host", TierBenign},
		{"-G as -l's value", "ssh -lG host", TierBenign},
		{"operator config, connecting", "ssh -F ~/.ssh/config host uptime", TierBenign},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"ssh -F /tmp/cfg -G host",
		"ssh -F ~/.ssh/../../tmp/cfg -G host",
		"ssh -F cfg -G host",
		"ssh -Fcfg -G host",
		"ssh -F /home/bob/.ssh/config -G host",
		"ssh -F /etc/../tmp/cfg host",
		`ssh -F "$C" -G host`,
		"ssh -o 'Match exec \"touch /tmp/p\"' -G host",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"ssh -E /tmp/log -G host",
		"ssh -G -E /srv/x host",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"ssh -o ProxyCommand='sh -c reboot' -G host",
		"ssh -G 169.254.169.254",
	))
	if got := p.Evaluate(Input{Command: "ssh -G -F /root/.ssh/config myhost", Host: "db1"}); got.Tier != TierDestructive {
		t.Errorf("remote /root/.ssh = %s (%s); want tier 3: the remote user's home is not known", got.Tier, got.Reason)
	}
}

// TestOverBlockUbusMessage: a ubus call whose object and method are
// known, with only its message computed at run time ("$J", quoted so it
// stays one word), is that method: a reporting one reads. A message
// known only at run time still stops the watchdog or an init script
// through the methods that read it as a setting, and an object, method,
// unquoted message or a word after it computed at run time keep tier 3.
func TestOverBlockUbusMessage(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, exactReads(
		`ubus call network.interface.wan status "$J"`,
		`ubus call system board "$J"`,
		`ubus call system info "${J}"`,
		`ubus -t 5 call network.interface dump "$J"`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`ubus call system watchdog "$J"`,
		`ubus call rc init "$J"`,
		`ubus call luci setInitAction "$J"`,
		`ubus call file exec "$J"`,
		`ubus call system board $J`,
		`ubus call "$O" board`,
		`ubus call system "$M"`,
		`ubus call system board "$J" x`,
		`ubus call system board "$(sh /tmp/x)"`,
	))
	runBlindHosts(t, p, sameCases(TierMutate, false, `ubus call uci set "$J"`, `ubus call file read "$J"`))
	runBlindHosts(t, p, sameCases(TierDestructive, true, `ubus call system reboot "$J"`, `ubus call system board "$(reboot)"`))
}
