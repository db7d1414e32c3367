package policy

import (
	"path"
	"slices"
	"strings"
)

// The rules a subcommand program's table cannot hold: what its options,
// later words and values say (systemctl enable of a unit file, docker run
// --privileged, apt remove of an essential package, …), after
// subcommandTier has matched the table.

// subRules refines a subcommand's tier with rules that look further.
func (c *call) subRules(first, second string, ops, rest []string, t Tier, label string) (Tier, string) {
	if why := guestHandover(c, first, ops); why != "" {
		return TierDestructive, why
	}
	if len(ops) > 0 && ops[0] == first {
		if wt, why := c.actsOnWarden(ops); wt > t {
			return wt, why
		}
	}
	switch c.name {

	case "systemctl":
		if it, why := imageMount(c); it > t {
			t, label = it, why
		}
		// enable or link of a unit file by path installs it: a timer or
		// service that runs later, outside warden's confinement.
		if first == "enable" || first == "link" || first == "reenable" {
			for _, u := range ops[1:] {
				if strings.Contains(u, "/") {
					return TierDestructive, "systemctl " + first + " " + u + ": installs a unit that runs later, outside warden's confinement"
				}
			}
		}
		if first == "set-environment" {
			return systemctlSetEnv(c, ops)
		}
		if first == "help" {
			if where := c.systemctlHelpAgent(); where != "" {
				c.e.opaque = true
				return TierDestructive, "systemctl help runs man with the section and page each unit's Documentation= names " +
					"(man:ls(-Hcmd) runs cmd as man's browser), and " + where
			}
		}
		// --job-mode=isolate makes a start an isolate: every unit the
		// target does not need is stopped (sshd and the network with it).
		if systemctlStartVerbs[first] {
			for _, m := range c.optVals(c.args, "--job-mode") {
				if !m.known || m.val == "isolate" {
					return TierDestructive, "systemctl " + first + " --job-mode=" + truncate(m.val, 32) + ": stops every unit the target does not need"
				}
			}
		}
		switch first {
		case "stop", "disable", "mask", "kill", "restart", "try-restart", "reload-or-restart", "isolate":
			for _, u := range ops[1:] {
				if cutsAccess(u) {
					if first == "restart" || first == "try-restart" || first == "reload-or-restart" {
						return maxTier(t, TierMutate), label
					}
					return TierDestructive, "systemctl " + first + " " + u + ": can cut off access or stop the host"
				}
			}
		}
	case "varlinkctl":
		// An address exec:PATH or ssh-exec:HOST:CMD starts the service
		// it asks: the program runs, whatever the verb.
		for _, o := range ops[1:] {
			if strings.HasPrefix(o, "exec:") || strings.HasPrefix(o, "ssh-exec:") || strings.HasPrefix(o, "ssh:") {
				c.e.opaque = true
				return TierDestructive, "varlinkctl " + truncate(o, 64) + ": starts the program that serves the address"
			}
		}
	case "btrfs":
		if first == "check" && c.listsOnly() {
			return TierRead, "btrfs check: checks without repairing"
		}
		// filesystem label with a new label sets it; device stats -z
		// resets the error counters it reports.
		if first == "filesystem" && second == "label" && len(ops) > 3 {
			return TierMutate, "btrfs filesystem label: sets the label"
		}
		if first == "device" && second == "stats" && hasFlag(rest, 'z', "--reset") {
			return TierMutate, "btrfs device stats -z: resets the error counters"
		}
		if first == "send" {
			// send -f writes the stream to a file of the caller's choosing
			// (-f X, -fX, -vf X).
			for _, o := range c.optVals(c.args, "-f") {
				wt, why, deny := c.e.writeTarget(o)
				if deny != "" {
					c.e.deny("btrfs send -f: " + deny)
				}
				if wt > t {
					t, label = wt, "btrfs send -f: "+why
				}
			}
		}
	case "docker-compose":
		// The standalone compose writes its rendered file as the plugin
		// does.
		if first == "config" {
			for _, f := range c.optVals(c.args, "-o", "--output") {
				if wt, why := c.writeArg(f, "docker-compose config -o"); wt > t {
					t, label = wt, why
				}
			}
		}
	case "docker", "podman", "nerdctl":
		// podman has no daemon: its pull writes the image store
		// (/var/lib/containers, ~/.local/share/containers) itself, outside
		// the temporary directories tier 1 may write, where docker's and
		// containerd's daemons write for their clients.
		if c.name == "podman" && (first == "pull" || second == "pull" && (first == "image" || first == "compose")) && t < TierMutate {
			t, label = TierMutate, "podman pull: writes the image store itself"
		}
		// compose config -o writes the rendered file; podman healthcheck
		// run runs the container's check command.
		if first == "compose" && slices.Contains(ops, "config") {
			for _, f := range c.optVals(c.args, "-o", "--output") {
				if wt, why := c.writeArg(f, c.name+" compose config -o"); wt > t {
					t, label = wt, why
				}
			}
		}
		if c.name == "podman" && first == "unshare" {
			if st, swhy, ok := c.subCommand(); ok && st == TierDestructive {
				return st, swhy
			}
		}
		if first == "healthcheck" && second == "run" {
			return TierMutate, c.name + " healthcheck run: runs the container's check command"
		}
		verb := first
		if first == "container" && second != "" {
			verb = second
		}
		// compose down -v and rm -v remove the project's volumes: its data.
		if first == "compose" && (second == "down" || second == "rm") && hasFlag(rest[2:], 'v', "--volumes") {
			return TierDestructive, c.name + " compose " + second + " -v: removes the volumes"
		}
		if verb == "run" || verb == "create" {
			hostControlRuns(c.e, rest)
		}
		if verb == "run" || verb == "create" || first == "compose" && second == "run" ||
			first == "service" && (second == "create" || second == "update") {
			for _, spec := range containerMounts(rest) {
				if why := c.e.bindHoldsState(bindSource(spec)); why != "" {
					c.e.deny(c.name + " " + verb + ": " + why)
					return TierDestructive, c.name + " " + verb + ": " + why
				}
				if hostMountRisk(spec) {
					return TierDestructive, c.name + " " + verb + " " + truncate(spec, 96) + ": gives the container control of the host"
				}
			}
		}
		switch verb {
		case "run", "create":
			for k, r := range rest {
				lr := strings.ToLower(r)
				next := ""
				if k+1 < len(rest) {
					next = rest[k+1]
				}
				if lr == "--privileged" || hostNamespace(lr, strings.ToLower(next)) || strings.HasPrefix(lr, "--cap-add") ||
					strings.HasPrefix(lr, "--device") || strings.HasPrefix(lr, "--security-opt") {
					return TierDestructive, c.name + " " + verb + " " + r + ": gives the container control of the host"
				}
			}
			return maxTier(t, TierMutate), c.name + " " + verb
		case "exec":
			// docker exec [options] CONTAINER COMMAND...: classify the command.
			k := 1
			if first == "container" {
				k = 2
			}
			for k < len(rest) {
				r := rest[k]
				if !strings.HasPrefix(r, "-") {
					break
				}
				if r == "-e" || r == "--env" || r == "-u" || r == "--user" || r == "-w" || r == "--workdir" || r == "--env-file" || r == "--detach-keys" {
					k++
				}
				k++
			}
			if k+1 < len(rest) {
				inner := c.args[len(c.args)-len(rest)+k+1:]
				c.run(inner)
			}
			return maxTier(t, TierMutate), c.name + " exec"
		case "rm", "rmi", "kill":
			for _, r := range rest {
				if r == "-f" || r == "--force" || r == "-v" || r == "--volumes" {
					return TierDestructive, c.name + " " + verb + " " + r
				}
			}
		}
	case "apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper", "apk", "snap", "brew", "pip", "pip3", "pipx":
		if aptSimulates(c, first) {
			return TierRead, c.name + " " + first + " -s: simulates, changing nothing"
		}
		wr := raiser{t, label}
		workDirOpts(c, &wr)
		t, label = wr.t, wr.why
		if wt, why := c.packageRefresh(first); wt > t {
			t, label = wt, why
		}
		if c.name == "pip" || c.name == "pip3" {
			for _, f := range c.optVals(c.args, "--log", "--log-file") {
				if wt, wwhy := c.writeArg(f, "pip --log"); wt > t {
					t, label = wt, wwhy
				}
			}
		}
		switch first {
		case "remove", "purge", "autoremove", "erase", "uninstall", "rm", "del", "autopurge", "full-upgrade", "dist-upgrade":
			for _, o := range ops[1:] {
				if rpmEssential(o) {
					return TierDestructive, c.name + " " + first + " " + o + ": removes an essential package"
				}
			}
		case "install", "reinstall", "in":
			// apt takes pkg- among install's operands as a removal, zypper
			// !pkg and -pkg.
			for _, o := range ops[1:] {
				if p := removalOperand(o); p != "" && essentialPackage(p) {
					return TierDestructive, c.name + " " + first + " " + o + ": removes an essential package"
				}
			}
		}
		// autoremove picks what it removes itself; with --purge their
		// configuration goes too.
		if first == "autopurge" || first == "autoremove" && slices.Contains(rest, "--purge") {
			return TierDestructive, c.name + " " + first + ": purges packages the command line does not name, with their configuration"
		}
		for _, r := range rest {
			if strings.HasPrefix(r, "--allow-remove-essential") || strings.HasPrefix(r, "--force") || r == "--nodeps" || strings.Contains(r, "AllowRemoveEssential") {
				return TierDestructive, c.name + " " + r + ": overrides package safety checks"
			}
		}
	case "npm", "pnpm", "yarn", "yarnpkg", "bun":
		// npm exec (x), pnpm exec/dlx, yarn exec/dlx and bun x run the
		// command their words give, as npx does: a payload the
		// classifier does not read, whose text meets the deny list.
		switch first {
		case "exec", "x", "dlx":
			c.e.opaque = true
		}
		if c.name == "npm" && first == "cache" && second == "verify" {
			// verify garbage-collects and rewrites the cache under ~/.npm.
			return TierMutate, "npm cache verify: rewrites the cache under ~/.npm"
		}
		if c.name == "pnpm" && first == "audit" && hasFlag(rest, 0, "--fix") {
			return TierMutate, "pnpm audit --fix: rewrites package.json"
		}
		// npm explore PKG -- CMD runs CMD in a shell.
		if c.name == "npm" && first == "explore" {
			for k, a := range c.args {
				if a.known && a.val == "--" && k+1 < len(c.args) {
					c.shell(strings.Join(argVals(c.args[k+1:]), " "), "npm explore command", nil, false)
					if !allKnown(c.args[k+1:]) {
						c.e.opaque = true
						return TierDestructive, "npm explore: command computed at run time"
					}
					break
				}
			}
		}
	case "nmcli":
		if (first == "networking" || first == "n") && second == "" && len(ops) == 1 {
			return TierRead, "nmcli networking"
		}
		if first == "device" && second == "wifi" && len(ops) > 2 && ops[2] == "list" {
			if slices.Contains(rest, "--rescan") && !slices.Contains(rest, "no") {
				return TierBenign, "nmcli device wifi list --rescan: scans for networks"
			}
			return TierRead, "nmcli device wifi list"
		}
		// general hostname NAME and general logging LEVEL set what they show
		// (nmcli takes any prefix of its words: g h NAME).
		if len(ops) > 2 && first != "" && strings.HasPrefix("general", first) && second != "" &&
			(strings.HasPrefix("hostname", second) || strings.HasPrefix("logging", second)) {
			return TierMutate, "nmcli general " + second + ": sets it"
		}
	case "borg":
		// --remote-path is run by the remote shell of an ssh repository
		// (host:path as well as ssh://), --debug-profile writes a file.
		for _, p := range c.optVals(c.args, "--remote-path") {
			c.shellArg(p, "borg --remote-path command")
			return TierDestructive, "borg --remote-path: runs a command on the repository's host"
		}
		for _, f := range c.optVals(c.args, "--debug-profile") {
			return c.writeArg(f, "borg --debug-profile")
		}
		// config with a value or --delete sets the repository's config,
		// check --repair rewrites it, key export with a file writes it.
		switch {
		case first == "config" && (len(ops) > 3 || hasFlag(rest, 'd', "--delete")):
			return TierMutate, "borg config: changes the repository's configuration"
		case first == "check" && hasFlag(rest, 0, "--repair"):
			return TierDestructive, "borg check --repair: rewrites the repository"
		case first == "key" && second == "export" && len(ops) > 3:
			return c.writeArg(arg{val: ops[3], known: true}, "borg key export")
		case first == "check" && !hasFlag(c.vals(), 0, "--bypass-lock"):
			return TierMutate, "borg check: takes the repository's exclusive lock, which a call killed at its timeout leaves behind, and every backup then fails until borg break-lock (--bypass-lock reads without it)"
		}
	case "fail2ban-client":
		if hasFlag(c.vals(), 'i', "--interactive") {
			// Each line of its input is a command: stop, unban, or set an
			// action the server runs as a shell command.
			c.e.opaque = true
			return TierDestructive, "fail2ban-client -i: runs the commands given on its input"
		}
		if ft, why := fail2banActions(c, ops); ft > t {
			return ft, why
		}
	case "restic":
		if first == "check" && !hasFlag(c.vals(), 0, "--no-lock") {
			return TierMutate, "restic check: takes the repository's exclusive lock, which a call killed at its timeout leaves behind, and every backup then fails until restic unlock (--no-lock reads without it)"
		}
		if first == "cache" && hasFlag(rest, 0, "--cleanup") {
			return TierMutate, "restic cache --cleanup: removes old cache directories"
		}
		// The global --cleanup-cache does the same before any command
		// (pflag: the name whole, a boolean's value after "=").
		for _, v := range c.vals() {
			if n, val, _ := strings.Cut(v, "="); n == "--cleanup-cache" && val != "false" {
				return TierMutate, "restic --cleanup-cache: removes old cache directories"
			}
		}
	case "flatpak":
		if st, swhy, ok := c.subCommand(); ok && st > t {
			t, label = st, swhy
		}
		if first == "config" && (hasFlag(rest, 0, "--set") || hasFlag(rest, 0, "--unset")) {
			return TierMutate, "flatpak config --set: changes flatpak's configuration"
		}
	case "pct", "qm", "iocage", "machinectl", "ctr":
		if st, swhy, ok := c.subCommand(); ok && st == TierDestructive {
			return st, swhy
		}
	case "lxc", "incus":
		if st, swhy, ok := c.subCommand(); ok && st == TierDestructive {
			return st, swhy
		}
		if why := lxdHostControl(c); why != "" {
			return TierDestructive, why
		}
		// query sends any API request -X names; file pull writes locally.
		if first == "query" {
			for _, m := range c.optVals(c.args, "-X", "--request") {
				if !m.known || !strings.EqualFold(m.val, "GET") {
					return TierDestructive, c.name + " query -X " + truncate(m.val, 16) + ": an API request that can change anything"
				}
			}
		}
		if first == "file" && second == "pull" && len(ops) > 3 {
			return c.writeArg(arg{val: ops[len(ops)-1], known: true}, c.name+" file pull")
		}
		// Three-word deletes the two-word table does not reach: storage
		// volume delete, config device remove, network acl delete; the
		// words read as lxc reads them too, a global option's value
		// skipped (storage --project p volume delete).
		for _, words := range [][]string{ops, strictGlobals[c.name].operands(rest)} {
			for _, o := range words[:min(len(words), 3)] {
				if (o == "delete" || o == "rm" || o == "remove") && words[0] != "remote" {
					return TierDestructive, c.name + " " + truncate(strings.Join(words[:min(len(words), 3)], " "), 48) + ": deletes a volume, device or network"
				}
			}
		}
	case "terraform", "tofu":
		if first == "apply" && destroyFlag(rest) {
			return TierDestructive, c.name + " apply -destroy: destroys the managed infrastructure"
		}
		if first == "providers" && (second == "lock" || second == "mirror") {
			return TierMutate, c.name + " providers " + second + ": writes the lock file or a mirror"
		}
	case "ansible-inventory":
		for _, f := range c.optVals(c.args, "--output") {
			return c.writeArg(f, "ansible-inventory --output")
		}
	case "go":
		if first == "env" && (hasFlag(rest, 'w', "") || hasFlag(rest, 'u', "")) {
			// go env -w NAME=VALUE sets it for every later go command.
			for _, r := range ops[1:] {
				if n, _, ok := strings.Cut(r, "="); ok {
					if et, _ := envRisk(n); et == TierDestructive {
						return TierDestructive, "go env -w " + n + ": changes which code later go commands load or run"
					}
				}
			}
			return TierMutate, "go env -w"
		}
		if gt, gwhy := c.goBuildFlags(first, rest[1:]); gt > t || first == "list" && gt > TierRead {
			return gt, gwhy
		}
	case "cargo":
		// --config KEY=VALUE or a file; build.rustc, target.*.runner and the
		// like run programs even for cargo tree and metadata.
		for _, v := range c.optVals(c.args, "--config") {
			k, val, isKV := strings.Cut(v.val, "=")
			if !v.known || !isKV || cargoConfigRisky(strings.TrimSpace(k)) {
				c.e.opaque = true
				c.e.scanText(v.val)
				if isKV && v.known {
					// A TOML string or array of strings: the program and its
					// arguments.
					c.shell(strings.Join(strings.FieldsFunc(val, func(r rune) bool {
						return strings.ContainsRune("[]\"', \t", r)
					}), " "), "cargo --config program", nil, false)
				}
				return TierDestructive, "cargo --config " + truncate(k, 64) + ": configuration that chooses the programs cargo runs"
			}
		}
		if (first == "tree" || first == "metadata") && !c.flagSet(0, "--frozen", len("--fr")) &&
			!(c.flagSet(0, "--locked", len("--lo")) && c.flagSet(0, "--offline", len("--of"))) && !c.flagSet(0, "--no-deps", len("--no")) {
			// Resolving the dependencies writes Cargo.lock beside
			// Cargo.toml when it is missing or stale, and fills the
			// registry cache under ~/.cargo.
			return TierMutate, "cargo " + first + ": resolving dependencies writes Cargo.lock and the registry cache (--frozen does not)"
		}
	case "zpool":
		if first == "events" && hasFlag(rest[1:], 'c', "") {
			return TierMutate, "zpool events -c: clears the event log"
		}
		if first == "import" && c.listsOnly() {
			return TierRead, "zpool import: lists the pools that could be imported"
		}
	case "helm":
		if first == "template" {
			for _, f := range c.optVals(c.args, "--output-dir") {
				if wt, why := c.writeArg(f, "helm template --output-dir"); wt > t {
					t, label = wt, why
				}
			}
		}
		for _, f := range c.optVals(c.args, "--post-renderer") {
			c.run([]arg{f})
			t, label = TierDestructive, "helm --post-renderer: runs "+truncate(f.val, 64)+" on the manifests"
		}
		if c.untrustedKubeconfig() {
			t, label = TierDestructive, "helm --kubeconfig: a kubeconfig outside /etc and ~/.kube can name a credential program that runs"
		}
	case "resolvectl":
		// log-level with a level sets resolved's; alone it reports it.
		if first == "log-level" && len(ops) > 1 {
			return TierMutate, "resolvectl log-level: changes resolved's logging"
		}
		// The per-link settings show themselves with at most a link
		// named (dns, dns eth0), and set it with values after the link.
		switch first {
		case "dns", "domain", "default-route", "llmnr", "mdns", "dnssec", "dnsovertls", "nta":
			if len(ops) <= 2 {
				return TierRead, "resolvectl " + first
			}
		}
	case "xl":
		// dmesg -c clears the hypervisor's message buffer after printing
		// it, as dmesg -c the kernel's.
		if first == "dmesg" && hasFlag(rest[1:], 'c', "--clear") {
			return TierMutate, "xl dmesg -c: clears the hypervisor's message buffer"
		}
	case "tailscale":
		if first == "status" && goBoolFlag(rest[1:], "web") {
			return TierMutate, "tailscale status --web: serves the status page on --listen's address"
		}
	case "pkg":
		if why := c.pkgCodeGlobals(first); why != "" {
			c.e.opaque = true
			return TierDestructive, why
		}
		if why := c.pkgOtherGlobals(first); why != "" {
			return TierMutate, why
		}
		// check -B and -r rewrite the package database's library and
		// checksum records; -d installs missing dependencies unless -n.
		if first == "check" && (hasFlag(rest[1:], 'B', "--shlibs") || hasFlag(rest[1:], 'r', "--recompute") ||
			hasFlag(rest[1:], 'd', "--dependencies") && !hasFlag(rest[1:], 'n', "--dry-run")) {
			return TierMutate, "pkg check: rewrites the package database or installs missing dependencies"
		}
		// audit -F fetches the vulnerability database into /var/db/pkg
		// first, outside the temporary directories tier 1 may write.
		if first == "audit" && hasFlag(rest[1:], 'F', "--fetch") {
			return TierMutate, "pkg audit -F: refreshes the vulnerability database under /var/db/pkg"
		}
	case "apt-cache":
		// gencaches writes pkgcache.bin and srcpkgcache.bin under
		// /var/cache/apt, outside the temporary directories tier 1 may
		// write.
		if first == "gencaches" {
			return TierMutate, "apt-cache gencaches: writes the package caches under /var/cache/apt"
		}
	case "hostnamectl":
		if (first == "hostname" || first == "icon-name" || first == "chassis" || first == "deployment" || first == "location") && len(ops) == 1 {
			return TierRead, "hostnamectl " + first
		}
	case "kubectl":
		if c.untrustedKubeconfig() {
			t, label = TierDestructive, "kubectl --kubeconfig: a kubeconfig outside /etc and ~/.kube can name a credential program that runs"
		}
		for _, f := range c.optVals(c.args, "--output-directory", "--cache-dir") {
			if wt, why := c.writeArg(f, "kubectl "+first+" output"); wt > t {
				t, label = wt, why
			}
		}
		// get --raw …/services/NAME/proxy/… is a GET the API server
		// passes to a service in the cluster: a request, as curl's is.
		for _, r := range c.optVals(c.args, "--raw") {
			if (!r.known || strings.Contains(r.val, "/proxy")) && t < TierBenign {
				t, label = TierBenign, "kubectl --raw "+truncate(r.val, 64)+": a request to a service in the cluster, through the API server"
			}
		}
		if first == "exec" {
			for k, r := range rest {
				if r == "--" && k+1 < len(rest) {
					c.run(c.args[len(c.args)-len(rest)+k+1:])
				}
			}
		}
	}
	return t, label
}

// hostMountRisk reports whether a docker volume spec mounts a sensitive
// host path into a container.
func hostMountRisk(spec string) bool {
	src, _, _ := strings.Cut(spec, ":")
	if strings.HasPrefix(spec, "type=") || strings.Contains(spec, "source=") || strings.Contains(spec, "src=") {
		for _, f := range strings.Split(spec, ",") {
			if k, v, ok := strings.Cut(f, "="); ok && (k == "source" || k == "src") {
				src = v
			}
		}
	}
	if strings.ContainsAny(src, "$`") {
		return true // known only at run time: any host path
	}
	if src == "" || !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, "~") {
		return false
	}
	return criticalPath(src) || strings.Contains(src, "docker.sock") || strings.Contains(src, "containerd.sock") ||
		strings.Contains(src, ".ssh") || sensitivePath(strings.ToLower(src)) || wardenPath(strings.ToLower(src))
}

// hostNamespaces are the container options that can share one of the
// host's namespaces. The host's network namespace holds its loopback
// services (a Docker API on 127.0.0.1:2375, warden's own HTTP listener)
// and its abstract Unix sockets (containerd-shim's, once root's way out).
var hostNamespaces = []string{"--pid", "--ipc", "--userns", "--net", "--network", "--uts", "--cgroupns"}

// hostNamespace reports whether opt (lower-cased), with next the word
// after it, shares a host namespace: --net=host, --network host, or
// podman's ns:PATH, any namespace by its path (ns:/proc/1/ns/net).
func hostNamespace(opt, next string) bool {
	name, val, eq := strings.Cut(opt, "=")
	if !eq {
		val = next
	}
	return (val == "host" || strings.HasPrefix(val, "ns:")) && slices.Contains(hostNamespaces, name)
}

// fail2banActions: the server runs an action's command properties
// (actionstart, actionban, …) as shell command lines, as root, on its
// events, and loads a Python action file as code; a configuration
// directory outside /etc holds such actions too.
func fail2banActions(c *call, ops []string) (Tier, string) {
	var r raiser
	for _, d := range c.optVals(c.args, "-c", "--conf") {
		if !d.known || !strings.HasPrefix(path.Clean(d.val), "/etc/") {
			c.e.opaque = true
			r.raise(TierDestructive, "fail2ban-client -c "+truncate(d.val, 64)+": a configuration outside /etc whose actions the server runs as root")
		}
	}
	for k, o := range ops {
		if o != "set" || k+4 >= len(ops) {
			continue
		}
		switch {
		case ops[k+2] == "action" && k+5 < len(ops) && strings.HasPrefix(ops[k+4], "action"):
			line := strings.Join(ops[k+5:], " ")
			r.raise(c.shellArg(arg{val: line, known: allKnown(c.args)}, "fail2ban-client "+ops[k+4]))
			r.raise(TierDestructive, "fail2ban-client set "+truncate(ops[k+1], 32)+" action "+truncate(ops[k+3], 32)+" "+ops[k+4]+
				": a command line the server runs as root")
		case ops[k+2] == "addaction" && k+4 < len(ops):
			c.e.opaque = true
			r.raise(TierDestructive, "fail2ban-client set "+truncate(ops[k+1], 32)+" addaction: loads "+truncate(ops[k+4], 64)+" as Python code the server runs as root")
		}
	}
	return r.t, r.why
}
