package policy

import (
	"iter"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Recursive readers (grep -r, rg, find -exec) read every file under the
// directories they are given, so a directory above warden's state, at any
// depth, is a read of that state: grep -r x /var/lib reads
// /var/lib/warden/token. Naming such a directory (ls /etc, du /var) stays
// as it is; reading all of it is unresolvedTier, and the person approving sees
// why. What the checks below let through is held by the confinement.
//
// Only a local program can reach warden's files, and where the kernel
// refuses them to every local program (Rules.KernelHolds) a recursive
// read meets a permission error there and stays a read: grep -r x /etc
// is everyday work.

const recursiveWhy = "reads every file under a directory that holds warden's own state: "

// recursiveOperands returns the directory operands a command reads every
// file under, if it is a recursive reader: the working directory when it
// names none.
func recursiveOperands(args []arg) []arg {
	if len(args) == 0 || !args[0].known {
		return nil
	}
	var ops []arg
	rec := false
	switch normaliseName(path.Base(args[0].val)) {
	case "grep", "egrep", "fgrep", "rgrep", "zgrep":
		ops, rec = grepRecursive(args)
	case "diff", "colordiff":
		// diff -r prints the lines of the files it compares, and with
		// -N the whole of a file the other side lacks.
		if hasFlag(argVals(args[1:]), 'r', "--recursive") {
			ops, rec = optionOperands(args[1:], "CUFILSxXDW", "--label --starting-file --exclude --exclude-from --ignore-matching-lines --show-function-line --width --ifdef --from-file --to-file"), true
		}
	case "git":
		ops, rec = gitFileReads(args[1:])
		if !rec {
			ops, rec = gitRecordOperands(args[1:])
		}
	case "fd", "fdfind":
		ops, rec = fdExecOperands(args[1:])
	case "rg", "ag", "ack", "ack-grep", "pt", "sift":
		// Recursive by default; the first operand is the pattern
		// unless -e/-f (or ack's --match) gave one.
		ops, rec = patternOperands(args[1:], "efgtTmAB", "--regexp --file --match --type --glob --max-count"), true
	case "find":
		ops, rec = findRecursive(args[1:])
	case "gzip", "gunzip", "zcat", "pigz", "unpigz", "zstd", "unzstd", "zstdcat", "zstdmt", "lz4", "unlz4", "lz4c", "lz4cat":
		ops, rec = compressorRecursive(normaliseName(path.Base(args[0].val)), args[1:])
	case "tar", "bsdtar", "gtar", "zip", "7z", "7za", "7zr", "cp", "scp", "rsync":
		ops, rec = archiveOperands(normaliseName(path.Base(args[0].val)), args[1:])
	default:
		ops, rec = backupOperands(normaliseName(path.Base(args[0].val)), args[1:])
	}
	if rec && len(ops) == 0 {
		ops = []arg{{val: ".", known: true}}
	}
	return ops
}

// optionOperands returns the words that are neither options nor their
// values, up to "--" and every word after it: valued are the short options
// that take a value (the rest of their cluster, or the next word), long
// the long ones that take the next word. A word computed at run time is
// an operand.
func optionOperands(args []arg, valued, long string) []arg {
	return scanOperands(args, valued, long, nil)
}

// scanOperands is optionOperands, calling seen (when not nil) with the
// name of every long option ("--file") and of the short option in a
// cluster that takes a value ("-e").
func scanOperands(args []arg, valued, long string, seen func(opt string)) []arg {
	longs := strings.Fields(long)
	var ops []arg
	done := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		switch {
		case done || !a.known || v == "-" || !strings.HasPrefix(v, "-"):
			ops = append(ops, a)
		case v == "--":
			done = true
		case strings.HasPrefix(v, "--"):
			name, _, hasVal := strings.Cut(v, "=")
			if seen != nil {
				seen(name)
			}
			if !hasVal && slices.Contains(longs, name) {
				i++
			}
		default:
			for j := 1; j < len(v); j++ {
				if strings.IndexByte(valued, v[j]) >= 0 {
					if seen != nil {
						seen("-" + v[j:j+1])
					}
					if j+1 == len(v) {
						i++ // the value is the next word
					}
					break
				}
			}
		}
	}
	return ops
}

// fdExecOperands returns the paths fd searches when it runs a command on what it
// finds (-x, -X, --exec, --exec-batch): the words after the pattern and
// before the command.
func fdExecOperands(args []arg) ([]arg, bool) {
	var ops []arg
	for _, a := range args {
		if _, ok := fdExec(a); ok {
			if len(ops) > 0 {
				ops = ops[1:] // the pattern
			}
			return ops, true
		}
		if !a.known || !strings.HasPrefix(a.val, "-") {
			ops = append(ops, a)
		}
	}
	return nil, false
}

// patternOperands returns the operands after the pattern: every word
// that is not an option or an option's value, but the first when no
// -e/-f option gave the pattern. valued are the short options that take a
// value, long the long ones that take one as the next word.
func patternOperands(args []arg, valued, long string) []arg {
	patternGiven := false
	ops := scanOperands(args, valued, long, func(opt string) {
		switch opt {
		case "-e", "-f", "--regexp", "--file", "--match":
			patternGiven = true
		}
	})
	if !patternGiven && len(ops) > 0 {
		ops = ops[1:]
	}
	return ops
}

// findRecursive returns find's starting points when an action reads the
// files it finds (-exec, -execdir, -ok, -okdir).
func findRecursive(args []arg) ([]arg, bool) {
	var starts []arg
	i := 0
	for i < len(args) && args[i].known && (args[i].val == "-H" || args[i].val == "-L" || args[i].val == "-P" || strings.HasPrefix(args[i].val, "-O") || args[i].val == "-D") {
		if args[i].val == "-D" {
			i++
		}
		i++
	}
	for ; i < len(args); i++ {
		v := args[i].val
		if args[i].known && (strings.HasPrefix(v, "-") || v == "(" || v == "!") {
			break
		}
		starts = append(starts, args[i])
	}
	for _, a := range args[i:] {
		switch a.val {
		case "-exec", "-execdir", "-ok", "-okdir":
			return starts, true
		}
	}
	return nil, false
}

// recursiveRead checks the directories a recursive reader reads: an
// absolute one now, a relative one against the directories a cd makes
// current when the input is done (see protectVerdict).
func (e *eval) recursiveRead(args []arg, ctx cctx) {
	if !e.readsDirs() {
		return
	}
	ops := recursiveOperands(args)
	for i, a := range ops {
		v := a.val
		if !a.known {
			// "$HOME", ${HOME}/x: the home, as ~ is.
			for _, h := range [...]string{"$HOME", "${HOME}"} {
				if rest, ok := strings.CutPrefix(unquote.Replace(v), h); ok && !strings.ContainsAny(rest, "$`") && (rest == "" || rest[0] == '/') {
					v = "~" + rest
				}
			}
		}
		if (v == "~" || strings.HasPrefix(v, "~/")) && e.p.protect.home != "" && e.local {
			ops[i] = arg{val: path.Join(e.p.protect.home, v[1:]), known: true}
		} else if t := e.tildeDir(v); t != v && a.known && strings.HasPrefix(t, "/") {
			ops[i] = arg{val: t, known: true} // ~root
		}
	}
	e.readDirs(ops, ctx) // unknown words and globs are pathWord's
}

// aboveProtected notes a directory that holds a protected path.
// A directory the input linked, copied or mounted from one above it
// (ln -s /var/lib /tmp/l; grep -r x /tmp/l/), or a descriptor it opened
// on one, is read as its source.
func (e *eval) aboveProtected(dir string, ctx cctx, word string) {
	dirs := []string{dir}
	if len(e.paths.aliases) > 0 {
		dirs = append(dirs, e.aliasTargets(dir, false)...)
	}
	if fd, rest, ok := procFD(descCanon(dir)); ok {
		for _, d := range e.fdDirs(fd) {
			dirs = append(dirs, path.Join(d, rest)) // exec 3</etc; grep -r x /dev/fd/3
		}
	}
	for _, d := range dirs {
		if rest, ok := strings.CutPrefix(d, cwdLink); ok {
			if len(e.paths.recRel) < maxRelWords {
				e.paths.recRel = append(e.paths.recRel, "."+rest)
			}
			continue
		}
		for _, p := range e.p.protect.paths {
			// Recursive readers skip devices (grep -r, rg) or copy them as
			// nodes (tar, cp -r, rsync); find -exec is findWatchdog's.
			if !p.device && p.clean != d && Within(p.clean, d) {
				e.note(unresolvedTier, ctx.covered, "%s", recursiveWhy+truncate(word, 96))
				return
			}
		}
	}
}

// recursiveVerdict checks the relative directories recursive readers were
// given against every directory the input can make current.
func (e *eval) recursiveVerdict(cwds []string) {
	for _, w := range e.paths.recRel {
		for _, c := range cwds {
			e.aboveProtected(path.Join(c, w), cctx{}, w)
		}
	}
}

// finderOperands returns the directories a command lists every file
// under (find without an action, fd, rg --files, du -a, tree -f, locate)
// or in (ls), when it is one.
func finderOperands(args []arg) []arg {
	if len(args) == 0 || !args[0].known {
		return nil
	}
	switch normaliseName(path.Base(args[0].val)) {
	case "find":
		var starts []arg
		for _, a := range args[1:] {
			if a.known && (strings.HasPrefix(a.val, "-") || a.val == "(" || a.val == "!") {
				break
			}
			starts = append(starts, a)
		}
		if len(starts) == 0 {
			starts = []arg{{val: ".", known: true}}
		}
		return starts
	case "fd", "fdfind":
		return patternOperands(args[1:], "etEdScjo", "--extension --type --exclude --max-depth --min-depth --size --changed-within --changed-before --owner --max-results --base-directory --search-path")
	case "locate", "plocate", "mlocate", "slocate":
		// Names from the whole file system's database, as find / lists.
		return []arg{{val: "/", known: true}}
	case "du":
		if hasFlag(argVals(args[1:]), 'a', "--all") {
			return nonEmpty(optionOperands(args[1:], "BdtX", "--block-size --max-depth --threshold --exclude-from --exclude --time-style --files0-from"))
		}
	case "tree":
		if hasFlag(argVals(args[1:]), 'f', "") {
			return nonEmpty(optionOperands(args[1:], "LPIo", "--filelimit --timefmt --sort --charset"))
		}
	case "ls":
		// The names in a directory: cd /etc/warden; cat $(ls).
		ops := nonEmpty(optionOperands(args[1:], "IwT", "--ignore --width --tabsize --hide --block-size"))
		if len(ops) == 0 {
			ops = []arg{{val: ".", known: true}}
		}
		return ops
	case "rg":
		if hasFlag(argVals(args[1:]), 0, "--files") {
			return optionOperands(args[1:], "gtTm", "--glob --type --type-not --max-depth")
		}
	}
	return nil
}

// pipedNames checks a pipeline in which a finder lists the files under a
// directory above warden's state and a later stage opens what it reads
// (xargs, parallel, a while read loop): find /var/lib -type f | xargs cat
// reads every file as grep -r does. chain is right to left, as binary
// builds it.
func (e *eval) pipedNames(chain []*syntax.Stmt, ctx cctx, sc *scope) {
	e.pipedText(chain, ctx, sc)
	if !e.readsDirs() {
		return
	}
	var dirs []arg
	for i := len(chain) - 1; i >= 0; i-- {
		switch c := chain[i].Cmd.(type) {
		case *syntax.WhileClause:
			e.readDirs(dirs, ctx)
		case *syntax.CallExpr:
			r := resolver{e: e, ctx: ctx, sc: sc}
			args := r.fieldsAll(c.Args)
			if len(args) > 0 && args[0].known {
				switch normaliseName(path.Base(args[0].val)) {
				case "xargs", "parallel":
					e.readDirs(dirs, ctx)
				}
				if namesFromStdin(args) {
					e.readDirs(dirs, ctx) // find /var/lib | cpio -o
				}
			}
			dirs = append(dirs, finderOperands(args)...)
		}
	}
}

// readsDirs reports whether readDirs can find anything: a local input,
// paths of the policy's own that the kernel does not hold (the watchdog
// is not read by recursive readers; findWatchdog is find -exec's).
func (e *eval) readsDirs() bool {
	return e.pathsFor() != nil && e.p.protect.own && e.local && !e.p.protect.kernel
}

// readDirs checks directories whose files a command reads, as
// recursiveRead does.
func (e *eval) readDirs(dirs []arg, ctx cctx) {
	if !e.local || e.p.protect.kernel {
		return
	}
	for _, a := range dirs {
		switch {
		case !a.known || a.glob:
		case strings.HasPrefix(a.val, "/"):
			e.aboveProtected(path.Clean(a.val), ctx, a.val)
		case len(e.paths.recRel) < maxRelWords:
			e.paths.recRel = append(e.paths.recRel, a.val)
		}
	}
}

// substNames checks words whose command substitutions list the files
// under a directory: cat $(find /var/lib -type f) and for f in $(find …)
// hand every name to what reads them.
func (e *eval) substNames(ws []*syntax.Word, ctx cctx, sc *scope) {
	if !e.readsDirs() {
		return
	}
	for _, w := range ws {
		for ce := range substSources(w) {
			r := resolver{e: e, ctx: ctx, sc: sc}
			e.readDirs(finderOperands(r.fieldsAll(ce.Args)), ctx)
		}
	}
}

// substSources yields the command at the head of each command
// substitution in w ($(ls | head -1): the names come from the first
// stage), where it is a simple command.
func substSources(w *syntax.Word) iter.Seq[*syntax.CallExpr] {
	return func(yield func(*syntax.CallExpr) bool) {
		for _, p := range w.Parts {
			if q, ok := p.(*syntax.DblQuoted); ok && len(q.Parts) == 1 {
				p = q.Parts[0]
			}
			cs, ok := p.(*syntax.CmdSubst)
			if !ok || len(cs.Stmts) != 1 {
				continue
			}
			cmd := cs.Stmts[0].Cmd
			for {
				b, ok := cmd.(*syntax.BinaryCmd)
				if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
					break
				}
				cmd = b.X.Cmd
			}
			if ce, ok := cmd.(*syntax.CallExpr); ok && !yield(ce) {
				return
			}
		}
	}
}

// pipedText checks the here-strings and here-documents of the stages
// before one that opens the names it reads (xargs, parallel, a while
// loop, an archiver's name list) for warden's paths: a filter such as
// jq, yq or awk prints them as names (jq -r .p <<< '{"p":"/var/lib/…"}' |
// xargs cat), though as data to a program alone they are not checked.
func (e *eval) pipedText(chain []*syntax.Stmt, ctx cctx, sc *scope) {
	if e.pathsFor() == nil {
		return
	}
	opens := false
	for i := range chain { // right to left: the stages before a reader
		if opens {
			if t, ok := stdinLitText(chain[i].Redirs); ok && strings.TrimSpace(t) != "" {
				e.pathWord(arg{val: t, known: true}, ctx, "")
			}
		}
		switch c := chain[i].Cmd.(type) {
		case *syntax.WhileClause:
			opens = true
		case *syntax.CallExpr:
			if opens || len(c.Args) == 0 {
				continue
			}
			// The name first: most stages are neither, and expanding
			// every word of every stage of a long script shows.
			r := resolver{e: e, ctx: ctx, sc: sc}
			head := r.fieldsAll(c.Args[:1])
			if len(head) == 0 || !head[0].known {
				continue
			}
			switch name := normaliseName(path.Base(head[0].val)); {
			case name == "xargs" || name == "parallel":
				opens = true
			case stdinNamers[name]:
				opens = namesFromStdin(r.fieldsAll(c.Args))
			}
		}
	}
}
