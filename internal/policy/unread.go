package policy

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Files the call fills with what the classifier cannot read. A file the
// call writes from text it reads (echo, printf, a here-document: the
// scope's file texts) or by copying a file it names (cp, install, ln, mv,
// rsync, dd if=, cat FILE >) is walked, or meets the deny list, when the
// call runs it. Any other writer fills it with what the classifier cannot
// know before it runs: a filter's output (rev, tr, sed, base64 -d), a
// download, an editor's, a compiler's, an archive's members, a checkout.
// Run in a later call, the file is read then; run by the call that writes
// it, it is code the classifier cannot read, tier 3, as sh FILE of a file
// it cannot see is: in open mode an operator approves it.
//
// The walk keeps the names such writes give (unread) and the directories
// a writer fills with names the text does not show (unreadDirs: tar -x,
// unzip, git pull, a download named by the server). A later run of one
// of those names, of a path under one of those directories, or of a bare
// name when one of them is on the search path, is such a run.

// maxUnreadDirs is how many directories the walk keeps; past it, one
// known only at run time stands for the rest.
const maxUnreadDirs = 16

// noteUnread keeps the name of the path w, written with what the
// classifier cannot read, in lower case: on a file system that ignores
// case (a share, a FAT stick) F is f.
func (e *eval) noteUnread(w string) {
	w, ok := writtenPath(w)
	if !ok {
		return
	}
	if !keepBounded(&e.unread, strings.ToLower(path.Base(w))) {
		e.noteUnreadDir(filledDir{})
	}
}

// filledDir is a directory the call fills with names it does not show.
type filledDir struct {
	dir   string // "" when known only at run time
	git   bool   // filled by git, which writes a work tree's files, never its .git
	named bool   // one file named at run time: any run by a path may be it
}

// noteUnreadDir keeps d, a directory the call fills with names it does
// not show; "" is one known only at run time.
func (e *eval) noteUnreadDir(d filledDir) {
	if d.dir != "" {
		d.dir = path.Clean(d.dir)
	}
	switch {
	case slices.Contains(e.unreadDirs, d):
	case len(e.unreadDirs) < maxUnreadDirs:
		e.unreadDirs = append(e.unreadDirs, d)
	default:
		e.unreadDirs[len(e.unreadDirs)-1] = filledDir{}
	}
}

// namedWritten keeps, once the statement that wrote it has run, a file
// the statement filled with what the classifier cannot read under a name
// known only at run time (rev … > "$f", awk '{print > $1}'): a later run
// by a path may be it. The statement's own program ran before its
// output was written.
func (e *eval) namedWritten() {
	if e.namedWrite {
		e.namedWrite = false
		e.noteUnreadDir(filledDir{named: true})
	}
}

// unreadRun reports whether running w, a path or (bare) a name the
// search path finds, may run a file the call wrote with what the
// classifier cannot read.
func (e *eval) unreadRun(w string, bare bool) bool {
	if len(e.unread) > 0 && e.unread[strings.ToLower(path.Base(w))] {
		return true
	}
	w = path.Clean(w)
	dotgit := w == ".git" || strings.HasPrefix(w, ".git/") || strings.Contains(w, "/.git/") || strings.HasSuffix(w, "/.git")
	for _, u := range e.unreadDirs {
		d := u.dir
		switch {
		case u.git && dotgit:
		case u.named:
			if !bare {
				return true
			}
		case d == "":
			return true
		case bare:
			if e.searchDir(d) {
				return true
			}
		case !path.IsAbs(w) || !path.IsAbs(d) || w == d || strings.HasPrefix(w, d+"/") || d == "/":
			// A relative path may name either from where the call is.
			return true
		}
	}
	return false
}

// searchDir reports whether the directory d may be on the search path a
// bare name is found on: a directory of the policy's or the call's PATH,
// or one named bin or sbin (~/bin, ~/.local/bin, /opt/tool/bin), which a
// PATH the classifier does not see is made of.
func (e *eval) searchDir(d string) bool {
	switch path.Base(d) {
	case "bin", "sbin":
		return true
	}
	if slices.Contains(rootPathDirs, d) || e.p.files != nil && slices.Contains(e.p.files.dirs, d) {
		return true
	}
	for _, v := range e.pathValues {
		if slices.Contains(strings.Split(v, ":"), d) {
			return true
		}
	}
	return false
}

// unreadNote raises the call to tier 3 for running w, or for the
// program prog (when not "") reading it as code: a file the call may
// write first with what the classifier cannot read. A run in a loop, a
// function's body or a trap's action may come after a write the walk
// meets later (for …; do ./g; rev … > g; done, f() { ./g; }; rev … > g;
// f): it is kept and met at the end with every write. In a piece's walk
// every run is kept, for the join with earlier pieces.
func (e *eval) unreadNote(prog, w string, bare bool, ctx cctx) {
	u := unreadUse{prog, w, bare}
	if e.ranNames != nil && !keepBounded(&e.unreadUses, u) {
		e.manyUses = true
	}
	if (e.loops > 0 || ctx.inFunc || e.later.depth > 0) && !keepBounded(&e.unreadLater, u) {
		e.manyUses = true
	}
	if e.unreadRun(w, bare) {
		e.unreadFinding(u)
	}
}

// unreadLaterVerdict meets the runs kept in loops, functions and traps
// with every write of the input.
func (e *eval) unreadLaterVerdict() {
	if e.manyUses && (len(e.unread) > 0 || len(e.unreadDirs) > 0) {
		e.note(TierDestructive, false, "the script runs more files than the classifier keeps after writing some with what it cannot read")
		return
	}
	e.firstUnread(e.unreadLater)
}

// firstUnread raises the call for the first of uses, in a fixed order,
// that may run a file written unread.
func (e *eval) firstUnread(uses map[unreadUse]bool) {
	var hit *unreadUse
	for u := range uses {
		if e.unreadRun(u.w, u.bare) && (hit == nil || u.w < hit.w || u.w == hit.w && u.prog < hit.prog) {
			hit = &u
		}
	}
	if hit != nil {
		e.unreadFinding(*hit)
	}
}

// unreadUse is a run, or a program's reading as code, of a file the call
// may have written unread (unreadNote).
type unreadUse struct {
	prog, w string
	bare    bool
}

// unreadFinding raises the call to tier 3 for u.
func (e *eval) unreadFinding(u unreadUse) {
	what := "runs " + truncate(u.w, 64)
	if u.prog != "" {
		what = u.prog + " runs what " + truncate(u.w, 64) + " holds"
	}
	e.note(TierDestructive, false, "%s, which the call may write first with what the classifier cannot read (run it in a call of its own to have it read)", what)
}

// namedElsewhere are the file writers whose operands are not the files
// they write: an archive's sources (tar -c, whose archive is its -f), a
// file compressed to NAME.gz (gzip, whose decompressing unreadTree
// knows), find's starting points, split's input (unreadTree).
var namedElsewhere = set(`tar gzip xz bzip2 zstd find split`)

// copiers are the file writers that put there what a file they name
// holds, which the deny list reads when the call is opaque.
var copiers = set(`cp mv ln install rsync dd`)

// writesRead reports whether the file writer name, given args, writes
// only what the classifier reads: a copier of files named in the text
// on this host (not cp "$f", rsync host:x, cp /dev/stdin, dd from its
// input, a copy on another host, whose files warden does not read).
func (e *eval) writesRead(name string, args []arg) bool {
	if !copiers[name] || !e.local {
		return false
	}
	src := false
	for _, a := range args {
		v := strings.TrimPrefix(a.val, "if=")
		switch {
		case !a.known || v == "{}" || !strings.HasPrefix(v, "-") && remoteTarget(v) || strings.HasPrefix(v, "/dev/") || strings.HasPrefix(v, "/proc/"):
			return false
		case !strings.HasPrefix(v, "-") && e.unreadRun(v, false):
			return false // a copy of what the call wrote unread
		case name == "dd":
			src = src || strings.HasPrefix(a.val, "if=")
		}
	}
	return name != "dd" || src
}

// noteUnreadArgs keeps what the program name, given args, fills with
// what the classifier cannot read: the files a writer that is no copier
// names (sed -i, gzip, an editor), the directory a copier of a file it
// cannot name writes to (cp "$f" ~/bin/), and the directory an extractor
// fills (unreadTree).
func (e *eval) noteUnreadArgs(name string, args []arg, sc *scope) {
	if fileWriters[name] && !contentKeepers[name] && !removers[name] && !namedElsewhere[name] && !e.writesRead(name, args) && !uploads(name, args) {
		last := ""
		for _, a := range args {
			if a.known && !strings.HasPrefix(a.val, "-") && !(name == "tee" && len(sc.fileTexts(a.val)) > 0) {
				e.noteUnread(a.val)
				last = a.val
			}
		}
		if copiers[name] && last != "" {
			e.noteUnreadDir(filledDir{dir: last})
		}
	}
	if f, ok := unreadFile(name, args); ok {
		e.noteUnreadArg(f)
	}
	if d, ok := unreadTree(name, args); ok {
		e.noteUnreadDir(filledDir{dir: d, git: name == "git"})
	} else if !knownName(name) {
		// A program the classifier does not know may write what any of
		// its words names (age -d -o f x.age, tool build app) and, given
		// an archive, unpack it anywhere.
		for _, a := range args {
			if _, v, eq := strings.Cut(a.val, "="); eq && strings.HasPrefix(a.val, "-") {
				a.val = v
			}
			if !a.known || !strings.HasPrefix(a.val, "-") {
				e.noteUnreadArg(a)
			}
		}
		if slices.ContainsFunc(args, archiveWord) {
			e.noteUnreadDir(filledDir{dir: "."})
		}
	}
}

// noteUnreadArg keeps the file a names as written unread; one named at
// run time may be what a later run by a path runs (namedWritten).
func (e *eval) noteUnreadArg(a arg) {
	if a.known {
		e.noteUnread(a.val)
	} else {
		e.namedWrite = true
	}
}

// unreadTree returns the directory the program name, given args, fills
// with names and contents the text does not show ("" when the directory
// is known only at run time): an archive extracted, a repository checked
// out or patched, a file decompressed, a download the server names, a
// copy from another host.
func unreadTree(name string, args []arg) (string, bool) {
	vals := argVals(args)
	ops := operands(vals)
	dir := func(opt ...string) (string, bool) {
		for i, a := range args {
			for _, o := range opt {
				var v arg
				switch {
				case a.val == o && i+1 < len(args):
					v = args[i+1]
				case strings.HasPrefix(o, "--") && strings.HasPrefix(a.val, o+"="):
					v = arg{val: a.val[len(o)+1:], known: a.known}
				case !strings.HasPrefix(o, "--") && len(a.val) > len(o) && strings.HasPrefix(a.val, o):
					v = arg{val: a.val[len(o):], known: a.known} // -C/x, -o/x, -d/x
				default:
					continue
				}
				if !v.known {
					return "", true // known only at run time
				}
				return v.val, true
			}
		}
		return ".", true
	}
	last := func() (string, bool) {
		for i := len(args) - 1; i >= 0; i-- {
			switch v := args[i].val; {
			case !args[i].known:
				return "", true
			case remoteTarget(v):
				return "", false // a copy to another host or a bucket
			case !strings.HasPrefix(v, "-"):
				return v, true
			}
		}
		return "", false
	}
	switch name {
	case "tar", "gtar", "bsdtar":
		if len(vals) > 0 && (hasFlag(vals, 'x', "--extract") || longFlag(vals[0], "--get") || !strings.HasPrefix(vals[0], "-") && strings.IndexByte(vals[0], 'x') >= 0) {
			return dir("-C", "--directory")
		}
	case "unzip":
		for _, v := range vals {
			if v == "-l" || v == "-t" || v == "-p" || v == "-v" || v == "-Z" || v == "-z" {
				return "", false
			}
		}
		return dir("-d")
	case "7z", "7za", "7zr", "7zz", "7zzs", "unrar", "rar", "lha", "lhasa", "zpaq", "arj":
		if len(ops) > 0 && (ops[0] == "x" || ops[0] == "e") {
			return dir("-o", "-d", "-w")
		}
	case "unar", "aunpack", "dtrx", "unarj", "cabextract", "bsdunzip":
		return dir("-o", "-d", "-X", "--extract-to", "--directory")
	case "atool":
		if hasFlag(vals, 'x', "--extract") || hasFlag(vals, 'X', "--extract-to") {
			return dir("-X", "--extract-to")
		}
	case "jar":
		if len(vals) > 0 && strings.IndexByte(vals[0], 'x') >= 0 {
			return ".", true
		}
	case "xorriso", "osirrox":
		for _, v := range vals {
			if strings.HasPrefix(v, "-extract") || v == "-osirrox" {
				return "", true
			}
		}
	case "svn", "hg", "fossil", "bzr", "brz", "cvs", "darcs", "pijul", "sl":
		if vcsTreeVerbs[firstOperand(name, vals)] {
			return dir("-R", "--repository", "--cwd", "-d")
		}
	case "rclone", "gsutil", "s3cmd", "mc", "b2", "azcopy":
		switch {
		case len(ops) > 2 && cloudCopyVerbs[ops[0]]:
			return last()
		case len(ops) == 2 && cloudCopyVerbs[ops[0]]:
			return ".", true // s3cmd get s3://b/x: here, by its name
		}
	case "aws", "gcloud":
		if len(ops) > 3 && (ops[0] == "s3" || ops[0] == "storage") && cloudCopyVerbs[ops[1]] {
			return last()
		}
	case "smbclient", "sftp", "lftp", "ftp", "tftp", "lxc", "incus":
		// Transfer sessions: names given in their own command language,
		// or pulled from a container.
		return ".", true
	case "cpio", "bsdcpio":
		if hasFlag(vals, 'i', "--extract") {
			return dir("-D", "--directory")
		}
		if hasFlag(vals, 'p', "--pass-through") {
			return last()
		}
	case "pax":
		if hasFlag(vals, 'r', "") {
			if hasFlag(vals, 'w', "") {
				return last()
			}
			return ".", true
		}
	case "ar":
		if len(ops) > 0 && strings.IndexByte(ops[0], 'x') >= 0 {
			return dir("--output")
		}
	case "unsquashfs":
		return dir("-d", "-dest")
	case "dpkg-deb", "dpkg":
		if hasFlag(vals, 'x', "--extract") || hasFlag(vals, 'X', "--vextract") || hasFlag(vals, 'R', "--raw-extract") {
			return last()
		}
	case "patch":
		return dir("-d", "--directory")
	case "split", "csplit":
		return ".", true // PREFIXaa…, xx00…
	case "uudecode":
		// Without -o, the path its input's header names.
		if !slices.ContainsFunc(vals, func(v string) bool { return strings.HasPrefix(v, "-o") || strings.HasPrefix(v, "--output") }) {
			return "", true
		}
	case "unshar":
		return "", true // what the shell archive's own commands name
	case "aria2c":
		return dir("-d", "--dir")
	case "http", "https", "xh", "xhs":
		// A download under the server's name; -o names the file (unreadFile).
		if hasFlag(vals, 'd', "--download") && !hasFlag(vals, 'o', "--output") {
			return ".", true
		}
	case "git":
		if gitTreeVerbs[firstOperand("git", vals)] {
			return dir("-C")
		}
	case "gunzip", "bunzip2", "unxz", "unlzma", "unzstd", "lz4cat", "unlz4", "unpigz", "lunzip", "uncompress":
		return unpackedDir(args)
	case "gzip", "bzip2", "xz", "lzma", "zstd", "lz4", "lzip", "pigz", "pbzip2", "brotli", "compress":
		if hasFlag(vals, 'd', "--decompress") || hasFlag(vals, 'd', "--uncompress") {
			return unpackedDir(args)
		}
	case "rsync", "scp":
		for _, o := range ops[:max(len(ops)-1, 0)] {
			if remoteSpec(o) {
				return last()
			}
		}
	case "curl":
		if hasFlag(vals, 'O', "--remote-name") || hasFlag(vals, 0, "--remote-name-all") || hasFlag(vals, 'J', "--remote-header-name") {
			return dir("--output-dir")
		}
	case "wget":
		if !hasFlag(vals, 'O', "--output-document") && !hasFlag(vals, 0, "--spider") {
			return dir("-P", "--directory-prefix")
		}
	case "docker", "podman", "nerdctl", "kubectl":
		if len(ops) > 2 && ops[0] == "cp" {
			return last()
		}
	}
	return "", false
}

// vcsTreeVerbs are the commands of other version control systems that
// change a working tree's files to what another revision holds.
var vcsTreeVerbs = set(`checkout co update up export switch sw merge patch revert clone pull import unbundle backout graft
	rebase unshelve open branch get apply goto`)

// cloudCopyVerbs are the commands of object-store clients that copy
// objects to local files.
var cloudCopyVerbs = set(`cp copy copyto sync move moveto mv rsync mirror get download-file bisync`)

// gitTreeVerbs are git's commands that change the files of a working
// tree to what a commit, a patch or another repository holds.
var gitTreeVerbs = set(`clone pull checkout switch merge rebase reset restore stash am apply cherry-pick revert submodule
	worktree sparse-checkout read-tree checkout-index`)

// unreadFile returns the one file the program name, given args, writes
// with what the classifier cannot read, where no table of writers names
// it: the file yq -i rewrites, the one HTTPie's -o writes.
func unreadFile(name string, args []arg) (arg, bool) {
	vals := argVals(args)
	switch name {
	case "yq":
		if hasFlag(vals, 'i', "--inplace") {
			for i := len(args) - 1; i >= 0; i-- {
				if !args[i].known || !strings.HasPrefix(args[i].val, "-") {
					return args[i], true
				}
			}
		}
	case "http", "https", "xh", "xhs":
		for i, a := range args {
			v := a.val
			switch {
			case (v == "-o" || longFlag(v, "--output") && !strings.Contains(v, "=")) && i+1 < len(args):
				return args[i+1], true
			case longFlag(v, "--output"):
				_, f, _ := strings.Cut(v, "=")
				return arg{val: f, known: a.known}, true
			case strings.HasPrefix(v, "-o") && len(v) > 2:
				return arg{val: v[2:], known: a.known}, true
			}
		}
	}
	return arg{}, false
}

// unpackedDir returns the directory a decompressor writes the files its
// operands name to, less their suffix: the first operand's.
func unpackedDir(args []arg) (string, bool) {
	for _, a := range args {
		if !a.known {
			return "", true
		}
		if !strings.HasPrefix(a.val, "-") {
			return path.Dir(a.val), true
		}
	}
	return ".", true
}

// outWrite is what a statement writes to its standard output, as the
// classifier reads it.
type outWrite uint8

const (
	outUnread outWrite = iota // what the classifier cannot read
	outText                   // literal text (the scope's file texts)
	outCopy                   // a copy of files the statement names (cat FILE…)
)

// outputKind returns what the statement s writes to its standard output.
func (e *eval) outputKind(s *syntax.Stmt) outWrite {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return outUnread
	}
	if _, _, ok := stmtText(s); ok {
		return outText
	}
	vals, ok := litValues(ce.Args)
	if !ok || vals[0] != "cat" || len(vals) < 2 {
		return outUnread
	}
	for _, v := range vals[1:] {
		if v == "-" || strings.HasPrefix(v, "/dev/") || strings.HasPrefix(v, "/proc/") || !strings.HasPrefix(v, "-") && e.unreadRun(v, false) {
			return outUnread
		}
	}
	return outCopy
}

// joinUnread meets the runs s, the walk of the next piece, kept with what
// e's pieces wrote unread, as one walk of both would have; past the runs
// a piece keeps, any run is taken for one of them.
func (e *eval) joinUnread(s *eval) {
	e.firstUnread(s.unreadUses)
	e.takeUnread(s)
	for u := range s.unreadLater {
		if !keepBounded(&e.unreadLater, u) {
			e.manyUses = true
		}
	}
	e.manyUses = e.manyUses || s.manyUses // met at the end (unreadLaterVerdict)
}

// takeScriptWrites adds to e what s, the walk of a script file the call
// runs, writes: all of it unread, since the texts the script writes are
// in its own walk (./configure && make, where configure makes the
// Makefile with sed or printf).
func (e *eval) takeScriptWrites(s *eval) {
	e.takeUnread(s)
	for n := range s.written {
		e.noteUnread(n)
	}
	if s.manyWritten {
		e.noteUnreadDir(filledDir{})
	}
}

// takeUnread adds to e what s, the walk of a later piece, wrote unread.
func (e *eval) takeUnread(s *eval) {
	for n := range s.unread {
		e.noteUnread(n)
	}
	for _, d := range s.unreadDirs {
		e.noteUnreadDir(d)
	}
}

// unreadArgs raises the call for a project program given a file the call
// wrote unread before it (make -f FILE, --file=FILE): what it reads as
// code. It is asked before the program's own writes are kept.
func (e *eval) unreadArgs(c *call) {
	if len(e.unread) == 0 {
		return
	}
	if _, ok := projectCodeFiles[c.projectName()]; !ok {
		return
	}
	for _, a := range c.args {
		v := a.val
		if _, after, eq := strings.Cut(v, "="); eq && strings.HasPrefix(v, "-") {
			v = after
		}
		if a.known && e.unread[strings.ToLower(path.Base(v))] {
			e.unreadNote(c.name, v, false, c.ctx)
			return
		}
	}
}

// archiveSuffixes end the names of archives and packages.
var archiveSuffixes = []string{".tar", ".tgz", ".tbz", ".tbz2", ".txz", ".tzst", ".gz", ".bz2", ".xz", ".zst", ".lz", ".lz4",
	".lzma", ".zip", ".rar", ".7z", ".cab", ".lzh", ".lha", ".arj", ".iso", ".deb", ".rpm", ".jar", ".war", ".cpio",
	".apk", ".ipk", ".squashfs", ".sqsh", ".zpaq", ".whl", ".gem", ".crate", ".xpi", ".pkg"}

// archiveWord reports whether a names an archive or a package by its
// suffix.
func archiveWord(a arg) bool {
	if !a.known || strings.HasPrefix(a.val, "-") {
		return false
	}
	v := strings.ToLower(a.val)
	return slices.ContainsFunc(archiveSuffixes, func(s string) bool { return strings.HasSuffix(v, s) })
}

// remoteTarget reports whether a copy operand names another host's file
// or an object in a bucket (host:x, s3://b/x).
func remoteTarget(v string) bool {
	return remoteSpec(v) || strings.Contains(v, "://")
}

// uploads reports whether the copier name, given args, copies to another
// host (rsync -a ./ host:/srv/), writing nothing here.
func uploads(name string, args []arg) bool {
	if !copiers[name] {
		return false
	}
	for i := len(args) - 1; i >= 0; i-- {
		if v := args[i].val; args[i].known && !strings.HasPrefix(v, "-") {
			return remoteTarget(v)
		}
	}
	return false
}
