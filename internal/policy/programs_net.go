package policy

import (
	"fmt"
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
		raise(TierMutate, "rsync: copies files")
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
				raise(TierMutate, c.name+" "+name)
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
			case strings.HasPrefix(name, "--delete") || name == "--remove-source-files" || name == "--remove-sent-files" || name == "--del":
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

// runTimeHost reports whether the host part of a URL is computed at run
// time: http://$H/, https://user@$(cat h)/.
func runTimeHost(v string) bool {
	v = v[strings.Index(v, "://")+3:]
	if j := strings.IndexAny(v, "/?#"); j >= 0 {
		v = v[:j]
	}
	return strings.ContainsAny(v, "$`")
}

// netProgram classifies curl, wget, nc and the like: every URL and host
// argument against host deny rules; uploads, downloads to files and
// programs run on connection raise the tier.
func netProgram(c *call) (Tier, string) {
	t, why := TierBenign, c.name+": network request"
	raise := func(nt Tier, nwhy string) {
		if nt > t {
			t, why = nt, nwhy
		}
	}
	vals := c.vals()
	globs := c.name == "curl" && !globOff(c.args)
	web := webClients[c.name]
	for i, v := range vals {
		if v == "" || strings.HasPrefix(v, "-") {
			if _, val, ok := strings.Cut(v, "="); ok && strings.Contains(val, "://") {
				c.checkHostAs(val, false)
				if len(c.e.p.denyHosts) > 0 {
					raise(c.curlGlobbed(val, globs))
				}
			}
			continue
		}
		if web {
			raise(c.webHosts(i, globs))
		}
		if !c.args[i].known && len(c.e.p.denyHosts) > 0 && relays[c.name] {
			// nc "$h" 80, socat - "TCP:$h:80": any word of a relay
			// may be where it connects.
			c.e.opaque = true
			raise(TierDestructive, c.name+": "+truncate(v, 64)+": destination computed at run time, which host rules cannot check")
		}
		if !c.args[i].known && len(c.e.p.denyHosts) > 0 && strings.Contains(v, "://") && runTimeHost(v) {
			// A host known only at run time may be one the rules deny.
			c.e.opaque = true
			raise(TierDestructive, c.name+": "+truncate(v, 64)+": destination computed at run time, which host rules cannot check")
		}
		if c.name == "curl" && strings.HasPrefix(v, "@") {
			// "@-" and "@FILE" are curl's spellings of standard input
			// and a file (-w, -d, -F, -H, -K): never a host beginning
			// with '-' handed to another program. The rules still apply
			// to the host a URL "@host" would reach.
			if r, ok := c.e.p.hostDenied(v); ok {
				c.e.deny(fmt.Sprintf("%s: destination %q is denied by host rule %q", c.name, v, r))
			}
		} else {
			c.checkHostAs(v, zeroBeforePort(c.name, vals, i))
		}
		if relays[c.name] {
			// TCP:[::ffff:169.254.169.254]:80,bind=…: a relay's
			// address in every field.
			c.forwardSpec("address", v)
		} else if !strings.Contains(v, "://") {
			for _, piece := range strings.Split(v, ":") {
				if r, ok := c.e.p.hostDenied(piece); ok {
					c.e.deny(fmt.Sprintf("%s: %q is denied by host rule %q", c.name, piece, r))
				}
			}
		}
	}
	switch c.name {
	case "curl":
		for _, f := range c.optVals(c.args, "-o", "--output", "-D", "--dump-header", "--trace", "--trace-ascii",
			"-c", "--cookie-jar", "--libcurl", "--etag-save", "--hsts", "--alt-svc", "--stderr", "--ssl-sessions") {
			if !f.known || f.val != "-" && f.val != "%" && f.val != "/dev/null" {
				raise(c.writeArg(f, "curl output"))
			}
		}
		for _, w := range c.optVals(c.args, "-w", "--write-out") {
			if !w.known || strings.HasPrefix(w.val, "@") {
				// -w @FILE (or @- for standard input) reads the format
				// from a file the classifier cannot see, whose
				// %output{FILE} writes where it says.
				raise(TierMutate, "curl --write-out "+truncate(w.val, 64)+": a format read at run time can write files (%output{…})")
				continue
			}
			if k := strings.Index(w.val, "%output{"); k >= 0 {
				f, _, _ := strings.Cut(w.val[k+len("%output{"):], "}")
				raise(c.writeArg(arg{val: strings.TrimPrefix(f, ">>"), known: w.known}, "curl --write-out %output"))
			}
		}
		for _, f := range c.optVals(c.args, "-K", "--config") {
			c.configHosts("-K config", f)
		}
		c.curlExpanded()
		r := raiser{t, why}
		curlRequest(c, &r)
		t, why = r.t, r.why
	case "wget":
		for _, f := range c.optVals(c.args, "-o", "--output-file", "-a", "--append-output", "--save-cookies", "--warc-file", "--rejected-log", "-P", "--directory-prefix", "--hsts-file") {
			raise(c.writeArg(f, "wget output"))
		}
		for _, f := range c.optVals(c.args, "-O", "--output-document") {
			if f.val != "-" {
				raise(c.writeArg(f, "wget -O"))
			}
		}
		// getopt_long: -e in a cluster (-qe CMD, -eCMD) and abbreviated
		// long names (--exec=, --conf=) are the same options.
		for _, e := range c.optVals(c.args, "-e", "--execute", "--config", "--use-askpass", "-i", "--input-file") {
			raise(TierDestructive, "wget "+truncate(e.val, 64)+": runs commands or reads options from a file")
		}
		for _, e := range c.optVals(c.args, "-e", "--execute") {
			c.forwardSpec("-e", e.val) // https_proxy=HOST, a URL
		}
		for _, f := range c.optVals(c.args, "--config", "-i", "--input-file") {
			c.configHosts("input file", f)
		}
		for _, h := range c.optVals(c.args, "--header") {
			if m, ok := overriddenMethod(h.val); ok {
				raise(methodTier("wget --header="+truncate(h.val, 64), m, h.known))
			}
		}
		toStdout := false
		for i, v := range vals {
			switch {
			case v == "-e" || strings.HasPrefix(v, "--execute") || strings.HasPrefix(v, "--use-askpass") || v == "-i" || strings.HasPrefix(v, "--input-file") || strings.HasPrefix(v, "--config"):
				raise(TierDestructive, "wget "+v+": runs commands or reads options from a file")
			case (v == "-O" || v == "--output-document") && i+1 < len(vals) && vals[i+1] == "-",
				v == "-O-" || v == "-qO-" || v == "-qO" && i+1 < len(vals) && vals[i+1] == "-" || v == "--output-document=-" || v == "--spider":
				toStdout = true
			case wgetMethod(v, vals[i+1:]) == "DELETE":
				raise(TierDestructive, "wget --method=DELETE: deletes the resource, as kubectl delete would")
			case strings.HasPrefix(v, "--post") || strings.HasPrefix(v, "--body") || wgetMethod(v, vals[i+1:]) != "":
				raise(TierMutate, "wget "+v+": changes remote state")
			}
		}
		if !toStdout {
			raise(TierMutate, "wget: downloads to a file")
		}
	case "nc", "ncat", "netcat":
		// ncat parses with getopt_long: --sh-e, --exe, -lc CMD, -ve/bin/sh.
		for _, s := range c.optVals(c.args, "-c", "--sh-exec") {
			c.shell(s.val, c.name+" -c command", nil, false)
			raise(TierDestructive, c.name+" -c: runs a program on connection")
		}
		if len(c.optVals(c.args, "-e", "--exec", "--lua-exec")) > 0 {
			raise(TierDestructive, c.name+" -e: runs a program on connection")
		}
		// -z connects and closes, sending nothing: a port check, like a
		// request. Only -v, -n, -4, -6 and -w may come with it (-u sends
		// a probe byte, -l listens, -e/-c run programs).
		if ops, seen, ok := c.readOpts(optSpec{flags: "zvn46", valueShort: "w"}); ok && t < TierMutate && strings.Contains(seen, "z") && len(ops) >= 2 {
			return t, c.name + " -z: checks whether a port is open"
		}
		if c.flagSet('U', "--unixsock", 3) && !c.flagSet('l', "--listen", 3) {
			// As socat UNIX-CONNECT: what the input says goes to the
			// daemon behind the socket, with its privileges.
			raise(TierDestructive, c.name+" -U: speaks to the local service behind a Unix socket with its privileges")
		}
		raise(TierMutate, c.name+": raw network connection")
	case "socat":
		for _, v := range vals {
			u := strings.ToUpper(v)
			if i := strings.Index(u, "SYSTEM:"); i >= 0 {
				c.shell(v[i+len("SYSTEM:"):], "socat SYSTEM command", nil, false)
				raise(TierDestructive, "socat SYSTEM: runs a shell command")
			}
			if strings.Contains(u, "EXEC:") {
				raise(TierDestructive, "socat EXEC: runs a program")
			}
		}
		raise(TierMutate, "socat: raw network relay")
		raise(socatAddresses(c))
	case "lftp", "ftp":
		if hasFlag(vals, 'c', "") || hasFlag(vals, 'e', "") || hasFlag(vals, 'f', "") {
			raise(TierDestructive, c.name+": runs commands, which can include local shell commands")
		}
		raise(c.ftpInput())
	case "telnet", "aria2c":
		for _, v := range vals {
			// A configuration file can set the --on-download-* hooks;
			// getopt_long takes --conf for --conf-path.
			if name, _, _ := strings.Cut(v, "="); c.name == "aria2c" && len(name) >= len("--conf") && strings.HasPrefix("--conf-path", name) {
				raise(TierDestructive, "aria2c --conf-path: its configuration can name programs aria2c runs")
			}
		}
		raise(TierMutate, c.name+": raw connection or download")
	case "http", "https", "xh":
		for _, v := range vals {
			// HTTPie's argparse takes --down for --download, --out for --output.
			if strings.Contains(v, "=") || v == "-d" || longFlag(v, "--download") || v == "-o" || longFlag(v, "--output") {
				raise(TierMutate, c.name+": sends data or writes files")
			}
		}
		raise(httpieRequest(c))
		raise(httpieBody(c))
		raise(c.httpieSocket())
	}
	return t, why
}

// relays are netProgram's raw connection and relay programs, whose words
// are addresses (socat's TYPE:HOST:PORT,OPTIONS) rather than URLs.
var relays = set(`nc ncat netcat socat telnet`)

// wgetMethod returns the method wget's word v sets, upper-cased ("?"
// when it has no value), given the words after it, or "": getopt_long
// takes --method=M, --method M and every prefix of --method no other
// option of wget shares (--met, --meth=DELETE).
func wgetMethod(v string, next []string) string {
	name, val, eq := strings.Cut(v, "=")
	if len(name) < len("--met") || !strings.HasPrefix("--method", name) {
		return ""
	}
	if !eq {
		if len(next) == 0 {
			return "?"
		}
		val = next[0]
	}
	return strings.ToUpper(val)
}

// curlValueShort are curl's short options that take a value.
const curlValueShort = "AbcCdDeEFHKmoPQrtTuUwxXYyz"

// curlValueLong are the long options of curl that take a value, so that
// their values are not read as URLs or options.
var curlValueLong = set(`--request --data --data-ascii --data-binary --data-raw --data-urlencode
	--form --form-string --json --header --user --user-agent --referer --cookie --cookie-jar
	--output --upload-file --quote --config --url --proxy --proxy-user --max-time
	--connect-timeout --retry --retry-delay --retry-max-time --cacert --capath --cert --key
	--cert-type --key-type --pass --resolve --connect-to --interface --write-out --range
	--continue-at --limit-rate --max-filesize --output-dir --dump-header --trace --trace-ascii
	--stderr --unix-socket --abstract-unix-socket --variable --url-query --oauth2-bearer
	--aws-sigv4 --netrc-file --time-cond --ciphers --tls-max --local-port --dns-servers
	--doh-url --preproxy --socks5 --socks5-hostname --socks4 --socks4a --noproxy --mail-from
	--mail-rcpt --mail-auth --login-options --sasl-authzid --telnet-option --max-redirs
	--speed-limit --speed-time --proto --proto-redir --proto-default --hsts --alt-svc
	--etag-save --etag-compare --libcurl --ftp-port --ftp-method --ftp-account --proxy-header
	--proxy-cacert --proxy-cert --proxy-key --pinnedpubkey --create-file-mode --expect100-timeout
	--ssl-sessions --engine`)

// rawSchemes are URL schemes over which curl sends what the URL or its
// input holds to a service as it is: telnet sends stdin, gopher and dict
// send the path, mqtt publishes -d.
var rawSchemes = set(`telnet gopher gophers dict mqtt mqtts`)

// curlRequest classifies curl's options one by one, short clusters
// included (-sXPOST), and its URLs: a request method other than GET, HEAD
// or OPTIONS, uploads, FTP/SFTP quote commands, raw-protocol URLs, and
// arguments computed at run time, which can be any of these.
func curlRequest(c *call, r *raiser) {
	args := c.args
	for _, a := range args {
		// A BMC's Redfish reset action turns the machine off or restarts
		// it unless its body (denied when seen, deny_appliances.go) says
		// On: with a body from a file or computed, tier 3.
		if strings.Contains(strings.ToLower(a.val), "computersystem.reset") {
			r.raise(TierDestructive, "curl: posts to a BMC's ComputerSystem.Reset, which may power the machine off")
		}
	}
	scheme := "http"
	var urls []arg
	var q sockRequest
	opt := func(name string, val arg, hasVal bool) {
		q.note(name, val, hasVal)
		switch name {
		case "-X", "--request":
			m := strings.ToUpper(val.val)
			switch {
			case !hasVal:
			case !val.known:
				r.raise(TierMutate, "curl -X "+truncate(val.val, 64)+": request method computed at run time")
			case m == "DELETE":
				r.raise(TierDestructive, "curl -X DELETE: deletes the resource, as kubectl delete would")
			case m != "GET" && m != "HEAD" && m != "OPTIONS":
				r.raise(TierMutate, "curl -X "+truncate(m, 32)+": changes remote state")
			}
		case "-H", "--header":
			if m, ok := overriddenMethod(val.val); hasVal && ok {
				r.raise(methodTier("curl "+name+" "+truncate(val.val, 64), m, val.known))
			}
		case "-Q", "--quote":
			r.raise(TierMutate, "curl "+name+": sends FTP or SFTP commands (delete, rename, chmod)")
		case "-K", "--config":
			r.raise(TierDestructive, "curl -K: reads options from a file")
		case "-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar":
			// Output files are classified by their target above:
			// -o /dev/null and -o - write nothing.
			if !hasVal || !val.known || val.val != "-" && val.val != "/dev/null" {
				r.raise(TierMutate, "curl "+name+": writes a file")
			}
		case "-O", "-T", "-d", "-F", "--json", "--upload-file", "--form", "--form-string",
			"--data", "--data-ascii", "--data-binary", "--data-raw", "--data-urlencode",
			"--trace", "--trace-ascii", "--output-dir", "--remote-name",
			"--remote-name-all", "--libcurl", "--etag-save", "--hsts", "--alt-svc", "--ssl-sessions":
			r.raise(TierMutate, "curl "+name+": uploads data or writes files")
		case "--engine":
			// OpenSSL loads an engine not built in as a shared
			// object, by path or from its engines directory.
			if !hasVal || !val.known || val.val != "list" {
				r.raise(TierDestructive, "curl --engine "+truncate(val.val, 64)+": loads an OpenSSL engine, a shared library")
			}
		case "--url":
			urls = append(urls, val)
		case "--proto-default":
			scheme = strings.ToLower(val.val)
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		if !a.known {
			if c.mayBeOption(a) {
				r.raise(TierMutate, "curl: "+truncate(v, 64)+" is computed at run time and can become any option (a method, an upload, an output file)")
			}
			urls = append(urls, a)
			continue
		}
		switch {
		case v == "--":
			urls = append(urls, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(v, "--"):
			name, attached, eq := strings.Cut(v, "=")
			expand := strings.HasPrefix(name, "--expand-")
			if expand {
				name = "--" + name[len("--expand-"):]
			}
			names := curlLongNames(name, nil)
			takes := false
			for _, n := range names {
				takes = takes || curlTakesValue(n)
			}
			val, hasVal := arg{}, false
			switch {
			case takes && eq:
				val, hasVal = arg{val: attached, known: true}, true
			case takes && i+1 < len(args):
				val, hasVal = args[i+1], true
				i++
			}
			if expand && strings.Contains(val.val, "{{") {
				val.known = false // --expand-request '{{m}}': a variable's value
			}
			for _, n := range names {
				opt(n, val, hasVal)
			}
		case len(v) > 1 && v[0] == '-':
			for k := 1; k < len(v); k++ {
				f := "-" + v[k:k+1]
				if strings.IndexByte(curlValueShort, v[k]) < 0 {
					opt(f, arg{}, false)
					continue
				}
				if k+1 < len(v) {
					opt(f, arg{val: v[k+1:], known: true}, true)
				} else if i+1 < len(args) {
					opt(f, args[i+1], true)
					i++
				}
				break
			}
		default:
			urls = append(urls, a)
		}
	}
	if q.socket != "" {
		q.urls = urls
		r.raise(c.daemonRequest(q))
	}
	for _, u := range urls {
		if !u.known {
			continue
		}
		s := scheme
		if k := strings.Index(u.val, "://"); k > 0 {
			s = strings.ToLower(u.val[:k])
		}
		if rawSchemes[s] {
			r.raise(TierMutate, "curl "+s+"://: sends raw data to a service")
		}
	}
}

// netProbeProgram: traceroute, tracepath, mtr and the DNS clients read, and
// their destinations (dig's @SERVER included) are held to the host rules,
// as curl's are: a probe or a query can carry data to a host the operator
// denied. Every word that is not an option is checked; an option's value
// (-c 3) is checked too, which can only deny more.
func netProbeProgram(c *call) (Tier, string) {
	ops := 0
	for _, a := range c.args {
		if a.known && (a.val == "" || a.val[0] == '-' || a.val[0] == '+') {
			continue
		}
		ops++
		if !a.known {
			if w := c.computedDestination(a, ops); w != "" {
				c.e.opaque = true
				return TierDestructive, w
			}
			continue
		}
		c.checkHost(strings.TrimPrefix(a.val, "@"))
	}
	if fs := c.optVals(c.args, hostFileOptions[c.name]...); len(hostFileOptions[c.name]) > 0 && len(fs) > 0 {
		return TierMutate, c.name + " " + truncate(fs[0].val, 64) + ": reads the hosts it reaches from a file, which host rules cannot check"
	}
	return TierRead, c.name + ": read-only"
}

// computedDestination says why a word of a network probe known only at
// run time may be a destination the host rules deny, or returns "" (no
// rules, or the word is what a resolver is asked, not where the probe
// goes): ping, traceroute and mtr go to their operand; dig, host and
// nslookup ask the resolver for their first and go to @SERVER (dig) or
// their second operand.
func (c *call) computedDestination(a arg, op int) string {
	if len(c.e.p.denyHosts) == 0 {
		return ""
	}
	switch c.name {
	case "dig":
		if !strings.HasPrefix(a.val, "@") && !strings.HasPrefix(a.val, `"@`) {
			return ""
		}
	case "host", "nslookup":
		if op < 2 {
			return ""
		}
	}
	return c.name + ": destination " + truncate(a.val, 64) + " is known only at run time, so the host rules cannot check it"
}

// hostFileOptions are the options of network probes that read the names
// or addresses they reach (dig's batch file: "@server name" lines) from a
// file: host deny rules see none of them.
var hostFileOptions = map[string][]string{
	"dig": {"-f"},
	"mtr": {"-F", "--filename"},
}

// rsyncDaemon reports whether rsync's words start a daemon.
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
