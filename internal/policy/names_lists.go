package policy

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Name lists the script writes and hands on: a file it fills with literal
// text (echo /var/lib > /tmp/l), read back as names (tar -T /tmp/l, xargs
// -a /tmp/l, $(< /tmp/l), < /tmp/l), and a process substitution printing
// literal text (tar --files-from=<(echo /var/lib)). The scope keeps what
// each file is given anywhere in the script, so these only add values.

// maxFiles caps the files whose literal contents the scope keeps.
const maxFiles = 32

// noteFile records the text a statement writes to a file it names
// literally: echo or printf of literal words, cat or tee given a literal
// here-string or here-document.
func (sc *scope) noteFile(s *syntax.Stmt) {
	if len(s.Redirs) == 0 || len(sc.files) >= maxFiles {
		return
	}
	text, file, found := stmtText(s)
	if !found {
		return
	}
	for _, r := range s.Redirs {
		if (r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrClob) && redirFD(r) == 1 {
			if v, ok := litValue(r.Word); ok {
				file = v
			} else if rest, ok := homeWord(r.Word); ok {
				file = "~" + rest // $HOME/.x is ~/.x
			}
		}
	}
	if file == "" || !strings.HasPrefix(file, "/") && strings.Contains(file, "$") {
		return
	}
	file = path.Clean(file) // ./s and s, /tmp//s and /tmp/s are one file
	if sc.files == nil {
		sc.files = map[string][]string{}
	}
	if len(sc.files[file]) < maxVarValues {
		sc.files[file] = append(sc.files[file], text)
	}
}

// stmtText returns the literal text the statement s prints, and the file
// a tee in it names: echo or printf of literal words, cat or tee given a
// literal here-string or here-document.
func stmtText(s *syntax.Stmt) (text, file string, ok bool) {
	ce, isCall := s.Cmd.(*syntax.CallExpr)
	if !isCall || len(ce.Args) == 0 {
		return "", "", false
	}
	switch verb, _ := litValue(ce.Args[0]); verb {
	case "echo", "printf":
		text, ok = litOutput(&syntax.Stmt{Cmd: ce})
	case "cat", "tee":
		if len(ce.Args) > 2 || verb == "cat" && len(ce.Args) != 1 {
			return "", "", false
		}
		text, ok = stdinLitText(s.Redirs)
		if verb == "tee" && len(ce.Args) == 2 {
			file, _ = litValue(ce.Args[1])
		}
	}
	return text, file, ok
}

// listReaders are the programs listedDirs knows: stdinNamers, and those
// that take a list of names in a file (sort --files0-from, 7z a @LIST).
var listReaders = map[string]bool{"cpio": true, "afio": true, "zip": true, "pax": true, "tar": true, "bsdtar": true, "gtar": true,
	"rsync": true, "tarsnap": true, "sort": true, "wc": true, "du": true, "find": true, "7z": true, "7za": true, "7zr": true, "rar": true}

// nameListSep ends a name in a list: a line, or NUL (tar --null -T,
// --files0-from).
func nameListSep(r rune) bool { return r == '\n' || r == 0 }

// homeWord returns the rest of a word that is $HOME or ${HOME} followed
// by literal text starting with "/".
func homeWord(w *syntax.Word) (string, bool) {
	if w == nil || len(w.Parts) < 2 {
		return "", false
	}
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Param.Value != "HOME" || pe.Exp != nil || pe.Slice != nil || pe.Repl != nil || pe.Index != nil || pe.Length || pe.Excl {
		return "", false
	}
	rest, ok := litValue(&syntax.Word{Parts: w.Parts[1:]})
	if !ok || !strings.HasPrefix(rest, "/") {
		return "", false
	}
	return rest, true
}

// fileTexts returns what the script may have written to the file a
// word names, or what a process substitution word prints.
func (sc *scope) fileTexts(v string) []string {
	if strings.HasPrefix(v, "<(") {
		f, err := syntax.NewParser().Parse(strings.NewReader("cat "+v), "")
		if err != nil || len(f.Stmts) != 1 {
			return nil
		}
		ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(ce.Args) != 2 || len(ce.Args[1].Parts) != 1 {
			return nil
		}
		ps, ok := ce.Args[1].Parts[0].(*syntax.ProcSubst)
		if !ok || len(ps.Stmts) != 1 {
			return nil
		}
		if t, ok := litOutput(ps.Stmts[0]); ok {
			return []string{t}
		}
		if ce, ok := ps.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(ce.Args) == 1 {
			if t, ok := stdinLitText(ps.Stmts[0].Redirs); ok {
				return []string{t} // <(cat <<< /var/lib)
			}
		}
		return nil
	}
	v = path.Clean(v)
	for s := sc; s != nil; s = s.outer {
		if t := s.files[v]; t != nil {
			return t
		}
	}
	return nil
}

// readFileSubst is the value of $(< FILE) and $(cat FILE) for a file the
// script wrote literal text to.
func readFileSubst(cs *syntax.CmdSubst, sc *scope) (string, bool) {
	if sc == nil || len(cs.Stmts) != 1 {
		return "", false
	}
	s := cs.Stmts[0]
	var w *syntax.Word
	switch c := s.Cmd.(type) {
	case nil:
		if len(s.Redirs) == 1 && s.Redirs[0].Op == syntax.RdrIn {
			w = s.Redirs[0].Word
		}
	case *syntax.CallExpr:
		// $(x=1) has no words.
		if len(c.Args) == 2 && len(s.Redirs) == 0 {
			if v, _ := litValue(c.Args[0]); v == "cat" {
				w = c.Args[1]
			}
		}
	}
	if w == nil {
		return "", false
	}
	v, ok := litValue(w)
	if !ok {
		return "", false
	}
	t := sc.fileTexts(v)
	if len(t) == 0 {
		return "", false
	}
	return strings.TrimRight(t[len(t)-1], "\n"), true
}

// listedDirs checks the names an archiver reads from a list (tar -T
// FILE or -, --files-from, zip -@, cpio -o, pax -w from its input) as
// words naming those files: cpio -o <<< /var/lib/warden/token archives
// the token as tar -c /var/lib/warden/token does. Where the archiver
// recurses, each name is also a directory it reads every file under: a
// name list written with /var/lib makes tar read /var/lib/warden/token.
// rsync takes the names under its source directory.
func (e *eval) listedDirs(args []arg, ctx cctx) {
	if len(args) == 0 || !args[0].known {
		return
	}
	name := path.Base(args[0].val)
	if renamed(name) {
		name = normaliseName(name)
	}
	if !listReaders[name] || e.pathsFor() == nil {
		return
	}
	vals := argVals(args[1:])
	var texts []string
	rec, base := true, ""
	switch name {
	case "tar", "bsdtar", "gtar", "rsync", "tarsnap":
		rec = name != "rsync" && !hasFlag(vals, 0, "--no-recursion") || name == "rsync" && (hasFlag(vals, 'r', "--recursive") || hasFlag(vals, 'a', "--archive"))
		from := filesFrom(args[1:])
		for _, a := range args[1:] {
			if v, ok := strings.CutPrefix(a.val, "--files-from="); ok && !a.known {
				from = append(from, v) // --files-from=<(echo …)
			}
		}
		for _, f := range from {
			switch f {
			case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
				if ctx.stdin.kind == stdinText {
					texts = append(texts, ctx.stdin.text)
				}
			default:
				texts = append(texts, ctx.sc.fileTexts(f)...)
			}
		}
		if name == "rsync" && len(texts) > 0 {
			ops := nonEmpty(optionOperands(args[1:], "efBT", "--rsh --filter --exclude --include --files-from --temp-dir --link-dest --copy-dest --compare-dest --backup-dir"))
			if len(ops) < 2 || !ops[0].known || remoteSpec(ops[0].val) {
				return // names under a source warden does not know
			}
			base = ops[0].val
		}
	case "sort", "wc", "du", "find":
		// --files0-from=F (find's -files0-from F): the names, each
		// ended by NUL, of the files to read.
		rec = false
		for i, a := range args[1:] {
			opt, val, hasVal := strings.Cut(a.val, "=")
			if !a.known || !(name == "find" && opt == "-files0-from" || name != "find" && len(opt) >= 3 && strings.HasPrefix("--files0-from", opt)) {
				continue
			}
			if !hasVal {
				if i+2 >= len(args) {
					continue
				}
				val = args[i+2].val
			}
			if val == "-" {
				if ctx.stdin.kind == stdinText {
					texts = append(texts, ctx.stdin.text)
				}
				continue
			}
			texts = append(texts, ctx.sc.fileTexts(val)...)
		}
	case "7z", "7za", "7zr", "rar":
		// 7z a ARCHIVE @LIST: the names in LIST, directories whole.
		for _, a := range args[1:] {
			if f, ok := strings.CutPrefix(a.val, "@"); ok && a.known && f != "" {
				texts = append(texts, ctx.sc.fileTexts(f)...)
			}
		}
	case "zip", "pax", "cpio", "afio":
		rec = name == "zip" && (hasFlag(vals, 'r', "--recurse-paths") || hasFlag(vals, 'R', "")) || name == "pax" && !hasFlag(vals, 'd', "")
		if namesFromStdin(args) && ctx.stdin.kind == stdinText {
			texts = append(texts, ctx.stdin.text)
		}
	}
	for _, t := range texts {
		var dirs []arg
		for _, l := range strings.FieldsFunc(t, nameListSep) {
			if l = strings.TrimSpace(l); l == "" || len(dirs) >= maxRelWords {
				continue
			}
			if base != "" {
				l = path.Join(base, l)
			}
			a := arg{val: l, known: true}
			e.pathWord(a, ctx, "")
			dirs = append(dirs, a)
		}
		if rec && e.readsDirs() {
			e.readDirs(dirs, ctx)
		}
	}
}
