package policy

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// listingOutput returns text that stands for what a directory listing
// prints, one pattern a line, for the values a loop over it gives its
// variable: ls DIR prints the names in DIR ("*", and ".*" with -a or -A),
// ls -d PATTERN the names the pattern matches, find DIR with no test
// that narrows what it finds DIR and what is under it ("DIR", "DIR/*").
// for d in $(ls /usr); do rm -rf "/usr/$d"; done then reads as the loop
// over /usr/* does. Only listings of the system directories whose
// removal is denied (criticalPath, everyFileDirs) give them: the
// patterns only add findings (scope values are tried, not trusted), and
// those are the findings they are for. relative is set when the names
// are relative to the directory (ls DIR), which a pattern only stands
// for where a use puts the directory before it (see prefixedUses).
func listingOutput(s *syntax.Stmt) (text string, relative, ok bool) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return "", false, false
	}
	vals, ok := litValues(ce.Args)
	if !ok {
		return "", false, false
	}
	switch path.Base(vals[0]) {
	case "ls":
		var ops []string
		dirs, hidden := false, false
		for _, v := range vals[1:] {
			switch {
			case strings.HasPrefix(v, "--"):
				hidden = hidden || v == "--all" || v == "--almost-all"
				dirs = dirs || v == "--directory"
			case len(v) > 1 && v[0] == '-':
				hidden = hidden || strings.ContainsAny(v, "aA")
				dirs = dirs || strings.ContainsRune(v, 'd')
			default:
				ops = append(ops, v)
			}
		}
		switch {
		case dirs:
			if len(ops) == 0 || !slices.ContainsFunc(ops, func(o string) bool { return systemDir(path.Dir(o)) }) {
				return "", false, false
			}
			return strings.Join(ops, "\n") + "\n", false, true
		case len(ops) != 1 || !systemDir(ops[0]):
			return "", false, false // several: a header before each directory's names
		case hidden:
			return "*\n.*\n", true, true
		}
		return "*\n", true, true
	case "find":
		starts, narrowed := findStarts(vals[1:])
		if narrowed || len(starts) != 1 || !systemDir(starts[0]) {
			return "", false, false
		}
		d := strings.TrimSuffix(starts[0], "/")
		return starts[0] + "\n" + d + "/*\n", false, true
	}
	return "", false, false
}

// systemDir reports whether d is a directory whose contents removed at
// once the deny list refuses.
func systemDir(d string) bool {
	return criticalPath(d) || strings.HasPrefix(d, "/") && everyFileDirs[path.Clean(d)]
}

// listingItem is listingOutput for a for loop's item that is $(…) or
// `…` of a listing alone.
func listingItem(w *syntax.Word) (text string, relative, ok bool) {
	if len(w.Parts) != 1 {
		return "", false, false
	}
	cs, ok := w.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return "", false, false
	}
	return listingOutput(cs.Stmts[0])
}

// prefixedUses reports whether every use of the variables in body is in a
// word that begins with a literal absolute path before it ("/usr/$d",
// /etc/"$d"): there a name relative to that directory is what a pattern
// of the directory's names stands for, where echo $d would read the
// pattern as matching names in the working directory.
func prefixedUses(body []*syntax.Stmt, names []string) bool {
	ok := true
	uses := func(n string) bool { return slices.Contains(names, n) }
	for _, st := range body {
		syntax.Walk(st, func(n syntax.Node) bool {
			w, is := n.(*syntax.Word)
			if !is || !ok || !usesDirectly(w.Parts, uses) {
				return ok
			}
			first := w.Parts[0]
			if dq, is := first.(*syntax.DblQuoted); is && len(dq.Parts) > 0 {
				first = dq.Parts[0]
			}
			lit, is := first.(*syntax.Lit)
			ok = is && strings.HasPrefix(lit.Value, "/")
			return ok
		})
	}
	return ok
}

// readsPrefixed is prefixedUses for a while read loop: the words of its
// read that may name variables, in its body.
func readsPrefixed(s *syntax.Stmt) bool {
	wc, ok := s.Cmd.(*syntax.WhileClause)
	if !ok || len(wc.Cond) == 0 {
		return false
	}
	ce, ok := wc.Cond[len(wc.Cond)-1].Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	var names []string
	for _, w := range ce.Args[1:] {
		if v, ok := litValue(w); ok && validName(v) {
			names = append(names, v)
		}
	}
	return prefixedUses(wc.Do, names)
}
