package policy

import (
	"regexp"
	"strings"
)

// awkProgram classifies awk programs: system(), pipes and output
// redirection run or write; the program text is scanned by the deny list.
func awkProgram(c *call) (Tier, string) {
	args := c.args
	var progs []arg
	t, why := TierRead, c.name
	write := func(f, opt string) {
		if wt, wwhy := c.writeArg(arg{val: f, known: true}, c.name+" "+opt); wt > t {
			t, why = wt, wwhy
		}
	}
	// long classifies one long option (gawk --x, or -W x) and reports
	// whether it takes the next argument as its value; stop is set when
	// the option runs code the classifier cannot see.
	var stop string
	long := func(v string, next *arg) bool {
		name, val, has := strings.Cut(v, "=")
		full := awkLongOpt(name)
		switch full {
		case "--file", "--include", "--load", "--exec":
			stop = c.name + " " + full + ": runs a program file the classifier cannot see"
		case "--debug":
			stop = c.name + " --debug: runs debugger commands the classifier cannot see"
		case "--source":
			if has {
				progs = append(progs, arg{val: val, known: true})
				return false
			}
			if next != nil {
				progs = append(progs, *next)
			}
			return true
		case "--assign", "--field-separator", "--locale":
			return !has
		case "--dump-variables", "--pretty-print", "--profile":
			if !has {
				val = awkDefaultOut(full[2:3])
			}
			write(val, full)
		}
		return false
	}
	i := 0
	for i < len(args) && stop == "" {
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
		var next *arg
		if i+1 < len(args) {
			next = &args[i+1]
		}
		if strings.HasPrefix(v, "--") {
			if long(v, next) {
				i++
			}
			i++
			continue
		}
		// A cluster of short options, read as gawk's getopt does
		// ("F:f:v:W;bcCd::D::e:E:ghi:l:L::nNo::Op::MPrSstVYZ:").
	cluster:
		for j := 1; j < len(v); j++ {
			rest := v[j+1:]
			value := func() (arg, bool) {
				if rest != "" {
					return arg{val: rest, known: true}, true
				}
				if next != nil {
					i++
					return *next, true
				}
				return arg{}, false
			}
			switch f := v[j]; f {
			case 'f', 'i', 'l', 'E':
				stop = c.name + " -" + string(f) + ": runs a program file the classifier cannot see"
				break cluster
			case 'D':
				stop = c.name + " -D: runs debugger commands the classifier cannot see"
				break cluster
			case 'e':
				if p, ok := value(); ok {
					progs = append(progs, p)
				}
				break cluster
			case 'F', 'v', 'Z':
				value()
				break cluster
			case 'W':
				// mawk -W exec FILE (or any prefix of exec); gawk -W
				// opt is --opt.
				w, ok := value()
				if !ok {
					break cluster
				}
				wn, _, _ := strings.Cut(w.val, "=")
				if wn != "" && strings.HasPrefix("exec", wn) {
					stop = c.name + " -W exec: runs a program file the classifier cannot see"
				} else if c.name != "mawk" {
					long("--"+w.val, nil)
				}
				break cluster
			case 'd', 'o', 'p':
				if rest == "" {
					rest = awkDefaultOut(string(f))
				}
				write(rest, "-"+string(f))
				break cluster
			case 'L':
				break cluster
			}
		}
		i++
	}
	if stop != "" {
		c.e.opaque = true
		return TierDestructive, stop
	}
	if len(progs) == 0 {
		if i >= len(args) {
			return TierRead, c.name + " with no program"
		}
		progs = append(progs, args[i])
	}
	for _, p := range progs {
		if !p.known {
			c.e.opaque = true
			return TierDestructive, c.name + ": program computed at run time"
		}
		c.inetFiles(p.val)
		if c.e.pathsFor() != nil {
			// getline < (ENVIRON["HOME"] "/.local/…"): a path known in part.
			for _, f := range awkPartialPaths(p.val) {
				c.e.partialPath(f, c.ctx)
			}
		}
		files, cmds, named := awkTargets(p.val)
		if named {
			// What it writes goes to a file named at run time.
			c.e.namedWrite = true
		}
		for _, f := range files {
			if wt, wwhy := c.writeArg(arg{val: f, known: true}, c.name+" print >"); wt > t {
				t, why = wt, wwhy
			}
		}
		if awkWritesRunLater(p.val, files) {
			// print "…" > "/etc/cron.d/x": what it prints meets the
			// deny list, as a redirection's text does.
			c.e.scanText(p.val)
		}
		for _, x := range cmds {
			c.shell(x, c.name+" command", nil, false)
		}
		pt, pwhy := awkRisk(p.val)
		if pt == TierMutate {
			// print > f: f may hold any string of the program or of
			// its variables (-v f=/dev/sda, f=… operands).
			for _, v := range awkStrings(p.val, args) {
				what := c.name + " print > a variable that may hold " + truncate(v, 64)
				wt, wwhy := c.writeArg(arg{val: v, known: true}, what)
				if wt < TierDestructive && !safeSink(v) && (strings.HasPrefix(v, "/dev/") || strings.HasPrefix(v, "/proc/") || strings.HasPrefix(v, "/sys/")) {
					wt, wwhy = TierDestructive, what+": a device or kernel state, its name completed at run time"
				}
				if wt == TierDestructive && wt > t {
					t, why = wt, wwhy
				}
			}
		}
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

// awkDefaultOut is the file gawk -d (awkvars.out), -o or -p
// (awkprof.out) writes when given none.
func awkDefaultOut(opt string) string {
	if opt == "d" {
		return "awkvars.out"
	}
	return "awkprof.out"
}

// awkLongOpt returns the gawk long option name abbreviates. A prefix
// that is ambiguous in the table but can name an option that runs a file
// is read as that option: --locale exists only in gawk's debugging and
// Windows builds, so on a Linux host --lo is --load, which loads a shared
// library.
func awkLongOpt(name string) string {
	full := longOpt(name, awkLongOpts)
	if full != name || len(name) <= 2 {
		return full
	}
	for _, o := range []string{"--file", "--include", "--load", "--exec"} {
		if strings.HasPrefix(o, name) {
			return o
		}
	}
	return full
}

// awkLongOpts are gawk's long options, for reading abbreviations.
var awkLongOpts = []string{"--assign", "--bignum", "--characters-as-bytes", "--copyright", "--csv",
	"--debug", "--dump-variables", "--exec", "--field-separator", "--file", "--gen-pot", "--help",
	"--include", "--lint", "--lint-old", "--load", "--locale", "--no-optimize", "--non-decimal-data",
	"--optimize", "--persist", "--posix", "--pretty-print", "--profile", "--re-interval", "--sandbox",
	"--source", "--traditional", "--use-lc-numeric", "--version"}

// awkIndirect is a gawk indirect function call (@f(…)), which calls the
// function whose name the variable holds, built-ins included, and the
// @include and @load directives, which read awk source or load a shared
// library from a file the classifier cannot see. @namespace is neither.
var awkIndirect = regexp.MustCompile(`@\s*(?:[A-Za-z_][A-Za-z0-9_:]*\s*\(|(?:include|load|nsinclude)\b)`)

// awkRisk classifies awk program text, read as code (awkCode): a '|' or
// system inside a string or a pattern is text. gawk's @ directives and
// indirect calls (@load, @include, @f()) bring in code the text does
// not show: f="sys" "tem"; @f("cmd") runs cmd with no "system" in it.
func awkRisk(p string) (Tier, string) {
	s := strings.ReplaceAll(awkCode(p), "||", "")
	switch {
	case awkWord(s, "system"):
		return TierDestructive, "program runs commands (system)"
	case awkIndirect.MatchString(s):
		return TierDestructive, "program calls a function by name or reads code from a file (@f(), @include, @load)"
	case strings.Contains(s, "|"):
		return TierDestructive, "program pipes to or from commands"
	case awkWrite(s):
		return TierMutate, "program writes files (print >)"
	}
	return TierRead, "read-only program"
}

// awkTargets returns the literal files an awk program writes (print >
// "f", printf >> "f") and the literal commands it runs (print | "cmd",
// "cmd" | getline, system("cmd")), and whether it writes a file named
// by anything else (print > o, print > $1).
func awkTargets(p string) (files, cmds []string, named bool) {
	lit := func(s string) (string, bool) {
		s = strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(s, `"`) {
			return "", false
		}
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				if i+1 < len(s) {
					i++
					b.WriteByte(s[i])
				}
			case '"':
				return b.String(), true
			default:
				b.WriteByte(s[i])
			}
		}
		return "", false
	}
	for i := 0; i < len(p) && len(files)+len(cmds) < maxAlts; i++ {
		switch {
		case p[i] == '>' && (i == 0 || p[i-1] != '>'):
			rest := strings.TrimPrefix(p[i+1:], ">")
			if f, ok := lit(rest); ok && awkWrite(p[:i+1]) {
				files = append(files, f)
			} else if !ok && awkWrite(p[:i+1]) {
				named = true
			}
		case p[i] == '|' && (i+1 >= len(p) || p[i+1] != '|') && (i == 0 || p[i-1] != '|'):
			if x, ok := lit(strings.TrimPrefix(p[i+1:], "&")); ok {
				cmds = append(cmds, x)
			}
			before := strings.TrimRight(p[:i], " \t")
			if strings.HasSuffix(before, `"`) {
				if j := strings.LastIndexByte(before[:len(before)-1], '"'); j >= 0 {
					if x, ok := lit(before[j:]); ok {
						cmds = append(cmds, x)
					}
				}
			}
		case strings.HasPrefix(p[i:], "system("):
			if x, ok := lit(p[i+len("system("):]); ok {
				cmds = append(cmds, x)
			}
		}
	}
	return files, cmds, named
}

// awkStrings returns the absolute paths an awk program may write through
// a variable: its string literals and the values of its arguments'
// assignments (-v f=…, f=… operands) that begin with "/".
func awkStrings(p string, args []arg) []string {
	var out []string
	add := func(v string) {
		if strings.HasPrefix(v, "/") && len(out) < maxAlts {
			out = append(out, v)
		}
	}
	// Adjacent literals concatenate: "/dev/" "sda" is one string.
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] != '"' {
			continue
		}
		for i++; i < len(p) && p[i] != '"'; i++ {
			if p[i] == '\\' && i+1 < len(p) {
				i++
			}
			b.WriteByte(p[i])
		}
		j := i + 1
		for j < len(p) && (p[j] == ' ' || p[j] == '\t') {
			j++
		}
		if j < len(p) && p[j] == '"' {
			i = j - 1
			continue
		}
		add(b.String())
		b.Reset()
	}
	for _, a := range args {
		if _, v, ok := strings.Cut(a.val, "="); ok && a.known {
			add(v)
		}
	}
	return out
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

// roffProgram: groff, nroff and troff run the .sy and .pso requests of
// their input (and write files with .open) in unsafe mode, -U, in any
// cluster of flags; safe mode refuses them.
func roffProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		if a.val == "--" {
			break
		}
		if !a.known && strings.HasPrefix(a.val, "-") {
			c.e.opaque = true
			return TierDestructive, c.name + ": options computed at run time"
		}
		if strings.HasPrefix(a.val, "-") && !strings.HasPrefix(a.val, "--") {
			// -U is a flag; the letters before it may be flags too (-tU),
			// and a letter that takes a value ends the cluster.
			for _, l := range a.val[1:] {
				if l == 'U' {
					c.e.opaque = true
					return TierDestructive, c.name + " -U: unsafe mode runs the .sy and .pso requests of its input"
				}
				if l == 'F' {
					// The device's DESC file names the postprocessor
					// (postpro) and spooler (print) groff runs.
					c.e.opaque = true
					return TierDestructive, c.name + " -F: reads the device description, which names the programs groff runs, from a directory of the caller's choosing"
				}
				if strings.ContainsRune("dfFIKmMnoPrTwW", l) {
					break
				}
			}
		}
	}
	return TierMutate, c.name + ": formats documents"
}

// editorProgram: editors can run commands; options that run them at start
// are TierDestructive.
func editorProgram(c *call) (Tier, string) {
	for _, v := range c.vals() {
		switch {
		case c.name == "ex":
			return TierDestructive, "ex: runs editor commands"
		case strings.HasPrefix(c.name, "emacs") && emacsRunsLisp(v):
			return TierDestructive, c.name + " " + v + ": runs Lisp"
		case c.name == "nvim" && v == "-l":
			return TierDestructive, "nvim -l: runs a Lua script"
		case !strings.HasPrefix(c.name, "emacs") && (v == "-c" || v == "--cmd" || v == "-S" || v == "-s" || v == "-u" || v == "-U" ||
			strings.HasPrefix(v, "+") && strings.Trim(v[1:], "0123456789") != ""):
			if v == "-S" || v == "-s" || v == "-u" || v == "-U" {
				c.e.opaque = true // the commands are a file's
			}
			return TierDestructive, c.name + " " + v + ": runs editor commands"
		}
	}
	return TierMutate, c.name + ": interactive editor that can run commands"
}

// vimClusters reads what vim's own parser takes and the loop above does
// not: flags clustered before a letter that takes a value (-Rc CMD,
// -Rc'CMD', -RS FILE, -Ru FILE, -Rs FILE outside Ex mode, where -s is
// silent), and --remote-send/--remote-expr, whose keys or expression
// another running vim or nvim executes.
func (c *call) vimClusters() (Tier, string) {
	r := raiser{}
	for _, f := range exactOptVals(c.args, "--remote-send", "--remote-expr") {
		if !f.known {
			c.e.opaque = true
		}
		c.e.scanText(f.val)
		text := f.val
		for _, k := range []string{"<CR>", "<cr>", "<Cr>", "<Enter>", "<enter>", "<NL>", "<nl>", "<Esc>", "<esc>", "<C-M>", "<c-m>"} {
			text = strings.ReplaceAll(text, k, "\n")
		}
		for _, line := range strings.Split(text, "\n") {
			c.exCommand(line)
		}
		r.raise(TierDestructive, c.name+" --remote-send/--remote-expr: runs commands in another running editor")
	}
	for i, a := range c.args {
		v := a.val
		if v == "--" {
			break
		}
		if len(v) < 3 || v[0] != '-' || v[1] == '-' {
			continue
		}
		exMode := c.name == "ex" // where -s is silent, not a script
		for j := 1; j < len(v); j++ {
			l := v[j]
			switch l {
			case 'e', 'E':
				exMode = true
				continue
			case 'c':
				if j == 1 {
					break // -c and -cCMD: the loop in editorChecked reads them
				}
				text := v[j+1:]
				if text == "" && i+1 < len(c.args) {
					text = c.args[i+1].val
				}
				c.exCommand(text)
				r.raise(TierDestructive, c.name+" "+truncate(v, 32)+": runs editor commands")
			case 'S', 'u', 'U':
				// -U is the gvimrc, run when the GUI starts (gvim, vim -g).
				c.e.opaque = true
				r.raise(TierDestructive, c.name+" "+truncate(v, 32)+": runs a script of editor commands")
			case 's':
				if exMode {
					continue // silent: a flag, -sc is -s -c
				}
				c.e.opaque = true
				r.raise(TierDestructive, c.name+" "+truncate(v, 32)+": types keys from a script")
			}
			if strings.IndexByte("cSsuUiTwWtqV", l) >= 0 {
				break // the rest of the word, or the next, is its value
			}
		}
	}
	return r.t, r.why
}
