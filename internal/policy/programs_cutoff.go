package policy

import (
	"path"
	"slices"
	"strings"
)

// Commands that take a host's access, service or data away in one step:
// removing the routes or addresses it is reached by, stopping the daemon
// the operator logs in through by any service manager, locking or expiring
// accounts, jumping the clock, taking workloads down to nothing. They are
// TierDestructive like "ip link set down" and "systemctl stop sshd", so open
// mode asks first and an SSH host, which has only the classifier, does not
// run them unasked. Their everyday relatives (a route added, nginx stopped,
// a user added to a group, a deployment scaled to 3) stay TierMutate.

// cutsAccess reports whether stopping the service unit cuts the operator
// off, stops the host or every workload it runs (the container and VM
// runtimes), as systemctl's rules judge it.
func cutsAccess(unit string) bool {
	unit = strings.TrimSuffix(strings.TrimSuffix(unit, ".service"), ".socket")
	return criticalUnits[unit] || runtimeUnits[unit] || unit == "network" || strings.HasPrefix(unit, "getty@") ||
		strings.HasPrefix(unit, "ssh") || strings.Contains(unit, "warden")
}

// runtimeUnits are the container, cluster and VM runtimes: stopping one
// stops every container, pod or guest it runs (pve-guests is Proxmox's
// unit that shuts every guest down).
var runtimeUnits = set(`docker containerd crio podman kubelet k3s k3s-agent rke2-server rke2-agent
	snap.microk8s.daemon-kubelite libvirtd virtqemud pve-guests lxc lxd snap.lxd.daemon incus`)

// serviceStopVerbs stop a service in the SysV, OpenRC, runit and BSD
// service managers (runit's down, exit and kill; OpenRC's zap forgets it
// is running).
var serviceStopVerbs = set(`stop force-stop down exit kill zap disable onestop forcestop`)

// initScript reports whether p runs an init script (/etc/init.d/sshd,
// /etc/rc.d/init.d/sshd, /usr/local/etc/rc.d/sshd), which takes the same
// actions as "service NAME". A relative path named for a service that cuts
// access (./ssh after cd /etc/init.d) is taken for one: the cd may have
// been anywhere.
func initScript(p string) bool {
	if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
		return cutsAccess(path.Base(p))
	}
	dir := path.Dir(path.Clean(p))
	return strings.HasSuffix(dir, "/init.d") || strings.HasSuffix(dir, "/rc.d")
}

// serviceProgram classifies the service managers other than systemctl
// and service: invoke-rc.d NAME ACTION, sv ACTION NAME… (which reads only
// the first letter of most actions: sv d sshd), rcctl ACTION NAME…,
// s6-svc -d DIR, s6-rc -d change NAME, launchctl unload|bootout PLIST.
func serviceProgram(c *call) (Tier, string) {
	vals := c.vals()
	if !allKnown(c.args) {
		c.e.opaque = true
		return TierDestructive, c.name + ": service or action computed at run time"
	}
	if t, why, ok := c.runnerScriptTier(); ok {
		return t, why
	}
	var ops []string
	for i := 0; i < len(vals); i++ {
		if c.name == "sv" && vals[i] == "-w" {
			i++
			continue
		}
		if !strings.HasPrefix(vals[i], "-") {
			ops = append(ops, vals[i])
		}
	}
	verb, units := "", ops
	switch c.name {
	case "invoke-rc.d":
		if len(ops) >= 2 {
			verb, units = ops[1], ops[:1]
		}
	case "s6-svc", "s6-rc":
		for _, v := range vals {
			if shortFlag(v, 'd') || shortFlag(v, 'D') || c.name == "s6-svc" && (shortFlag(v, 'x') || shortFlag(v, 'X')) {
				verb = "down"
			}
		}
	case "launchctl":
		if len(ops) >= 2 {
			switch ops[0] {
			case "unload", "bootout", "disable", "stop", "remove", "kill":
				for _, u := range ops[1:] {
					if strings.Contains(strings.ToLower(u), "ssh") {
						return TierDestructive, "launchctl " + ops[0] + " " + u + ": can cut off access"
					}
				}
			}
		}
		return TierMutate, "launchctl: controls a service"
	default:
		if len(ops) >= 2 {
			verb, units = ops[0], ops[1:]
		}
	}
	if c.name == "sv" && verb != "" && (verb[0] == 'd' || verb[0] == 'x') {
		verb = "down"
	}
	if serviceStopVerbs[verb] {
		for _, u := range units {
			if cutsAccess(path.Base(u)) {
				return TierDestructive, c.name + " " + verb + " " + u + ": can cut off access or stop the host"
			}
		}
	}
	if verb == "status" || verb == "check" || c.name == "sv" && verb == "s" {
		return TierRead, c.name + " " + verb
	}
	return TierMutate, c.name + ": controls a service"
}

// ipCutsOff returns why an ip(8) command removes what the host is reached
// by — every route or the default route, every address of an interface,
// the policy rules routing depends on, an interface, the IPsec states and
// policies — or "". Objects and verbs are matched as ip abbreviates them
// (ip r f, ip a fl, ip l d).
func ipCutsOff(vals []string) string {
	obj, verb := ipVerb(vals)
	if obj == "" || verb == "" {
		return ""
	}
	flush := strings.HasPrefix("flush", verb)
	del := strings.HasPrefix("delete", verb)
	switch {
	case strings.HasPrefix("route", obj) && flush:
		if slicesHas(vals, "cache") {
			return ""
		}
		return "ip route flush: removes the routes the host is reached by"
	case strings.HasPrefix("route", obj) && (del || strings.HasPrefix("add", verb) || strings.HasPrefix("replace", verb) || strings.HasPrefix("change", verb)):
		// Deleting the default route, or making it a blackhole.
		blackhole := false
		for _, v := range vals {
			switch v {
			case "blackhole", "prohibit", "unreachable", "throw":
				blackhole = true
			}
		}
		// Replacing or changing it points every connection the host
		// did not make itself at a gateway that may not route.
		moved := strings.HasPrefix("replace", verb) || strings.HasPrefix("change", verb)
		for _, v := range vals {
			if defaultRoute(v) && (del || blackhole || moved) {
				return "ip route " + verb + " default: removes, redirects or drops the default route"
			}
		}
	case len(obj) >= 2 && strings.HasPrefix("rule", obj) && del:
		// The rules that look up the local and main tables carry every
		// packet; deleting them breaks routing.
		for i, v := range vals {
			if i > 0 && (vals[i-1] == "pref" || vals[i-1] == "priority" || vals[i-1] == "preference" || vals[i-1] == "order") && (v == "0" || v == "32766") ||
				i > 0 && (vals[i-1] == "table" || vals[i-1] == "lookup") && (v == "main" || v == "local" || v == "254" || v == "255") {
				return "ip rule del: removes the rule routing looks the main or local table up by"
			}
		}
	case strings.HasPrefix("address", obj) && flush:
		return "ip address flush: removes every address of the interface"
	case len(obj) >= 2 && strings.HasPrefix("rule", obj) && flush:
		return "ip rule flush: removes the rules routing looks up"
	case strings.HasPrefix("link", obj) && del:
		return "ip link delete: removes an interface"
	case strings.HasPrefix("link", obj) && strings.HasPrefix("set", verb) && slicesHas(vals, "netns"):
		return "ip link set netns: moves the interface out of the host's namespace"
	case strings.HasPrefix("xfrm", obj) && flush:
		return "ip xfrm flush: removes every IPsec state or policy"
	}
	return ""
}

// defaultRoute reports whether v names the default route.
func defaultRoute(v string) bool {
	switch v {
	case "default", "0.0.0.0/0", "0/0", "::/0", "0.0.0.0", "all":
		return true
	}
	return false
}

func slicesHas(vals []string, w string) bool {
	for _, v := range vals {
		if v == w {
			return true
		}
	}
	return false
}

// ifdownProgram classifies ifdown, which takes interfaces down like
// "ip link set down" unless it only shows what it would do.
func ifdownProgram(c *call) (Tier, string) {
	if hasFlag(c.vals(), 'n', "--no-act") {
		return TierMutate, "ifdown --no-act"
	}
	return TierDestructive, "ifdown: takes an interface down"
}

// swapoffProgram: swapoff -a moves every swapped page back into memory at
// once, which on a loaded host ends in the OOM killer.
func swapoffProgram(c *call) (Tier, string) {
	if hasFlag(c.vals(), 'a', "--all") {
		return TierDestructive, "swapoff -a: turns off all swap, which can start the OOM killer"
	}
	return TierMutate, "swapoff: turns off swap"
}

// accountProgram classifies usermod, gpasswd, groupdel and delgroup: what
// locks, expires or deletes an account or a group, or takes a user out of
// the group that grants administration, can lock the operator out.
func accountProgram(c *call) (Tier, string) {
	vals := c.vals()
	if !allKnown(c.args) {
		c.e.opaque = true
		return TierDestructive, c.name + ": arguments computed at run time"
	}
	if why := c.grantsRoot(); why != "" {
		return TierDestructive, why
	}
	switch c.name {
	case "groupdel", "delgroup":
		return TierDestructive, c.name + ": deletes a group"
	case "chpasswd":
		// Its input is USER:PASSWORD lines; root's changed, or a locked
		// hash set with -e, locks the operator out.
		switch c.ctx.stdin.kind {
		case stdinUnknown:
			return TierDestructive, "chpasswd: sets passwords from input the classifier cannot see, root's among them perhaps"
		case stdinText:
			for _, line := range strings.Split(c.ctx.stdin.text, "\n") {
				user, pw, _ := strings.Cut(strings.TrimSpace(line), ":")
				if user == "root" || strings.HasPrefix(pw, "!") || strings.HasPrefix(pw, "*") {
					return TierDestructive, "chpasswd: changes root's password or locks an account"
				}
			}
		}
		return TierMutate, "chpasswd: changes passwords"
	case "chsh":
		for _, v := range c.optVals(c.args, "-s", "--shell") {
			if noLoginShell(v.val) {
				return TierDestructive, "chsh -s " + truncate(v.val, 32) + ": stops the user logging in"
			}
		}
		return TierMutate, "chsh: changes a login shell"
	case "useradd", "adduser", "addgroup", "groupadd", "groupmod":
		return TierMutate, c.name + ": changes accounts"
	case "pw":
		// FreeBSD's pw: userdel, groupdel and lock as their Linux kin.
		ops := operands(vals)
		if len(ops) > 0 && (ops[0] == "userdel" || ops[0] == "groupdel" || ops[0] == "lock") {
			return TierDestructive, "pw " + ops[0] + ": deletes or locks an account"
		}
		return TierMutate, "pw: changes accounts"
	case "gpasswd":
		// -d USER GROUP takes USER out of GROUP; -M sets its member list.
		ops := operands(vals)
		if (hasFlag(vals, 'd', "--delete") || hasFlag(vals, 'M', "--members")) && len(ops) > 0 && adminGroups[ops[len(ops)-1]] {
			return TierDestructive, "gpasswd: takes users out of " + ops[len(ops)-1]
		}
		return TierMutate, "gpasswd: changes a group"
	}
	// usermod
	if hasFlag(vals, 'r', "--remove") {
		for _, g := range c.optVals(c.args, "-G", "--groups") {
			for _, n := range strings.Split(g.val, ",") {
				if adminGroups[n] {
					return TierDestructive, "usermod -r -G " + n + ": takes the user out of " + n
				}
			}
		}
	}
	appends := hasFlag(vals, 'a', "--append") || hasFlag(vals, 'r', "--remove")
	for _, g := range c.optVals(c.args, "-G", "--groups") {
		if g.val == "" {
			return TierDestructive, "usermod -G '': takes the user out of every group"
		}
		if admin := slices.ContainsFunc(strings.Split(g.val, ","), func(n string) bool { return adminGroups[n] }); !appends && !admin {
			// Without -a the list replaces the user's groups: sudo or
			// wheel, not named, is gone.
			return TierDestructive, "usermod -G " + truncate(g.val, 32) + " without -a: takes the user out of every group not listed, sudo and wheel among them"
		}
	}
	if hasFlag(vals, 'L', "--lock") {
		return TierDestructive, "usermod -L: locks the account"
	}
	for _, v := range c.optVals(c.args, "-e", "--expiredate") {
		if v.val != "" && v.val != "-1" {
			return TierDestructive, "usermod -e " + truncate(v.val, 16) + ": expires the account"
		}
	}
	for _, v := range c.optVals(c.args, "-s", "--shell") {
		if noLoginShell(v.val) {
			return TierDestructive, "usermod -s " + truncate(v.val, 32) + ": stops the user logging in"
		}
	}
	for _, v := range c.optVals(c.args, "-p", "--password") {
		if strings.HasPrefix(v.val, "!") || strings.HasPrefix(v.val, "*") {
			return TierDestructive, "usermod -p: locks the password"
		}
		if v.val == "" {
			return TierDestructive, "usermod -p '': removes the password, so anyone may log in as the user where PAM takes an empty one"
		}
		if ops := operands(vals); len(ops) > 0 && ops[len(ops)-1] == "root" {
			return TierDestructive, "usermod -p: changes root's password, as passwd root does"
		}
	}
	return TierMutate, "usermod: changes an account"
}

// adminGroups grant administration: losing membership can lock the
// operator out of root.
var adminGroups = set(`sudo wheel admin adm root`)

// noLoginShell reports whether a login shell refuses logins.
func noLoginShell(s string) bool {
	b := path.Base(s)
	return b == "nologin" || b == "false" || b == "true" || s == "" || s == "/dev/null"
}

// chageExpires reports whether chage's arguments expire the account (-E
// with a date other than -1) or make its password expire now (-M 0, -d 0
// forces a change at the next login, which stays TierMutate).
func chageExpires(c *call) string {
	for _, v := range c.optVals(c.args, "-E", "--expiredate") {
		if v.val != "-1" {
			return "chage -E " + truncate(v.val, 16) + ": expires the account"
		}
	}
	return ""
}

// clockJumps reports whether timedatectl's or hwclock's arguments set the
// system clock to a given time rather than syncing it: TLS, Kerberos, cron
// and the audit log's order all break when the clock jumps.
func clockJumps(name string, vals []string) string {
	switch name {
	case "timedatectl":
		if ops := subOperands(name, vals); len(ops) > 0 && ops[0] == "set-time" {
			return "timedatectl set-time: jumps the system clock"
		}
	case "hwclock":
		if hasFlag(vals, 's', "--hctosys") {
			return "hwclock --hctosys: sets the system clock from the hardware clock"
		}
		if hasFlag(vals, 0, "--set") || hasFlag(vals, 0, "--date") && !hasFlag(vals, 'r', "--show") && !hasFlag(vals, 0, "--get") {
			return "hwclock --set: sets the hardware clock to a given time"
		}
	}
	return ""
}

// cutoffSubProgram refines the subcommand programs whose tables cannot
// see a value: kubectl scale to zero replicas, apply --prune (deletes what
// the files do not name), a NoExecute taint (evicts every pod);
// docker/podman rm with -f or -v in a cluster (-fv); crictl rm -f;
// nmcli radio … off; timedatectl set-time; wg set that can cut a
// tunnel off.
func cutoffSubProgram(c *call) (Tier, string) {
	t, why := subcommandProgram(c)
	if c.name != "kubectl" && c.name != "nmcli" && c.name != "timedatectl" && c.name != "crictl" {
		if ct, cwhy := c.composeRuns(); ct > t {
			t, why = ct, cwhy
		}
	}
	// What reads (docker ps, kubectl get) has nothing below to refine;
	// nmcli's table reads "radio" whatever follows.
	if t == TierDestructive || t == TierRead && c.name != "nmcli" {
		return t, why
	}
	vals := c.vals()
	ops := subOperands(c.name, vals)
	first := ""
	if len(ops) > 0 {
		first = ops[0]
	}
	switch c.name {
	case "kubectl":
		if why := kubeHostControl(c, ops); why != "" {
			c.e.opaque = true
			return TierDestructive, why
		}
		switch first {
		case "scale":
			for _, r := range c.optVals(c.args, "--replicas") {
				if !r.known || strings.TrimLeft(r.val, "0") == "" {
					return TierDestructive, "kubectl scale --replicas=" + truncate(r.val, 16) + ": stops every pod of the workload"
				}
			}
		case "apply":
			if hasFlag(vals, 0, "--prune") {
				return TierDestructive, "kubectl apply --prune: deletes the objects the files do not name"
			}
		case "taint":
			for _, o := range ops[1:] {
				if strings.HasSuffix(o, ":NoExecute") {
					return TierDestructive, "kubectl taint " + truncate(o, 64) + ": evicts every pod that does not tolerate it"
				}
			}
		}
	case "docker", "podman", "nerdctl", "crictl":
		verb := first
		if (first == "container" || first == "image") && len(ops) > 1 {
			verb = ops[1]
		}
		switch verb {
		case "stop", "kill", "pause":
			// docker stop $(docker ps -q), docker ps -q | xargs docker
			// kill, podman stop -a: every workload down at once, as
			// kubectl scale --replicas=0 or virsh shutdown --all.
			if hasFlag(vals, 'a', "--all") || !allKnown(c.args) {
				c.e.opaque = c.e.opaque || !allKnown(c.args)
				return TierDestructive, c.name + " " + verb + ": containers computed at run time or --all can be every container the host runs"
			}
		case "rm", "rmi", "rmp", "remove":
			if a, ok := c.computedOption(c.args); ok {
				c.e.opaque = true
				return TierDestructive, c.name + " " + verb + " " + truncate(a.val, 32) + ": an option computed at run time can be -f"
			}
			if hasFlag(vals, 'f', "--force") || hasFlag(vals, 'v', "--volumes") || hasFlag(vals, 'a', "--all") || hasFlag(vals, 0, "--prune") {
				return TierDestructive, c.name + " " + verb + " -f: removes running containers or their volumes"
			}
		}
		// A swarm service or stack removed stops every task of it, as
		// kubectl delete does; a pod removed with -f stops its containers.
		if (first == "service" || first == "stack") && len(ops) > 1 && (ops[1] == "rm" || ops[1] == "remove" || ops[1] == "down") ||
			first == "pod" && len(ops) > 1 && (ops[1] == "rm" || ops[1] == "kill") && hasFlag(vals, 'f', "--force") {
			return TierDestructive, c.name + " " + first + " " + ops[1] + ": stops every task or container of it"
		}
	case "nmcli":
		if first != "" && strings.HasPrefix("radio", first) && len(ops) > 1 && ops[len(ops)-1] == "off" {
			return TierDestructive, "nmcli radio off: turns the radios off"
		}
	case "timedatectl":
		if w := clockJumps(c.name, vals); w != "" {
			return TierDestructive, w
		}
	case "wg":
		if first == "set" {
			if !allKnown(c.args) {
				c.e.opaque = true
				return TierDestructive, "wg set: a word computed at run time can remove a peer or change the key"
			}
			if w := wgCutsOff(ops[1:]); w != "" {
				return TierDestructive, "wg set " + w + ": can cut off the peers the host is reached through"
			}
		}
	}
	return t, why
}

// wgCutsOff returns the word of "wg set IFACE …" that can cut the
// tunnel an operator reaches the host through, or "": a peer removed, a
// new private key or listen port (no peer's handshake then reaches it),
// a preshared key or firewall mark changed, or allowed IPs, which
// WireGuard moves from whichever peer held them. A peer's endpoint or
// keepalive alone stays TierMutate, as does adding a peer (wg addconf).
func wgCutsOff(words []string) string {
	for _, w := range words {
		switch w {
		case "remove", "private-key", "listen-port", "preshared-key", "fwmark", "allowed-ips":
			return w
		}
	}
	return ""
}

// initScriptHandler classifies an init script run by path
// (/etc/init.d/sshd stop) as "service NAME ACTION" would be, and at least
// as the program of its name would be (h, or tw when known), so
// /etc/init.d/reboot stays what reboot is.
func initScriptHandler(h func(*call) (Tier, string), tw tierWhy, known bool) func(*call) (Tier, string) {
	return func(c *call) (Tier, string) {
		t, why := tw.tier, tw.why
		switch {
		case h != nil:
			t, why = h(c)
		case !known:
			t, why = simpleTier(c.name)
		}
		ops := operands(c.vals())
		st, swhy := TierMutate, "init script "+c.name+": controls a service"
		switch {
		case !allKnown(c.args):
			c.e.opaque = true
			st, swhy = TierDestructive, "init script "+c.name+": action computed at run time"
		case len(ops) > 0 && serviceStopVerbs[ops[0]] && cutsAccess(c.name):
			st, swhy = TierDestructive, "init script "+c.name+" "+ops[0]+": can cut off access or stop the host"
		case len(ops) > 0 && ops[0] == "status":
			st = TierRead
			// The script, not the program of its name, takes a lone
			// status (/etc/init.d/nginx status is not nginx status); a
			// name whose program is destructive (reboot, halt) keeps it.
			if len(c.args) == 1 && t <= TierMutate {
				return TierRead, "init script " + c.name + " status"
			}
		}
		if st > t {
			return st, swhy
		}
		return t, why
	}
}

// removesEach reports whether cmd, run by find -exec or xargs once per
// file found or read, is rm (behind sudo, doas, command or nice): that
// removes an unbounded set of files, like find -delete.
func removesEach(cmd []arg) bool {
	for _, a := range cmd {
		if !a.known {
			return false
		}
		switch path.Base(a.val) {
		case "rm", "unlink", "shred":
			return true
		case "sudo", "doas", "command", "nice", "ionice", "nohup":
			continue
		}
		if !strings.HasPrefix(a.val, "-") {
			return false
		}
	}
	return false
}

// killsEveryone returns why pkill, killall or skill signal every process
// of root (-u root, -U 0) or every child of init (-P 1) — sshd, the
// network and the host's services with them — or "".
func killsEveryone(c *call) string {
	if c.name != "pkill" && c.name != "killall" && c.name != "skill" {
		return ""
	}
	for _, u := range c.optVals(c.args, "-u", "-U", "--euid", "--uid", "--user") {
		for _, n := range strings.Split(u.val, ",") {
			if !u.known || n == "root" || n == "0" {
				return c.name + " -u " + truncate(u.val, 32) + ": signals every process of root"
			}
		}
	}
	for _, p := range c.optVals(c.args, "-P", "--parent") {
		for _, n := range strings.Split(p.val, ",") {
			if !p.known || n == "1" {
				return c.name + " -P " + truncate(p.val, 32) + ": signals every service init started"
			}
		}
	}
	return ""
}

// subOperands returns the operands of name's vals from the subcommand on,
// skipping the global options its table says take a value, however the
// program's parser lets them be spelled (kubectl -n prod scale … is
// scale …; timedatectl --mach c set-time … is set-time …).
func subOperands(name string, vals []string) []string {
	i := subWordIndex(name, vals)
	if i >= len(vals) {
		return nil
	}
	return operands(vals[i:])
}

// composeExecValues are the options of compose exec and run that take a
// value.
var composeExecValues = set(`-e --env -u --user -w --workdir --index -v --volume -p --publish --name -l --label
	--cap-add --cap-drop --env-from-file --pull --network --entrypoint`)

// composeRuns classifies the command that "docker compose exec SERVICE
// CMD", "docker compose run SERVICE CMD" and docker-compose's forms run
// in the service's container, as docker exec's is; an --entrypoint is run
// too.
func (c *call) composeRuns() (Tier, string) {
	args := c.args
	k := 0
	if c.name != "docker-compose" && c.name != "podman-compose" {
		for k < len(args) && !(args[k].known && args[k].val == "compose") {
			k++
		}
		k++
	}
	if k > len(args) {
		return TierRead, ""
	}
	verb := ""
	for ; k < len(args); k++ {
		v := args[k].val
		if !args[k].known {
			return TierRead, ""
		}
		if !strings.HasPrefix(v, "-") {
			verb = v
			k++
			break
		}
		switch v {
		case "-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile", "--ansi", "--progress", "--parallel":
			k++
		}
	}
	if verb != "exec" && verb != "run" {
		return TierRead, ""
	}
	for ; k < len(args); k++ {
		v := args[k].val
		if !args[k].known {
			c.e.opaque = true
			return TierDestructive, c.name + " compose " + verb + ": options computed at run time"
		}
		if !strings.HasPrefix(v, "-") {
			break
		}
		if name, val, ok := strings.Cut(v, "="); ok && name == "--entrypoint" {
			c.shell(val, "compose --entrypoint", nil, false)
		} else if v == "--entrypoint" && k+1 < len(args) {
			c.shell(args[k+1].val, "compose --entrypoint", nil, false)
		}
		if composeExecValues[v] {
			k++
		}
	}
	if k+1 < len(args) {
		c.run(args[k+1:])
	}
	return TierMutate, c.name + " compose " + verb
}

// volumeProgram classifies lvchange, vgchange and lvconvert: deactivating
// a volume takes its file systems away, and merging a snapshot reverts
// the origin to it.
func volumeProgram(c *call) (Tier, string) {
	for _, v := range c.optVals(c.args, "-a", "--activate") {
		if !v.known || strings.HasPrefix(v.val, "n") {
			return TierDestructive, c.name + " -an: deactivates volumes"
		}
	}
	if c.name == "lvconvert" && hasFlag(c.vals(), 0, "--merge") {
		return TierDestructive, "lvconvert --merge: reverts the volume to its snapshot"
	}
	return TierMutate, c.name + ": changes volumes"
}

// ipComputedVerb returns why an ip command whose object or verb is
// computed at run time (ip route "$x", ip "$@") may be one of the flushes
// and deletions ipCutsOff names, or "".
func ipComputedVerb(c *call, vals []string) string {
	obj, verb := ipVerb(vals)
	for _, a := range c.args {
		if a.known {
			continue
		}
		if obj == "" || a.val == obj || a.val == verb {
			return "ip: " + truncate(a.val, 32) + " is computed at run time and can become a flush or delete"
		}
	}
	return ""
}
