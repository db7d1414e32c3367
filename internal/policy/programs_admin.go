package policy

import "strings"

// clientSettings classifies what the options of a subcommand-table
// program make it write or run, whatever its subcommand reads:
// zpool status/iostat -c run scripts from ZPOOL_SCRIPTS_PATH (~/.zpool.d
// before /etc/zfs/zpool.d); lvm's own subcommands take the options lvs
// and the other reports do (lvmOptions); docker --config is the directory
// docker runs its CLI plugins (compose, buildx) from; kubectl --profile
// writes a profile (profile.pprof in the working directory unless
// --profile-output names another file) and klog's --log-file and
// --log-dir write logs; virsh -c takes a libvirt URI (libvirtURI), and
// dommemstat --period sets a domain's statistics period. docker and
// kubectl parse with pflag, which takes long names
// only whole.
func (c *call) clientSettings() (Tier, string) {
	vals := c.vals()
	ops := subOperands(c.name, vals)
	first := ""
	after := vals
	if len(ops) > 0 {
		first = ops[0]
		for i, v := range vals {
			if v == first {
				after = vals[i+1:]
				break
			}
		}
	}
	switch c.name {
	case "zpool":
		if (first == "status" || first == "iostat") && hasFlag(after, 'c', "") {
			return TierMutate, "zpool " + first + " -c: runs scripts from ZPOOL_SCRIPTS_PATH (~/.zpool.d first)"
		}
		// Recovery mode discards the pool's last transactions (-F, -X
		// further back), and a rewind to the checkpoint everything since;
		// -n only asks whether it would work.
		if (first == "import" || first == "clear") && !hasFlag(after, 'n', "") &&
			(hasFlag(after, 'F', "") || hasFlag(after, 'X', "") || hasFlag(after, 0, "--rewind-to-checkpoint")) {
			return TierDestructive, "zpool " + first + " -F: discards the pool's last transactions"
		}
	case "lvm":
		// lvm runs its commands as the programs of the same name do, so
		// lvm vgchange -an is vgchange -an; the reports keep their own
		// reading here (lvmOptions), pvscan and vgscan included.
		switch {
		case lvmReads[first]:
			return lvmOptions(first, after)
		case len(first) > 2 && (strings.HasPrefix(first, "lv") || strings.HasPrefix(first, "vg") || strings.HasPrefix(first, "pv")):
			for i, a := range c.args {
				if a.known && a.val == first {
					c.run(c.args[i:])
					break
				}
			}
		}
		return lvmOptions(first, after)
	case "restic", "borg":
		return c.backupClient(first)
	case "qm":
		// qm guest cmd VMID COMMAND sends a guest agent command: the
		// get-* ones, info, ping and fsfreeze-status report; shutdown,
		// suspend-* and fsfreeze-freeze stop or hang the guest.
		if len(ops) >= 4 && ops[0] == "guest" && ops[1] == "cmd" {
			switch gc := ops[3]; {
			case strings.HasPrefix(gc, "get-") || gc == "info" || gc == "ping" || gc == "fsfreeze-status" || gc == "network-get-interfaces":
			case gc == "shutdown" || strings.HasPrefix(gc, "suspend-") || gc == "fsfreeze-freeze":
				return TierDestructive, "qm guest cmd " + gc + ": shuts down, suspends or freezes the guest"
			default:
				return TierMutate, "qm guest cmd " + truncate(gc, 32) + ": acts in the guest"
			}
		}
	case "nmcli":
		// nmcli takes its keywords by any unique prefix: radio all of,
		// radio wi of are off.
		if len(ops) >= 3 && nmcliObject(ops[0]) == "radio" && len(ops[len(ops)-1]) >= 2 && strings.HasPrefix("off", ops[len(ops)-1]) {
			return TierDestructive, "nmcli radio " + ops[1] + " off: cuts wireless access"
		}
	case "zfs":
		switch first {
		case "set":
			// A dataset mounted over a system directory hides it.
			for _, a := range after {
				if k, v, ok := strings.Cut(a, "="); ok && k == "mountpoint" && criticalPath(v) {
					return TierDestructive, "zfs set mountpoint=" + truncate(v, 64) + ": mounts over a system directory"
				}
			}
		case "unmount", "umount":
			if hasFlag(after, 'a', "") {
				return TierDestructive, "zfs " + first + " -a: unmounts every dataset"
			}
		case "program":
			// A channel program runs with the caller's rights in the
			// kernel and can destroy datasets; -n runs it read-only.
			if !hasFlag(after, 'n', "") {
				return TierDestructive, "zfs program: runs a channel program that can destroy datasets"
			}
		}
	case "docker":
		if len(exactOptVals(c.args, "--config")) > 0 {
			return TierDestructive, "docker --config: the configuration directory names the CLI plugins docker runs"
		}
	case "podman":
		// --out sends what any command prints to a file, and the
		// profiling options write a profile, whatever the subcommand reads.
		r := raiser{TierRead, ""}
		for _, f := range exactOptVals(c.args, "--out", "--cpu-profile", "--memory-profile") {
			r.raise(c.writeArg(f, "podman output file"))
		}
		return r.t, r.why
	case "crictl":
		// The profiling options write a profile; Go's flag package takes
		// them with one dash or two, the value after "=" or next.
		r := raiser{TierRead, ""}
		for i, a := range c.args {
			name, v, eq := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a.val, "-"), "-"), "=")
			if !strings.HasPrefix(a.val, "-") || name != "profile-cpu" && name != "profile-mem" {
				continue
			}
			f := arg{val: v, known: a.known}
			if !eq {
				if i+1 >= len(c.args) {
					continue
				}
				f = c.args[i+1]
			}
			r.raise(c.writeArg(f, "crictl profile"))
		}
		return r.t, r.why
	case "virsh":
		r := raiser{TierRead, ""}
		for _, u := range c.optVals(c.args, "-c", "--connect") {
			if !u.known {
				c.e.opaque = true
				r.raise(TierDestructive, "virsh -c: a URI known only at run time can name a program to run")
				continue
			}
			t, why, runs := libvirtURI(u.val)
			r.raise(t, why)
			c.e.runsDenied(runs, c.ctx, "virsh -c: the libvirt URI")
		}
		// dommemstat --period sets the guest's statistics period.
		if first == "dommemstat" && len(c.optVals(c.args, "--period")) > 0 {
			r.raise(TierMutate, "virsh dommemstat --period: sets the domain's statistics period")
		}
		return r.t, r.why
	case "apt-cache":
		// -p and -s name the package and source caches apt-cache
		// writes when it rebuilds them, as it does when they are stale.
		r := raiser{TierRead, ""}
		for _, f := range c.optVals(c.args, "-p", "--pkg-cache", "-s", "--src-cache") {
			r.raise(c.writeArg(f, "apt-cache cache file"))
		}
		return r.t, r.why
	case "certbot":
		// Every run logs to --logs-dir and locks --config-dir and
		// --work-dir, creating them; a configuration file can set all
		// three. argparse takes the long names abbreviated.
		r := raiser{TierRead, ""}
		for _, d := range c.optVals(c.args, "--logs-dir", "--config-dir", "--work-dir") {
			r.raise(c.writeArg(d, "certbot directory"))
		}
		if len(c.optVals(c.args, "-c", "--config")) > 0 {
			r.raise(TierMutate, "certbot --config: a configuration file sets the directories certbot writes")
		}
		// plugins --prepare prepares every installer as a run would: the
		// nginx and apache plugins write their TLS options (and nginx its
		// DH parameters) into the configuration directory and lock the
		// web server's, and apache's first rolls back the configuration
		// changes an interrupted run left.
		if ops := operands(c.vals()); len(ops) > 0 && ops[0] == "plugins" && hasFlag(c.vals(), 0, "--prepare") {
			r.raise(TierMutate, "certbot plugins --prepare: prepares the installers, which write their files and lock or roll back the web server's configuration")
		}
		// Without a subcommand certbot is certbot run: it obtains a
		// certificate and installs it in the web server's configuration.
		if len(operands(c.vals())) == 0 && !hasFlag(c.vals(), 'h', "--help") && !hasFlag(c.vals(), 0, "--version") {
			r.raise(TierMutate, "certbot: without a subcommand obtains and installs a certificate (certbot run)")
		}
		return r.t, r.why
	case "kubectl":
		r := raiser{TierRead, ""}
		for _, f := range exactOptVals(c.args, "--log-file", "--log_file", "--log-dir", "--log_dir") {
			r.raise(c.writeArg(f, "kubectl log file"))
		}
		for _, p := range exactOptVals(c.args, "--profile") {
			if p.known && strings.EqualFold(p.val, "none") {
				continue
			}
			outs := exactOptVals(c.args, "--profile-output", "--profile_output")
			if len(outs) == 0 {
				outs = []arg{{val: "profile.pprof", known: true}}
			}
			for _, o := range outs {
				r.raise(c.writeArg(o, "kubectl --profile output"))
			}
		}
		return r.t, r.why
	}
	return TierRead, ""
}

// daemonHost applies host rules to the daemon or API server a client is
// pointed at (docker -H, kubectl -s, virsh -c, systemctl -H); reaching it
// over ssh runs ssh, tier 1 like ssh itself. The systemd clients' -H
// [USER@]HOST always goes through ssh.
func (c *call) daemonHost() (Tier, string) {
	var opts []string
	switch c.name {
	case "systemctl", "loginctl", "hostnamectl", "timedatectl", "localectl", "resolvectl", "networkctl", "systemd-analyze", "busctl",
		"portablectl":
		var r raiser
		for _, h := range c.optVals(c.args, "-H", "--host") {
			if !h.known {
				c.e.opaque = true
				r.raise(TierDestructive, c.name+" -H: host computed at run time")
				continue
			}
			host, _, _ := strings.Cut(h.val, "/") // HOST[:PORT][/CONTAINER]
			c.checkHost(host)
			r.raise(TierBenign, c.name+" -H: runs ssh to "+truncate(h.val, 64))
		}
		return r.t, r.why
	case "docker", "podman", "nerdctl":
		opts = []string{"-H", "--host", "--url"}
	case "kubectl":
		opts = []string{"-s", "--server"}
	case "virsh":
		opts = []string{"-c", "--connect"}
	case "helm":
	default:
		return TierRead, ""
	}
	var r raiser
	if ctx := c.savedContext(); ctx != "" {
		r.raise(TierBenign, c.name+" "+truncate(ctx, 64)+": the saved context or connection may reach its host through ssh")
	}
	for _, h := range c.optVals(c.args, opts...) {
		if !h.known {
			// Like ssh's: an ssh:// address computed at run time reaches any host.
			c.e.opaque = true
			r.raise(TierDestructive, c.name+": daemon address computed at run time")
			continue
		}
		scheme, _, ok := strings.Cut(h.val, "://")
		if !ok || strings.HasPrefix(scheme, "unix") || scheme == "fd" || scheme == "npipe" {
			continue
		}
		c.checkHost(h.val)
		if strings.Contains(scheme, "ssh") {
			r.raise(TierBenign, c.name+": reaches "+truncate(h.val, 64)+" through ssh")
		}
	}
	return r.t, r.why
}

// containerGlobalVals are docker's, podman's and nerdctl's global options
// that take a value, read past to find -c before the subcommand (after
// it, docker run -c is --cpu-shares).
var containerGlobalVals = set(`-H --host --url --config -l --log-level --tlscacert --tlscert --tlskey
	--identity --root --runroot --storage-driver --cgroup-manager --runtime --namespace -n --address -a
	--module --network-cmd-path --tmpdir --volumepath --imagestore --events-backend --hooks-dir`)

// savedContext returns the option naming a saved docker context, podman
// connection, or kubeconfig context or cluster that c is run with, or "".
// Such a context holds a daemon or API address (ssh://host runs ssh,
// like -H ssh://host) that the command line does not show.
func (c *call) savedContext() string {
	switch c.name {
	case "kubectl":
		if v := c.optVals(c.args, "--context"); len(v) > 0 {
			return "--context " + v[0].val
		}
		if v := c.optVals(c.args, "--cluster"); len(v) > 0 {
			return "--cluster " + v[0].val
		}
	case "helm":
		if v := exactOptVals(c.args, "--kube-context"); len(v) > 0 {
			return "--kube-context " + v[0].val
		}
	case "docker", "podman", "nerdctl":
		for i := 0; i < len(c.args); i++ {
			a := c.args[i]
			name, _, eq := strings.Cut(a.val, "=")
			switch {
			case !strings.HasPrefix(a.val, "-"):
				return ""
			case name == "-c" || name == "--context" || name == "--connection" ||
				!eq && len(name) > 2 && name[1] == 'c' && name[0] == '-' && name[1] != '-':
				return a.val
			case containerGlobalVals[name] && !eq:
				i++
			}
		}
	}
	return ""
}

// lvmReads are the lvm subcommands read as reports, not run as programs.
var lvmReads = set(`lvs vgs pvs lvdisplay vgdisplay pvdisplay lvscan vgscan pvscan`)

// serverQueryProgram classifies the clients that send a query to a server the
// command names and print the answer: whois (-h/--host, and QUERY@SERVER;
// with -p any port, so any TCP service gets the query text, as nc would
// send it), NUT's upsc (UPS@HOST[:PORT]) and apcupsd's apcaccess
// (-h HOST[:PORT]). They read, but their servers meet the host rules.
func serverQueryProgram(c *call) (Tier, string) {
	var hosts []arg
	switch c.name {
	case "whois":
		hosts = c.optVals(c.args, "-h", "--host")
		for _, a := range c.args {
			if !a.known {
				// It can hold QUERY@SERVER, or split into -h and -p.
				return TierMutate, "whois: a query computed at run time can name the server"
			}
			if i := strings.LastIndexByte(a.val, '@'); i >= 0 && !strings.HasPrefix(a.val, "-") {
				hosts = append(hosts, arg{val: a.val[i+1:], known: a.known})
			}
		}
	case "upsc":
		for _, a := range c.args {
			if i := strings.IndexByte(a.val, '@'); i >= 0 && !strings.HasPrefix(a.val, "-") {
				hosts = append(hosts, arg{val: a.val[i+1:], known: a.known})
			}
		}
	case "apcaccess":
		hosts = c.optVals(c.args, "-h")
		// apcaccess [COMMAND [HOST[:PORT]]]
		if ops := operandsSkipping(argVals(c.args), "hfu", nil); len(ops) > 1 {
			hosts = append(hosts, arg{val: ops[1], known: true})
		}
	}
	for _, h := range hosts {
		if !h.known {
			c.e.opaque = true
			return TierDestructive, c.name + ": server computed at run time"
		}
		c.checkHost(h.val)
	}
	return TierRead, c.name + ": read-only"
}

// rpmMacroRuns reports whether an rpm macro body or expression can run
// something: %(…) runs a shell and %{lua:…} Lua, and %{expand:…} expands
// its result again, so "%{expand:%{p}(id)}" with p defined as "%" is a
// %(id) the text does not show; %{load:FILE} reads macro definitions
// from a file and %[…] evaluates an expression of macros.
func rpmMacroRuns(v string) bool {
	l := strings.ToLower(v)
	for _, s := range []string{"%(", "lua", "expand", "load:", "%["} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// backupClient classifies what restic's and borg's options run, write
// and reach, whatever the subcommand: --password-command and --rsh are
// commands they run (classified as shell), restic dump --target and
// --cache-dir write, and an sftp: or ssh:// repository runs ssh to its
// host, which meets the host rules as ssh's destination does.
func (c *call) backupClient(first string) (Tier, string) {
	r := raiser{TierRead, ""}
	runs := exactOptVals(c.args, "--password-command", "--rsh") // restic: cobra, names whole
	if c.name == "borg" {
		runs = c.optVals(c.args, "--rsh") // argparse takes --rs
	}
	for _, v := range runs {
		r.raise(c.shellArg(v, c.name+" password or ssh command"))
	}
	if c.name == "borg" {
		r.raise(c.borgRuns(first))
	}
	if c.name == "restic" && first == "backup" {
		r.raise(c.resticStdinCommand())
	}
	r.raise(c.backupRepoWrite(first))
	if c.name == "restic" {
		if first == "dump" {
			for _, f := range c.optVals(c.args, "-t", "--target") {
				r.raise(c.writeArg(f, "restic dump --target"))
			}
		}
		for _, f := range exactOptVals(c.args, "--cache-dir") {
			r.raise(c.writeArg(f, "restic --cache-dir"))
		}
	}
	repos := exactOptVals(c.args, "-r", "--repo")
	for _, a := range c.args {
		if a.known && (strings.HasPrefix(a.val, "ssh://") || strings.HasPrefix(a.val, "sftp:")) {
			repos = append(repos, a)
		}
	}
	for _, repo := range repos {
		if !repo.known {
			c.e.opaque = true
			r.raise(TierDestructive, c.name+": repository computed at run time")
			continue
		}
		host := ""
		switch v := repo.val; {
		case strings.HasPrefix(v, "sftp:"):
			host = strings.TrimPrefix(strings.TrimPrefix(v, "sftp:"), "//")
			host, _, _ = strings.Cut(host, ":")
			host, _, _ = strings.Cut(host, "/")
		case strings.HasPrefix(v, "ssh://"):
			host, _, _ = strings.Cut(strings.TrimPrefix(v, "ssh://"), "/")
		case strings.Contains(v, "://"):
			c.checkHost(v)
		}
		if host != "" {
			if i := strings.LastIndexByte(host, '@'); i >= 0 {
				host = host[i+1:]
			}
			c.checkHost(host)
			r.raise(TierBenign, c.name+": reaches "+truncate(host, 64)+" through ssh")
		}
	}
	return r.t, r.why
}
