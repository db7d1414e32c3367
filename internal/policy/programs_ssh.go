package policy

import (
	"fmt"
	"path"
	"strings"
)

// sshOptionRisk classifies one ssh -o option ("Key=value" or "Key value").
func sshOptionRisk(o string) (Tier, string) {
	k, v, ok := strings.Cut(o, "=")
	if !ok {
		k, v, _ = strings.Cut(strings.TrimSpace(o), " ")
	}
	k = strings.ToLower(strings.TrimSpace(k))
	v = strings.ToLower(strings.TrimSpace(v))
	switch k {
	case "proxycommand", "localcommand", "permitlocalcommand", "knownhostscommand", "remotecommand",
		"match", "include", "pkcs11provider", "securitykeyprovider", "proxyusefdpass", "xauthlocation":
		// XAuthLocation is the xauth program ssh runs when it forwards
		// X11, which a ForwardX11 in the operator's ssh_config may do.
		return TierDestructive, "ssh -o " + k + ": runs or loads a program"
	case "stricthostkeychecking", "userknownhostsfile", "globalknownhostsfile", "checkhostip", "verifyhostkeydns", "updatehostkeys":
		if k == "stricthostkeychecking" && (v == "yes" || v == "ask") {
			return TierRead, ""
		}
		return TierDestructive, "ssh -o " + k + ": weakens host key verification"
	case "localforward", "remoteforward", "dynamicforward", "tunnel", "tunneldevice", "forwardagent", "forwardx11", "gatewayports":
		return TierMutate, "ssh -o " + k + ": forwards ports or credentials"
	case "gssapidelegatecredentials":
		// The Kerberos tickets of whoever warden runs as, handed to the
		// remote host.
		if v != "no" {
			return TierMutate, "ssh -o " + k + ": forwards ports or credentials"
		}
	}
	return TierRead, ""
}

// sshOptionKV splits one ssh -o option ("Key=value" or "Key value") into
// its lower-case key and its value.
func sshOptionKV(o string) (string, string, bool) {
	k, v, ok := strings.Cut(o, "=")
	if !ok || strings.ContainsAny(k, " \t") {
		k, v, ok = strings.Cut(strings.TrimSpace(o), " ")
	}
	return strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v), ok
}

// sshOptionCommand returns the shell text of an ssh option that runs a
// command (ProxyCommand, LocalCommand, KnownHostsCommand, RemoteCommand).
func sshOptionCommand(o string) (string, bool) {
	k, v, ok := strings.Cut(o, "=")
	if !ok || strings.ContainsAny(k, " \t") {
		k, v, _ = strings.Cut(strings.TrimSpace(o), " ")
	}
	switch strings.ToLower(strings.TrimSpace(k)) {
	case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
		v = strings.TrimSpace(v)
		return v, v != "" && !strings.EqualFold(v, "none")
	}
	return "", false
}

// sshProgram classifies ssh, scp, sftp, rsync, ssh-copy-id and mosh:
// options that run programs, the destinations against host deny rules, and
// the remote command as shell text.
func sshProgram(c *call) (Tier, string) {
	t, why := TierBenign, c.name
	raise := func(nt Tier, nwhy string) {
		if nt > t {
			t, why = nt, nwhy
		}
	}
	var valueShort string
	dry, remote := false, false
	if c.name == "rsync" {
		dry, remote = rsyncTransfersNothing(c, clusterValues[c.name])
	}
	switch c.name {
	case "ssh", "ssh-copy-id":
		valueShort = "BbcDEeFIiJLlmOopQRSWw"
	case "scp":
		valueShort = "cDFiJloPSX"
		raise(TierMutate, "scp: copies files")
	case "sftp":
		valueShort = "BbcDFiJlNoPRSsX"
		raise(TierMutate, "sftp: transfers files")
	case "rsync":
		if dry && remote {
			// As ssh HOST CMD is: the other side runs rsync --server -n.
			t, why = TierBenign, "rsync: lists or dry-runs with another host, transferring nothing"
		} else if dry {
			t, why = TierRead, "rsync: lists or dry-runs, transferring nothing"
		} else {
			raise(TierMutate, "rsync: copies files")
		}
		// Every spelling getopt takes: -avze CMD, --chmod u+s, --chm=u+s.
		for _, e := range c.optVals(c.args, "-e", "--rsh", "--rsync-path") {
			raise(c.shellArg(e, "rsync remote shell"))
		}
		for _, m := range c.optVals(c.args, "--chmod") {
			if !m.known || setidMode(strings.TrimLeft(m.val, "DF")) || strings.Contains(m.val, "s") {
				raise(TierDestructive, "rsync --chmod="+m.val+": sets a setuid or setgid bit")
			}
		}
		for _, f := range c.optVals(c.args, "--log-file", "--write-batch", "--only-write-batch") {
			raise(c.writeArg(f, "rsync log or batch file"))
		}
		// -p (and -a) keep modes, setuid bits included, like cp -p.
		if perms := c.flagSet('p', "--perms", 4) || c.flagSet('a', "--archive", 4); perms && c.ctx.root {
			raise(rsyncAsRoot(c))
		}
		if c.flagSet('p', "--perms", 4) || c.flagSet('a', "--archive", 4) {
			for _, a := range c.args[:max(0, len(c.args)-1)] {
				if a.known && c.e.localSetid(a.val) {
					raise(TierDestructive, "rsync: copies setuid file "+a.val+" with its mode")
				}
			}
		}
	case "mosh":
	}
	if c.name == "rsync" || c.name == "scp" {
		var r raiser
		c.copyWrites(valueShort+clusterValues[c.name], &r)
		raise(r.t, r.why)
	}
	if c.name == "ssh-copy-id" {
		raise(TierMutate, "ssh-copy-id: installs a key on another host")
	}
	noConnect := c.name == "ssh" && sshNoConnect(c.args, valueShort)
	if noConnect {
		t, why = TierRead, "ssh -G or -V: prints its configuration or version, connecting nowhere"
	}
	args := c.args
	var ops []arg
	dashdash := false
	master, controlPath := false, arg{}
	batch := false // sftp -b: its commands come from the file it names
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		if dashdash || !strings.HasPrefix(v, "-") || v == "-" {
			if c.name == "ssh" && (dashdash || len(ops) > 0) {
				// ssh reads options after its destination too (ssh
				// host -oProxyCommand=… runs it here); they end at
				// "--" or the remote command's first word.
				ops = append(ops, args[i:]...)
				break
			}
			ops = append(ops, a)
			continue
		}
		if !a.known {
			c.e.opaque = true
			raise(TierDestructive, c.name+": options computed at run time")
			continue
		}
		if v == "--" {
			dashdash = true
			continue
		}
		if c.name == "rsync" || c.name == "mosh" {
			name, val, has := strings.Cut(v, "=")
			switch {
			case name == "-e" || name == "--rsh" || name == "--rsync-path" || name == "--ssh" || strings.HasPrefix(v, "-e") && len(v) > 2 && !strings.HasPrefix(v, "--"):
				if !has {
					if strings.HasPrefix(v, "-e") && len(v) > 2 {
						val = v[2:]
					} else if i+1 < len(args) {
						i++
						val = args[i].val
						if !args[i].known {
							c.e.opaque = true
							raise(TierDestructive, c.name+" "+name+": command computed at run time")
						}
					}
				}
				// The remote-shell command is run locally; the rsync
				// path remotely. Both are shell text.
				c.shell(val, c.name+" "+name+" command", nil, false)
				if !(dry && sshRemoteShell(name, val)) {
					raise(TierMutate, c.name+" "+name)
				}
			case c.name == "rsync" && (name == "--config" || name == "--dparam" || (name == "-M" || strings.HasPrefix(name, "-M")) && rsyncDaemon(args)):
				// A daemon's configuration, from the file or set with
				// --dparam/-M (the client's -M sends options instead),
				// runs its pre-xfer exec and post-xfer exec programs.
				raise(TierDestructive, "rsync --daemon "+truncate(v, 64)+": its configuration runs the programs pre-xfer and post-xfer exec name")
				param := val
				if name != "--dparam" && name != "--config" {
					param = strings.TrimPrefix(v, "-M")
				}
				if param == "" && i+1 < len(args) {
					i++
					param = args[i].val
				}
				if k, cmd, ok := strings.Cut(param, "="); ok && strings.Contains(strings.ToLower(k), "exec") {
					c.shell(cmd, "rsync daemon "+strings.TrimSpace(k), nil, false)
				}
			case name == "--chmod" && (setidMode(strings.TrimLeft(val, "DF")) || strings.Contains(val, "s")):
				raise(TierDestructive, c.name+" --chmod="+val+": sets a setuid or setgid bit")
			case name == "--log-file" || name == "--write-batch" || name == "--only-write-batch":
				if has {
					raise(c.writeArg(arg{val: val, known: a.known}, c.name+" "+name))
				}
			case (strings.HasPrefix(name, "--delete") || name == "--remove-source-files" || name == "--remove-sent-files" || name == "--del") && !dry:
				// Under -n they report what they would remove.
				raise(TierDestructive, c.name+" "+name+": removes files")
			case name == "--config" || name == "--password-file" || name == "--files-from" || name == "--exclude-from" || name == "--include-from":
			case name == "-n" || name == "--dry-run":
			}
			continue
		}
		if strings.HasPrefix(v, "--") {
			continue
		}
		for j := 1; j < len(v); j++ {
			f := v[j]
			if f == 'M' && c.name == "ssh" {
				master = true
			}
			// -A is ForwardAgent=yes (scp and sftp take it too), -X and
			// -Y ForwardX11: the remote side can then use the agent's
			// keys or the display, as the -o spellings let it.
			if f == 'A' && (c.name == "ssh" || c.name == "scp" || c.name == "sftp") || (f == 'X' || f == 'Y') && c.name == "ssh" {
				raise(TierMutate, fmt.Sprintf("%s -%c: forwards the agent's keys or the X display to the remote host", c.name, f))
			}
			if strings.IndexByte(valueShort, f) < 0 {
				continue
			}
			val := v[j+1:]
			if val == "" && i+1 < len(args) {
				i++
				val = args[i].val
				if !args[i].known {
					c.e.opaque = true
					raise(TierDestructive, fmt.Sprintf("%s -%c: value computed at run time", c.name, f))
				}
			}
			switch f {
			case 'o':
				raise(sshOptionRisk(val))
				if cmdText, ok := sshOptionCommand(val); ok {
					c.loginShell(cmdText, c.name+" -o command")
				}
				if k, v, ok := sshOptionKV(val); ok && k == "controlmaster" {
					master = master || v != "no"
				} else if ok && k == "controlpath" {
					controlPath = arg{val: v, known: true}
				} else if ok && (k == "localforward" || k == "remoteforward" || k == "permitremoteopen" || k == "permitopen" || k == "canonicaldomains") {
					// The host connections are forwarded to, or the
					// remote side may open; the search domains ssh
					// appends to a short destination name.
					c.forwardSpec("-o "+k, v)
				} else if ok && (k == "proxyjump" || k == "hostname") {
					// -o ProxyJump=H is -J H; -o HostName=H connects to H
					// whatever the destination word says.
					for _, h := range strings.Split(v, ",") {
						c.checkHost(h)
					}
				}
			case 'I':
				if c.name == "ssh" {
					raise(TierDestructive, "ssh -I: loads a PKCS#11 library")
				}
			case 'F':
				if val == "none" || val == "/dev/null" {
					break // no configuration file at all
				}
				if c.e.operatorFile(arg{val: val, known: true}, ".ssh") {
					c.configHosts("-F config", arg{val: val, known: true})
					break // the operator's own, as the default files are
				}
				raise(TierDestructive, c.name+" -F: reads a config file that can run commands")
				c.configHosts("-F config", arg{val: val, known: true})
			case 'S', 'D', 's':
				if c.name == "ssh" && f == 'S' {
					controlPath = arg{val: val, known: true}
					break
				}
				if c.name == "ssh" && f == 'D' {
					raise(TierMutate, "ssh -D: opens a SOCKS proxy")
					break
				}
				raise(TierDestructive, fmt.Sprintf("%s -%c: runs another program", c.name, f))
				c.shell(val, fmt.Sprintf("%s -%c program", c.name, f), nil, false)
			case 'b':
				if c.name == "sftp" {
					batch = true
					raise(TierDestructive, "sftp -b: runs batch commands")
					if val == "-" {
						// The batch is the input: its !cmd lines run
						// local shell commands, classified as ftp's are.
						c.ftpInput()
					}
				}
			case 'E':
				raise(c.writeArg(arg{val: val, known: true}, "ssh -E log file"))
			case 'L', 'R', 'w':
				raise(TierMutate, fmt.Sprintf("ssh -%c: forwards ports", f))
				c.forwardSpec(fmt.Sprintf("-%c", f), val)
			case 'J', 'W':
				if f == 'W' {
					// Standard input and output become a connection from
					// the remote host to host:port, as -L would forward.
					raise(TierMutate, "ssh -W: forwards a connection")
				}
				for _, h := range strings.Split(val, ",") {
					c.checkHost(h)
				}
			}
			break
		}
	}
	if p := controlPath.val; master && p != "" && !strings.EqualFold(p, "none") {
		// A master connection creates its control socket there.
		wt, wwhy, deny := c.e.writeTarget(controlPath)
		if deny != "" {
			c.e.deny("ssh control socket: " + deny)
		}
		raise(wt, "ssh control socket: "+wwhy)
	}
	if c.name == "sftp" && !batch {
		// Without -b, sftp reads its commands from standard input, a
		// pipe or file as much as a terminal, and "!" runs a local shell
		// command there as in a batch.
		raise(c.ftpInput())
	}
	if c.name != "ssh" && c.name != "mosh" {
		// scp, sftp, rsync, ssh-copy-id: every host:path operand.
		for _, o := range ops {
			if !o.known {
				continue
			}
			if strings.Contains(o.val, "://") || strings.Contains(o.val, ":") || strings.Contains(o.val, "@") {
				c.checkHost(o.val)
			}
		}
		if (c.name == "ssh-copy-id" || c.name == "sftp") && len(ops) > 0 {
			c.checkHost(ops[0].val) // [user@]host, no colon needed
		}
		return t, why
	}
	if len(ops) == 0 {
		return t, why
	}
	dest := ops[0]
	if !dest.known {
		c.e.opaque = true
		raise(TierDestructive, c.name+": destination computed at run time")
	} else {
		c.checkHost(dest.val)
	}
	if noConnect {
		return t, why // neither a shell nor a command runs there
	}
	rest := ops[1:]
	if c.name == "mosh" {
		if len(rest) > 0 && rest[0].val == "--" {
			rest = rest[1:]
		}
	}
	if len(rest) == 0 {
		if hasOpt(c.args, 'N', "") {
			return t, why
		}
		st, swhy := c.stdinProgram("remote shell on " + dest.val)
		raise(st, swhy)
		return t, why
	}
	if !allKnown(rest) {
		c.e.opaque = true
		raise(TierDestructive, c.name+": remote command computed at run time")
	}
	// The remote side joins the arguments with spaces and runs them with
	// its shell.
	ctx := c.ctx
	// What ssh reads goes to the remote command: unknown there, but the
	// deny list still scans it (printf reboot | ssh h sh).
	in := stdinSrc{kind: stdinUnknown, alts: c.ctx.stdin.alts}
	if c.ctx.stdin.kind == stdinText && c.ctx.stdin.text != "" {
		in.alts = append(in.alts[:len(in.alts):len(in.alts)], c.ctx.stdin.text)
	}
	ctx.stdin = in
	ctx.zsh = true // the login shell there may be zsh
	sub := &call{e: c.e, name: c.name, args: c.args, ctx: ctx}
	sub.shell(strings.Join(argVals(rest), " "), "remote command on "+dest.val, nil, false)
	return t, why
}

// rsyncDaemon reports whether rsync's words start a daemon.
// rsyncTransfersNothing reports whether rsync only prints: -n
// (--dry-run) makes every file system call a no-op on both sides, and
// --list-only, or a lone source, lists it; remote says an operand names
// another host (HOST:PATH, HOST::MODULE, rsync://), whose rsync is told
// -n too. A daemon, an option for the remote side (-M), a "--no-" option
// (which might undo -n), and a word computed at run time (which may be
// any option) leave it a copy, and so does a remote path holding more
// than a plain path's characters: an rsync before 3.2.4, or one given
// --old-args, hands it to the remote shell, which runs a $(…) there.
// Options that write logs or batch files, or run a shell, are raised on
// their own.
func rsyncTransfersNothing(c *call, valueShort string) (nothing, remote bool) {
	for _, a := range c.args {
		if !a.known || strings.HasPrefix(a.val, "--no") || a.val == "--daemon" {
			return false, false
		}
		if strings.Contains(a.val, ":") {
			if !plainRemote(a.val) {
				return false, false
			}
			remote = true
		}
	}
	if c.flagSet('M', "--remote-option", 3) || c.flagSet(0, "--daemon", 4) || c.flagSet(0, "--server", 4) {
		return false, false
	}
	dry, list := rsyncDryOrList(c.args, valueShort)
	return dry || list && c.copyTargets(valueShort) == nil, remote
}

// sshRemoteShell reports whether rsync's option name (-e, --rsh) names
// cmd, shell text the classifier has read, as the remote shell and its
// program is ssh, which takes the host and the remote rsync as its
// destination and command: a dry run through it reaches the host as ssh
// HOST does. Another program (sh -c) would take the host for a command.
func sshRemoteShell(name, cmd string) bool {
	if name == "--rsync-path" {
		return false
	}
	f := strings.Fields(cmd)
	return len(f) > 0 && path.Base(f[0]) == "ssh"
}

// plainRemote reports whether w holds only the characters of a plain
// host and path, none a remote shell would act on.
func plainRemote(w string) bool {
	for i := 0; i < len(w); i++ {
		b := w[i]
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || strings.IndexByte("._-/:@+=,%", b) >= 0) {
			return false
		}
	}
	return true
}

// rsyncDryOrList reports whether rsync's options hold -n (--dry-run) and
// --list-only, read as rsync reads them: a value option takes the next
// word (--exclude -n excludes "-n", -e -n names a shell), a short cluster
// ends at a letter that takes a value, and only the full long names count.
func rsyncDryOrList(args []arg, valueShort string) (dry, list bool) {
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "--":
			return dry, list
		case strings.HasPrefix(v, "--"):
			name, _, has := strings.Cut(v, "=")
			dry = dry || v == "--dry-run"
			list = list || v == "--list-only"
			if has {
				continue
			}
			for _, o := range append(rsyncValueLong, copyValueLong...) {
				if strings.HasPrefix(o, name) {
					i++
					break
				}
			}
		case len(v) > 1 && v[0] == '-':
			for j := 1; j < len(v); j++ {
				if v[j] == 'n' {
					dry = true
				}
				if strings.IndexByte(valueShort+"@", v[j]) >= 0 {
					if j == len(v)-1 {
						i++
					}
					break
				}
			}
		}
	}
	return dry, list
}

func rsyncDaemon(args []arg) bool {
	for _, a := range args {
		if a.val == "--daemon" {
			return true
		}
	}
	return false
}

// sshNoConnect reports whether ssh is given -G (print the configuration
// for the destination and exit) or -V (print the version and exit),
// among the options before its destination or right after it, where ssh
// reads them; the same letters in the remote command are the command's.
func sshNoConnect(args []arg, valueShort string) bool {
	host := false
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if !args[i].known || v == "--" {
			return false
		}
		if len(v) < 2 || v[0] != '-' {
			if host {
				return false
			}
			host = true
			continue
		}
		for k := 1; k < len(v); k++ {
			if v[k] == 'G' || v[k] == 'V' {
				return true
			}
			if strings.IndexByte(valueShort, v[k]) >= 0 {
				if k == len(v)-1 {
					i++
				}
				break
			}
		}
	}
	return false
}
