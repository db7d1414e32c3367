package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// daemonClients are the programs whose reads are requests to a daemon
// over a Unix socket named by a path: docker ps asks dockerd, systemctl
// status asks systemd, chronyc tracking asks chronyd. Below tier 2 the
// kernel lets a command make a Unix socket only when it runs one of them
// (Verdict.Daemons), so that a program a read starts without the command
// line showing it — a repository's fsmonitor hook under git status —
// cannot ask dockerd or systemd to do what the rules refuse it. Being
// listed changes no tier: what each asks is classified as before.
var daemonClients = set(`
	docker docker-compose podman podman-compose nerdctl ctr crictl buildah
	lxc incus lxd virsh vboxmanage VBoxManage
	qm pct pvesh pvecm pvesm pvenode pveversion ha-manager proxmox-backup-client
	proxmox-backup-manager midclt smbstatus wbinfo ceph rbd upsc apcaccess
	systemctl journalctl loginctl timedatectl hostnamectl localectl resolvectl
	networkctl busctl coredumpctl systemd-analyze systemd-cgls systemd-cgtop
	homectl userdbctl portablectl oomctl systemd-inhibit service
	nmcli tailscale zerotier-cli wg avahi-browse avahi-resolve chronyc
	unbound-control birdc birdcl vtysh ubus logread ifstatus
	fail2ban-client supervisorctl pm2 monit
	mysqladmin redis-cli valkey-cli consul kubectl
	gpg gpg2 ssh ssh-add mailq postqueue logger
	snap flatpak upower fwupdmgr getent id`)

// daemonClient reports whether a program daemonClients lists, or curl,
// (name; written as written, given args) asks a daemon: when it is found
// through PATH or in a system directory (a copy in a directory a benign
// call may write to is anything), and for curl when it is told which
// socket to use. program asks for the names knownProgram.daemon marks.
func daemonClient(name, written string, args []arg) bool {
	if strings.IndexByte(written, '/') >= 0 && !inSystemBin(written) {
		return false
	}
	if name != "curl" {
		return true
	}
	for _, a := range args {
		if strings.HasPrefix(a.val, "--unix-socket") || strings.HasPrefix(a.val, "--abstract-unix-socket") {
			return true
		}
	}
	return false
}

// inSystemBin reports whether p names a file directly in a directory of
// programs only root can change.
func inSystemBin(p string) bool {
	i := strings.LastIndexByte(p, '/')
	switch p[:i] {
	case "/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/snap/bin":
		return true
	}
	return false
}

// noteDaemonClient marks the input as running a daemon's client when the
// program the lookup found (listed: one of daemonClients) is one.
func (e *eval) noteDaemonClient(listed bool, name, written string, args []arg) {
	if (listed || name == "curl") && daemonClient(name, written, args) {
		e.daemons = true
	}
}

// noteFunction notes a function of the input named like a daemon's
// client: calling docker then runs the body, not the client.
func (e *eval) noteFunction(name *syntax.Lit) {
	if name != nil && (daemonClients[name.Value] || name.Value == "curl") {
		e.daemonShadow = true
	}
}
