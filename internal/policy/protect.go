package policy

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Warden's own paths (Rules.Protect) are checked in every word of every
// command, after resolving it as the shell would: braces and quotes (done
// by the resolver), "//", "/./", "..", a trailing "/", "~" and $HOME,
// relative paths against every directory a cd in the input can make
// current, and on the local host symlinks in the longest existing prefix.
// A word naming a protected path or a path inside one is denied; a glob
// that matches one is denied; a word whose value is only partly known but
// could name one (its known parts are a protected prefix or name a
// protected file) is unresolvedTier. A word that is entirely unknown
// ("$X") is not flagged: the kernel confinement, not the classifier, keeps
// children away from warden's state.

// protection is the compiled form of Rules.Protect.
type protection struct {
	paths       []protPath
	home        string // Rules.Home, cleaned
	dir         string // Rules.Dir, cleaned
	kernel      bool   // Rules.KernelHolds
	own         bool   // Rules.Protect named paths: not only the built-in devices
	distinctive []string
}

type protPath struct {
	clean  string
	parts  []string
	device bool // a device that must not be opened, not warden's state
}

// why is the reason a word naming p (or a path inside it) is denied.
func (p protPath) why(word string) string {
	if p.device {
		return "opens the hardware watchdog (" + truncate(word, 96) + "): " + watchdogReboots
	}
	return "names warden's own state: " + truncate(word, 96)
}

const (
	maxRelWords = 4096 // relative words kept for checking against cd targets
	maxCwds     = 16   // working directories tried for relative words
)

// newProtection compiles protected paths: each as written and, if a prefix
// of it exists on this machine, with that prefix's symlinks resolved.
func newProtection(r Rules) (*protection, error) {
	pr := &protection{kernel: r.KernelHolds}
	seen := map[string]bool{}
	add := func(p string) {
		if p == "/" || seen[p] {
			return
		}
		seen[p] = true
		pr.paths = append(pr.paths, protPath{clean: p, parts: splitPath(p)})
	}
	for _, p := range r.Protect {
		if p == "" {
			continue
		}
		c, err := CleanPath(p)
		if err != nil {
			return nil, fmt.Errorf("policy: protected path %q: %w", p, err)
		}
		if c == "/" {
			return nil, errors.New("policy: protected path \"/\" would deny every command")
		}
		add(c)
		add(evalPrefix(c))
	}
	pr.own = len(pr.paths) > 0
	if strings.HasPrefix(r.Home, "/") {
		pr.home = path.Clean(r.Home)
	}
	if strings.HasPrefix(r.Dir, "/") {
		pr.dir = path.Clean(r.Dir)
	}
	names := map[string]bool{}
	for _, p := range pr.paths {
		names[p.parts[len(p.parts)-1]] = true
		for _, c := range p.parts {
			if strings.Contains(strings.ToLower(c), "warden") {
				names[c] = true
			}
		}
	}
	for n := range names {
		pr.distinctive = append(pr.distinctive, n)
	}
	sort.Strings(pr.distinctive)
	pr.paths = append(pr.paths, watchdogPaths...)
	return pr, nil
}

// evalPrefix resolves the symlinks of the longest existing prefix of p and
// appends the rest, cleaned. It returns p cleaned when nothing exists.
func evalPrefix(p string) string {
	rest := ""
	cur := p
	for i := 0; i < 64; i++ {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return path.Clean(path.Join(r, rest))
		}
		dir, base := path.Split(strings.TrimRight(cur, "/"))
		if dir == "" || dir == cur {
			break
		}
		rest = path.Join(base, rest)
		cur = dir
	}
	return path.Clean(p)
}

// pathState is what one Evaluate learned about paths.
type pathState struct {
	initial   string       // the starting directory, "" when unknown
	cds       []arg        // cd and pushd targets, in order; see addCd
	cdAbs     map[arg]bool // the absolute targets in cds
	cdMore    bool         // more cd targets than maxCds
	cwdsMemo  *cwdsMemo    // see cwds
	cdUnknown bool         // a cd whose target is computed at run time
	// cdSafeGlob is a cd to a pattern under a directory that holds no
	// temporary one (cd "$r" in for r in /srv/*/): unknown to cwds, yet
	// no directory a tier 1 write made, so agentCwdOf need not say so.
	cdSafeGlob bool
	rel        map[string]bool  // relative words to try against cd targets
	recRel     []string         // relative directories recursive readers read
	relWrites  map[string]bool  // relative write targets that name a device or sysrq-trigger
	relReads   map[string]bool  // relative names programs open (see deviceRead)
	relMutates map[string]uint8 // relative names commands change (see addRelMutate)
	relMore    bool             // more relative words than maxRelWords
	seen       map[string]bool  // words already checked
	resolved   map[string]string
	aliases    []alias             // links, copies and mounts of directories above a protected path
	nocase     bool                // shopt -s nocaseglob: patterns match either case
	fdDirs     map[string][]string // what redirections opened, by descriptor ("" for {fd}); see protect_fds.go
	back       bool                // cd -, popd: back to a directory an earlier input may have made current
	moves      int                 // cd, pushd and popd commands run (see cdMark): a cd "$d" after one adds no target
	agentMemo  [2]cwdMemo
}

// cwdMemo is what agentCwdOf read of the first n cds: whether one leads
// anywhere, and whether one may lead to a temporary directory.
type cwdMemo struct {
	set, unknown, compose bool
	above, rel            bool // a directory above a temporary one was named; a relative cd was
	through               bool // an absolute cd climbed out of a temporary directory (cd -P /tmp/x/../../srv)
	n                     int
}

// pathsFor returns the path state, creating it when the policy protects
// paths (New always gives it the watchdog's).
func (e *eval) pathsFor() *pathState {
	if e.p.protect == nil {
		return nil
	}
	if e.paths == nil {
		e.paths = &pathState{} // its maps are made on first write
		if e.local {
			e.paths.initial = e.p.protect.dir
		}
	}
	return e.paths
}

// startDir sets the directory an input starts in.
func (e *eval) startDir(dir string) {
	ps := e.pathsFor()
	if ps == nil {
		return
	}
	switch {
	case strings.HasPrefix(dir, "/"):
		ps.initial = path.Clean(dir)
		e.pathWord(arg{val: dir, known: true}, cctx{}, "")
		if strings.Contains(dir, "/..") && agentPath(dir) != "" {
			// /tmp/x/../../srv: the kernel follows a link at /tmp/x
			// first, so the start may be anywhere one leads.
			ps.cdUnknown = true
		}
	case dir != "":
		ps.cdUnknown = true
	}
}

// alsoDir records another directory the input may start in.
func (e *eval) alsoDir(dir string) {
	ps := e.pathsFor()
	if ps == nil {
		return
	}
	if !strings.HasPrefix(dir, "/") {
		ps.cdUnknown = true
		return
	}
	e.pathWord(arg{val: dir, known: true}, cctx{}, "")
	ps.cds = append(ps.cds, arg{val: path.Clean(dir), known: true})
}

// cdTo records a as a directory the input can make current.
func (e *eval) cdTo(a arg) {
	ps := e.paths
	if rest, ok := homeRelative(a); ok {
		a = arg{val: "~" + rest, known: true} // cd "$HOME"/../dev
	}
	if d, ok := knownDir(a); ok && a.glob && isPattern(a.val) && globUnderSafeDir(d) {
		ps.cdSafeGlob = true
	} else if !ok || a.glob && isPattern(a.val) {
		ps.cdUnknown = true
	} else {
		if !a.known {
			a = arg{val: d, known: true}
		}
		ps.addCd(a)
	}
}

// expandedWords checks words the shell expands into file names outside a
// command's arguments — the lists of for and select, the elements of an
// array — as it checks arguments: for f in /etc/*/config.yaml names every
// file the glob matches, whatever the loop later does with $f.
func (e *eval) expandedWords(ws []*syntax.Word, ctx cctx, sc *scope) {
	if e.pathsFor() == nil {
		return
	}
	var r *resolver // made for the first word that needs it
	for _, w := range ws {
		if lit := w.Lit(); !e.p.protect.own && len(e.paths.aliases) == 0 && lit != "" && !strings.ContainsAny(lit, "\\{") && !e.mayNameWatchdog(arg{val: lit, known: true, glob: globChar(lit)}) {
			continue // a plain word that cannot name the watchdog
		}
		if r == nil {
			r = &resolver{e: e, ctx: ctx, sc: sc}
		}
		if hasBrace(w) {
			// for f in /etc/war{d,x}en/…: each word it expands into.
			for _, a := range r.fieldsAll([]*syntax.Word{w}) {
				e.pathWord(a, ctx, "")
			}
			continue
		}
		e.pathWord(r.lit(w), ctx, "")
	}
}

// protectWords checks every word of one command, remembers cd targets,
// and looks at find's name tests.
func (e *eval) protectWords(args []arg, ctx cctx) {
	ps := e.pathsFor()
	if ps == nil || len(args) == 0 {
		return
	}
	chdir := ""
	for i, a := range args {
		if i+1 < len(args) && a.known && (a.val == "-C" || a.val == "--directory" || a.val == "--chdir") {
			if d, ok := knownDir(args[i+1]); ok {
				chdir = d
			}
		} else if v, ok := strings.CutPrefix(a.val, "--directory="); ok && a.known {
			chdir = v
		}
	}
	for _, a := range args {
		e.pathWord(a, ctx, chdir)
	}
	e.deviceReads(args, ctx)
	e.recursiveRead(args, ctx)
	e.listedDirs(args, ctx)
	name := path.Base(args[0].val)
	switch name {
	case "cd", "pushd":
		ps.moves++
		ops := operands(argVals(args[1:]))
		switch {
		case len(ops) == 0:
			if e.p.protect.home != "" && e.local {
				ps.addCd(arg{val: e.p.protect.home, known: true})
			} else {
				ps.cdUnknown = true
			}
		case ops[0] == "-" || strings.HasPrefix(ops[0], "+") && name == "pushd":
			ps.back = true
		default:
			for _, a := range args[1:] {
				if a.val == ops[0] {
					e.cdTo(a)
					break
				}
			}
		}
	case "popd":
		ps.moves++
		ps.back = true
	case "find":
		e.findProtect(args[1:], ctx)
	case "fd", "fdfind":
		e.fdWatchdog(args[1:])
	case "ln", "cp", "mv", "rsync", "mount", "bindfs", "sshfs":
		e.recordAliases(name, args[1:])
	case "shopt":
		ps.nocase = ps.nocase || setsNocase(args[1:])
	case "setopt", "unsetopt":
		ps.nocase = ps.nocase || setsZshNocase(name, args[1:])
	case "set":
		ps.nocase = ps.nocase || ctx.zsh && setsZshNocase(name, args[1:])
	}
}

// posixClasses are the bracket classes of shell globs, as ranges path.Match knows.
var posixClasses = strings.NewReplacer("[:alpha:]", "a-zA-Z", "[:digit:]", "0-9", "[:alnum:]", "a-zA-Z0-9",
	"[:upper:]", "A-Z", "[:lower:]", "a-z", "[:xdigit:]", "0-9A-Fa-f", "[:word:]", "a-zA-Z0-9_",
	"[:space:]", " \t\n\r\v\f", "[:blank:]", " \t", "[:punct:]", "!-/:-@\\[-`{-~", "[:print:]", " -~",
	"[:graph:]", "!-~", "[:cntrl:]", "\x00-\x1f")

// shellMatch is path.Match for a shell glob: [!x] negates and [[:alpha:]]
// classes are ranges. A pattern path.Match cannot read matches its own text only.
func shellMatch(pattern, name string) (bool, error) {
	if strings.Contains(pattern, "[") {
		pattern = strings.ReplaceAll(posixClasses.Replace(pattern), "[!", "[^")
	}
	ok, err := path.Match(pattern, name)
	if err != nil {
		return pattern == name, err
	}
	return ok, nil
}

// extGlob matches bash's extended patterns, @(a|b) +(…) *(…) ?(…) !(…),
// which the resolver leaves unknown; each could match any one name.
var extGlob = regexp.MustCompile(`[@+*?!]\([^()]*\)`)

// braceVar is ${NAME}, which reads as $NAME once braces separate pieces.
var braceVar = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// braceExpansions replaces each outermost expansion with an operator
// (${X:-/root}, ${X#a}, ${X:-${Y}}) by $X: what it yields is unknown, and
// the text after it continues it, so it stands for one unknown piece. It
// returns the text inside each (a default /root/.local/…), whose words are
// pieces of their own. An expansion left open runs to the end of v. One
// pass, however deep the nesting.
func braceExpansions(v string) (string, []string) {
	if !strings.Contains(v, "${") {
		return v, nil
	}
	var b strings.Builder
	var inner []string
	for i := 0; i < len(v); {
		if !strings.HasPrefix(v[i:], "${") {
			b.WriteByte(v[i])
			i++
			continue
		}
		depth, j := 0, i+1
		for ; j < len(v); j++ {
			if v[j] == '{' {
				depth++
			} else if v[j] == '}' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		b.WriteString("$X" + joinMark)
		inner = append(inner, v[i+2:min(j, len(v))])
		i = j + 1
	}
	return b.String(), inner
}

// joinMark ends an unknown piece ($X, $C, $NAME from ${NAME}) that text
// continues: ${X}etc is not $Xetc, one variable, and the literal text
// after it may begin a component (unknownSplit). dropJoinMarks keeps it
// only where a name character follows.
const joinMark = "\x02"

func dropJoinMarks(v string) string {
	if !strings.Contains(v, joinMark) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == joinMark[0] && (i+1 == len(v) || !nameByte(v[i+1])) {
			continue
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// nameByte reports whether b may continue a shell variable's name.
func nameByte(b byte) bool {
	return b == '_' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9'
}

// pathSep separates the pieces of a word that may each be a path:
// --opt=/p, host:/p, a,b, @file, -o/p.
func pathSep(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\'', '"', ';', '|', '&', '(', ')', '<', '>', '=', ':', ',', '@':
		return true
	}
	return false
}

// pathWord checks one word for protected paths. chdir is a directory the
// command resolves its relative words against (tar -C, make -C).
func (e *eval) pathWord(a arg, ctx cctx, chdir string) {
	ps := e.pathsFor()
	if ps == nil || a.val == "" || !e.p.protect.own && len(ps.aliases) == 0 && !e.mayNameWatchdog(a) {
		return
	}
	key := a.val
	if !a.known {
		key = "\x00" + key
	}
	if a.glob {
		key = "\x01" + key // a glob names more than the same text quoted
	}
	if chdir != "" {
		key += "\x00" + chdir
	}
	if ps.seen[key] {
		return
	}
	if ps.seen == nil {
		ps.seen = map[string]bool{}
	}
	if len(ps.seen) < maxRelWords*4 {
		ps.seen[key] = true
	}
	v := a.val
	if a.glob || !a.known {
		v = posixClasses.Replace(v) // [[:alpha:]] has colons, which separate pieces
	}
	sep := pathSep
	var inner []string
	if !a.known {
		v = braceVar.ReplaceAllString(extGlob.ReplaceAllString(substPieces(cwdSubst.Replace(unquote.Replace(v))), "*"), "$$$1"+joinMark)
		v, inner = braceExpansions(v)
		v = dropJoinMarks(v)
		// ${X:-/path}, ${X}/path: the braces of expansions end pieces too.
		sep = func(r rune) bool { return r == '{' || r == '}' || pathSep(r) }
	}
	fields := strings.FieldsFunc(v, sep)
	if a.known && strings.ContainsAny(v, "\"'") {
		// Program text joins string literals into one path: awk's
		// "/etc/war" "den/x", python's +, perl's and php's ., lua's ..
		if g := joinStrings(v); g != "" {
			fields = append(fields, strings.FieldsFunc(g, sep)...)
		}
	}
	for _, in := range inner {
		fields = append(fields, strings.FieldsFunc(in, sep)...)
	}
	if len(fields) > 64 {
		fields = fields[:64]
	}
	if strings.Contains(v, ":") && (strings.Contains(v, ":130") || strings.Contains(v, "char") || strings.ContainsAny(v, "*?[")) {
		// The watchdog's /dev/char/10:130 has the colon that separates
		// host:/path: the pieces around it are a path too.
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r != ':' && sep(r) }) {
			if strings.Contains(f, ":") {
				fields = append(fields, f)
			}
		}
	}
	for _, f := range fields {
		if f[0] == '-' {
			// An option: -o/path, --out/path.
			i := strings.IndexAny(f, "/~")
			if i < 0 {
				continue
			}
			f = f[i:]
		}
		if !a.known && strings.ContainsAny(f, "$`") {
			if t, ok := cwdWord(f); ok {
				e.tildePath(t, isPattern(t), ctx, a.val) // as ~+/… after any cd
			}
			e.watchdogPartial(f)
			e.partialPath(f, ctx)
			continue
		}
		glob := isPattern(f) && (a.glob || !a.known)
		if glob && ps.nocase {
			f = foldPattern(f)
		}
		switch {
		case f[0] == '/':
			e.absPath(f, glob, ctx, a.val)
			if rest, ok := localURLPath(f); ok {
				e.absPath(rest, glob, ctx, a.val)
				f = rest
			}
			if p, ok := urlFilePath(f); ok {
				e.absPath(p, glob, ctx, a.val)
			}
		case f[0] == '~':
			e.tildePath(f, glob, ctx, a.val)
		default:
			if chdir != "" && strings.HasPrefix(chdir, "/") {
				e.absPath(chdir+"/"+f, glob, ctx, a.val)
			}
			e.addRel(f, glob)
		}
	}
}

// tildePath checks ~/x and ~user/x.
func (e *eval) tildePath(f string, glob bool, ctx cctx, word string) {
	user, rest, _ := strings.Cut(f[1:], "/")
	home := ""
	switch {
	case user == "" && e.local:
		home = e.p.protect.home
	case user == "root":
		home = "/root"
	case user != "":
		home = "/home/" + user
	}
	if home != "" {
		e.absPath(home+"/"+rest, glob, ctx, word)
	}
	if user == "" && ctx.sc != nil {
		// HOME assigned in the script: ~ is what it was given.
		for _, h := range ctx.sc.values("HOME") {
			if strings.HasPrefix(h, "/") {
				e.absPath(h+"/"+rest, glob, ctx, word)
			}
		}
	}
	if user == "" && home == "" || user != "" && user != "root" {
		// Whose home it is is not known: a protected path ending in
		// these components could be it; climbing out of it, any path.
		e.suffixMatch(rest, glob, ctx, word)
		if strings.HasPrefix(path.Clean(rest), "..") {
			e.unknownDirWord(rest, glob)
		}
	}
}

// suffixMatch flags a path relative to an unknown directory whose
// components continue a protected path's tail: warden/token under a home
// that may be /root/.local/state.
func (e *eval) suffixMatch(rest string, glob bool, ctx cctx, word string) {
	e.tailMatch(rest, glob, 1, 1, word)
}

// tailMatch denies a relative path whose components continue the tail of a
// protected path that starts at component from or later and has at least
// minLen components.
func (e *eval) tailMatch(rest string, glob bool, from, minLen int, word string) {
	parts := splitPath(path.Clean("/" + rest))
	if len(parts) == 0 {
		return
	}
	for _, p := range e.p.protect.paths {
		for start := from; start <= len(p.parts)-minLen; start++ {
			tail := p.parts[start:]
			if compMatch(parts, tail, glob) {
				e.deny(p.why(word))
				return
			}
		}
	}
}

// compMatch reports whether the components of a path (or pattern) name
// the components want or something inside them.
func compMatch(parts, want []string, glob bool) bool {
	if len(parts) < len(want) {
		return false
	}
	for i, w := range want {
		if glob {
			if ok, err := shellMatch(parts[i], w); err != nil || !ok {
				if err != nil && parts[i] == w {
					continue
				}
				return false
			}
		} else if parts[i] != w {
			return false
		}
	}
	return true
}

// absPath checks an absolute path or pattern lexically and, on the local
// host, with its symlinks resolved.
func (e *eval) absPath(f string, glob bool, ctx cctx, word string) {
	if e.checkAbs(path.Clean(f), glob, ctx, word) || e.procPath(f, glob, ctx, word) || e.descPath(f, glob, ctx, word) ||
		len(e.paths.aliases) > 0 && e.aliasedPath(f, glob, ctx, word) {
		return
	}
	if !e.local || e.p.protect.kernel || !e.p.protect.own {
		// Another host's links say nothing here; and where the kernel
		// refuses warden's files to every local program, it does
		// whatever link leads to them, without an lstat per word. The
		// watchdog alone is not worth an lstat per word: its one
		// usual link, /dev/char/10:130, is named.
		return
	}
	lit := f
	var tail []string
	if glob {
		// Resolve the literal directories before the first pattern.
		parts := strings.Split(f, "/")
		k := 0
		for k < len(parts) && !isPattern(parts[k]) {
			k++
		}
		lit, tail = strings.Join(parts[:k], "/"), parts[k:]
		if lit == "" {
			return
		}
	}
	if ownDescriptor(path.Clean(lit)) {
		return // warden's own descriptors say nothing about the child's
	}
	r := e.resolve(lit)
	if r != path.Clean(lit) {
		e.checkAbs(path.Clean(path.Join(append([]string{r}, tail...)...)), glob, ctx, word)
	}
}

// resolve is evalPrefix with a cache per Evaluate: a path whose last
// component is not a symlink is its parent's resolution and its name, so
// the words of one directory cost one lstat each.
func (e *eval) resolve(p string) string {
	ps := e.paths
	if r, ok := ps.resolved[p]; ok {
		return r
	}
	var r string
	c := path.Clean(p)
	dir, base := path.Split(c)
	if strings.Contains(p, "..") || dir == "" || base == "" {
		r = evalPrefix(p) // ".." must be taken after the links before it
	} else if fi, err := os.Lstat(c); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		r = path.Join(e.resolve(path.Clean(dir)), base)
	} else {
		r = evalPrefix(c)
	}
	if ps.resolved == nil {
		ps.resolved = map[string]string{}
	}
	if len(ps.resolved) < maxRelWords {
		ps.resolved[p] = r
	}
	return r
}

// checkAbs checks a clean absolute path or pattern and reports whether it
// denied the word.
func (e *eval) checkAbs(c string, glob bool, ctx cctx, word string) bool {
	parts := splitPath(c)
	for _, p := range e.p.protect.paths {
		switch protMatch(parts, p.parts, glob) {
		case matchInside:
			e.deny(p.why(word))
			return true
		case matchAncestor:
			if !p.device && e.nearAncestor(parts, p.parts) {
				e.note(TierMutate, ctx.covered, "names a directory that holds warden's own state: %s", truncate(word, 96))
			}
		}
	}
	return false
}

// nearAncestor reports whether a directory holding a protected path is
// specific to it: its parent or grandparent, but not the root, a system,
// home or temporary directory, which commands name all the time.
func (e *eval) nearAncestor(dir, prot []string) bool {
	if len(dir) == 0 || len(prot)-len(dir) > 2 {
		return false
	}
	c := "/" + strings.Join(dir, "/")
	if c == e.p.protect.home || c == "/root" || c == "/tmp" || c == "/var/tmp" || c == "/dev/shm" ||
		len(dir) == 2 && (dir[0] == "home" || dir[0] == "Users") {
		return false
	}
	for _, d := range criticalDirs {
		if c == d {
			return false
		}
	}
	return true
}

const (
	matchNone = iota
	matchAncestor
	matchInside
)

// protMatch compares path (or pattern, with "**" for any number of
// components) components with a protected path's: matchInside when they
// name it or something inside it, matchAncestor when a directory above it.
func protMatch(parts, prot []string, glob bool) int {
	var m func(i, j int) int
	steps := 0
	m = func(i, j int) int {
		if steps++; steps > 4096 {
			return matchInside // a pattern too costly to match could match anything
		}
		if j == len(prot) {
			return matchInside
		}
		if i == len(parts) {
			return matchAncestor
		}
		if glob && parts[i] == "**" {
			return max(m(i+1, j), m(i, j+1))
		}
		if glob {
			if ok, err := shellMatch(parts[i], prot[j]); err == nil && ok || err != nil && parts[i] == prot[j] {
				return m(i+1, j+1)
			}
			return matchNone
		}
		if parts[i] == prot[j] {
			return m(i+1, j+1)
		}
		return matchNone
	}
	return m(0, 0)
}
