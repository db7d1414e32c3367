package policy

import (
	"encoding/json"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// A call that runs text the classifier cannot see may run what any file
// it names holds, however the text gets there: through a descriptor
// (exec 3<F; sh <&3, sh /dev/fd/3 3<F), a command substitution (eval
// "$(cat F)", sh -c "$(<F)", x=$(cat F); $x), a filter (head F | sh,
// dd if=F | sh, sed p F | sh) or a program's own reading (awk
// '{system($0)}' F). Following each of those is following the class one
// spelling at a time; instead, once a call is opaque, every local file
// its text names that changed since warden started meets the deny list,
// as the call's own raw text does. Only a denial follows: the call keeps
// the tier its opacity gave it.

// maxNamedFiles is how many names one call's text has looked up, and
// how many more files the modules its words may name.
const maxNamedFiles = 4096

// maxSearchDirs is how many directories besides the working ones a
// call's modules are looked for in.
const maxSearchDirs = 16

// maxOldPrograms is how many program files older than warden a call's
// words name are read for what they import.
const maxOldPrograms = 8

// namedFiles meets the deny list with the text of each local file that
// texts name, read as a script, and of each module those names load;
// with walked, of each name the walk resolved too.
func (e *eval) namedFiles(ctx cctx, walked bool, texts ...string) {
	if !e.local || e.p.files == nil || e.denied {
		return
	}
	l := &nameLookup{e: e, ctx: ctx, seen: map[string]bool{}, words: map[string]bool{}, isMod: map[string]bool{}}
	if e.paths != nil {
		l.cwds, _ = e.cwds()
	}
	l.dirs = append(l.dirs, l.cwds...)
	// The names the walk resolved (exec 3<"$d/job", cat "$d/job"),
	// then every word of the texts.
	if walked {
		for w := range e.walkNames {
			if !l.visit(w) {
				return
			}
		}
		if !l.listedFiles(e.listed) {
			return
		}
	}
	for _, s := range texts {
		if !textWords(workDirs.Replace(s), l.word) {
			return
		}
	}
	// Then what text walked aside names (keepUnseen); looking up its
	// files may walk more aside, kept as it goes.
	for i := 0; i < len(e.unseen); i++ {
		u := e.unseen[i]
		if e.scanText(u.text); e.denied {
			return
		}
		for _, d := range u.dirs {
			if !slices.Contains(l.cwds, d) {
				l.cwds = append(l.cwds, d)
				l.dirs = append(l.dirs, d)
			}
		}
		for _, w := range u.names {
			if !l.visit(w) {
				return
			}
		}
		if !l.listedFiles(u.listed) {
			return
		}
		if !textWords(workDirs.Replace(u.text), l.word) {
			return
		}
	}
	l.loadModules()
}

// Text walked aside from the call — a script file it runs (sh job.sh,
// ./job.sh, a hook), another interpreter's program file, a command line
// an argument hands a shell — is walked on a fork of the call's
// evaluation, of which only a denial used to come back. When that walk
// cannot see all its text runs (job.sh holds exec 3<plain; sh <&3, or
// python3 job.py reads plain), the files the text names may be run as
// the call's own may: keepUnseen keeps the text and the names its walk
// resolved, and namedFiles meets them with the deny list as it does the
// call's text.

// maxUnseenBytes is how much such text one evaluation keeps.
const maxUnseenBytes = maxInput

// unseenText is text walked aside that runs what its walk could not see
// into, and the names the walk resolved.
type unseenText struct {
	text   string
	names  []string
	dirs   []string // where its walk may have run it (cd /srv; sh <plain)
	listed []string // the directories find and fd list in it (noteListed)
}

// keepUnseen keeps what s, a walk aside of text, could not see into: the
// text itself when opaque, and what s's own walks aside kept, and the
// values s gave variables that make programs load code.
func (e *eval) keepUnseen(s *eval, text string, opaque bool) {
	s.settleScriptRuns()
	opaque = opaque || s.opaque
	for _, u := range s.unseen {
		e.addUnseen(u)
	}
	e.codeValues = keepAll(e, e.codeValues, s.codeValues, maxCodeValues, codeValuesWhat)
	if !opaque {
		return
	}
	e.modules = e.modules || s.modules
	u := unseenText{text: text, listed: s.listed}
	for w := range s.walkNames {
		u.names = append(u.names, w)
	}
	if s.paths != nil {
		u.dirs, _ = s.cwds()
	}
	e.addUnseen(u)
}

// addUnseen keeps u, within maxUnseenBytes.
func (e *eval) addUnseen(u unseenText) {
	if !e.local || e.unseenBytes+len(u.text) > maxUnseenBytes {
		return
	}
	e.unseenBytes += len(u.text)
	e.unseen = append(e.unseen, u)
}

// nameLookup is one call's lookup of the files its text names.
type nameLookup struct {
	e     *eval
	ctx   cctx
	cwds  []string        // the working directories
	dirs  []string        // and where the call's modules may be found
	seen  map[string]bool // files looked up
	words map[string]bool // words visited
	mods  []string        // words that may name a module, in order
	isMod map[string]bool // and as a set
	old   int             // program files older than warden read for their imports
	stop  bool            // a denial or the limit ended the lookup
}

// check meets the deny list with the file p, if it is a script changed
// since warden started, and keeps p as a directory modules may be found
// in when it is one or holds a module; it reports false when the lookup
// is over.
func (l *nameLookup) check(p string, limit int) bool {
	if l.seen[p] || unreadDir(p) {
		return true
	}
	if len(l.seen) >= limit {
		l.stop = true
		return false
	}
	l.seen[p] = true
	fi, err := os.Stat(p)
	if err != nil {
		return true
	}
	switch {
	case fi.IsDir():
		l.searchDir(p)
		return true
	case moduleFile(p):
		// A program's modules are found beside it (python3 /srv/x/run.py
		// imports /srv/x/job.py).
		l.searchDir(path.Dir(p))
	}
	_, text, ok := l.e.recentFile(p, fi)
	if ok {
		if why, _, _ := l.e.textDenial(text, interpreterOf(text), p, l.ctx, true); why != "" {
			l.e.deny("runs text the classifier cannot see, and names the file " + truncate(p, 64) + ": " + why)
			l.stop = true
			return false
		}
	}
	if moduleFile(p) && l.e.modules {
		// What a program the call names imports is looked for as the
		// call's words are, whatever the program's age: an old run.py
		// may import the helper.py written beside it this session. So is
		// what a module found imports (run.py imports mid.py, which
		// imports job.py), after the modules the call names.
		if !ok {
			if l.old++; l.old > maxOldPrograms {
				return true
			}
			text, _ = l.e.readLocal(p)
		}
		textWords(text, func(w string) bool { l.module(w); return true })
	}
	return true
}

// listedFiles checks the files under dirs, which find or fd print, that
// a reader of their output may run; it reports false when the lookup is
// over.
func (l *nameLookup) listedFiles(dirs []string) bool {
	for _, d := range dirs {
		for _, f := range l.e.recentFilesUnder(d, true) {
			if !l.check(f, maxNamedFiles) {
				return false
			}
		}
	}
	return true
}

// searchDir keeps d as a directory modules may be found in.
func (l *nameLookup) searchDir(d string) {
	if len(l.dirs) < len(l.cwds)+maxSearchDirs && !slices.Contains(l.dirs, d) {
		l.dirs = append(l.dirs, d)
	}
}

// checkGlob is check of each file a glob in the last part of p (/tmp/j*)
// matches, from one read of the directory; a glob with a wildcard in a
// directory too (/srv/*/job.sh) is expanded as one in command position
// is (globPrograms).
func (l *nameLookup) checkGlob(p string) bool {
	dir, pat := path.Split(p)
	if strings.ContainsAny(dir, "*?[") {
		for _, m := range l.e.globPrograms(p) {
			if !l.check(m, maxNamedFiles) {
				return false
			}
		}
		return l.check(p, maxNamedFiles)
	}
	if !strings.ContainsAny(pat, "*?[") || unreadDir(dir) {
		return l.check(p, maxNamedFiles)
	}
	d, err := os.Open(dir)
	if err != nil {
		return true
	}
	ents, _ := d.ReadDir(maxNamedFiles)
	d.Close()
	for _, ent := range ents {
		if ok, _ := path.Match(pat, ent.Name()); ok && !l.check(dir+ent.Name(), maxNamedFiles) {
			return false
		}
	}
	return true
}

// word visits a word of a call's text, which may be an option naming a
// module to load or a directory to find modules in, attached as perl,
// ruby, lua and node take them (-Mjob, -M-job, -rjob, -ljob, -r./job,
// -Ilib), or another option's file attached to it.
func (l *nameLookup) word(w string) bool {
	if len(w) > 2 && w[0] == '-' {
		switch w[1] {
		case 'M', 'm', 'r', 'l', 'I':
			w = strings.TrimPrefix(w[2:], "-")
		default:
			// A file attached to its option: awk -f/srv/p.awk, sed
			// -nf/srv/s.sed, make -fjob.mk.
			if i := strings.IndexByte(w, '/'); i > 1 {
				return l.visit(w[i:])
			}
			if w[1] != '-' && strings.Contains(w, ".") {
				return l.visit(w[2:])
			}
		}
	}
	if w == "" || w[0] == '-' {
		return true
	}
	return l.visit(strings.TrimPrefix(w, "@")) // LUA_INIT=@job.lua, curl -d @file
}

// visit looks up the file a word names, as each working directory has
// it when it is relative, and keeps it as a module's name; a list of
// directories (PYTHONPATH=lib:vendor, LUA_PATH=lib/?.lua;;) is each.
func (l *nameLookup) visit(w string) bool {
	if l.words[w] || len(w) > 4096 {
		return true
	}
	l.words[w] = true
	if strings.ContainsAny(w, ":;") {
		for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == ':' || r == ';' }) {
			if strings.Contains(part, "?") {
				part = path.Dir(part) // a Lua path template's directory
			}
			if part != w && !l.visit(part) {
				return false
			}
		}
	}
	l.module(w)
	switch {
	case strings.HasPrefix(w, "/"):
		for _, r := range l.e.altRoots {
			if !l.checkGlob(path.Join(r, w)) {
				return false
			}
		}
		return l.checkGlob(path.Clean(w))
	case strings.HasPrefix(w, "~/"):
		if l.e.p.protect != nil && l.e.p.protect.home != "" {
			return l.checkGlob(path.Join(l.e.p.protect.home, w[2:]))
		}
	default:
		for _, d := range l.cwds {
			if !l.checkGlob(path.Join(d, w)) {
				return false
			}
		}
	}
	return true
}

// module keeps w as a name a module may be loaded by.
func (l *nameLookup) module(w string) {
	if len(l.mods) < maxNamedFiles && w != "" && !l.isMod[w] && !strings.ContainsAny(w, "*?[") {
		l.isMod[w] = true
		l.mods = append(l.mods, w)
	}
}

// moduleSuffixes are what interpreters add to a module's name to find
// its file: Python's .py and a package's __init__.py, Perl's .pm and
// .pl, Ruby's .rb, Node's .js, .cjs and .mjs and a directory's
// index.js, Lua's .lua and init.lua, PHP's and Tcl's own.
var moduleSuffixes = []string{".py", "/__init__.py", ".pm", ".pl", ".rb", ".js", ".cjs", ".mjs", "/index.js", ".lua", "/init.lua", ".php", ".tcl"}

// moduleFile reports whether p is named as a module's file is.
func moduleFile(p string) bool {
	for _, s := range moduleSuffixes {
		if s[0] == '.' && strings.HasSuffix(p, s) {
			return true
		}
	}
	return false
}

// loadModules looks up, when a program that loads modules by name runs
// (an interpreter, a variable that makes programs load code), the files
// the call's words may load as modules (import job, use My::Job,
// require("./job"), lua -l job), in the working directories, the
// directories the call names or its options and environment add (-I lib,
// PYTHONPATH=lib, sys.path.insert(0, "lib")), beside the programs it
// runs and in node_modules.
func (l *nameLookup) loadModules() {
	if l.stop || !l.e.modules {
		return
	}
	for _, d := range l.cwds {
		if fi, err := os.Stat(path.Join(d, "node_modules")); err == nil && fi.IsDir() {
			l.searchDir(path.Join(d, "node_modules"))
		}
	}
	limit := len(l.seen) + maxNamedFiles
	for i := 0; i < len(l.mods); i++ { // checking a module may add its imports
		for _, name := range moduleNames(l.mods[i]) {
			for _, s := range moduleSuffixes {
				if strings.HasPrefix(name, "/") {
					if !l.check(path.Clean(name+s), limit) {
						return
					}
					continue
				}
				for _, d := range l.dirs {
					if !l.check(path.Join(d, name+s), limit) {
						return
					}
				}
			}
			for _, d := range l.dirs {
				if !l.packageMain(localPath(d, name), limit) {
					return
				}
			}
		}
	}
}

// packageMain is check of the file a Node package's package.json in dir
// names as its main module (require("evil") loads what
// node_modules/evil/package.json's "main" names).
func (l *nameLookup) packageMain(dir string, limit int) bool {
	p := path.Join(dir, "package.json")
	if l.seen[p] || unreadDir(p) {
		return true
	}
	if len(l.seen) >= limit {
		l.stop = true
		return false
	}
	l.seen[p] = true // read for its main module, not as code
	text, ok := l.e.readLocal(p)
	if !ok {
		return true
	}
	var pkg struct {
		Main    string `json:"main"`
		Module  string `json:"module"`
		Exports any    `json:"exports"`
	}
	if json.Unmarshal([]byte(text), &pkg) != nil {
		return true
	}
	for _, m := range []string{pkg.Main, pkg.Module} {
		if m == "" {
			continue
		}
		main := localPath(dir, m)
		for _, s := range []string{"", ".js", "/index.js"} {
			if !l.check(main+s, limit) {
				return false
			}
		}
	}
	for _, m := range exportedFiles(pkg.Exports, nil) {
		if !l.check(localPath(dir, m), limit) {
			return false
		}
	}
	return true
}

// maxExports is how many files one package.json's "exports" names are
// looked up.
const maxExports = 32

// exportedFiles appends to out the files a package.json's "exports"
// names, whatever its shape: "./x.js", {".": "./x.js"}, conditions
// ({"require": "./x.cjs", "import": "./x.mjs"}) and subpaths
// ({"./sub": "./lib/sub.js"}), nested, as node resolves require("pkg")
// and require("pkg/sub").
func exportedFiles(v any, out []string) []string {
	switch v := v.(type) {
	case string:
		if strings.HasPrefix(v, "./") && !strings.Contains(v, "*") && len(out) < maxExports {
			out = append(out, v)
		}
	case []any:
		for _, x := range v {
			out = exportedFiles(x, out)
		}
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		for _, k := range keys {
			out = exportedFiles(v[k], out)
		}
	}
	return out
}

// moduleNames returns the paths, without a suffix, of the module w may
// name: itself (./job, lib/job), Perl's My::Job as My/Job, and a dotted
// name (Python's and Lua's http.server) as http/server.
func moduleNames(w string) []string {
	names := []string{w}
	if strings.Contains(w, "::") {
		names = append(names, strings.ReplaceAll(w, "::", "/"))
	}
	if strings.Contains(w, ".") && !strings.Contains(w, "/") {
		dotted := true
		for _, part := range strings.Split(w, ".") {
			dotted = dotted && validName(part)
		}
		if dotted {
			names = append(names, strings.ReplaceAll(w, ".", "/"))
		}
	}
	return names
}

// workDirs spells the working directory's expansions as ".", so that
// "$PWD/job" and $(pwd)/job name ./job.
var workDirs = strings.NewReplacer("${PWD}", ".", "$PWD", ".", "$(pwd)", ".", "`pwd`", ".")

// maxCodeValues is how many values of variables that make programs load
// code an evaluation keeps.
const maxCodeValues = 64

const (
	codeValuesWhat = "values of variables that make programs load code"
	projectEnvWhat = "values of variables that name projects"
	pathValuesWhat = "values given PATH"
)

// noteCodeValue keeps val, given to the variable name, when name makes
// programs load code: the files it names (BASH_ENV=job.sh, ENV=./job,
// RUBYOPT=-r./job, NODE_OPTIONS='--require ./job', PERL5OPT=-Mjob) meet
// the deny list, and modules are looked for (namedFiles), though the call
// stays seen.
func (e *eval) noteCodeValue(name, val string) {
	if val == "" || !e.local {
		return
	}
	if t, _ := envRisk(name); t == TierDestructive {
		e.codeValues = keepAll(e, e.codeValues, []string{val}, maxCodeValues, codeValuesWhat)
		e.modules = true
	}
	if name == "PATH" {
		e.notePathValue(val)
	}
}

// notePathValue keeps a value the script gives PATH, known or in part
// (/srv/bin:$PATH), for scriptPathFiles.
func (e *eval) notePathValue(val string) {
	if e.local {
		e.pathValues = keepAll(e, e.pathValues, []string{val}, maxCodeValues, pathValuesWhat)
	}
}

// wordPathValues keeps, for scriptPathFiles, the values w, a value given
// PATH known only in part, may take: each variable it names that the
// script gives literal values (p=/srv/bin; PATH=$p:$PATH) as each of
// them, what is known only at run time as a NUL, a directory no
// lookup takes.
func (e *eval) wordPathValues(w *syntax.Word, sc *scope) {
	vals := []string{""}
	var add func(parts []syntax.WordPart)
	add = func(parts []syntax.WordPart) {
		for _, p := range parts {
			alts := []string{"\x00"}
			switch p := p.(type) {
			case *syntax.Lit:
				alts = []string{p.Value}
			case *syntax.SglQuoted:
				alts = []string{p.Value}
			case *syntax.DblQuoted:
				add(p.Parts)
				continue
			case *syntax.ParamExp:
				if simpleParam(p) && sc != nil {
					if v := sc.values(p.Param.Value); len(v) > 0 {
						alts = v
					}
				}
			}
			var next []string
			for _, v := range vals {
				for _, a := range alts {
					if len(next) < maxSearchDirs {
						next = append(next, v+a)
					}
				}
			}
			vals = next
		}
	}
	add(w.Parts)
	for _, v := range vals {
		e.notePathValue(v)
	}
}

// textPathValues keeps, for scriptPathFiles, each value src spells for
// PATH (export PATH=/srv/bin:$PATH, env PATH=.), its quotes taken out.
func (e *eval) textPathValues(src string) {
	for i := 0; ; {
		j := strings.Index(src[i:], "PATH=")
		if j < 0 {
			return
		}
		i += j + len("PATH=")
		if k := i - len("PATH=") - 1; k >= 0 && nameByte(src[k]) {
			continue // MANPATH=, MY_PATH=
		}
		v := src[i:]
		if end := strings.IndexAny(v, " \t\r\n;&|()<>`"); end >= 0 {
			v = v[:end]
		}
		e.notePathValue(unquoted.Replace(v))
	}
}

// noteName keeps a name the walk resolved, which the call's text may
// not spell (d=/srv; cat "$d/job"), for namedFiles.
func (e *eval) noteName(v string) {
	if v == "" || v[0] == '-' || len(e.walkNames) >= maxNamedFiles {
		return
	}
	if e.walkNames == nil {
		e.walkNames = map[string]bool{}
	}
	e.walkNames[v] = true
}

// noteNameIn is noteName of v, and of a ~/ name read against each home
// the script sc gives HOME (HOME=/srv/x; cat ~/job | sh reads
// /srv/x/job).
func (e *eval) noteNameIn(v string, sc *scope) {
	e.noteName(v)
	rest, ok := strings.CutPrefix(v, "~/")
	if !ok || sc == nil {
		return
	}
	for _, h := range sc.values("HOME") {
		if strings.HasPrefix(h, "/") {
			e.noteName(path.Join(h, rest))
		}
	}
}

// noteArgs keeps the known fields of a command some of whose words are
// computed.
func (e *eval) noteArgs(args []arg, sc *scope) {
	for _, a := range args {
		if a.known {
			e.noteNameIn(a.val, sc)
		}
	}
}

// computedWord reports whether w's value is not spelled out in the
// text: it expands a parameter, a substitution, braces or a tilde.
func computedWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "{~") {
				return true
			}
		case *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return true
				}
			}
		default:
			return true
		}
	}
	return false
}

// noteInputFile keeps the file an input redirection opens, w resolved as
// t, for namedFiles: its value, or each one the script's literal values
// for its variables give it (n=job; exec 3<"$d/$n").
func (e *eval) noteInputFile(w *syntax.Word, t arg, ctx cctx, sc *scope) {
	if t.known {
		e.noteNameIn(t.val, sc)
		return
	}
	for _, bind := range sc.bindings([]*syntax.Word{w}) {
		alt := resolver{e: e, ctx: ctx, sc: sc, bind: bind}
		if v := alt.lit(w); v.known {
			e.noteNameIn(v.val, sc)
		}
	}
}

// recentScript returns what the file p is and its text, when it is a
// script changed since warden started. A stat comes first: most names a
// text gives are programs, options or files older than warden, which are
// then not opened.
func (e *eval) recentScript(p string) (*localFile, string, bool) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, "", false
	}
	return e.recentFile(p, fi)
}

// changedSince reports whether the file fi describes changed since this
// policy started, with a second's grace for the kernel's coarse clock.
func (e *eval) changedSince(fi os.FileInfo) bool {
	return !changed(fi).Before(e.p.since.Add(-time.Second))
}

// recentFile is recentScript of p, which fi describes.
func (e *eval) recentFile(p string, fi os.FileInfo) (*localFile, string, bool) {
	if !fi.Mode().IsRegular() || !e.changedSince(fi) {
		return nil, "", false
	}
	lf := e.localFile(p)
	text, ok := e.scriptText(lf, p)
	return lf, text, ok
}

// unreadDir reports whether p is under a tree of the kernel's, whose
// names (/dev/fd/3, /proc/self/fd/0) are warden's own descriptors here.
func unreadDir(p string) bool {
	for _, d := range []string{"/proc/", "/sys/", "/dev/"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// nameSeps end a word that may name a file: blanks, the shell's
// operators and expansions, and the = of NAME=FILE and if=FILE.
var (
	nameSeps   = newByteSet(" \t\r\n;&|()<>`$={},")
	quoteBytes = newByteSet(`"'\`)
	lineEnds   = newByteSet("\n")
)

// unquoted takes a word's quotes and backslashes out.
var unquoted = strings.NewReplacer(`"`, "", `'`, "", `\`, "")

// textWords calls f with each word of s that may name a file or an
// option, until f returns false, and reports whether f never did: s
// split at nameSeps; a word with quotes or backslashes both split at
// them and with them taken out, which joins /tmp/j""ob and /tmp/j\ob;
// and each quoted string whole, which keeps "/tmp/my job".
func textWords(s string, f func(string) bool) bool {
	visit := func(w string) bool { return w == "" || len(w) > 4096 || f(w) }
	split := func(s string, seps *byteSet, each func(string) bool) bool {
		for s != "" {
			w, rest := s, ""
			if i := seps.index(s); i >= 0 {
				w, rest = s[:i], s[i+1:]
			}
			if !each(w) {
				return false
			}
			s = rest
		}
		return true
	}
	if !split(s, nameSeps, func(w string) bool {
		if quoteBytes.index(w) < 0 {
			return visit(w)
		}
		return split(w, quoteBytes, visit) && visit(unquoted.Replace(w))
	}) {
		return false
	}
	for _, q := range []string{`"`, `'`} {
		if !strings.Contains(s, q) {
			continue
		}
		parts := strings.Split(s, q)
		for i := 1; i < len(parts); i += 2 {
			if strings.Contains(parts[i], "/") && !split(parts[i], lineEnds, visit) {
				return false
			}
		}
	}
	return true
}
