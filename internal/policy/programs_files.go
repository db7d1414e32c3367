package policy

import (
	"path"
	"slices"
	"strings"
)

// rmProgram: recursive or forced removal is TierDestructive; the deny list
// has already refused system directories. A recursive removal of a relative
// wildcard is remembered: after a cd into a system directory it is denied.
func rmProgram(c *call) (Tier, string) {
	vals := c.vals()
	rec := hasFlag(vals, 'r', "--recursive") || hasFlag(vals, 'R', "")
	force := hasFlag(vals, 'f', "--force")
	for _, op := range operands(vals) {
		switch {
		case rec && relWipeWord(op):
			c.e.relWipe = "rm -r " + op
		case everyName(op):
			c.e.relFiles = "rm " + op
		}
	}
	if ps := c.e.pathsFor(); ps != nil && rec {
		// cd /tmp; rm -rf ../usr and cd /; rm -rf usr: a relative tree
		// is read against every directory a cd can make current
		// (relMutateVerdict), and the one before the last cd ($OLDPWD,
		// ~-) is one of them.
		for _, a := range c.args {
			switch w := strings.TrimSuffix(cwdSubst.Replace(unquote.Replace(a.val)), "/"); {
			case w == "$OLDPWD" || w == "~-":
				ps.addRelMutate(".", mutTree)
			case a.known && !strings.HasPrefix(w, "-"):
				ps.addRelMutate(a.val, mutTree)
			}
		}
	}
	for _, a := range c.args {
		if !a.known && !strings.HasPrefix(a.val, "-") && rec {
			return TierDestructive, "rm: recursive removal of a path known only at run time: " + truncate(a.val, 64)
		}
	}
	for _, o := range vals {
		// Removing a system program or library breaks the host as
		// moving it away does (mv is tier 3 for it). Options never
		// start with "/", so no operand list is built for this.
		if !strings.HasPrefix(o, "/") {
			continue
		}
		if why := systemProgramFile(path.Clean(o)); why != "" {
			return TierDestructive, c.name + ": " + strings.Replace(why, "replaces", "removes", 1) + truncate(o, 96)
		}
	}
	switch {
	case rec && force:
		return TierDestructive, "rm -rf: recursive forced removal"
	case rec:
		return TierDestructive, "rm -r: recursive removal"
	case force:
		return TierDestructive, "rm -f: forced removal"
	}
	return TierMutate, "rm: removes files"
}

// relWipeWord reports whether a word a recursive removal is given names
// everything in the working directory, or above it: ".", "*", "./*",
// "..", ".*", "$PWD". After a cd into a system directory that is the
// directory.
func relWipeWord(w string) bool {
	// The working directory by name: "$PWD", "$(pwd)/", ~+.
	w = strings.Replace(cwdSubst.Replace(unquote.Replace(w)), "$PWD", ".", 1)
	w = strings.Replace(w, "~+", ".", 1)
	switch strings.TrimSuffix(w, "/") {
	case "*", ".", "./*", "..", ".*", "../*", "./.*":
		return true
	}
	return w == "./"
}

// cdProgram notes a cd into a system directory or home, which makes a later
// "rm -rf *" catastrophic.
func cdProgram(c *call) (Tier, string) {
	ops := operands(c.vals())
	if len(ops) == 0 || criticalPath(ops[0]) || ops[0] == "~" {
		c.e.cdRoot = true
	}
	if len(ops) > 0 && strings.HasPrefix(ops[0], "/") && everyFileDirs[path.Clean(ops[0])] {
		c.e.cdFiles = true
	}
	if d, ok := c.cdEmptied(ops); ok {
		// The unknown variables in cd's target may be empty (cd
		// "$D"/ is cd /): the wipes after it are read as after that.
		c.e.cdRoot = c.e.cdRoot || criticalPath(d) || d == "~"
		c.e.cdFiles = c.e.cdFiles || strings.HasPrefix(d, "/") && everyFileDirs[path.Clean(d)]
	}
	return TierRead, c.name
}

// fileProgram classifies programs that modify the files they name.
func fileProgram(c *call) (Tier, string) {
	vals := c.vals()
	if c.name == "mv" || c.name == "chmod" || c.name == "chown" || c.name == "chgrp" || c.name == "touch" {
		// Moving a system program away, taking its execute bit or owner,
		// or creating /etc/nologin breaks the host or its logins.
		for _, o := range operands(vals) {
			if o != "" && o[0] == '/' {
				if why := systemProgramFile(path.Clean(o)); why != "" {
					r := raiser{TierDestructive, c.name + ": " + why + truncate(o, 96)}
					if c.name == "mv" {
						c.copyWrites("St", &r) // under a new name the deny list does not know
					}
					return r.t, r.why
				}
			}
		}
	}
	if c.name == "chmod" || c.name == "chown" || c.name == "chgrp" {
		// A system directory's own mode or owner: every program and
		// login crosses it (chmod 000 /usr stops every user but root).
		for _, o := range vals {
			if strings.HasPrefix(o, "/") && criticalPath(o) {
				return TierDestructive, c.name + ": changes the mode or owner of system directory " + truncate(o, 96)
			}
		}
	}
	switch c.name {
	case "mv":
		r := raiser{TierMutate, "mv: moves files"}
		c.copyWrites("St", &r)
		return r.t, r.why
	case "chmod":
		if ops := operands(vals); len(ops) > 0 && setidMode(ops[0]) {
			return TierDestructive, "chmod: sets a setuid or setgid bit"
		}
		return TierMutate, "chmod: changes permissions"
	case "chown", "chgrp":
		return TierMutate, c.name + ": changes ownership"
	case "truncate":
		return TierMutate, "truncate: changes file sizes"
	case "shred":
		return TierDestructive, "shred: destroys file contents"
	case "tee", "sponge":
		// sponge FILE writes FILE as tee does, once its input ends.
		// After "--" every word is a file, and so is "-" anywhere: GNU
		// tee writes a file named "-".
		t, why := TierRead, c.name
		opts := true
		for _, a := range c.args {
			if opts && a.known && a.val == "--" {
				opts = false
				continue
			}
			if opts && a.known && len(a.val) > 1 && a.val[0] == '-' {
				continue
			}
			wt, wwhy, deny := c.e.writeTarget(a)
			if deny != "" {
				c.e.deny(c.name + ": " + deny)
			}
			if wt > t {
				t, why = wt, c.name+": "+wwhy
			}
			if a.known && c.ctx.stdin.kind == stdinText && textRunsLater(wt, a.val) {
				// printf '… root poweroff\n' | tee /etc/cron.d/p, and a
				// program's start-up file in a home (redirect.go)
				c.e.scanText(c.ctx.stdin.text)
			}
		}
		return t, why
	case "dd":
		// Every of= counts; one that only discards (of=/dev/null, a
		// read speed test) writes nothing.
		t, why := TierRead, "dd: copies to standard output"
		for _, a := range c.args {
			if !a.known && !ddOtherOperand(c, a) {
				// "of=$x", or $x holding "of=/etc/passwd".
				wt, wwhy, _ := c.e.writeTarget(arg{val: a.val})
				t, why = maxTier(t, wt), "dd: "+wwhy
				continue
			}
			if v, ok := strings.CutPrefix(a.val, "of="); ok {
				wt, wwhy, deny := c.e.writeTarget(arg{val: v, known: a.known, glob: a.glob})
				if deny != "" {
					c.e.deny("dd: " + deny)
				}
				if wt == TierRead {
					if t == TierRead {
						why = "dd: copies to " + v
					}
					continue
				}
				if a.known && c.ctx.stdin.kind == stdinText && textRunsLater(wt, v) {
					c.e.scanText(c.ctx.stdin.text) // dd of=/etc/cron.d/x <<< '…', as tee's
				}
				if wt = maxTier(wt, TierMutate); wt > t {
					t, why = wt, "dd: "+wwhy
				}
			}
		}
		var ops []arg // if= and of=, as a copy's source and new name
		for _, k := range []string{"if=", "of="} {
			for _, a := range c.args {
				if v, ok := strings.CutPrefix(a.val, k); ok && a.known {
					ops = append(ops, arg{val: v, known: true})
					break
				}
			}
		}
		r := raiser{t, why}
		c.disguises(ops, &r)
		return r.t, r.why
	case "touch":
		for _, op := range getoptOperands(vals, "dtr", []string{"--date", "--reference", "--time"}) {
			if !tmpPath(op) {
				return TierMutate, "touch: creates or changes files"
			}
		}
		return TierBenign, "touch: in a temporary directory"
	case "mkdir":
		for _, m := range c.optVals(c.args, "-m", "--mode") {
			if !m.known || setidMode(m.val) {
				return TierDestructive, "mkdir -m " + m.val + ": sets a setuid or setgid bit"
			}
		}
		// Tier 1 runs where only the temporary directories are writable.
		for _, op := range getoptOperands(vals, "m", []string{"--mode"}) {
			if !tmpPath(op) {
				return TierMutate, "mkdir: creates directories outside the temporary directories"
			}
		}
		return TierBenign, "mkdir: in a temporary directory"
	}
	return TierMutate, c.name
}

// tmpPath reports whether p is inside a temporary directory.
func tmpPath(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	c := path.Clean(p)
	return strings.HasPrefix(c, "/tmp/") || strings.HasPrefix(c, "/var/tmp/")
}

// operandsSkipping is operands for programs whose listed options take a
// separate value.
func operandsSkipping(args []string, valueShort string, valueLong []string) []string {
	var out []string
	opts := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		if opts && a == "--" {
			opts = false
			continue
		}
		if opts && strings.HasPrefix(a, "--") {
			for _, l := range valueLong {
				if a == l {
					i++
				}
			}
			continue
		}
		if opts && len(a) > 1 && a[0] == '-' {
			last := a[len(a)-1]
			if strings.IndexByte(valueShort, last) >= 0 {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// ddOtherOperand reports whether an argument of dd computed at run time
// is provably one word naming an operand other than of= ("if=$dev").
func ddOtherOperand(c *call, a arg) bool {
	if splits, _ := c.computedShape(a); splits {
		return false
	}
	lead := strings.TrimLeft(a.val, `"'`)
	for _, o := range []string{"if=", "bs=", "ibs=", "obs=", "cbs=", "count=", "skip=", "iseek=", "status=", "iflag="} {
		if strings.HasPrefix(lead, o) {
			return true
		}
	}
	return false
}

// killProgram classifies kill, pkill and killall (init and "every process"
// are on the deny list).
func killProgram(c *call) (Tier, string) {
	vals := c.vals()
	switch c.name {
	case "fuser":
		if hasFlag(vals, 'k', "--kill") {
			for _, o := range operands(vals) {
				// fuser -k 22/tcp kills sshd, as pkill sshd does.
				if p, _, ok := strings.Cut(o, "/"); ok && (p == "22" || p == "ssh") {
					return TierDestructive, "fuser -k " + o + ": kills sshd"
				}
			}
			return TierMutate, "fuser -k: kills processes"
		}
		return TierRead, "fuser"
	case "kill", "killall":
		// killall -l lists signal names and exits, like kill -l.
		if len(vals) > 0 && (vals[0] == "-l" || vals[0] == "-L" && c.name == "kill" || vals[0] == "--list" || vals[0] == "--table" && c.name == "kill") &&
			(c.name == "kill" || len(vals) == 1) {
			return TierRead, c.name + " -l: lists signals"
		}
		if c.name == "kill" && c.killsOwnJob() {
			return TierRead, "kill $!: signals the job this script started"
		}
		if c.name == "kill" && len(vals) > 0 && (vals[0] == "-0" || len(vals) > 1 && vals[0] == "-s" && vals[1] == "0") && !laterSignal(vals) {
			// kill -0 $x with x='-s KILL 1' sends KILL: the options go on.
			if a, ok := c.computedOption(c.args); ok {
				return TierMutate, "kill: " + truncate(a.val, 64) + " is computed at run time and can become another signal"
			}
			return TierRead, "kill -0: checks a process exists"
		}
	}
	if c.name == "kill" {
		if why := killSubstDeny(c.args); why != "" {
			c.e.deny(why)
			return TierDestructive, why
		}
	}
	if why := killsEveryone(c); why != "" {
		return TierDestructive, why
	}
	for _, v := range vals {
		if strings.Contains(strings.ToLower(v), "warden") || v == "sshd" || v == "dropbear" || v == "systemd-journald" || v == "dbus-daemon" {
			return TierDestructive, c.name + ": kills " + v
		}
	}
	if why := killsKept(c); why != "" {
		return TierDestructive, why
	}
	return TierMutate, c.name + ": signals processes"
}

// laterSignal reports whether kill's words after a first signal 0 give
// another: kill takes the last (kill -0 -s 9 PID sends KILL), so any
// option word after it may be one.
func laterSignal(vals []string) bool {
	rest := vals[1:]
	if vals[0] == "-s" {
		rest = vals[2:]
	}
	for _, v := range rest {
		if v == "--" {
			return false
		}
		if strings.HasPrefix(v, "-") {
			return true
		}
	}
	return false
}

// findTests take one value.
var findValueTests = set(`-name -iname -path -ipath -wholename -iwholename -regex -iregex
	-type -xtype -size -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -user
	-group -uid -gid -perm -links -inum -samefile -fstype -lname -ilname -used -newermt
	-newerct -newerat -newermm -context -maxdepth -mindepth -regextype -printf -files0-from`)

// findFilters narrow what find matches.
var findFilters = set(`-name -iname -path -ipath -wholename -iwholename -regex -iregex
	-type -xtype -size -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -user
	-group -uid -gid -perm -links -inum -samefile -fstype -lname -ilname -used -newermt
	-newerct -newerat -newermm -empty -nouser -nogroup -readable -writable -executable
	-false -context -mindepth -prune`)

// findProgram classifies find: what -exec/-ok run (with {} standing for the
// start paths when nothing narrows the match), -delete, and -fprint writes.
func findProgram(c *call) (Tier, string) {
	args := c.args
	i := 0
	for i < len(args) && args[i].known {
		v := args[i].val
		if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O") {
			i++
			continue
		}
		if v == "-D" {
			i += 2
			continue
		}
		break
	}
	var starts []string
	var startArgs []arg
	for i < len(args) {
		v := args[i].val
		if args[i].known && (strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == ",") {
			break
		}
		if !args[i].known && c.mayBeOption(args[i]) || c.agentGlob(args[i]) {
			// find $x with x='/ -delete' deletes; so does find * where
			// the agent made a file named -delete.
			c.e.opaque = true
			return TierDestructive, "find: " + truncate(v, 64) + " is computed at run time and can become an expression (-delete, -exec)"
		}
		starts = append(starts, v)
		startArgs = append(startArgs, args[i])
		i++
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	if findPrints(argVals(args[i:])) {
		listed := starts[:0:0]
		for k, s := range starts {
			if k >= len(startArgs) || startArgs[k].known {
				listed = append(listed, s)
			}
		}
		c.e.noteListed(listed)
	}
	filtered, narrowed := false, false
	for j := i; j < len(args); j++ {
		if findFilters[args[j].val] {
			filtered = true
			val := ""
			if j+1 < len(args) {
				val = args[j+1].val
			}
			narrowed = narrowed || findNarrowing(args[j].val, val)
		}
		if args[j].val == "-exec" || args[j].val == "-execdir" || args[j].val == "-ok" || args[j].val == "-okdir" {
			for j < len(args) && args[j].val != ";" && args[j].val != "+" {
				j++
			}
		}
	}
	t, why := TierRead, "find"
	raise := func(nt Tier, nwhy string) {
		if nt > t {
			t, why = nt, nwhy
		}
	}
	for i < len(args) {
		a := args[i]
		v := a.val
		switch {
		case !a.known:
			// A computed expression could be -delete or -exec.
			c.e.opaque = true
			raise(TierDestructive, "find: expression computed at run time")
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir":
			j := i + 1
			for j < len(args) && args[j].val != ";" && args[j].val != "+" {
				j++
			}
			cmd := args[i+1 : min(j, len(args))]
			// -ok and -okdir ask first, but read the answer from find's
			// input: yes | find / -ok rm {} \; removes as -exec does.
			runs := v == "-exec" || v == "-execdir" || c.ctx.stdin.kind != stdinNone
			if v == "-execdir" || v == "-okdir" {
				c.e.execdirStarts(startArgs)
			}
			if len(cmd) > 0 {
				subs := []string{""}
				if !filtered && v != "-execdir" && v != "-okdir" && !strings.Contains(cmd[0].val, "{}") {
					// Else every path find finds is the program or its
					// argument, not only the start.
					subs = starts
				}
				for k, s := range subs {
					if k >= maxAlts {
						break
					}
					c.run(findSubst(cmd, s))
				}
				if runs && findRunsFound(cmd) {
					// Each file find may find is the program or the
					// script it runs: those the classifier reads meet
					// the deny list.
				files:
					for _, s := range starts {
						for _, d := range c.e.localDirs(s) {
							for _, f := range c.e.recentFilesUnder(d, true) {
								run := findSubst(cmd, f)
								if why := c.e.deniedAside(c.ctx, f, func(sub *eval, sctx cctx) { sub.simple(run, sctx, "") }); why != "" {
									c.e.deny("find " + v + " runs " + truncate(f, 64) + ": " + why)
									break files
								}
							}
						}
					}
				}
				if !narrowed && runs {
					for _, s := range starts {
						if why := findExecEveryFile(cmd, s); why != "" {
							c.e.deny("find " + v + " " + why)
						}
					}
				}
				if removesEach(cmd) && runs {
					for _, s := range starts {
						if !narrowed && criticalPath(s) {
							c.e.deny("find " + v + " rm: removes everything under " + s)
						}
						if !narrowed && relWipeWord(s) {
							c.e.relWipe = "find " + s + " " + v + " rm"
						}
					}
					raise(TierDestructive, "find "+v+" rm: removes every file found, like -delete")
				}
			}
			i = j + 1
			continue
		case v == "-delete":
			for _, s := range starts {
				if !narrowed && criticalPath(s) {
					c.e.deny("find -delete: removes everything under " + s)
				}
				if !narrowed && relWipeWord(s) {
					c.e.relWipe = "find " + s + " -delete"
				}
			}
			raise(TierDestructive, "find -delete: removes files")
		case v == "-fprint" || v == "-fprint0" || v == "-fls" || v == "-fprintf":
			if i+1 < len(args) {
				wt, wwhy, deny := c.e.writeTarget(args[i+1])
				if deny != "" {
					c.e.deny("find " + v + ": " + deny)
				}
				raise(maxTier(wt, TierMutate), "find "+v+": "+wwhy)
				i++
				if v == "-fprintf" {
					i++
				}
			}
		case findValueTests[v]:
			i++
		}
		i++
	}
	return t, why
}

// findPrints reports whether find's expression prints what it finds on
// its output: it has -print, -print0, -printf or -ls, or no action at all,
// which prints.
func findPrints(expr []string) bool {
	acts := false
	for _, v := range expr {
		switch v {
		case "-print", "-print0", "-printf", "-ls":
			return true
		case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls", "-quit":
			acts = true
		}
	}
	return !acts
}

// findRunsFound reports whether an -exec command runs the file find
// found: {} is its program, or the script a shell or an interpreter is
// given (sh {}, python3 {}).
func findRunsFound(cmd []arg) bool {
	if len(cmd) == 0 {
		return false
	}
	if strings.Contains(cmd[0].val, "{}") {
		return true
	}
	name := normaliseName(path.Base(cmd[0].val))
	if !shFamily[name] && !interpreters[name] && name != "zsh" && name != "ksh" && name != "busybox" {
		return false
	}
	return slices.ContainsFunc(cmd[1:], func(a arg) bool { return strings.Contains(a.val, "{}") })
}

// findSubst replaces {} in an -exec command with a start path, or with an
// unknown value when start is "".
func findSubst(cmd []arg, start string) []arg {
	out := make([]arg, len(cmd))
	for k, a := range cmd {
		switch {
		case !strings.Contains(a.val, "{}"):
			out[k] = a
		case start == "":
			out[k] = arg{val: a.val}
		default:
			out[k] = arg{val: strings.ReplaceAll(a.val, "{}", start), known: a.known}
		}
	}
	return out
}

// filterProgram classifies text filters that can also write files.
func filterProgram(c *call) (Tier, string) {
	vals := c.vals()
	write := func(a arg) (Tier, string) {
		wt, why, deny := c.e.writeTarget(a)
		if deny != "" {
			c.e.deny(c.name + ": " + deny)
		}
		return maxTier(wt, TierRead), c.name + ": " + why
	}
	switch c.name {
	case "sort":
		if len(c.optVals(c.args, "--compress-program")) > 0 {
			return TierDestructive, "sort --compress-program: runs a program"
		}
		for _, o := range c.optVals(c.args, "-o", "--output") {
			return write(o)
		}
		// -T is TMPDIR for sort alone: its spill files go there.
		for _, d := range c.optVals(c.args, "-T", "--temporary-directory") {
			if !d.known || !(tmpPath(d.val) || path.Clean(d.val) == "/tmp" || path.Clean(d.val) == "/var/tmp") {
				return TierMutate, "sort -T " + truncate(d.val, 64) + ": creates its temporary files there"
			}
		}
	case "uniq":
		ops := getoptOperands(vals, "fsw", []string{"--skip-fields", "--skip-chars", "--check-chars"})
		if len(ops) >= 2 {
			return write(arg{val: ops[1], known: true})
		}
	case "shuf", "iconv", "xmllint":
		for _, o := range c.optVals(c.args, "-o", "--output", "-output") {
			return write(o)
		}
		// xmllint's shell reads commands from its input, save and write
		// among them.
		if c.name == "xmllint" && (slices.Contains(vals, "--shell") || slices.Contains(vals, "-shell")) {
			return TierMutate, "xmllint --shell: an interactive shell that can write files"
		}
	case "xxd":
		r := raiser{TierRead, c.name}
		for _, o := range xxdOutputs(c.args) {
			r.raise(write(o))
		}
		return r.t, r.why
	case "yq":
		if hasFlag(vals, 'i', "--inplace") {
			return TierMutate, "yq -i: edits files in place"
		}
		// mikefarah's yq -s/--split-exp writes a file per document, named
		// by the expression (the Python yq's -s only slurps: caution wins).
		if hasFlag(vals, 's', "--split-exp") {
			return TierMutate, "yq -s: writes a file per document"
		}
	}
	return TierRead, c.name
}

// topProgram: batch mode only reads; interactive top can kill and renice.
func topProgram(c *call) (Tier, string) {
	if hasFlag(c.vals(), 'b', "--batch") {
		return TierRead, "top -b"
	}
	return TierMutate, "top: interactive, can kill and renice"
}

// wardenProgram: another warden would enforce its own policy, not this one.
func wardenProgram(c *call) (Tier, string) {
	ops := operands(c.vals())
	if len(ops) > 0 {
		switch ops[0] {
		case "version", "tools", "validate":
			return TierRead, "warden " + ops[0]
		case "audit":
			if len(ops) > 1 && (ops[1] == "verify" || ops[1] == "tail") {
				return TierRead, "warden audit " + ops[1]
			}
		case "config":
			if len(ops) > 1 && ops[1] == "check" {
				return TierRead, "warden config check"
			}
		}
	}
	return TierDestructive, "warden: runs another warden with its own policy"
}

// mktempLongs are GNU mktemp's long options, which it takes abbreviated.
var mktempLongs = []string{"--directory", "--dry-run", "--quiet", "--suffix", "--tmpdir", "--help", "--version"}

// mktempProgram classifies mktemp, which creates a file or directory:
// under -p DIR or --tmpdir=DIR, else under $TMPDIR or /tmp when no
// TEMPLATE is given or -t or --tmpdir is, else at TEMPLATE itself,
// relative to the working directory. Only a path under /tmp or /var/tmp
// keeps it tier 1; -u creates nothing.
func mktempProgram(c *call) (Tier, string) {
	if c.flagSet('u', "--dry-run", len("--dr")) {
		return TierBenign, "mktemp -u: prints a name"
	}
	var dir, template arg
	inTmp := false
	args := c.args
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		switch {
		case !a.known:
			c.e.opaque = true
			return TierMutate, "mktemp: arguments computed at run time"
		case v == "--":
			if i+1 < len(args) {
				template = args[i+1]
			}
			i = len(args)
		case strings.HasPrefix(v, "--"):
			// getopt_long takes any unambiguous abbreviation: --tmpd=/etc
			// and --t=/etc are --tmpdir=/etc, --suf X is --suffix X.
			name, val, eq := strings.Cut(v, "=")
			switch longOpt(name, mktempLongs) {
			case "--tmpdir":
				if eq {
					dir = arg{val: val, known: true}
				} else {
					inTmp = true
				}
			case "--suffix":
				if !eq {
					i++
				}
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			if k := strings.IndexByte(v, 'p'); k > 0 {
				if k+1 < len(v) {
					dir = arg{val: v[k+1:], known: true}
				} else if i+1 < len(args) {
					i++
					dir = args[i]
				}
			}
			if strings.ContainsRune(v, 't') {
				inTmp = true
			}
		default:
			template = a
		}
	}
	switch {
	case dir.val != "":
		name := template.val
		if name == "" {
			name = "tmp.XXXXXXXXXX"
		}
		template = arg{val: strings.TrimSuffix(dir.val, "/") + "/" + name, known: dir.known && template.known || template.val == ""}
	case template.val == "" || inTmp:
		return TierBenign, "mktemp: creates a file under $TMPDIR or /tmp"
	}
	if template.known && tmpPath(template.val) {
		return TierBenign, "mktemp: creates " + truncate(template.val, 64)
	}
	return c.writeArg(template, "mktemp creates")
}
