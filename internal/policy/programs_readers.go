package policy

import (
	"path"
	"slices"
	"strings"
)

// readOpts classifies the options of read-only programs that write files,
// change state or run programs: tree -o, sar -o, sdiff -o, dmidecode
// --dump-bin, file -C, ss -K and -D, sensors -s, lastlog -C/-S, fd -x/-X,
// rg --pre, bat cache --build, pidstat -e, ausearch --checkpoint,
// colordiff --difftprogram, blkid -c, tree -R, nstat -d, the plugins
// named-checkconf loads.
func readOpts(c *call) (Tier, string) {
	r := raiser{TierRead, c.name + ": read-only"}
	vals := c.vals()
	switch c.name {
	case "tree", "sar", "sdiff", "diff3":
		if c.name != "diff3" {
			for _, f := range c.optVals(c.args, "-o", "--output") {
				r.raise(c.writeArg(f, c.name+" -o"))
			}
		}
		for i, a := range c.args {
			// --diff-program=PROG runs PROG in place of diff; it is the
			// only long option of sdiff and diff3 that begins with d,
			// so getopt_long takes --d and every longer prefix.
			name, val, has := strings.Cut(a.val, "=")
			if c.name == "tree" || c.name == "sar" || len(name) < len("--d") || !strings.HasPrefix("--diff-program", name) {
				continue
			}
			v := arg{val: val, known: a.known}
			if !has && i+1 < len(c.args) {
				v = c.args[i+1]
			}
			c.shellArg(v, c.name+" --diff-program")
			r.raise(TierDestructive, c.name+" --diff-program: runs "+truncate(v.val, 64)+" in place of diff")
		}
		if c.name == "sar" && sarDailyFile(c.args) {
			r.raise(TierMutate, "sar -o: writes the system's daily activity file")
		}
		if c.name == "tree" && treeRecurse(vals) {
			r.raise(TierMutate, "tree -R: writes 00Tree.html in every directory")
		}
	case "colordiff":
		// colordiff takes --difftprogram=PROG from anywhere in its
		// arguments, before or after "--", and runs PROG in place of diff.
		for _, a := range c.args {
			if v, ok := strings.CutPrefix(a.val, "--difftprogram="); ok {
				c.shellArg(arg{val: v, known: a.known}, "colordiff --difftprogram")
				r.raise(TierDestructive, "colordiff --difftprogram: runs "+truncate(v, 64)+" in place of diff")
			}
		}
	case "dmidecode":
		for _, f := range c.optVals(c.args, "--dump-bin") {
			r.raise(c.writeArg(f, "dmidecode --dump-bin"))
		}
	case "lshw":
		for _, f := range c.optVals(c.args, "-dump") {
			r.raise(c.writeArg(f, "lshw -dump"))
		}
		// -dump FILE is OUTFILE=FILE plus -enable output:db, and the
		// second alone writes the database to $OUTFILE.
		for _, e := range c.optVals(c.args, "-enable") {
			if !e.known || strings.EqualFold(e.val, "output:db") {
				r.raise(TierMutate, "lshw -enable output:db: writes the database $OUTFILE names")
			}
		}
	case "zstdcat":
		for _, f := range c.optVals(c.args, "-o") {
			r.raise(c.writeArg(f, "zstdcat -o"))
		}
		if removesSource(c) {
			r.raise(TierMutate, "zstdcat --rm: deletes the files it reads")
		}
	case "lz4cat":
		// lz4cat --rm deletes each file it decompressed to the output.
		for _, a := range c.args {
			if a.val == "--" {
				break
			}
			if a.val == "--rm" {
				r.raise(TierMutate, "lz4cat --rm: deletes the files it reads")
			}
		}
	case "base64":
		// The BSD and macOS base64 write to -o/--output.
		for _, f := range c.optVals(c.args, "-o", "--output") {
			r.raise(c.writeArg(f, "base64 -o"))
		}
	case "systemd-analyze":
		r.raise(analyzeVerb(c))
		r.raise(c.daemonHost())
	case "vcgencmd":
		r.raise(vcgencmdCommand(c))
	case "file":
		if hasFlag(vals, 'C', "--compile") {
			r.raise(TierMutate, "file -C: writes a compiled magic file")
		}
		// file(1) names files; over ssh to RouterOS, file is a menu whose
		// remove and set delete and overwrite the router's files.
		if ops := getoptOperands(vals, "mfFPe", []string{"--magic-file", "--files-from", "--separator", "--exclude", "--parameter"}); len(ops) > 0 &&
			(routerOSVerbs[ops[0]] || ops[0] == "set" || ops[0] == "add") {
			r.raise(TierMutate, "file "+ops[0]+": RouterOS's file menu, which changes the router's files")
		}
	case "ss":
		if hasFlag(vals, 'K', "--kill") {
			r.raise(TierMutate, "ss -K: closes sockets")
		}
		for _, f := range c.optVals(c.args, "-D", "--diag") {
			r.raise(c.writeArg(f, "ss -D"))
		}
	case "ausearch":
		// The checkpoint file is rewritten at the end of every search.
		for _, f := range c.optVals(c.args, "--checkpoint") {
			r.raise(c.writeArg(f, "ausearch --checkpoint"))
		}
	case "blkid":
		// blkid saves its cache to -c's file; /dev/null is the usual way to
		// bypass the cache.
		for _, f := range c.optVals(c.args, "-c", "--cache-file") {
			if !f.known || f.val != "/dev/null" {
				r.raise(c.writeArg(f, "blkid -c"))
			}
		}
		if hasFlag(vals, 'g', "--garbage-collect") {
			r.raise(TierMutate, "blkid -g: rewrites its cache")
		}
	case "pidstat":
		// pidstat -e runs the rest of its arguments as a program to watch.
		for i, a := range c.args {
			if a.val == "--" {
				break
			}
			if !a.known || a.val != "-e" {
				continue
			}
			if cmd := c.args[i+1:]; len(cmd) > 0 {
				c.run(cmd)
			} else {
				r.raise(TierMutate, "pidstat -e: runs a program")
			}
			break
		}
	case "getent":
		// -s names the NSS services getent loads: libnss_NAME.so.2, which
		// glibc opens as a path when NAME has a slash, relative to the
		// working directory (-s 'x/../evil' loads ./evil.so.2 once a
		// libnss_x directory is there); "db:NAME" names one per database.
		for _, s := range c.optVals(c.args, "-s", "--service") {
			if !s.known || strings.ContainsRune(s.val, '/') {
				c.e.opaque = true
				r.raise(TierDestructive, "getent -s "+truncate(s.val, 64)+": loads the shared object a service name with a slash points at")
			}
		}
	case "named-checkconf":
		r.raise(namedCheckconf(c))
	case "nstat", "ifstat":
		// -d/--scan SECS forks a daemon that samples the counters every
		// SECS seconds until it is killed.
		if hasFlag(vals, 'd', "--scan") {
			r.raise(TierMutate, c.name+" -d: starts a daemon that keeps sampling")
		}
	case "sensors":
		if hasFlag(vals, 's', "--set") {
			r.raise(TierMutate, "sensors -s: sets chip limits")
		}
	case "lastlog":
		if hasFlag(vals, 'C', "--clear") || hasFlag(vals, 'S', "--set") {
			r.raise(TierMutate, "lastlog: changes login records")
		}
	case "bat", "batcat":
		if len(vals) > 0 && vals[0] == "cache" {
			r.raise(TierMutate, c.name+" cache: writes its cache")
		}
		if hasFlag(vals, 0, "--generate-config-file") {
			r.raise(TierMutate, c.name+" --generate-config-file: writes its config file")
		}
		if len(c.optVals(c.args, "--config-file")) > 0 {
			r.raise(TierDestructive, c.name+" --config-file: a config file can name the pager it runs")
		}
	case "procs":
		if len(c.optVals(c.args, "--load-config")) > 0 {
			r.raise(TierDestructive, "procs --load-config: a config file can name the pager it runs")
		}
	case "rg":
		// --hostname-bin names a program rg runs, with no arguments, for
		// the host name of its hyperlinks.
		for _, p := range c.optVals(c.args, "--hostname-bin") {
			if !p.known {
				c.e.opaque = true
				r.raise(TierDestructive, "rg --hostname-bin: program computed at run time")
				continue
			}
			c.run([]arg{p})
		}
		for _, p := range c.optVals(c.args, "--pre") {
			if !p.known {
				c.e.opaque = true
				r.raise(TierDestructive, "rg --pre: program computed at run time")
				continue
			}
			c.run([]arg{p, unknownArg})
		}
	case "fd", "fdfind":
		if !slices.ContainsFunc(c.args, func(a arg) bool { _, ok := fdExec(a); return ok }) {
			c.e.noteListed(fdPaths(c.args)) // what it prints, without -x or -X
		}
		for i, a := range c.args {
			first, ok := fdExec(a)
			if !ok {
				continue
			}
			j := i + 1
			for j < len(c.args) && c.args[j].val != ";" {
				j++
			}
			words := c.args[i+1 : j]
			if first != "" {
				words = append([]arg{{val: first, known: true}}, words...)
			}
			cmd := findSubst(words, "")
			if !strings.Contains(strings.Join(argVals(words), " "), "{") {
				cmd = append(cmd, unknownArg)
			}
			if len(cmd) > 0 {
				c.run(cmd)
			}
			break
		}
	}
	return r.t, r.why
}

// treeRecurse reports whether tree is given -R, which runs tree again in
// every directory with -o 00Tree.html. tree's options that take a value
// take the next word, so every letter of a cluster is an option (-LR 2 is
// -L 2 -R).
func treeRecurse(vals []string) bool {
	for _, v := range vals {
		if v == "--" {
			return false
		}
		if len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.IndexByte(v, 'R') > 0 {
			return true
		}
	}
	return false
}

// fdPaths returns the directories fd searches: the operands after its
// pattern and the values of --search-path, up to its command (-x, -X),
// or the working directory.
func fdPaths(args []arg) []string {
	var vals []string
	for _, a := range args {
		if _, ok := fdExec(a); ok || !a.known {
			break
		}
		vals = append(vals, a.val)
	}
	var out []string
	for i, v := range vals {
		if v == "--search-path" && i+1 < len(vals) {
			out = append(out, vals[i+1])
		} else if p, ok := strings.CutPrefix(v, "--search-path="); ok {
			out = append(out, p)
		}
	}
	if ops := operandsSkipping(vals, "etEdScjo", fdValueLongs); len(ops) > 1 {
		out = append(out, ops[1:]...)
	}
	if len(out) == 0 {
		out = append(out, ".")
	}
	return out
}

// fdValueLongs are fd's long options with a separate value.
var fdValueLongs = strings.Fields(`--extension --type --max-depth --min-depth --exact-depth --exclude --color
	--threads --search-path --base-directory --size --changed-within --changed-before --owner
	--max-results --path-separator --ignore-file --format --batch-size --and`)

// fdExec reports whether a is fd's -x/--exec or -X/--exec-batch, in
// any spelling clap reads ("--exec=rm", "-xrm", "-Hx rm", "--exec-b"),
// and returns the command word attached to it, if any.
func fdExec(a arg) (string, bool) {
	v := a.val
	if !a.known || len(v) < 2 || v[0] != '-' {
		return "", false
	}
	if strings.HasPrefix(v, "--") {
		name, val, _ := strings.Cut(v, "=")
		if len(name) >= 5 && (strings.HasPrefix("--exec", name) || strings.HasPrefix("--exec-batch", name)) {
			return val, true
		}
		return "", false
	}
	for j := 1; j < len(v); j++ {
		switch f := v[j]; {
		case f == 'x' || f == 'X':
			return v[j+1:], true
		case strings.IndexByte("etEdScjo", f) >= 0:
			return "", false // the rest is that option's value
		}
	}
	return "", false
}

// sarDailyFile reports whether sar is given -o without a file name: sar
// takes the next word as the name only when it is neither an option nor
// a number (the interval), and otherwise appends to the system's daily
// file (/var/log/sa/saDD), as -o last on the line does too.
func sarDailyFile(args []arg) bool {
	for i, a := range args {
		if a.val != "-o" {
			continue
		}
		if i+1 == len(args) {
			return true
		}
		next := args[i+1]
		if next.known && (strings.HasPrefix(next.val, "-") || allDigits(next.val)) {
			return true
		}
	}
	return false
}

// namedCheckconf: named-checkconf loads every plugin the configuration
// it checks names (plugin query "/x/filter.so" { … };), dlopen running
// the library's code, unless -c checks the core configuration only. So
// only the system's own configuration, which only root writes (the
// default, or a file under /etc or /usr/local/etc), is a read; -t DIR
// chroots to DIR before the file is read. Its options are getopt's
// ("acdhijklm:t:pvxz"), clusters included, ending at the file's name.
func namedCheckconf(c *call) (Tier, string) {
	const why = ": a configuration it checks can name a plugin, a shared object it loads"
	core, chroot := false, ""
	var file *arg
	for i := 0; i < len(c.args) && file == nil; i++ {
		a := c.args[i]
		if !a.known {
			return TierMutate, "named-checkconf: argument computed at run time" + why
		}
		v := a.val
		if v == "--" {
			if i+1 < len(c.args) {
				file = &c.args[i+1]
			}
			break
		}
		if len(v) < 2 || v[0] != '-' {
			file = &c.args[i]
			break
		}
		for j := 1; j < len(v); j++ {
			if v[j] == 'c' {
				core = true
			}
			if v[j] != 't' && v[j] != 'm' {
				continue
			}
			val := v[j+1:]
			if val == "" && i+1 < len(c.args) {
				i++
				if !c.args[i].known {
					return TierMutate, "named-checkconf: argument computed at run time" + why
				}
				val = c.args[i].val
			}
			if v[j] == 't' && path.Clean(val) != "/" {
				chroot = val
			}
			break
		}
	}
	switch {
	case core:
		return TierRead, "named-checkconf -c: checks the core configuration, loading no plugin"
	case chroot != "":
		return TierMutate, "named-checkconf -t " + truncate(chroot, 64) + why
	case file == nil:
		return TierRead, "named-checkconf: checks the system's configuration"
	case !file.known:
		return TierMutate, "named-checkconf: file computed at run time" + why
	}
	if systemConfig(file.val) {
		return TierRead, "named-checkconf: checks the system's configuration"
	}
	return TierMutate, "named-checkconf " + truncate(file.val, 64) + why
}

// systemConfig reports whether a configuration file named by its path is
// the system's own, under /etc or /usr/local/etc (the BSDs' and the
// appliances built on them), which only root writes: a relative path
// depends on a working directory the classifier does not follow.
func systemConfig(p string) bool {
	f := path.Clean(p)
	return strings.HasPrefix(f, "/etc/") || strings.HasPrefix(f, "/usr/local/etc/")
}
