package policy

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The hardware watchdog. Opening /dev/watchdog, even to read, arms it:
// closing the descriptor without writing the magic character 'V' reboots
// the host about a minute later. Rebooting is on the deny list, so every
// word that names the device is denied, in every policy and on every
// host, through the machinery that keeps warden's own state (protect.go):
// globs, braces, "//", "/./", "..", relative words after cd, values known
// at parse time, nested shells and wrappers. A word that names it without
// opening it (ls -l /dev/watchdog, echo /dev/watchdog) is denied too: the
// classifier does not follow the name to what opens it (xargs, $(…)).
// Directories above it are everyday names (ls /dev, dd if=/dev/$DISK) and
// stay as they are; sysfs attributes (/sys/class/watchdog/…) do not arm it.

// watchdogPaths are the watchdog's names: /dev/watchdog, /dev/watchdog0
// to /dev/watchdog31 (the kernel's limit, MAX_DOGS) and the misc device's
// link /dev/char/10:130. Numbered watchdogs have a dynamic major, so
// their /dev/char links are not named here.
var watchdogPaths = func() []protPath {
	names := []string{"/dev/watchdog", "/dev/char/10:130"}
	for i := 0; i < 32; i++ {
		names = append(names, fmt.Sprintf("/dev/watchdog%d", i))
	}
	out := make([]protPath, len(names))
	for i, n := range names {
		out[i] = protPath{clean: n, parts: splitPath(n), device: true}
	}
	return out
}()

// watchdogPath reports whether a clean absolute path names the hardware
// watchdog.
func watchdogPath(c string) bool {
	if c == "/dev/char/10:130" {
		return true
	}
	n, ok := strings.CutPrefix(c, "/dev/watchdog")
	return ok && (n == "" || len(n) <= 2 && strings.Trim(n, "0123456789") == "")
}

// watchdogWord reports whether a word could name the watchdog in any
// spelling: its text names it, it is a pattern or an extended pattern,
// or it is known only in part with /dev in its known text (/dev/w$X).
// Where the policy protects no paths of its own, the others are not
// looked at, which keeps the cost of the check low.
func watchdogWord(a arg) bool {
	v := a.val
	switch {
	case strings.Contains(v, "watchdog") || strings.Contains(v, ":130"):
		return true
	case !a.known:
		return strings.Contains(v, "dev")
	}
	// An extended pattern (@(…)) marks its word a glob too; a quoted
	// parenthesis (awk '{print substr($1, 2)}') is text.
	return a.glob && (globChar(v) && globMayName(v) || strings.Contains(v, "("))
}

// mayNameWatchdog is watchdogWord after nocaseglob too, where a pattern
// matches either case (/D?V/WATCHDO?): lowered, a pattern's letters match
// the watchdog's names as the folded pattern the check then uses does.
func (e *eval) mayNameWatchdog(a arg) bool {
	if watchdogWord(a) {
		return true
	}
	if e.paths == nil || !e.paths.nocase || !a.glob && a.known {
		return false
	}
	return watchdogWord(arg{val: strings.ToLower(a.val), known: a.known, glob: a.glob})
}

// watchdogFirst are the first components of a path that can lead to the
// watchdog: from /, from /dev, from /dev/char, through a process's root.
var watchdogFirst = []string{"dev", "proc", "char", "watchdog", "watchdog0", "10:130"}

// globMayName reports whether a pattern's first component can match the
// first component of a path to the watchdog (/var/log/*.log and *.conf
// cannot, /d?v/*, d*/w* and * can).
func globMayName(v string) bool {
	first, _, _ := strings.Cut(strings.TrimLeft(v, "/"), "/")
	if first == "" || first == "." || first == ".." || first[0] == '~' || strings.Contains(first, "**") || strings.Contains(first, "[:") {
		return true
	}
	if strings.Contains(first, "[!") {
		first = strings.ReplaceAll(first, "[!", "[^")
	}
	for _, n := range watchdogFirst {
		// path.Match, not shellMatch: no classes left to rewrite, and
		// none of its allocation on every [[ of a test.
		if ok, err := path.Match(first, n); ok || err != nil {
			return true
		}
	}
	return false
}

// watchdogPartial checks a word known only in part whose unknown
// components begin with known text: /dev/watchdog$N, /dev/w${X} could be
// the watchdog, and so could what climbs out of an unknown directory,
// $HOME/../../dev/watchdog. A component that is entirely unknown
// (/dev/$DISK) could be any device and is left as it is.
func (e *eval) watchdogPartial(f string) {
	if i := strings.LastIndex(f, "/.."); i >= 0 && strings.ContainsAny(f[:i], "$`") {
		// $HOME/../../dev/watchdog: above a directory not known.
		if rest := f[i+1:]; !strings.ContainsAny(rest, "$`") {
			for strings.HasPrefix(rest, "../") {
				rest = rest[3:]
			}
			parts := splitPath(path.Clean("/" + rest))
			for _, p := range watchdogPaths {
				for k := range p.parts {
					if compMatch(parts, p.parts[k:], isPattern(rest)) {
						e.deny(p.why(f))
						return
					}
				}
			}
		}
		return
	}
	c := lexClean(f)
	if !strings.HasPrefix(c, "/dev/") {
		return
	}
	parts := strings.Split(c[1:], "/")
	for i, p := range parts {
		if j := strings.IndexAny(p, "$`"); j >= 0 {
			if j == 0 {
				return
			}
			parts[i] = p[:j] + "*"
		}
	}
	e.checkAbs("/"+strings.Join(parts, "/"), true, cctx{}, f)
}

// findActions are find's actions that run a command on what it finds.
var findActions = map[string]bool{"-exec": true, "-execdir": true, "-ok": true, "-okdir": true}

// noOpen are programs that act on a file's name without opening it.
var noOpen = map[string]bool{"rm": true, "rmdir": true, "unlink": true, "ls": true, "stat": true,
	"chmod": true, "chown": true, "chgrp": true, "echo": true, "printf": true, "basename": true,
	"dirname": true, "readlink": true, "realpath": true, "mv": true, "ln": true, "du": true, "test": true, "[": true}

// findWatchdog denies a find whose action runs a command that may open
// what it finds when the watchdog can be among them (findReaches).
func (e *eval) findWatchdog(args []arg) {
	expr := args[findExpr(args):]
	act := slices.IndexFunc(expr, func(a arg) bool { return a.known && findActions[a.val] })
	if act < 0 || act+1 < len(expr) && expr[act+1].known && noOpen[path.Base(expr[act+1].val)] {
		return
	}
	if e.findReaches(args, act) {
		e.deny("find " + expr[act].val + watchdogFindWhy)
	}
}

// watchdogReboots ends every reason that denies opening the watchdog.
const watchdogReboots = "the host reboots when it is closed without the magic character"

const watchdogFindWhy = " opens what it finds under a directory that holds the hardware watchdog: opening it arms it, and " + watchdogReboots

// findExpr returns the index of find's expression: after the options
// -H, -L, -P and the start paths.
func findExpr(args []arg) int {
	i := 0
	for i < len(args) && args[i].known && (args[i].val == "-H" || args[i].val == "-L" || args[i].val == "-P") {
		i++
	}
	for ; i < len(args); i++ {
		if a := args[i]; a.known && (strings.HasPrefix(a.val, "-") || a.val == "(" || a.val == "!") {
			break
		}
	}
	return i
}

// findReaches reports whether a find (its arguments after the name) can
// come to the watchdog before the test at index act of its expression:
// a start at or above it and no test before that rules it out (-name,
// -path, -type, -maxdepth). Tests are taken as joined by "and"; an
// expression with -o, "," or ! is taken to reach it. A start the
// classifier cannot place ("$D", or "." where the working directory is
// unknown) is left: find . -exec grep is everyday work, and /dev is
// seldom where it runs.
func (e *eval) findReaches(args []arg, act int) bool {
	x := findExpr(args)
	var starts []string
	for _, a := range args[:x] {
		switch {
		case !a.known || a.val == "-H" || a.val == "-L" || a.val == "-P":
		case strings.HasPrefix(a.val, "/"):
			starts = append(starts, path.Clean(a.val))
		default:
			cwds, _ := e.cwds()
			for _, c := range cwds {
				starts = append(starts, path.Join(c, a.val))
			}
		}
	}
	if len(starts) == 0 && !slices.ContainsFunc(args[:x], func(a arg) bool { return !strings.HasPrefix(a.val, "-") }) {
		starts, _ = e.cwds() // find with no start searches "."
	}
	depth := -1
	for _, s := range starts {
		for _, p := range watchdogPaths[:2] { // /dev/watchdog and /dev/char/10:130
			if Within(p.clean, s) {
				if d := len(p.parts) - len(splitPath(s)); depth < 0 || d < depth {
					depth = d
				}
			}
		}
	}
	if depth < 0 {
		return false
	}
	expr := args[x:]
	if act < 0 || act > len(expr) {
		act = len(expr)
	}
	for _, t := range expr[:act] {
		switch t.val {
		case "-o", "-or", ",", "!", "-not":
			return true // cannot be read as "and": it may reach the device
		}
	}
	for k := 0; k+1 < act; k++ {
		t, v := expr[k], expr[k+1]
		if !t.known || !v.known {
			continue
		}
		switch t.val {
		case "-name", "-iname":
			if !watchdogName(v.val, t.val == "-iname") {
				return false
			}
		case "-path", "-ipath", "-wholename", "-iwholename":
			if strings.HasPrefix(v.val, "/") && !watchdogFindPath(v, strings.HasPrefix(t.val, "-i")) {
				return false
			}
		case "-type", "-xtype":
			// /dev/char/10:130 is a link: -type l reaches it too.
			if !strings.ContainsAny(v.val, "cl") {
				return false
			}
		case "-maxdepth":
			if n, err := strconv.Atoi(v.val); err == nil && n < depth {
				return false
			}
		}
	}
	return true
}

// fdWatchdog denies fd running a command that may open what it finds
// (-x, -X, --exec, --exec-batch) under a directory that holds the
// watchdog, unless its pattern or -t rules the watchdog out. args follow
// the name.
func (e *eval) fdWatchdog(args []arg) {
	var ops []arg
	var types []string
	glob, fixed := false, false
	var cmd *arg
	for i := 0; i < len(args) && cmd == nil; i++ {
		a := args[i]
		if val, ok := fdExec(a); ok {
			switch {
			case val != "":
				cmd = &arg{val: val, known: true}
			case i+1 < len(args):
				cmd = &args[i+1]
			default:
				cmd = &arg{}
			}
			continue
		}
		v := a.val
		switch {
		case !a.known || !strings.HasPrefix(v, "-"):
			ops = append(ops, a)
		case v == "-t" || v == "--type":
			if i+1 < len(args) {
				types = append(types, args[i+1].val)
				i++
			}
		case strings.HasPrefix(v, "--type="):
			types = append(types, v[len("--type="):])
		case strings.HasPrefix(v, "-t") && !strings.HasPrefix(v, "--"):
			types = append(types, v[2:])
		case v == "-g" || v == "--glob":
			glob = true
		case v == "-F" || v == "--fixed-strings":
			fixed = true
		case strings.Contains(v, "=") || strings.HasPrefix(v, "--") && !slices.Contains(fdValued, v):
		case slices.Contains(fdValued, v):
			i++
		}
	}
	if cmd == nil || cmd.known && noOpen[path.Base(cmd.val)] {
		return
	}
	if len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool {
		return t == "c" || t == "char-device" || t == "l" || t == "symlink" || t == "" || strings.HasPrefix(t, "$")
	}) {
		return
	}
	if len(ops) > 0 {
		pat := ops[0]
		ops = ops[1:]
		if pat.known && !fdPatternHits(pat.val, glob, fixed) {
			return
		}
	}
	starts := []arg{{val: ".", known: true}}
	if len(ops) > 0 {
		starts = ops
	}
	// As find with those starts and no tests.
	if e.findReaches(append(slices.Clone(starts), arg{val: "-print", known: true}), -1) {
		e.deny("fd --exec" + watchdogFindWhy)
	}
}

// fdValued are fd's options that take the next word as their value.
var fdValued = []string{"-e", "--extension", "-E", "--exclude", "-d", "--max-depth", "--min-depth", "--exact-depth",
	"-S", "--size", "-c", "--color", "-j", "--threads", "-o", "--owner", "--changed-within", "--changed-before",
	"--max-results", "--base-directory", "--search-path", "--ignore-file", "--path-separator", "--batch-size"}

// fdPatternHits reports whether an fd pattern (a regex unless glob or
// fixed, smart case) matches one of the watchdog's names.
func fdPatternHits(pat string, glob, fixed bool) bool {
	if pat == "" {
		return true
	}
	if strings.ToLower(pat) == pat {
		pat = strings.ToLower(pat)
	}
	var re *regexp.Regexp
	if !glob && !fixed {
		var err error
		if re, err = regexp.Compile(pat); err != nil {
			return true
		}
	}
	for _, n := range []string{"watchdog", "watchdog0", "10:130"} {
		switch {
		case glob:
			if ok, _ := shellMatch(pat, n); ok {
				return true
			}
		case fixed:
			if strings.Contains(n, pat) {
				return true
			}
		case re.MatchString(n):
			return true
		}
	}
	return false
}

// listMayReach reports, from the literal text of a find's or ls's words
// alone (ws follow the name), whether it may list the watchdog: a start
// not a plain literal, an absolute one above the watchdog, or a relative
// one where a cd or a known directory gives it a place.
func (e *eval) listMayReach(ws []*syntax.Word, find bool) bool {
	ps := e.pathsFor()
	if ps == nil {
		return false
	}
	rel := len(ps.cds) > 0 || ps.initial != ""
	started := false
	for _, w := range ws {
		lit := w.Lit()
		switch {
		case lit == "":
			return true
		case strings.HasPrefix(lit, "-") || lit == "(" || lit == "!":
			if find && lit != "-H" && lit != "-L" && lit != "-P" {
				return !started && rel // the expression: no more starts
			}
		case strings.HasPrefix(lit, "/"):
			if c := path.Clean(lit); Within("/dev/watchdog", c) || Within("/dev/char/10:130", c) {
				return true
			}
			started = true
		case rel:
			return true
		default:
			started = true
		}
	}
	return !started && rel // no start: "."
}

// listsWatchdog reports whether a command prints the watchdog's name:
// find reaching it (findReaches), ls of /dev or /dev/char, or ls -R of a
// directory above it.
func (e *eval) listsWatchdog(args []arg) bool {
	if len(args) == 0 || !args[0].known {
		return false
	}
	switch path.Base(args[0].val) {
	case "find":
		return e.findReaches(args[1:], -1)
	case "ls":
		rec := hasFlag(argVals(args[1:]), 'R', "--recursive")
		for _, op := range finderOperands(args) {
			var dirs []string
			switch {
			case !op.known:
				return true
			case strings.HasPrefix(op.val, "/"):
				dirs = []string{path.Clean(op.val)}
			default:
				cwds, _ := e.cwds()
				for _, c := range cwds {
					dirs = append(dirs, path.Join(c, op.val))
				}
			}
			for _, d := range dirs {
				if d == "/dev" || d == "/dev/char" || rec && Within("/dev/watchdog", d) {
					return true
				}
			}
		}
	}
	return false
}

// substWatchdog denies words whose command substitution lists the
// watchdog (cat $(find /dev -type c), for f in $(ls /dev)): what it
// prints is handed to a command, or a loop, that may open it. A command
// that uses names only (ls -l $(find …)) is left. ws are the words of a
// command (call) or a for list.
func (e *eval) substWatchdog(ws []*syntax.Word, call bool, ctx cctx, sc *scope) {
	for i, w := range ws {
		for ce := range substSources(w) {
			if len(ce.Args) == 0 {
				continue
			}
			if n := path.Base(ce.Args[0].Lit()); n != "find" && n != "ls" || !e.listMayReach(ce.Args[1:], n == "find") {
				continue
			}
			if call && i > 0 && noOpen[path.Base(ws[0].Lit())] {
				return
			}
			r := resolver{e: e, ctx: ctx, sc: sc}
			if e.listsWatchdog(r.fieldsAll(ce.Args)) {
				e.deny("lists the hardware watchdog to what may open it" + watchdogListWhy)
				return
			}
		}
	}
}

const watchdogListWhy = ": opening it arms it, and " + watchdogReboots

// pipedWatchdog denies a pipeline in which find or ls lists the watchdog
// and a later stage opens what it reads (xargs, parallel, a while read
// loop): find /dev -name 'watchdog*' | xargs cat, ls /dev | while read.
// chain is right to left, as binary builds it. Only the first words are
// looked at until a lister with a reader after it turns up, which keeps
// the cost low.
func (e *eval) pipedWatchdog(chain []*syntax.Stmt, ctx cctx, sc *scope) {
	reader, pair := false, false
	for _, st := range chain {
		switch c := st.Cmd.(type) {
		case *syntax.WhileClause:
			reader = true
		case *syntax.CallExpr:
			if len(c.Args) > 0 {
				switch path.Base(c.Args[0].Lit()) {
				case "xargs", "parallel":
					reader = true
				case "find", "ls":
					pair = pair || reader && e.listMayReach(c.Args[1:], c.Args[0].Lit() == "find")
				}
			}
		}
	}
	if !pair {
		return
	}
	r := resolver{e: e, ctx: ctx, sc: sc}
	reader = false
	for _, st := range chain {
		switch c := st.Cmd.(type) {
		case *syntax.WhileClause:
			reader = true
		case *syntax.CallExpr:
			if len(c.Args) == 0 {
				continue
			}
			switch path.Base(c.Args[0].Lit()) {
			case "xargs", "parallel":
				// xargs rm, xargs ls -l use the names only.
				if !slices.ContainsFunc(r.fieldsAll(c.Args[1:]), func(a arg) bool { return a.known && noOpen[path.Base(a.val)] }) {
					reader = true
				}
			case "find", "ls":
				if reader && e.listsWatchdog(r.fieldsAll(c.Args)) {
					e.deny("lists the hardware watchdog to a reader (xargs, while read)" + watchdogListWhy)
					return
				}
			}
		}
	}
}

// watchdogName reports whether a find -name pattern matches one of the
// watchdog's names.
func watchdogName(pat string, fold bool) bool {
	if fold {
		pat = strings.ToLower(pat)
	}
	for _, p := range watchdogPaths {
		if ok, _ := shellMatch(pat, path.Base(p.clean)); ok {
			return true
		}
	}
	return false
}

// watchdogFindPath reports whether a find -path pattern matches one of
// the watchdog's paths.
func watchdogFindPath(pat arg, fold bool) bool {
	for _, p := range watchdogPaths {
		if findPathHit(pat, p.clean, fold) {
			return true
		}
	}
	return false
}
