package policy

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Calls of the script's own functions. A function's body is classified
// where it is defined (see command), with its parameters unknown, so
// calling it runs nothing the verdict has not counted. The call itself is
// only read as the function when the shell is sure to find the function:
//
//   - the call is a simple command the shell runs itself, not a word a
//     wrapper (sudo, xargs, env, time, find -exec) runs as a program;
//   - the name is no program the classifier knows, so a function named
//     like one (ls, rm) is still classified as that program;
//   - a top-level statement of the same script declares the function
//     before the top-level statement the call is in, so it has run, in
//     the form every POSIX shell takes (name() body, with a plain name),
//     or, in text a shell of funcWordShells runs (bash -c, a bash
//     run_script body), also with the function keyword: dash reads
//     "function f {" as a command named function;
//   - nothing in the script can remove it again: no unset, and no eval,
//     source, trap or enable, whose text could.
//
// Otherwise the name is an unknown program, as before.

// funcRemovers are the commands whose running can leave a function name
// to a program of that name: unset directly, the others through text
// they run in the same shell, and alias, whose name the shell reads
// before any function's.
var funcRemovers = set(`unset eval source . trap enable alias`)

// noteFuncRemover sets sc.mayUnset when ce runs one of funcRemovers, and
// sc.mayRebind when it is not unset, nor a trap that cannot skip a
// command (trap 'rm -f "$tmp"' EXIT).
func (sc *scope) noteFuncRemover(ce *syntax.CallExpr) {
	args, _ := pastCommandBuiltin(ce.Args)
	if len(args) == 0 {
		return
	}
	if v, ok := litValue(args[0]); !ok || funcRemovers[v] && (v != "alias" || definesAlias(args[1:])) {
		// A name the parse cannot read may be any of them.
		sc.mayUnset = true
		sc.mayRebind = sc.mayRebind || v != "unset" && (v != "trap" || trapsDebug(args[1:]))
	}
}

// definesAlias reports whether alias's words may define one (name=text,
// or a word the parse cannot read) rather than print some (alias, alias
// -p, alias ll).
func definesAlias(args []*syntax.Word) bool {
	for _, w := range args {
		if v, ok := litValue(w); !ok || strings.Contains(v, "=") {
			return true
		}
	}
	return false
}

// trapsDebug reports whether a trap's words may set the DEBUG trap, which
// under extdebug skips the command it runs before.
func trapsDebug(args []*syntax.Word) bool {
	for _, w := range args {
		if v, ok := litValue(w); !ok || strings.EqualFold(v, "DEBUG") {
			return true
		}
	}
	return false
}

// topFuncs returns, for each function a top-level statement of f
// declares, the 1-based index of the first such statement: in the form
// every POSIX shell reads (posix), and in either form (all), which the
// shells of funcWordShells read.
func topFuncs(f *syntax.File) (posix, all map[string]int) {
	for i, s := range f.Stmts {
		d, ok := s.Cmd.(*syntax.FuncDecl)
		if !ok || d.Name == nil || !validName(d.Name.Value) || s.Background || s.Coprocess {
			// f() { …; } & declares f in a subshell: the shell's own
			// f is still a program.
			continue
		}
		if !d.RsrvWord {
			posix = firstDecl(posix, d.Name.Value, i+1)
		}
		all = firstDecl(all, d.Name.Value, i+1)
	}
	return posix, all
}

// firstDecl is m with name at i, unless m has it already.
func firstDecl(m map[string]int, name string, i int) map[string]int {
	if m == nil {
		m = map[string]int{}
	}
	if _, seen := m[name]; !seen {
		m[name] = i
	}
	return m
}

// topStmts walks the top-level statements of sc's script from index first
// on, each with its place in ctx so calls can see which functions are
// declared before them.
func (e *eval) topStmts(list []*syntax.Stmt, first int, ctx cctx, sc *scope) {
	ctx.topOf = sc
	for i, s := range list {
		if e.stopped {
			return
		}
		ctx.top = int32(first + i + 1)
		e.stmt(s, ctx, sc) // guards between top-level statements: sc.topGuards
	}
}

// funcCall reports whether the simple command whose first word resolved
// to a0 calls a function of the script (see the rules above).
func funcCall(a0 arg, ctx cctx, sc *scope) bool {
	if sc == nil || sc.mayUnset || ctx.topOf != sc || ctx.top == 0 || !a0.known || a0.glob {
		return false
	}
	name := a0.val
	if name == "" || strings.ContainsRune(name, '/') || path.Base(name) != name {
		return false
	}
	tops := sc.funcTop
	if ctx.funcWord {
		tops = sc.funcTopAny
	}
	at := tops[name]
	if at == 0 || at >= int(ctx.top) {
		return false
	}
	if _, known := knownPrograms[name]; known {
		return false
	}
	if n, h := normalised(name); h != nil || n != name {
		return false
	}
	_, listed := simpleTiers[name]
	return !listed
}

// simpleCall is simple for a simple command the shell runs itself, which
// may call one of the script's functions: the first program lookup below
// it, the command's own, then reads the function.
func (e *eval) simpleCall(args []arg, ctx cctx, sc *scope, rtext string) bool {
	e.fnCall = len(args) > 0 && funcCall(args[0], ctx, sc)
	covered := e.simple(args, ctx, rtext)
	e.fnCall = false
	return covered
}

// firstBackground returns the 1-based index of the first top-level
// statement of f run in the background (cmd &), or 0.
func firstBackground(f *syntax.File) int {
	for i, s := range f.Stmts {
		if s.Background {
			return i + 1
		}
	}
	return 0
}

// killsOwnJob reports whether c, a kill, signals only $! or a job spec
// (%1), the background job a top-level statement of the same script
// started before the one kill is in (cmd & sleep 2; kill $!), or the
// pids $(jobs -p) prints: children of this shell, not another process.
func (c *call) killsOwnJob() bool {
	sc := c.ctx.sc
	if targets := killTargets(c.args); len(targets) > 0 && !sc.shadowed("jobs") {
		// kill $(jobs -p), as in trap 'kill $(jobs -p)' EXIT: jobs -p
		// prints the pids of this shell's own jobs, or nothing.
		own := true
		for _, a := range targets {
			if a.known || !jobsList[a.val] {
				own = false
			}
		}
		if own {
			return true
		}
	}
	if sc == nil || c.ctx.topOf != sc || sc.bgTop == 0 || sc.bgTop >= int(c.ctx.top) {
		return false
	}
	args := killTargets(c.args)
	for _, a := range args {
		if a.known && jobSpec(a.val) {
			continue
		}
		if a.known || a.val != "$!" && a.val != `"$!"` && a.val != "${!}" && a.val != `"${!}"` {
			return false
		}
	}
	return len(args) > 0
}

// jobsList are the spellings of a substitution of jobs -p (with -r or -s,
// running or stopped jobs only).
var jobsList = map[string]bool{"$(jobs -p)": true, `"$(jobs -p)"`: true, "$(jobs -pr)": true, `"$(jobs -pr)"`: true,
	"$(jobs -ps)": true, `"$(jobs -ps)"`: true, "`jobs -p`": true, "\"`jobs -p`\"": true}

// killTargets returns kill's arguments after one signal option (-9,
// -TERM, -s KILL) and "--": the processes or jobs it signals.
func killTargets(args []arg) []arg {
	// One signal first (-9, -TERM, -s KILL); bash reads a later -N as a
	// process group (kill -9 -1 signals every process).
	switch {
	case len(args) > 1 && args[0].known && (args[0].val == "-s" || args[0].val == "-n"):
		if !args[1].known {
			return nil
		}
		args = args[2:]
	case len(args) > 0 && args[0].known && len(args[0].val) > 1 && args[0].val[0] == '-' && args[0].val != "--":
		args = args[1:]
	}
	if len(args) > 0 && args[0].known && args[0].val == "--" {
		args = args[1:]
	}
	return args
}

// jobSpec reports whether w is a job number or the current or previous
// job (%1, %%, %+, %-): the shell's own background jobs, never another
// process.
func jobSpec(w string) bool {
	return w == "%%" || w == "%+" || w == "%-" || len(w) > 1 && w[0] == '%' && allDigits(w[1:])
}
