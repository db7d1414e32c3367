package policy

import (
	"fmt"
	"slices"
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
	networkctl busctl varlinkctl coredumpctl systemd-analyze systemd-cgls systemd-cgtop
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
	var names []string
	for _, a := range args {
		if !strings.HasPrefix(a.val, "--") {
			continue
		}
		// Any spelling curl takes: --unix, --unix-socket=PATH.
		name, _, _ := strings.Cut(a.val, "=")
		names = curlLongNames(name, names[:0])
		if slices.Contains(names, "--unix-socket") || slices.Contains(names, "--abstract-unix-socket") {
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
	if (listed || name == "curl") && daemonClient(name, written, args) && e.daemon == "" {
		e.daemon = name
	}
}

// codeLoaders are the programs a read may run that start code or
// programs named by the working directory or its repository: git's
// hooks, fsmonitor, pager and diff drivers from .git/config; go's VCS
// stamping (git again) and toolchain lines; rustup's rust-toolchain
// file behind cargo; yarnPath and npm's project config; ansible.cfg's
// plugin paths; an interpreter's module path, which -m and -c start at
// the working directory. The kernel holds their writes, but Unix sockets
// are one permission for the whole command: with a daemon's client in
// the same command, that code could ask the daemon to write for it.
var codeLoaders = func() map[string]bool {
	m := set(`git tig go cargo npm yarn yarnpkg pnpm ansible-config ansible-doc
		ansible-inventory ansible-galaxy ansible-lint`)
	for n := range interpreters {
		m[n] = true
	}
	return m
}()

// noteLoader notes the first program of the input that runs code the
// command does not show: one codeLoaders lists, or (loads) a shell that
// takes the lines typed into it later.
func (e *eval) noteLoader(name string, loads bool) {
	if e.loader == "" && (loads || codeLoaders[name]) {
		e.loader = name
	}
}

// daemonsWithLoader raises v to TierMutate when a read would run both a
// daemon's client and a program that runs its project's code: below
// tier 2 the kernel cannot give the socket to one and not the other.
// Run as separate calls, each is a read.
func (e *eval) daemonsWithLoader(v *Verdict) {
	if v.Daemons && e.loader != "" && v.Tier < TierMutate {
		v.Tier = TierMutate
		v.Reason = fmt.Sprintf("%s asks a daemon over a socket, and %s may run code the command does not show "+
			"(a repository's hooks, project config, lines typed later), which could ask the daemon too; "+
			"run them as separate calls", e.daemon, e.loader)
	}
}

// noteFunction notes a function of the input named like a daemon's
// client: calling docker then runs the body, not the client.
func (e *eval) noteFunction(name *syntax.Lit) {
	if name != nil && (daemonClients[name.Value] || name.Value == "curl") {
		e.daemonShadow = true
	}
}
