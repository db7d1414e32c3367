package policy

import (
	"path"
	"strings"
)

// Recursive readers (grep -r, rg, find -exec) read every file under the
// directories they are given, so a directory above warden's state, at any
// depth, is a read of that state: grep -r x /var/lib reads
// /var/lib/warden/token. Naming such a directory (ls /etc, du /var) stays
// as it is; reading all of it is tier 2, and the person approving sees
// why. What the checks below let through is held by the confinement.

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
	case "grep", "egrep", "fgrep", "rgrep":
		ops, rec = grepRecursive(args)
	case "rg", "ag", "ack", "ack-grep":
		// Recursive by default; the first operand is the pattern
		// unless -e/-f (or ack's --match) gave one.
		ops, rec = patternOperands(args[1:], "efgtTmAB", "--regexp --file --match --type --glob --max-count"), true
	case "find":
		ops, rec = findRecursive(args[1:])
	}
	if rec && len(ops) == 0 {
		ops = []arg{{val: ".", known: true}}
	}
	return ops
}

// grepRecursive returns grep's file operands when it recurses: -r, -R in
// any cluster, --recursive, --dereference-recursive, -d recurse; rgrep
// always.
func grepRecursive(args []arg) ([]arg, bool) {
	rec := path.Base(args[0].val) == "rgrep"
	for i, a := range args[1:] {
		v := a.val
		switch {
		case !a.known || v == "--":
		case v == "--recursive" || v == "--dereference-recursive" || v == "--directories=recurse":
			rec = true
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-"):
			for j := 1; j < len(v); j++ {
				c := v[j]
				if c == 'r' || c == 'R' {
					rec = true
				}
				if strings.IndexByte("efmABCdD", c) >= 0 {
					val := v[j+1:]
					if val == "" && i+2 < len(args) {
						val = args[i+2].val
					}
					if c == 'd' && val == "recurse" {
						rec = true
					}
					break
				}
			}
		}
	}
	if !rec {
		return nil, false
	}
	return patternOperands(args[1:], "efmABCdD", "--regexp --file --max-count --after-context --before-context --context --directories --devices --include --exclude --exclude-dir --label --color --colour --binary-files"), true
}

// patternOperands returns the operands after the pattern: every word
// that is not an option or an option's value, but the first when no
// -e/-f option gave the pattern. valued are the short options that take a
// value, long the long ones that take one as the next word.
func patternOperands(args []arg, valued, long string) []arg {
	longs := strings.Fields(long)
	var ops []arg
	patternGiven, done := false, false
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
			if name == "--regexp" || name == "--file" || name == "--match" {
				patternGiven = true
			}
			for _, l := range longs {
				if name == l && !hasVal {
					i++
					break
				}
			}
		default:
			for j := 1; j < len(v); j++ {
				c := v[j]
				if strings.IndexByte(valued, c) < 0 {
					continue
				}
				if c == 'e' || c == 'f' {
					patternGiven = true
				}
				if j+1 == len(v) {
					i++ // the value is the next word
				}
				break
			}
		}
	}
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
	ps := e.pathsFor()
	if ps == nil {
		return
	}
	for _, a := range recursiveOperands(args) {
		if !a.known || a.glob {
			continue // unknown words and globs are pathWord's
		}
		v := a.val
		switch {
		case strings.HasPrefix(v, "/"):
			e.aboveProtected(path.Clean(v), ctx, v)
		case v == "~" || strings.HasPrefix(v, "~/"):
			if e.p.protect.home != "" && e.local {
				e.aboveProtected(path.Join(e.p.protect.home, v[1:]), ctx, v)
			}
		default:
			if len(ps.recRel) < maxRelWords {
				ps.recRel = append(ps.recRel, v)
			}
		}
	}
}

// aboveProtected notes a directory that holds a protected path.
func (e *eval) aboveProtected(dir string, ctx cctx, word string) {
	for _, p := range e.p.protect.paths {
		if p.clean != dir && Within(p.clean, dir) {
			e.note(TierMutate, ctx.covered, "%s", recursiveWhy+truncate(word, 96))
			return
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
