package policy

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// What a call runs from a file on this machine is read, not guessed from
// the file's name. In open mode, or once approved, one call may write a
// file that a later call runs: a script (printf 'reboot\n' > /srv/job;
// sh /srv/job, or /srv/job itself) or a program the deny list names,
// copied under a name it does not know (base64 -d of /sbin/reboot into
// /srv/x). By name the later call runs an unknown program or a script
// the classifier cannot see, tier 2 or 3, admitted unasked in open mode.
// So, on the local host, the file is read when the call is classified:
// a script changed since warden started is classified as the nested
// shell it is (or, run by another interpreter, scanned for the deny
// list's commands), and what it runs meets the deny list; a file that
// holds one of the deny list's programs is classified as that program
// (programFiles). What is read is the file as it is when the call is
// admitted; a concurrent call may change it before it runs.

// localFiles returns the files on this machine a program word w may run:
// an absolute path; a relative one against each directory the command
// may run in; a name without a slash as the search path finds it when no
// known program has it (known).
func (e *eval) localFiles(w string, known bool) []string {
	switch {
	case !e.local || w == "" || e.p.files == nil:
		return nil
	case strings.HasPrefix(w, "/"):
		out := []string{path.Clean(w)}
		for _, r := range e.altRoots {
			out = append(out, path.Join(r, w))
		}
		return out
	case strings.HasPrefix(w, "~/"):
		if e.p.protect == nil || e.p.protect.home == "" {
			return nil
		}
		return []string{path.Join(e.p.protect.home, w[2:])}
	case strings.IndexByte(w, '/') < 0:
		if known {
			return nil
		}
		p, ok := e.found[w]
		if !ok {
			p = lookPath(w, e.p.files.dirs)
			if e.found == nil {
				e.found = map[string]string{}
			}
			e.found[w] = p
		}
		if p == "" {
			return nil
		}
		return []string{p}
	case e.paths == nil:
		return nil
	}
	dirs, _ := e.cwds()
	var out []string
	for _, d := range dirs {
		out = append(out, path.Join(d, w))
	}
	return out
}

// maxAltRoots is how many roots a wrapper names (chroot DIR, unshare -R
// DIR) one evaluation reads programs under.
const maxAltRoots = 4

// noteRoots keeps the roots a wrapper's command runs in, so that the
// files its command runs are read there: chroot /srv/r sh /job.sh runs
// /srv/r/job.sh.
func (e *eval) noteRoots(roots []arg) {
	for _, r := range roots {
		d := path.Clean(r.val)
		if r.known && strings.HasPrefix(d, "/") && d != "/" && len(e.altRoots) < maxAltRoots && !slices.Contains(e.altRoots, d) {
			e.altRoots = append(e.altRoots, d)
		}
	}
}

// maxListed is how many directories find and fd list one evaluation
// reads the files under.
const maxListed = 8

// noteListed keeps the directories a program prints the files under
// (find DIR, fd PATTERN DIR). What reads its output may run each file
// (find DIR | sh, | xargs -n1 bash, | while read f; do "$f"; done), which
// the classifier cannot see: an opaque call's lookup of the files it
// names reads those under them too (namedFiles).
func (e *eval) noteListed(dirs []string) {
	for _, w := range dirs {
		for _, d := range e.localDirs(w) {
			if len(e.listed) < maxListed && !slices.Contains(e.listed, d) {
				e.listed = append(e.listed, d)
			}
		}
	}
}

// rootPathDirs are where a root's programs are found by name.
var rootPathDirs = []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}

// packagedProgram reports whether p is where packages install programs
// (/usr, /bin, /sbin, /lib, snaps), which an approved install fills while
// warden runs, rather than a program an agent built (./x, ~/go/bin/x).
func packagedProgram(p string) bool {
	for _, d := range []string{"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/snap/"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// scriptPathFiles returns the files a program name without a slash may
// run from the directories the script puts on PATH (PATH=/srv/bin:$PATH;
// tool, env PATH=. ls), or from a root a wrapper names (chroot /srv/r
// tool): a known program's name too, since those directories come first.
func (e *eval) scriptPathFiles(name string, sc *scope) []string {
	if !e.local || e.p.files == nil {
		return nil
	}
	vals := e.pathValues
	if sc != nil {
		vals = append(slices.Clip(vals), sc.values("PATH")...)
	}
	var out []string
	for _, r := range e.altRoots {
		for _, d := range rootPathDirs {
			if p := lookPath(name, []string{path.Join(r, d)}); p != "" {
				out = append(out, p)
				break
			}
		}
	}
	seen := 0
	for _, v := range vals {
		for _, d := range strings.Split(v, ":") {
			if d == "" || strings.ContainsAny(d, "$`\x00") || slices.Contains(e.p.files.dirs, d) {
				continue
			}
			if seen++; seen > maxSearchDirs {
				return out
			}
			for _, d := range e.localDirs(d) {
				key := path.Join(d, name)
				p, ok := e.found[key]
				if !ok {
					p = lookPath(name, []string{d})
					if e.found == nil {
						e.found = map[string]string{}
					}
					e.found[key] = p
				}
				if p != "" && !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// maxProgramGlobs is how many globs in command position one evaluation
// expands, and how many files of each it reads.
const maxProgramGlobs = 16

// globPrograms returns the files on this machine a glob in command
// position (/srv/x/bi?/job, ./j*b) may run, as the working directories
// have a relative one: none past maxProgramGlobs globs, nor for a glob
// whose parts with wildcards are more than two (/*/*/*/job), which would
// read whole trees.
func (e *eval) globPrograms(pattern string) []string {
	if !e.local || e.p.files == nil || e.progGlobs >= maxProgramGlobs {
		return nil
	}
	wild := 0
	for _, part := range strings.Split(pattern, "/") {
		if isPattern(part) {
			wild++
		}
	}
	if wild > 2 {
		return nil
	}
	e.progGlobs++
	var out []string
	for _, p := range e.localDirs(pattern) {
		ms, _ := filepath.Glob(p)
		for _, m := range ms {
			if len(out) < maxProgramGlobs {
				out = append(out, m)
			}
		}
	}
	return out
}

// localDirs returns the directories on this machine a word may name: an
// absolute path, or a relative one against each working directory.
func (e *eval) localDirs(w string) []string {
	switch {
	case !e.local || w == "":
		return nil
	case strings.HasPrefix(w, "/"):
		return []string{path.Clean(w)}
	case e.paths == nil:
		return nil
	}
	dirs, _ := e.cwds()
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, path.Join(d, w))
	}
	return out
}

// recentFilesUnder returns the regular files in the directory dir, and
// with deep in the directories under it four levels down, changed since
// warden started: the files a program that runs what a directory holds
// (run-parts, find -exec {}) may run that the classifier reads; older
// ones are the system's and the operator's. At most maxNamedFiles
// entries an evaluation are looked at, and maxProgramGlobs files a
// directory returned.
func (e *eval) recentFilesUnder(dir string, deep bool) []string {
	if !e.local || e.p.files == nil || !strings.HasPrefix(dir, "/") || unreadDir(dir+"/") || e.dirLooks >= maxNamedFiles {
		return nil
	}
	var out []string
	top := strings.Count(path.Clean(dir), "/")
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case len(out) >= maxProgramGlobs:
			return fs.SkipAll
		case e.protectedFile(p):
			if d.IsDir() {
				return fs.SkipDir // warden's own state: never read
			}
		case d.IsDir():
			if p != dir && (!deep || strings.Count(p, "/")-top > 4 || unreadDir(p+"/")) {
				return fs.SkipDir
			}
		case d.Type().IsRegular():
			if fi, err := d.Info(); err == nil && e.changedSince(fi) {
				out = append(out, p)
			}
		}
		if e.dirLooks++; e.dirLooks >= maxNamedFiles {
			return fs.SkipAll
		}
		return nil
	})
	return out
}

// localFile is what one evaluation found a local file to be.
type localFile struct {
	prog       *progFile // the deny list's program it holds
	fi         fs.FileInfo
	script     bool   // text a shell or interpreter may read, written since warden started
	binary     bool   // a program no deny-listed one is, not text, written since warden started
	text       string // its text, once read
	read       bool
	classified bool // what it runs has met the deny list
	seen       bool // and its walk, a shell's, saw all it runs
	plain      bool // and found it only reads, with no cd or exec (localPlain)
}

// localFile returns what the file p holds, looking once per evaluation
// (a script running one file 30,000 times reads it once).
func (e *eval) localFile(p string) *localFile {
	if lf, ok := e.fileRead[p]; ok {
		return lf
	}
	lf := &localFile{}
	if head, fi, err := readHead(p); err == nil && !e.protectedFile(p) {
		lf.prog = e.p.files.identify(p, fi)
		lf.fi = fi
		// A script is read only once written while this policy is in
		// use (a second's grace for the kernel's coarse clock): an
		// earlier call may have written it. Older ones are the system's
		// and the operator's (/usr/sbin/service), whose every branch is
		// not what one run does.
		recent := e.changedSince(fi)
		lf.script = lf.prog == nil && bytes.IndexByte(head, 0) < 0 && recent
		lf.binary = lf.prog == nil && bytes.IndexByte(head, 0) >= 0 && recent
	}
	if e.fileRead == nil {
		e.fileRead = map[string]*localFile{}
	}
	e.fileRead[p] = lf
	return lf
}

// scriptText returns the text of the script file p (lf), read once.
func (e *eval) scriptText(lf *localFile, p string) (string, bool) {
	if !lf.script {
		return "", false
	}
	if !lf.read {
		lf.read = true
		lf.text, lf.script = e.readLocal(p)
	}
	return lf.text, lf.script
}

// classifyScript meets the deny list with what the script file p, run by
// interp, runs: once per evaluation, as the finding stays. Only a denial
// counts: the call's tier is what its name says (an unknown program, a
// script the classifier cannot see), since the file may change before it
// runs, and a script's every branch is not what one run of it does
// (/etc/init.d/nginx status). It reports whether p was read and its walk
// saw all it runs.
func (e *eval) classifyScript(p, interp string, ctx cctx) bool {
	lf := e.localFile(p)
	if text, ok := e.scriptText(lf, p); ok && !lf.classified {
		lf.classified = true
		if interp == "" {
			interp = interpreterOf(text)
		}
		why, seen, plain := e.textDenial(text, interp, p, ctx, false)
		if why != "" {
			e.deny("runs the file " + truncate(p, 64) + ", which runs " + why)
		}
		lf.seen, lf.plain = seen, plain
		if interpreters[normaliseName(interp)] && e.local {
			// ./run.py runs as python3 run.py does: its imports are
			// looked for, first in its own directory.
			e.codeValues = keepAll(e, e.codeValues, []string{path.Dir(p)}, maxCodeValues, codeValuesWhat)
			e.modules = true
		}
	}
	return lf.seen
}

// runAs returns the words a program file holding k runs as when called
// by name (the base of its word), or nil when the name already says
// what runs: the program's own name, or another name the system gives
// the very file (/usr/sbin/reboot, a link to systemctl, runs as reboot).
// A multi-call program runs the applet its name picks (busybox named ls
// is ls, named x no applet).
func runAs(k *progFile, name string, fi fs.FileInfo) []arg {
	switch {
	case name == k.name:
		return nil
	case k.name == "busybox" || k.name == "toybox":
		return []arg{{val: k.name, known: true}, {val: name, known: true}}
	case isDenyTrigger(name) && os.SameFile(fi, k.fi):
		return nil
	}
	return []arg{{val: k.name, known: true}}
}

// protectedFile reports whether p, or where its links lead, is warden's
// own state: the classifier never reads that for a command.
func (e *eval) protectedFile(p string) bool {
	if e.p.protect == nil {
		return false
	}
	for _, c := range []string{p, evalPrefix(p)} {
		parts := splitPath(c)
		for _, pp := range e.p.protect.paths {
			if protMatch(parts, pp.parts, false) == matchInside {
				return true
			}
		}
	}
	return false
}

// readLocal returns the text of the regular file p, up to maxProgramRead
// bytes, and whether it could be read.
func (e *eval) readLocal(p string) (string, bool) {
	if e.protectedFile(p) {
		return "", false
	}
	f, _, err := openRegular(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxProgramRead))
	return string(b), err == nil
}

// localProgram classifies a program word that names a file on this
// machine by what the file holds. A copy of a program the deny list
// names is classified as that program (ok); a script's text is
// classified where it runs, and the call as its name says (!ok).
func (e *eval) localProgram(args []arg, known bool, ctx cctx) (t Tier, why string, ok bool) {
	a0 := args[0]
	files := e.localFiles(a0.val, known)
	if strings.IndexByte(a0.val, '/') < 0 {
		files = append(files, e.scriptPathFiles(a0.val, ctx.sc)...)
	}
	for _, p := range files {
		lf := e.localFile(p)
		if lf.prog != nil {
			words := runAs(lf.prog, path.Base(a0.val), lf.fi)
			if words == nil || slices.Contains(e.inFiles, p) {
				continue // busybox named box given box: no applet
			}
			was := e.denied
			e.inFiles = append(e.inFiles, p)
			t, why := e.program(append(words, args[1:]...), ctx)
			e.inFiles = e.inFiles[:len(e.inFiles)-1]
			holds := "runs " + truncate(a0.val, 64) + ", which holds the program " + lf.prog.path + ": "
			if e.denied && !was {
				e.denyWhy = holds + e.denyWhy
			}
			if agentPath(p) != "" {
				// A benign call may write there before this one runs.
				e.opaque = true
				t = TierDestructive
			}
			return max(t, TierMutate), holds + why, true
		}
		e.classifyScript(p, "", ctx)
		if lf.binary && !packagedProgram(p) {
			// Compiled or unpacked since warden started (cc x.c -o x,
			// go build, tar x): what it does cannot be read.
			e.note(TierDestructive, false, "runs %s, a program written since warden started that the classifier cannot read", truncate(p, 64))
		}
	}
	byName := strings.IndexByte(a0.val, '/') < 0 && (ctx.execd || !shellBuiltins[a0.val])
	if byName {
		e.noteRanName(a0.val)
	}
	system := known && slices.Contains(rootPathDirs, path.Dir(path.Clean(a0.val)))
	if byName || strings.IndexByte(a0.val, '/') >= 0 && !system {
		e.unreadNote("", a0.val, byName, ctx)
		if !byName {
			e.noteRanName(path.Base(a0.val)) // joined as a path (joinUnread)
		}
	}
	switch {
	case !known || strings.IndexByte(a0.val, '/') >= 0 && !system:
		// Not /bin/cat: a system program, which a write there would
		// make the call tier 3 for.
		e.writtenRun(a0.val, len(files) > 0, ctx)
	case byName && e.wroteName(a0.val):
		// cp evil ~/bin/ls; PATH=~/bin:$PATH ls (written.go).
		e.noteScriptRun(a0.val)
	}
	return 0, "", false
}

// writtenRun notes the run of the local file w, by its path or found on
// the search path, which may not be what the file holds now when the
// call writes before it runs: printf … > job; ./job runs what printf
// wrote, cp evil job; ./job what evil holds, and a file missing now is
// one the call makes (a name without a slash only when the search path
// finds it: an unknown command is not taken for one). Text the call
// writes to w is walked as the file, and leaves the call opaque; the run
// counts as a script's (settleScriptRuns), which leaves the call opaque
// when anything else in it writes, so its text and the files it names
// meet the deny list.
func (e *eval) writtenRun(w string, found bool, ctx cctx) {
	texts := ctx.sc.fileTexts(w)
	if (!e.local || e.p.files == nil) && len(texts) == 0 || !found && len(texts) == 0 && strings.IndexByte(w, '/') < 0 && !e.wroteName(w) {
		// On another host only text the call writes is known.
		return
	}
	for _, t := range texts {
		if why, _, _ := e.textDenial(t, interpreterOf(t), w, ctx, true); why != "" {
			e.deny("runs " + truncate(w, 64) + ", which the call writes, and which runs " + why)
			return
		}
		e.opaque = true
	}
	e.noteScriptRun(w)
}

// noteScriptRun counts the run of the script file the word w names
// (settleScriptRuns).
func (e *eval) noteScriptRun(w string) {
	e.scriptRuns++
	e.scriptRan = true
	e.lastRun = w
}

// apartFromRun reports whether the files the words name, each written
// where the last script run (lastRun) runs, cannot be that script: each
// is known, names another path and is not now a link to it.
func (e *eval) apartFromRun(words []arg) bool {
	if e.lastRun == "" {
		return false
	}
	scripts := e.scriptFiles(e.lastRun)
	for _, w := range words {
		if !w.known {
			return false
		}
		if strings.HasPrefix(w.val, "-") {
			continue // tee -a
		}
		dirs := e.localDirs(w.val)
		if len(dirs) == 0 {
			return false // where a relative name is, is not known
		}
		for _, p := range dirs {
			ti, terr := os.Stat(p)
			for _, f := range scripts {
				if path.Clean(p) == f {
					return false
				}
				if fi, err := os.Stat(f); err == nil && terr == nil && os.SameFile(fi, ti) {
					return false
				}
			}
		}
	}
	return true
}

// localText meets the deny list with what the script file f runs, read by
// interp (sh FILE, . FILE; python3 FILE is scanned). A name without a slash is
// looked for in the working directory and on the search path, as bash
// and . look. It reports whether a file was found, and each file f may
// be was read and its walk saw all it runs.
func (e *eval) localText(f, interp string, ctx cctx) bool {
	seen := false
	for _, p := range e.scriptFiles(f) {
		if e.classifyScript(p, interp, ctx) {
			seen = true
		} else if _, err := os.Lstat(p); err == nil {
			return false
		}
	}
	return seen
}

// scriptFiles returns the local files the script name f may be.
func (e *eval) scriptFiles(f string) []string {
	if strings.IndexByte(f, '/') < 0 {
		return append(e.localFiles("./"+f, true), e.localFiles(f, false)...)
	}
	return e.localFiles(f, true)
}

// localPlain reports whether, once localText has read them, each file f
// may be was walked whole and found to do no more than read, with no cd
// or exec (shellChanges): sourcing it (. FILE) leaves the shell as the
// rest of the text reads it, but for the variables it sets, which stay
// unknown.
func (e *eval) localPlain(f string) bool {
	plain := false
	for _, p := range e.scriptFiles(f) {
		if lf := e.fileRead[p]; lf != nil && lf.plain {
			plain = true
		} else if _, err := os.Lstat(p); err == nil {
			return false
		}
	}
	return plain
}

// localAlts returns what input read from the file f may be, for the deny
// list's scan of what a program the classifier cannot see into reads (sh
// < FILE, cat FILE | sh): the text of a local script file, as localText
// reads it. Only a denial can follow from it: the input stays unknown,
// since the file may change before it is read.
func (e *eval) localAlts(f string) []string {
	var out []string
	for _, p := range e.localFiles(f, true) {
		if text, ok := e.scriptText(e.localFile(p), p); ok {
			out = append(out, text)
		}
	}
	return out
}

// settleScriptRuns decides what the script files the walk of e ran and
// read whole (sh job.sh) make of the text. Such a run is seen as ./job.sh
// is, its words not read as unknown code's, unless something else in the
// text may have changed the file before or while it runs (printf … >
// job.sh, cp, another script): the text does more than read, or runs more
// than one script. Then the text is opaque, as a script not read makes it.
func (e *eval) settleScriptRuns() {
	if e.scriptRuns > 0 && (e.otherTier > TierRead || e.scriptRuns > 1) {
		e.opaque = true
	}
	e.scriptRuns = 0
}

// textDenial returns why the deny list refuses text, the script file p
// run by interp, or "", and whether its walk saw all it runs. A shell's
// script is classified as the nested shell it is; another interpreter's
// has its raw text scanned, as has a shell's that passes when scan is set
// (text that may reach any program).
func (e *eval) textDenial(text, interp, p string, ctx cctx, scan bool) (why string, seen, plain bool) {
	sub := e.fork()
	defer sub.release()
	shell := shFamily[interp] || interp == "zsh" || interp == "ksh" || interp == "mksh" || interp == "busybox"
	if shell {
		ctx.nest++
		ctx.pos, ctx.hasPos, ctx.sc = nil, false, nil
		ctx.zsh = interp == "zsh"
		ctx.funcWordNext = funcWordShells[interp]
		sub.script(text, ctx, "script file "+truncate(p, 64))
	}
	if (scan || !shell) && !sub.denied {
		sub.scanText(text)
	}
	e.takeScriptWrites(sub)
	if !sub.denied {
		e.keepUnseen(sub, text, sub.opaque || !shell)
	}
	seen = shell && !sub.opaque && !sub.denied
	return sub.denyWhy, seen, seen && sub.tier == TierRead && !shellChanges.MatchString(text)
}

// shellChanges finds the builtins that change the working directory or
// the descriptors the rest of a sourcing shell runs with (exec 3<FILE),
// in any position (builtin cd, eval cd) or in a comment.
var shellChanges = regexp.MustCompile(`(?:^|[^\w-])(?:cd|pushd|popd|exec)(?:[^\w-]|$)`)

// shFamily are the shells whose language is the one the classifier reads.
var shFamily = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "rbash": true}

// ShellLanguage reports whether the shell named name (a file's last
// component) speaks the language the classifier reads.
func ShellLanguage(name string) bool { return shFamily[name] }

// interpreterOf returns the name of the program a script's first line
// names (#!/usr/bin/env bash is bash), or "sh": a file without one is run
// by the shell that fails to execute it.
func interpreterOf(text string) string {
	line, ok := strings.CutPrefix(text, "#!")
	if !ok {
		return "sh"
	}
	line, _, _ = strings.Cut(line, "\n")
	f := strings.Fields(line)
	if len(f) == 0 {
		return "sh"
	}
	name := path.Base(f[0])
	if name == "env" {
		name = ""
		for i := 1; i < len(f); i++ {
			switch {
			case f[i] == "-u" || f[i] == "-C":
				i++
			case strings.HasPrefix(f[i], "-") || strings.Contains(f[i], "="):
			default:
				return path.Base(f[i])
			}
		}
	}
	return name
}
