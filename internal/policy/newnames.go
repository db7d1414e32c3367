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
// one: cat or pv given it (or reading it through <) with their output
// redirected to a file, and tee reading it through < into its operands.
// What a process substitution it is given prints (cat <(echo TEXT) >
// ~/.bashrc) meets the deny list where that file's text runs later.
func (e *eval) copiedByStream(args []arg, redirs []redirect, sc *scope) {
	if len(args) == 0 || !args[0].known {
		return
	}
	prog := path.Base(args[0].val)
	if prog != "cat" && prog != "pv" && prog != "tee" {
		return
	}
	var srcs, dsts []arg
	for _, r := range redirs {
		switch {
		case r.file.val == "":
		case r.output:
			dsts = append(dsts, r.file)
		default:
			srcs = append(srcs, r.file)
		}
	}
	for _, a := range args[1:] {
		if strings.HasPrefix(a.val, "-") && a.known {
			continue
		}
		if prog == "tee" {
			dsts = append(dsts, a)
		} else if !a.known || strings.Contains(a.val, "/") {
			srcs = append(srcs, a)
		}
	}
	if slices.ContainsFunc(dsts, runsLaterArg) {
		e.scanSubstituted(srcs, sc)
	}
	e.streamDisguises(prog, srcs, dsts)
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
// into a new one: cat or pv of it (or reading it through <) piped to a
// command that writes its input to a file (tee FILE, dd of=FILE, sponge
// FILE, cat > FILE). chain is the pipeline, right to left.
func (e *eval) pipedCopy(chain []*syntax.Stmt) {
	for i := len(chain) - 1; i > 0; i-- {
		src, ok := streamedFile(chain[i])
		if !ok {
			continue
		}
		name, dsts := inputWrites(chain[i-1])
		e.streamDisguises(name, []arg{{val: src, known: true}}, dsts)
	}
}

// streamedFile returns the file a pipeline stage streams whole to its
// output: cat FILE, pv FILE, cat < FILE, a literal path.
func streamedFile(st *syntax.Stmt) (string, bool) {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return "", false
	}
	vals, ok := litValues(ce.Args)
	if !ok || vals[0] != "cat" && vals[0] != "pv" {
		return "", false
	}
	ops := operands(vals[1:])
	for _, r := range st.Redirs {
		if r.Word == nil || r.Op != syntax.RdrIn || redirFD(r) != 0 || len(ops) > 0 {
			continue
		}
		if v, ok := litValue(r.Word); ok {
			ops = []string{v}
		}
	}
	if len(ops) != 1 || !strings.Contains(ops[0], "/") {
		return "", false
	}
	return ops[0], true
}

// inputWrites returns the name of a pipeline stage that writes its input
// to files, and those files.
func inputWrites(st *syntax.Stmt) (string, []arg) {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return "", nil
	}
	vals, ok := litValues(ce.Args)
	if !ok {
		return "", nil
	}
	name := path.Base(vals[0])
	var out []arg
	switch name {
	case "tee", "sponge":
		for _, o := range operands(vals[1:]) {
			out = append(out, arg{val: o, known: true})
		}
	case "dd":
		for _, v := range vals[1:] {
			if f, ok := strings.CutPrefix(v, "of="); ok {
				out = append(out, arg{val: f, known: true})
			}
		}
	case "cat", "pv":
		if len(operands(vals[1:])) > 0 {
			return "", nil
		}
		for _, r := range st.Redirs {
			if r.Word == nil || !stdoutFile(r) {
				continue
			}
			if v, ok := litValue(r.Word); ok {
				out = append(out, arg{val: v, known: true})
			}
		}
	}
	return name, out
}
