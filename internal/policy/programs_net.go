package policy

import (
	"fmt"
	"strings"
)

// lftpSeps are what ends a command in lftp's command language.
var lftpSeps = strings.NewReplacer("&&", ";", "||", ";", "&", ";", "\n", ";")

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
			// wgetrc's use_askpass = PROGRAM, set with -e (wgetrc takes
			// the name with or without its underscore, in any case).
			if k, v, ok := strings.Cut(e.val, "="); ok && e.known &&
				strings.EqualFold(strings.ReplaceAll(strings.TrimSpace(k), "_", ""), "useaskpass") {
				c.e.runsDenied([]string{strings.TrimSpace(v)}, c.ctx, "wget use_askpass")
			}
		}
		for _, a := range c.optVals(c.args, "--use-askpass") {
			if a.known {
				c.e.runsDenied([]string{a.val}, c.ctx, "wget --use-askpass")
			}
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
			for _, v := range c.optVals(c.args, "-e", "--exec") {
				if v.known {
					c.e.runsDenied([]string{v.val}, c.ctx, c.name+" -e") // ncat splits it into words
				}
			}
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
			if i := strings.Index(u, "EXEC:"); i >= 0 {
				// EXEC:cmdline,opts: the words before the first comma.
				line, _, _ := strings.Cut(v[i+len("EXEC:"):], ",")
				c.e.runsDenied([]string{line}, c.ctx, "socat EXEC:")
				raise(TierDestructive, "socat EXEC: runs a program")
			}
		}
		raise(TierMutate, "socat: raw network relay")
		raise(socatAddresses(c))
	case "lftp", "ftp":
		if hasFlag(vals, 'c', "") || hasFlag(vals, 'e', "") || hasFlag(vals, 'f', "") {
			// lftp -c 'open h; !reboot': a command starting with ! runs
			// in a local shell.
			for _, v := range c.optVals(c.args, "-c", "-e") {
				for _, cmd := range strings.FieldsFunc(lftpSeps.Replace(v.val), func(r rune) bool { return r == ';' }) {
					if rest, ok := strings.CutPrefix(strings.TrimSpace(cmd), "!"); ok && v.known {
						c.shell(rest, c.name+" ! command", nil, false)
					}
				}
			}
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
