package policy

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Process ids handed to kill through a pipe or a substitution: pgrep -f
// . | xargs kill -9, ps -e -o pid= | while read p; do kill $p; done,
// kill $(ps -eo pid=). The list is read from the program that makes it,
// as pkill's pattern is.

// pidListDeny returns why the ids a pgrep, pidof or ps prints include
// init or every process, or "".
func pidListDeny(name string, args []string) string {
	switch name {
	case "pgrep":
		if t := readMatcher("pgrep", args).matchesInit(); t != "" {
			return "pgrep: the pattern matches " + t + ", PID 1, and with it nearly every process"
		}
	case "pidof":
		for _, w := range args {
			if initNameSet[path.Base(w)] {
				return "pidof " + w + ": PID 1"
			}
		}
	case "ps":
		if psSelectsAll(args) {
			return "ps: lists every process"
		}
	case "lsof":
		// lsof / lists every process with a file open on the root file
		// system: all of them.
		for _, w := range args {
			if isRoot(w) {
				return "lsof " + w + ": lists every process"
			}
		}
	}
	return ""
}

// psSelectsAll reports whether ps lists every process: -e, -A or BSD's
// ax, with no option that narrows the list (a command, pid, user, group,
// terminal or session).
func psSelectsAll(args []string) bool {
	all := false
	for _, w := range args {
		if strings.HasPrefix(w, "--") {
			for _, n := range []string{"--pid", "--ppid", "--user", "--User", "--group", "--Group", "--tty", "--sid", "--quick-pid"} {
				if longFlag(w, n) {
					return false
				}
			}
			continue
		}
		if strings.HasPrefix(w, "-") {
			for k := 1; k < len(w); k++ {
				switch c := w[k]; {
				case c == 'e' || c == 'A':
					all = true
				case strings.IndexByte("CpuUGgtsq", c) >= 0:
					return false
				case c == 'o' || c == 'O' || c == 'k':
					k = len(w) // the rest is the value
				}
			}
			continue
		}
		if strings.Contains(w, "a") && strings.Contains(w, "x") && strings.Trim(w, "auxwfjlvmsrnehcSTL") == "" {
			all = true // BSD: ax, aux, axww
		}
	}
	return all
}

// mayKillStdin reports, without resolving any word, whether a pipeline
// stage may be one killsStdin reads: an xargs or a while loop.
func mayKillStdin(st *syntax.Stmt) bool {
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		return len(c.Args) > 0 && path.Base(c.Args[0].Lit()) == "xargs"
	case *syntax.WhileClause:
		return true
	}
	return false
}

// mayListPids reports, without resolving any word, whether a stage may
// be a program pidListDeny reads.
func mayListPids(st *syntax.Stmt) bool {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return false
	}
	switch path.Base(c.Args[0].Lit()) {
	case "pgrep", "pidof", "ps", "lsof", "":
		return true // "": a name the stage computes or quotes
	}
	return false
}

// killsStdin reports whether a pipeline stage kills the ids it reads: an
// xargs whose command is kill, or a while loop that runs kill.
func killsStdin(st *syntax.Stmt, r *resolver) bool {
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 || path.Base(c.Args[0].Lit()) != "xargs" {
			return false
		}
		for _, a := range r.fieldsAll(c.Args[1:]) {
			if a.known && path.Base(a.val) == "kill" {
				return true
			}
		}
	case *syntax.WhileClause:
		found := false
		syntax.Walk(c, func(n syntax.Node) bool {
			if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 && path.Base(ce.Args[0].Lit()) == "kill" {
				found = true
			}
			return !found
		})
		return found
	}
	return false
}

// pipedKill denies a pipeline that hands kill the ids of init or every
// process.
func (e *eval) pipedKill(chain []*syntax.Stmt, ctx cctx, sc *scope) {
	if !slices.ContainsFunc(chain, mayKillStdin) || !slices.ContainsFunc(chain, mayListPids) {
		return // most pipelines: nothing resolved, nothing allocated
	}
	r := resolver{e: e, ctx: ctx, sc: sc}
	killer := false
	for _, st := range chain { // right to left
		if killsStdin(st, &r) {
			killer = true
			continue
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !killer || !ok || len(c.Args) == 0 {
			killer = false
			continue
		}
		args := r.fieldsAll(c.Args)
		if !args[0].known {
			killer = false
			continue
		}
		name := path.Base(args[0].val)
		if why := pidListDeny(name, argVals(args[1:])); why != "" {
			e.deny(why + ", handed to kill")
			return
		}
		// Between the list and kill only a stage that passes every id
		// on keeps it whole; grep, awk or head pick some.
		killer = passesAll[name] || awkPrintsColumn(name, argVals(args[1:]))
	}
}

// awkPrintColumn is an awk program that prints one column of every line.
var awkPrintColumn = regexp.MustCompile(`^\s*\{\s*print\s+\$[0-9]+\s*;?\s*\}\s*$`)

// awkPrintsColumn reports whether an awk stage prints a column of every
// line it reads (awk '{print $2}'), picking none out.
func awkPrintsColumn(name string, args []string) bool {
	if name != "awk" && name != "gawk" && name != "mawk" && name != "nawk" || len(args) != 1 {
		return false
	}
	return awkPrintColumn.MatchString(args[0])
}

// passesAll are filters that hand on every line they read, reordered or
// trimmed of a header or columns.
var passesAll = set(`tail sort uniq tr cut cat`)
