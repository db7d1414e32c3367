package policy

import (
	"path"
	"strings"
)

// rmProgram: recursive or forced removal is TierDestructive; the deny list
// has already refused system directories. A recursive removal of a relative
// wildcard is remembered: after a cd into a system directory it is denied.
func rmProgram(c *call) (Tier, string) {
	vals := c.vals()
	rec := hasFlag(vals, 'r', "--recursive") || hasFlag(vals, 'R', "")
	force := hasFlag(vals, 'f', "--force")
	if rec {
		for _, op := range operands(vals) {
			switch strings.TrimSuffix(op, "/") {
			case "*", ".", "./*", "..", ".*", "../*", "./.*", "./":
				c.e.relWipe = op
			}
		}
	}
	for _, a := range c.args {
		if !a.known && !strings.HasPrefix(a.val, "-") && rec {
			return TierDestructive, "rm: recursive removal of a path known only at run time: " + truncate(a.val, 64)
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

// cdProgram notes a cd into a system directory or home, which makes a later
// "rm -rf *" catastrophic.
func cdProgram(c *call) (Tier, string) {
	ops := operands(c.vals())
	if len(ops) == 0 || criticalPath(ops[0]) || ops[0] == "~" {
		c.e.cdRoot = true
	}
	return TierRead, c.name
}

// fileProgram classifies programs that modify the files they name.
func fileProgram(c *call) (Tier, string) {
	vals := c.vals()
	switch c.name {
	case "mv":
		return TierMutate, "mv: moves files"
	case "chmod":
		for _, m := range operands(vals) {
			if setuidMode(m) {
				return TierDestructive, "chmod: sets a setuid or setgid bit"
			}
			break
		}
		return TierMutate, "chmod: changes permissions"
	case "chown", "chgrp":
		return TierMutate, c.name + ": changes ownership"
	case "truncate":
		return TierMutate, "truncate: changes file sizes"
	case "shred":
		return TierDestructive, "shred: destroys file contents"
	case "tee":
		t, why := TierRead, "tee"
		for _, a := range c.args {
			if strings.HasPrefix(a.val, "-") && a.known {
				continue
			}
			wt, wwhy, deny := c.e.writeTarget(a)
			if deny != "" {
				c.e.deny("tee: " + deny)
			}
			if wt > t {
				t, why = wt, "tee: "+wwhy
			}
		}
		return t, why
	case "dd":
		for _, a := range c.args {
			if v, ok := strings.CutPrefix(a.val, "of="); ok {
				wt, wwhy, deny := c.e.writeTarget(arg{val: v, known: a.known, glob: a.glob})
				if deny != "" {
					c.e.deny("dd: " + deny)
				}
				return maxTier(wt, TierMutate), "dd: " + wwhy
			}
		}
		return TierRead, "dd: copies to standard output"
	case "touch":
		for _, op := range operandsSkipping(vals, "dtr", []string{"--date", "--reference"}) {
			if !tmpPath(op) {
				return TierMutate, "touch: creates or changes files"
			}
		}
		return TierBenign, "touch: in a temporary directory"
	case "mkdir":
		return TierBenign, "mkdir: creates directories"
	}
	return TierMutate, c.name
}

func setuidMode(m string) bool {
	if strings.ContainsAny(m, "s") && strings.ContainsAny(m, "+=") {
		return true
	}
	if len(m) == 4 && strings.Trim(m, "01234567") == "" {
		return m[0] == '2' || m[0] == '4' || m[0] == '6' || m[0] == '7' || m[0] == '3' || m[0] == '5'
	}
	return false
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

// killProgram classifies kill, pkill and killall (init and "every process"
// are on the deny list).
func killProgram(c *call) (Tier, string) {
	vals := c.vals()
	switch c.name {
	case "fuser":
		if hasFlag(vals, 'k', "--kill") {
			return TierMutate, "fuser -k: kills processes"
		}
		return TierRead, "fuser"
	case "kill":
		if len(vals) > 0 && (vals[0] == "-l" || vals[0] == "-L" || vals[0] == "--list" || vals[0] == "--table") {
			return TierRead, "kill -l: lists signals"
		}
		if len(vals) > 0 && (vals[0] == "-0" || len(vals) > 1 && vals[0] == "-s" && vals[1] == "0") {
			return TierRead, "kill -0: checks a process exists"
		}
	}
	for _, v := range vals {
		if strings.Contains(strings.ToLower(v), "warden") || v == "sshd" || v == "systemd-journald" || v == "dbus-daemon" {
			return TierDestructive, c.name + ": kills " + v
		}
	}
	return TierMutate, c.name + ": signals processes"
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
	for i < len(args) {
		v := args[i].val
		if args[i].known && (strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == ",") {
			break
		}
		starts = append(starts, v)
		i++
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	filtered := false
	for j := i; j < len(args); j++ {
		if findFilters[args[j].val] {
			filtered = true
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
			if len(cmd) > 0 {
				subs := []string{""}
				if !filtered && v != "-execdir" && v != "-okdir" {
					subs = starts
				}
				for k, s := range subs {
					if k >= maxAlts {
						break
					}
					c.run(findSubst(cmd, s))
				}
			}
			i = j + 1
			continue
		case v == "-delete":
			for _, s := range starts {
				if !filtered && criticalPath(s) {
					c.e.deny("find -delete: removes everything under " + s)
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
		for i, a := range c.args {
			v := a.val
			if strings.HasPrefix(v, "--compress-program") {
				return TierDestructive, "sort --compress-program: runs a program"
			}
			if v == "-o" && i+1 < len(c.args) {
				return write(c.args[i+1])
			}
			if o, ok := strings.CutPrefix(v, "--output="); ok {
				return write(arg{val: o, known: a.known})
			}
			if strings.HasPrefix(v, "-o") && len(v) > 2 {
				return write(arg{val: v[2:], known: a.known})
			}
		}
	case "uniq":
		ops := operandsSkipping(vals, "fsw", []string{"--skip-fields", "--skip-chars", "--check-chars"})
		if len(ops) >= 2 {
			return write(arg{val: ops[1], known: true})
		}
	case "shuf", "iconv", "xmllint":
		for i, a := range c.args {
			if (a.val == "-o" || a.val == "--output") && i+1 < len(c.args) {
				return write(c.args[i+1])
			}
			if o, ok := strings.CutPrefix(a.val, "--output="); ok {
				return write(arg{val: o, known: a.known})
			}
		}
	case "xxd":
		ops := operandsSkipping(vals, "cglosn", []string{"-cols", "-groupsize", "-len", "-offset", "-seek", "-name"})
		if len(ops) >= 2 {
			return write(arg{val: ops[1], known: true})
		}
	case "yq":
		if hasFlag(vals, 'i', "--inplace") {
			return TierMutate, "yq -i: edits files in place"
		}
	}
	return TierRead, c.name
}

// archiveProgram classifies archivers and compressors.
func archiveProgram(c *call) (Tier, string) {
	vals := c.vals()
	ops := operands(vals)
	switch c.name {
	case "zip":
		for _, v := range vals {
			if v == "-TT" || strings.HasPrefix(v, "--unzip-command") {
				return TierDestructive, "zip -TT: runs a program"
			}
		}
		return TierMutate, "zip: writes an archive"
	case "unzip":
		for _, v := range vals {
			switch v {
			case "-l", "-v", "-t", "-Z", "-p", "-c", "-z", "-lv", "-tq":
				return TierRead, "unzip: lists or tests"
			}
		}
		return TierMutate, "unzip: extracts files"
	case "7z", "7za", "7zr", "rar", "unrar":
		if len(ops) > 0 && (ops[0] == "l" || ops[0] == "t" || ops[0] == "i" || ops[0] == "h" || ops[0] == "lt" || ops[0] == "v" || ops[0] == "lb") {
			return TierRead, c.name + ": lists or tests"
		}
		return TierMutate, c.name + ": writes files"
	}
	if len(ops) == 0 || hasFlag(vals, 'c', "--stdout") || hasFlag(vals, 'l', "--list") || hasFlag(vals, 't', "--test") {
		return TierRead, c.name + ": to standard output"
	}
	return TierMutate, c.name + ": compresses or decompresses files in place"
}

// tarProgram classifies tar: options that run programs are TierDestructive.
func tarProgram(c *call) (Tier, string) {
	vals := c.vals()
	mode := ""
	for k, v := range vals {
		lv := strings.ToLower(v)
		for _, bad := range []string{"--checkpoint-action", "--to-command", "--use-compress-program", "--rsh-command", "--info-script", "--new-volume-script", "--rmt-command"} {
			if strings.HasPrefix(lv, bad) {
				prog := ""
				if _, val, ok := strings.Cut(v, "="); ok {
					prog = strings.TrimPrefix(val, "exec=")
				} else if k+1 < len(vals) {
					prog = vals[k+1]
				}
				if prog != "" {
					c.shell(prog, "tar "+bad+" command", nil, false)
				}
				c.e.opaque = true
				return TierDestructive, "tar " + bad + ": runs a program"
			}
		}
		if v == "--remove-files" || v == "--recursive-unlink" || v == "--unlink-first" {
			return TierDestructive, "tar " + v + ": removes files"
		}
		cluster := ""
		switch {
		case k == 0 && !strings.HasPrefix(v, "-"):
			cluster = v // old-style bundled flags: tar xzf a.tgz
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			cluster = v[1:]
		}
		if strings.ContainsAny(cluster, "IF") {
			if k+1 < len(vals) {
				c.shell(vals[k+1], "tar -I command", nil, false)
			}
			c.e.opaque = true
			return TierDestructive, "tar -I/-F: runs a program"
		}
		for _, m := range "ctxrudA" {
			if strings.ContainsRune(cluster, m) && mode == "" {
				mode = string(m)
			}
		}
		switch v {
		case "--create", "--append", "--update", "--concatenate", "--catenate":
			mode = "c"
		case "--extract", "--get":
			mode = "x"
		case "--delete":
			mode = "r"
		case "--list":
			mode = "t"
		case "--diff", "--compare":
			mode = "d"
		}
	}
	switch mode {
	case "t", "d":
		return TierRead, "tar: lists an archive"
	case "x":
		for k, v := range vals {
			if (v == "-C" || v == "--directory") && k+1 < len(vals) && isRoot(vals[k+1]) || v == "--directory=/" {
				return TierDestructive, "tar: extracts over the root file system"
			}
		}
		return TierMutate, "tar: extracts files"
	}
	for k, v := range vals {
		if (v == "-f" || v == "--file") && k+1 < len(vals) && blockTarget(vals[k+1]) {
			c.e.deny("tar: writes block device " + vals[k+1])
		}
	}
	return TierMutate, "tar: writes an archive"
}

// awkProgram classifies awk programs: system(), pipes and output
// redirection run or write; the program text is scanned by the deny list.
func awkProgram(c *call) (Tier, string) {
	args := c.args
	var progs []arg
	i := 0
	for i < len(args) {
		v := args[i].val
		if !args[i].known {
			c.e.opaque = true
			return TierDestructive, c.name + ": program computed at run time"
		}
		if v == "--" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		switch {
		case v == "-f" || strings.HasPrefix(v, "--file") || v == "-i" || strings.HasPrefix(v, "--include") ||
			v == "-l" || strings.HasPrefix(v, "--load") || v == "-E" || strings.HasPrefix(v, "--exec"):
			c.e.opaque = true
			return TierDestructive, c.name + " " + v + ": runs a program file the classifier cannot see"
		case v == "-e" || v == "--source":
			if i+1 < len(args) {
				progs = append(progs, args[i+1])
			}
			i++
		case v == "-v" || v == "-F" || v == "--assign" || v == "--field-separator":
			i++
		case strings.HasPrefix(v, "--source="):
			progs = append(progs, arg{val: strings.TrimPrefix(v, "--source="), known: true})
		}
		i++
	}
	if len(progs) == 0 {
		if i >= len(args) {
			return TierRead, c.name + " with no program"
		}
		progs = append(progs, args[i])
	}
	t, why := TierRead, c.name
	for _, p := range progs {
		if !p.known {
			c.e.opaque = true
			return TierDestructive, c.name + ": program computed at run time"
		}
		pt, pwhy := awkRisk(p.val)
		if pt == TierDestructive {
			c.e.opaque = true
			c.e.scanText(p.val)
		}
		if pt > t {
			t, why = pt, c.name+": "+pwhy
		}
	}
	return t, why
}

// awkRisk classifies awk program text.
func awkRisk(p string) (Tier, string) {
	s := strings.ReplaceAll(p, "||", "")
	switch {
	case strings.Contains(s, "system") || strings.Contains(s, "@load"):
		return TierDestructive, "program runs commands (system)"
	case strings.Contains(s, "|"):
		return TierDestructive, "program pipes to or from commands"
	case awkWrite(s):
		return TierMutate, "program writes files (print >)"
	}
	return TierRead, "read-only program"
}

// awkWrite reports whether a print or printf statement redirects to a file.
func awkWrite(s string) bool {
	for _, kw := range []string{"print", "printf"} {
		rest := s
		for {
			k := strings.Index(rest, kw)
			if k < 0 {
				break
			}
			rest = rest[k+len(kw):]
			stmt := rest
			if e := strings.IndexAny(stmt, ";}\n"); e >= 0 {
				stmt = stmt[:e]
			}
			if strings.Contains(stmt, ">") {
				return true
			}
		}
	}
	return false
}

// sedProgram classifies sed: the e command and s///e run commands; w and -i write.
func sedProgram(c *call) (Tier, string) {
	args := c.args
	var scripts []arg
	inPlace, sandbox, fromFile := false, false, false
	i := 0
	var ops []arg
	for i < len(args) {
		a := args[i]
		v := a.val
		if !a.known && strings.HasPrefix(v, "-") {
			c.e.opaque = true
			return TierDestructive, "sed: options computed at run time"
		}
		switch {
		case v == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
			continue
		case v == "-e" || v == "--expression":
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
			}
			i++
		case strings.HasPrefix(v, "--expression="):
			scripts = append(scripts, arg{val: strings.TrimPrefix(v, "--expression="), known: a.known})
		case v == "-f" || strings.HasPrefix(v, "--file"):
			fromFile = true
			if v == "-f" {
				i++
			}
		case strings.HasPrefix(v, "--in-place"):
			inPlace = true
		case v == "--sandbox":
			sandbox = true
		case v == "-l" || v == "--line-length":
			i++
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'i':
					inPlace = true
					j = len(v)
				case 'e':
					if j+1 < len(v) {
						scripts = append(scripts, arg{val: v[j+1:], known: a.known})
					} else if i+1 < len(args) {
						scripts = append(scripts, args[i+1])
						i++
					}
					j = len(v)
				case 'f':
					fromFile = true
					if j+1 == len(v) {
						i++
					}
					j = len(v)
				case 'l':
					if j+1 == len(v) {
						i++
					}
					j = len(v)
				}
			}
		case strings.HasPrefix(v, "--"):
		default:
			ops = append(ops, a)
		}
		i++
	}
	if len(scripts) == 0 && !fromFile && len(ops) > 0 {
		scripts, ops = ops[:1], ops[1:]
	}
	t, why := TierRead, "sed"
	if fromFile {
		t, why = TierDestructive, "sed -f: runs a script file the classifier cannot see"
		c.e.opaque = true
	}
	for _, s := range scripts {
		if !s.known {
			c.e.opaque = true
			return TierDestructive, "sed: script computed at run time"
		}
		cmds, exec, write, ok := sedExec(s.val)
		for _, x := range cmds {
			if x != "" {
				c.shell(x, "sed e command", nil, false)
			}
		}
		switch {
		case !ok:
			c.e.scanText(s.val)
			return TierDestructive, "sed: script the classifier cannot read"
		case exec && !sandbox:
			c.e.opaque = true
			c.e.scanText(s.val)
			return TierDestructive, "sed: script runs commands (e)"
		case write && !sandbox && t < TierMutate:
			t, why = TierMutate, "sed: script writes files (w)"
		}
	}
	if inPlace && t < TierMutate {
		t, why = TierMutate, "sed -i: edits files in place"
	}
	return t, why
}

// sedScan reads a sed script and reports whether it runs commands (e, s///e)
// or writes files (w, W, s///w). ok is false when the script cannot be read.
func sedScan(s string) (exec, write, ok bool) {
	_, exec, write, ok = sedExec(s)
	return exec, write, ok
}

// sedExec is sedScan that also returns the text the e command and s///e
// would run ("" when that is the pattern space, unknown here).
func sedExec(s string) (cmds []string, exec, write, ok bool) {
	i, n := 0, len(s)
	toEOL := func() {
		for i < n && s[i] != '\n' {
			i++
		}
	}
	skipDelim := func(d byte) bool {
		for i < n && s[i] != d {
			if s[i] == '\\' {
				i++
			} else if s[i] == '\n' {
				return false
			}
			i++
		}
		if i >= n {
			return false
		}
		i++
		return true
	}
	for steps := 0; steps < 100000; steps++ {
		for i < n && strings.IndexByte(" \t\n;", s[i]) >= 0 {
			i++
		}
		if i >= n {
			return cmds, exec, write, true
		}
		if s[i] == '#' {
			toEOL()
			continue
		}
		for addr := 0; addr < 2; addr++ {
			switch {
			case s[i] >= '0' && s[i] <= '9':
				for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
					i++
				}
			case s[i] == '$':
				i++
			case s[i] == '/':
				i++
				if !skipDelim('/') {
					return cmds, exec, write, false
				}
			case s[i] == '\\' && i+1 < n:
				d := s[i+1]
				i += 2
				if !skipDelim(d) {
					return cmds, exec, write, false
				}
			case (s[i] == '+' || s[i] == '~') && addr == 1:
				i++
				for i < n && s[i] >= '0' && s[i] <= '9' {
					i++
				}
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') && addr >= 0 && i > 0 && (s[i-1] == '/' || s[i-1] == 'I' || s[i-1] == 'M') {
				i++
			}
			for i < n && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i < n && s[i] == ',' && addr == 0 {
				i++
				for i < n && (s[i] == ' ' || s[i] == '\t') {
					i++
				}
				if i >= n {
					return cmds, exec, write, false
				}
				continue
			}
			break
		}
		for i < n && (s[i] == '!' || s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= n {
			return cmds, exec, write, false
		}
		cmd := s[i]
		i++
		switch cmd {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			for i < n && (s[i] == ' ' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		case ':', 'b', 't', 'T', 'v':
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				i++
			}
		case 'a', 'i', 'c':
			for i < n && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
		case 'r', 'R':
			toEOL()
		case 'w', 'W':
			write = true
			toEOL()
		case 'e':
			exec = true
			j := i
			toEOL()
			cmds = append(cmds, strings.TrimSpace(s[j:i]))
		case 's', 'y':
			if i >= n || s[i] == '\n' || s[i] == '\\' {
				return cmds, exec, write, false
			}
			d := s[i]
			i++
			if !skipDelim(d) {
				return cmds, exec, write, false
			}
			j := i
			if !skipDelim(d) {
				return cmds, exec, write, false
			}
			repl := s[j : i-1]
			if cmd == 'y' {
				continue
			}
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				switch s[i] {
				case 'e':
					exec = true
					if cmd == 's' {
						cmds = append(cmds, repl)
					}
				case 'w':
					write = true
					toEOL()
					continue
				case 'g', 'p', 'i', 'I', 'm', 'M', ' ', '\t':
				default:
					if s[i] < '0' || s[i] > '9' {
						return cmds, exec, write, false
					}
				}
				i++
			}
		default:
			return cmds, exec, write, false
		}
	}
	return cmds, exec, write, false
}

// editorProgram: editors can run commands; options that run them at start
// are TierDestructive.
func editorProgram(c *call) (Tier, string) {
	for _, v := range c.vals() {
		switch {
		case c.name == "ex":
			return TierDestructive, "ex: runs editor commands"
		case strings.HasPrefix(c.name, "emacs") && (v == "--eval" || strings.HasPrefix(v, "--eval=") || v == "-e" ||
			v == "-l" || strings.HasPrefix(v, "--load") || v == "-f" || strings.HasPrefix(v, "--funcall") ||
			v == "--batch" || v == "-batch" || strings.HasPrefix(v, "--script") || v == "-x"):
			return TierDestructive, c.name + " " + v + ": runs Lisp"
		case !strings.HasPrefix(c.name, "emacs") && (v == "-c" || v == "--cmd" || v == "-S" || v == "-s" || v == "-u" ||
			strings.HasPrefix(v, "+") && strings.Trim(v[1:], "0123456789") != ""):
			return TierDestructive, c.name + " " + v + ": runs editor commands"
		}
	}
	return TierMutate, c.name + ": interactive editor that can run commands"
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
