package policy

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A program the deny list knows by its name is recognised by that name
// alone: a copy or link of /sbin/reboot named /tmp/x is, in a later call,
// an unknown program whose run is tier 2, admitted unasked in open mode,
// and /tmp/del -rf / from a copy of rm is no rm to the deny list. So a
// copy, link, move, dd or stream (cat, pv, tee) that gives such a program
// a new name is denied when the program is denied whatever its arguments
// (reboot, mkfs.ext4), and tier 3 for the rest (rm, dd, systemctl, kill).

// disguise returns why giving the program file src the name dst hides it
// from the deny list, and whether that is denied; "" when it does not.
func disguise(prog string, src arg, dst arg) (why string, deny bool) {
	name := fileName(src)
	if name == "" || !isDenyTrigger(name) {
		return "", false
	}
	if dst.known && (strings.HasSuffix(dst.val, "/") || path.Base(dst.val) == name || dst.val == ".") {
		return "", false // into a directory, or under its own name
	}
	why = prog + ": gives " + name + " another name (" + truncate(dst.val, 64) + "), which the deny list does not know"
	return why, denyCheck(name, nil) != ""
}

// fileName returns the name of the file a names: its last path component;
// for a word computed in part, the literal name after its last slash
// ("$D/reboot") or the name a lookup gives ($(which reboot), "$(command
// -v rm)"); "" when the word shows none (<(echo reboot) is no program).
func fileName(a arg) string {
	v := strings.TrimRight(a.val, "/")
	if a.known {
		return path.Base(v)
	}
	if k := strings.LastIndexByte(v, '/'); k >= 0 && !strings.ContainsAny(v[k:], "$`()<>\"'") {
		return v[k+1:]
	}
	if !slices.ContainsFunc(lookups, func(l string) bool { return strings.Contains(v, l) }) {
		return ""
	}
	v = strings.TrimRight(v, ")`\"' ")
	k := strings.LastIndexFunc(v, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._+-", c))
	})
	return v[k+1:]
}

// lookups are the commands whose output names a program's file.
var lookups = []string{"which ", "command -v ", "command -V ", "type -p ", "type -P ", "whereis ", "realpath ", "readlink "}

// disguises applies disguise to a copy's or link's operands (ops, the
// last being the new name): only the two-operand form names the new file,
// a directory keeping each source's name.
func (c *call) disguises(ops []arg, r *raiser) {
	if len(ops) != 2 {
		return
	}
	why, deny := disguise(c.name, ops[0], ops[1])
	switch {
	case deny:
		c.e.deny(why)
	case why != "":
		r.raise(TierDestructive, why)
	}
}

// copiedByStream applies disguise to a program's file streamed into a new
// one by any program that may pass its bytes on (cat, pv, base64, gzip -c,
// xxd, head -c, sed with no edits, openssl enc; not one that names, measures or
// digests files: nonCopying): given it (or reading it through <), with
// its output redirected to a file or named by an output option, and tee
// reading it through < into its operands. What a process substitution it
// is given prints (cat <(echo TEXT) > ~/.bashrc) meets the deny list where
// that file's text runs later.
func (e *eval) copiedByStream(args []arg, redirs []redirect, sc *scope) {
	if len(args) == 0 || !args[0].known {
		return
	}
	prog := path.Base(args[0].val)
	if nonCopying[prog] {
		return // sha256sum < /sbin/reboot > /tmp/s: no bytes of it pass on
	}
	// The sources first: most commands stream no such file, and then
	// nothing else is looked at.
	var srcs []arg
	for _, r := range redirs {
		if r.file.val != "" && !r.output {
			srcs = append(srcs, r.file)
		}
	}
	if prog != "tee" && prog != "sponge" {
		for _, a := range args[1:] {
			// A known word names a file by a path (reboot alone is a
			// file of the working directory, not the program).
			if strings.HasPrefix(a.val, "<(") || (!a.known || strings.Contains(a.val, "/") && !strings.HasPrefix(a.val, "-")) && isDenyTrigger(fileName(a)) {
				srcs = append(srcs, a)
			}
		}
		srcs = append(srcs, archiveMembers(prog, args[1:])...)
	}
	if len(srcs) == 0 {
		return
	}
	var dsts []arg
	for _, r := range redirs {
		if r.file.val != "" && r.output {
			dsts = append(dsts, r.file)
		}
	}
	dsts = append(dsts, outputOptions(args[1:])...)
	if prog == "tee" || prog == "sponge" {
		for _, a := range args[1:] {
			if !a.known || !strings.HasPrefix(a.val, "-") {
				dsts = append(dsts, a)
			}
		}
	}
	if slices.ContainsFunc(dsts, runsLaterArg) {
		e.scanSubstituted(srcs, sc)
	}
	e.streamDisguises(prog, srcs, dsts)
}

// nonCopying are programs whose output is never the bytes of the files
// they are given: they name, list, measure, compare or digest them.
var nonCopying = set(`ls stat file sha1sum sha224sum sha256sum sha384sum sha512sum md5sum b2sum cksum sum
	wc du readlink realpath ldd namei getcap lsattr dpkg dpkg-query rpm debsums find test [ which whereis
	type command cmp diff strings readelf objdump nm size echo printf basename dirname`)

// outputOptions returns the files a program's options name as its output:
// -o FILE, -OFILE, --output FILE or =FILE, -out FILE, of=FILE.
func outputOptions(args []arg) []arg {
	var out []arg
	for i, a := range args {
		if !a.known {
			continue
		}
		switch v := a.val; {
		case v == "-o" || v == "-O" || v == "--output" || v == "-out" || v == "--output-document":
			if i+1 < len(args) {
				out = append(out, args[i+1])
			}
		case strings.HasPrefix(v, "--output="), strings.HasPrefix(v, "--output-document="), strings.HasPrefix(v, "of="):
			_, f, _ := strings.Cut(v, "=")
			out = append(out, arg{val: f, known: true})
		}
	}
	return out
}

// streamDisguises applies disguise to each file of srcs streamed by prog
// into each of dsts, denying or noting what it finds.
func (e *eval) streamDisguises(prog string, srcs, dsts []arg) {
	r := raiser{}
	for _, s := range srcs {
		for _, d := range dsts {
			why, deny := disguise(prog, s, d)
			switch {
			case deny:
				e.deny(why)
			case why != "":
				r.raise(TierDestructive, why)
			}
		}
	}
	if r.why != "" {
		e.note(r.t, false, "%s", r.why)
	}
}

// scanSubstituted meets the deny list with what the process substitutions
// among args print, where the script shows it (<(echo TEXT)).
func (e *eval) scanSubstituted(args []arg, sc *scope) {
	for _, a := range args {
		if strings.HasPrefix(a.val, "<(") && sc != nil {
			for _, t := range sc.fileTexts(a.val) {
				e.scanText(t)
			}
		}
	}
}

// pipedCopy applies disguise to a program's file streamed through a pipe
// into a new one: a stage that may pass its bytes on given it (cat FILE,
// base64 FILE, cat < FILE), and a later stage that writes its input to a
// file (tee FILE, dd of=FILE, base64 -d > FILE), the stages between
// passing the bytes on. chain is the pipeline, right to left.
func (e *eval) pipedCopy(chain []*syntax.Stmt) {
	for i := len(chain) - 1; i > 0; i-- {
		name, src, ok := streamedFile(chain[i])
		if !ok {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			prog, dsts := stageWrites(chain[j])
			if prog == "" || nonCopying[prog] {
				break // its output is not its input's bytes
			}
			e.streamDisguises(name, []arg{src}, dsts)
		}
	}
}

// streamedFile returns a pipeline stage's program and the file of a
// program the deny list names that it streams to its output: a path
// operand, or what it reads through <.
func streamedFile(st *syntax.Stmt) (string, arg, bool) {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return "", arg{}, false
	}
	v0, ok := litValue(ce.Args[0])
	prog := path.Base(v0)
	if !ok || nonCopying[prog] {
		return "", arg{}, false
	}
	// Most stages name no such file: look before allocating.
	var files []string
	for _, w := range ce.Args[1:] {
		if v, ok := litValue(w); ok && programFile(v) != "" {
			files = append(files, v)
		}
	}
	for _, r := range st.Redirs {
		if r.Word != nil && r.Op == syntax.RdrIn && redirFD(r) == 0 {
			if v, ok := litValue(r.Word); ok {
				files = append(files, v)
			}
		}
	}
	if archivers[prog] {
		if vals, ok := litValues(ce.Args[1:]); ok {
			for _, m := range archiveMembers(prog, argsOf(vals...)) {
				files = append(files, m.val)
			}
		}
	}
	for _, f := range files {
		if v := programFile(f); v != "" {
			return prog, arg{val: v, known: true}, true
		}
	}
	return "", arg{}, false
}

// programFile returns the path a word names when it is the file of a
// program the deny list reads (/sbin/reboot, dd's if=/sbin/reboot), or "".
func programFile(w string) string {
	v := w
	if _, after, ok := strings.Cut(w, "="); ok {
		v = after // dd if=FILE
	}
	if strings.Contains(v, "/") && !strings.HasPrefix(w, "-") && isDenyTrigger(path.Base(v)) {
		return v
	}
	return ""
}

// stageWrites returns a pipeline stage's program and the files it writes
// its output or input to: its standard output redirected, an output
// option's file, tee's and sponge's operands.
func stageWrites(st *syntax.Stmt) (string, []arg) {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return "", nil
	}
	vals, ok := litValues(ce.Args)
	if !ok {
		return "", nil
	}
	name := path.Base(vals[0])
	out := outputOptions(argsOf(vals[1:]...))
	if name == "tee" || name == "sponge" {
		for _, o := range operands(vals[1:]) {
			out = append(out, arg{val: o, known: true})
		}
	}
	for _, r := range st.Redirs {
		if r.Word != nil && stdoutFile(r) {
			if v, ok := litValue(r.Word); ok {
				out = append(out, arg{val: v, known: true})
			}
		}
	}
	return name, out
}

// archivers are the programs archiveMembers reads.
var archivers = set(`tar bsdtar`)

// archiveMembers returns the files an archiver's operands name under the
// directory it changes to first: tar -C /sbin -c reboot archives
// /sbin/reboot.
func archiveMembers(prog string, args []arg) []arg {
	if !archivers[prog] {
		return nil
	}
	dir := ""
	var out []arg
	for i, a := range args {
		switch v := a.val; {
		case !a.known:
		case v == "-C" || v == "--directory":
			if i+1 < len(args) && args[i+1].known {
				dir = args[i+1].val
			}
		case strings.HasPrefix(v, "--directory="):
			dir = strings.TrimPrefix(v, "--directory=")
		case dir != "" && !strings.HasPrefix(v, "-") && !strings.Contains(v, "/") && (i == 0 || args[i-1].val != "-C"):
			out = append(out, arg{val: path.Join(dir, v), known: true})
		}
	}
	return out
}
