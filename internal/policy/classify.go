package policy

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Caps that keep classification bounded whatever the input. Beyond any of
// them the input is TierDestructive.
const (
	maxInput      = 4 << 20   // bytes of one text to parse
	maxBrackets   = 256       // bracket nesting before parsing (the parser is quadratic in it)
	maxDepth      = 512       // syntax-tree depth while walking
	maxNest       = 16        // payloads inside payloads: sh -c 'sh -c "…"'
	maxSteps      = 4_000_000 // simple commands and statements per Evaluate
	maxSubstCalls = 256       // $(…) read for what they print, per outermost word (substCall)
	maxAlts       = 16        // alternative bindings tried for one command
)

type stdinKind int

const (
	stdinNone    stdinKind = iota // the caller's terminal or nothing
	stdinText                     // known text
	stdinUnknown                  // a pipe or file the classifier cannot see
)

// stdinSrc is what a command reads on standard input, as far as it is known.
type stdinSrc struct {
	kind stdinKind
	text string
	// alts are texts unknown input may be: a here-string or a printed
	// line read with each literal value the script gives its variables
	// (x=re; sh <<< "${x}boot"), for the deny list's scan.
	alts []string
}

// cctx is the context a command is classified in.
// It is copied into every command's call, so its flags sit together.
// cctx is copied into every closure that reads it; past 128 bytes Go
// shares it instead, on the heap, once per command (kept at 128).
type cctx struct {
	depth   int32    // syntax-tree depth
	nest    int32    // payload nesting
	stdin   stdinSrc // standard input
	sc      *scope   // the script being walked
	pos     []string // positional parameters $0…, when known (sh -c payloads)
	hasPos  bool
	stdinRd bool // this statement's own redirections set stdin
	covered bool // an operator allow rule matched an enclosing command
	inArgs  bool // an unknown program's arguments tried as a command (see argCommand)
	execd   bool // run by a program (a wrapper's payload), which finds it on PATH: no builtin
	zsh     bool // the text is run by zsh (see zshCode)
	root    bool // the command runs as root (Input.Root, or a wrapper to root: sudo, doas, pkexec, su): see rootKeeps
	inFunc  bool // the statements are a function's body, which return leaves
	// funcWord is set when the text's shell reads "function NAME" as
	// declaring a function (funcWordShells); e.script takes it from
	// funcWordNext, set only where the shell that runs the text it walks
	// next is known, so any other text is read as dash would.
	funcWord, funcWordNext bool
	// user is 1 + the index in eval.users of the user, known not to be
	// root, the command runs as (sudo -u bob, su bob): its home is theirs.
	user   uint8
	top    int32 // 1-based index of the top-level statement of topOf walked (funcs.go)
	topOf  *scope
	loops  *loopVar // the variables of the enclosing for loops whose values are exact (loops_exact.go)
	guards *guard   // the variables a test or ${D:?} before has shown are not empty (guards_empty.go)
}

// eval accumulates the findings of one Evaluate call.
type eval struct {
	later     laterCwd // code read now that runs after later cds (cwd_later.go)
	p         *Policy
	tier      Tier
	reason    string
	denied    bool
	denyWhy   string
	allowHit  bool // some allow rule matched
	uncovered bool // a finding above tier 0 was not covered by an allow rule
	opaque    bool // something could not be seen into; scan the raw text
	steps     int
	stopped   bool
	local     bool   // the input runs on this machine
	cdRoot    bool   // a cd into a system directory was seen
	relWipe   string // a recursive removal of "." or a relative wildcard was seen (rm -r *, find . -delete)
	cdFiles   bool   // a cd into one of everyFileDirs was seen
	relFiles  string // a removal of every file of the working directory was seen (rm -f *)
	tools     *evalTools
	printer   *syntax.Printer    // tools.printer
	scanned   map[string]bool    // texts scanText has already seen
	paths     *pathState         // protected-path checks, when the policy has any
	calls     []*[callChunk]call // see pushCall
	ncalls    int
	argBufs   [][]arg // see takeArgs
	nargs     int
	fnCall    bool   // the next program lookup is a call of the script's function (funcs.go)
	trials    bool   // the call is read again with each literal value its variables get (see call)
	daemon    string // the first program that asks a daemon over a socket (daemons.go)
	loader    string // the first program that runs its project's code (daemons.go)
	// daemonShadow: a function of the input is named like one of those
	// programs, so a call of that name may run anything.
	daemonShadow bool
	setid        map[string]bool       // localSetid's answers, one stat per path
	fileRead     map[string]*localFile // local files read (localfiles.go)
	found        map[string]string     // where the search path finds unknown programs
	walkNames    map[string]bool       // names the walk resolved that the text may not spell (namedfiles.go)
	modules      bool                  // a program that loads modules by name runs (namedfiles.go)
	codeValues   []string              // values of variables that make programs load code (namedfiles.go)
	pathValues   []string              // values the walk gave PATH (scriptPathFiles)
	altRoots     []string              // roots wrappers run their commands in (noteRoots)
	listed       []string              // directories a program prints every file under (noteListed)
	scriptRuns   int                   // script files run and walked whole (settleScriptRuns)
	scriptRan    bool                  // the program just classified is one (simple)
	lastRun      string                // the word naming the last of them (apartFromRun)
	otherTier    Tier                  // the highest tier noted but for those runs
	progGlobs    int                   // globs in command position expanded (globPrograms)
	dirLooks     int                   // directory entries looked at (recentFilesUnder)
	unseen       []unseenText          // text walked aside that runs what the walk could not see (namedfiles.go)
	unseenBytes  int                   // their length together
	projectDirs  map[string]bool       // directories whose project files were read (projectcode.go)
	projectEnv   [][2]string           // values given projectPlaceVars, by any means (projectVar)
	inFiles      []string              // the local files classified as the programs they hold, innermost last
	substNest    int                   // $(…) being read for what they print, nested (substCall)
	substCalls   int                   // such reads since the outermost began
	written      map[string]bool       // names of the paths the call's writers named (written.go)
	manyWritten  bool                  // more of them than written keeps
	ranNames     map[string]bool       // in a piece's walk, the names it ran files by (written.go)
	manyRan      bool                  // more of them than ranNames keeps
	unread       map[string]bool       // names written with what the classifier cannot read (unread.go)
	unreadDirs   []filledDir           // directories filled with names the text does not show
	namedWrite   bool                  // the statement writes unread to a file named at run time (namedWritten)
	unreadUses   map[unreadUse]bool    // in a piece's walk, the runs joinUnread meets with earlier pieces' writes
	unreadLater  map[unreadUse]bool    // such runs in loops, functions and traps: met at the end with every write
	manyUses     bool                  // more of them than unreadUses or unreadLater keeps
	loops        int                   // loop bodies being walked, which run again after what follows them
	users        []targetUser          // users known not to be root that commands run as (runas.go)
}

// evalTools are an evaluation's parsers and printer: a few KiB to make
// and to clear, a third of a short command's evaluation when each made
// its own. Evaluations take them from a pool.
type evalTools struct {
	printer *syntax.Printer
	parsers [2]*syntax.Parser // see parser
}

var evalToolPool = sync.Pool{New: func() any { return &evalTools{printer: syntax.NewPrinter()} }}

func newEval(p *Policy) *eval {
	t := evalToolPool.Get().(*evalTools)
	return &eval{p: p, reason: "read-only", tools: t, printer: t.printer}
}

// release returns the evaluation's tools to the pool; e is done.
func (e *eval) release() {
	evalToolPool.Put(e.tools)
	e.tools, e.printer = nil, nil
}

// note records a finding. The first reason at the highest tier is kept.
func (e *eval) note(t Tier, covered bool, format string, a ...any) {
	if t > TierRead && !covered {
		e.uncovered = true
	}
	e.otherTier = max(e.otherTier, t)
	if t > e.tier || e.reason == "" {
		e.tier = t
		e.reason = fmt.Sprintf(format, a...)
	}
}

// noteText is note(t, covered, "%s", why) without formatting: one
// call per command, the common case, need not allocate.
func (e *eval) noteText(t Tier, covered bool, why string) {
	e.otherTier = max(e.otherTier, t)
	e.noteRun(t, covered, why)
}

// contentKeepers are programs that change a file's mode, owner, times or
// directory, never what it holds.
var contentKeepers = set(`chmod chown chgrp touch mkdir`)

// keepsContent reports whether the command args cannot change what the
// script run before it holds: a contentKeeper, tee writing only other
// files (./job.sh | tee out.log), or nohup, whose own write is nohup.out
// (nohup ./job.sh &).
func (e *eval) keepsContent(args []arg) bool {
	switch name := normaliseName(path.Base(args[0].val)); name {
	case "tee":
		return e.apartFromRun(args[1:])
	case "nohup":
		return e.apartFromRun([]arg{{val: "nohup.out", known: true}})
	default:
		return contentKeepers[name]
	}
}

// noteRun is noteText of a script file run and walked whole
// (settleScriptRuns), which leaves otherTier as it is.
func (e *eval) noteRun(t Tier, covered bool, why string) {
	if t > TierRead && !covered {
		e.uncovered = true
	}
	if t > e.tier || e.reason == "" {
		e.tier = t
		e.reason = why
	}
}

// deny records a deny finding. The first reason is kept.
func (e *eval) deny(why string) {
	e.tier = TierDestructive
	if !e.denied {
		e.denied = true
		e.denyWhy = why
	}
}

func (e *eval) verdict() Verdict {
	e.protectVerdict()
	e.relWriteVerdict()
	e.relReadVerdict()
	e.relMutateVerdict()
	if e.cdRoot && e.relWipe != "" {
		e.deny(fmt.Sprintf("%s: recursive removal after cd into a system directory", e.relWipe))
	}
	if e.cdFiles && e.relFiles != "" {
		e.deny(fmt.Sprintf("%s: removes every file after cd into a program, library or configuration directory", e.relFiles))
	}
	e.laterCwdVerdict()
	e.unreadLaterVerdict()
	v := Verdict{Tier: e.tier, Reason: e.reason, Daemons: e.daemon != "" && !e.daemonShadow}
	e.daemonsWithLoader(&v)
	if e.denied {
		v.Denied = true
		v.Tier = TierDestructive
		v.Reason = "denied: " + e.denyWhy
		return v
	}
	v.Allowed = e.allowHit && !e.uncovered
	return v
}

// step counts work and reports whether the budget allows more.
func (e *eval) step() bool {
	e.steps++
	if e.steps > maxSteps {
		if !e.stopped {
			e.stopped = true
			e.opaque = true
			e.note(TierDestructive, false, "input too large to classify")
		}
		return false
	}
	return true
}

// substCall starts reading a $(…) for what it prints, and reports
// whether the budget allows it. A $(…) inside one is read several ways
// (a compgen glob, echo's words, a filter's output) and each way reads
// the ones inside it, so an unknown nest costs several times more per
// level; past maxSubstCalls reads under one outermost word, the rest
// are unknown. A nest that resolves costs one read per level.
func (e *eval) substCall() bool {
	if e == nil {
		return true
	}
	if e.substNest == 0 {
		e.substCalls = 0
	}
	if e.substCalls >= maxSubstCalls {
		return false
	}
	e.substCalls++
	e.substNest++
	return true
}

// substDone ends a read substCall allowed.
func (e *eval) substDone() {
	if e != nil {
		e.substNest--
	}
}

// script parses shell text and classifies every command in it.
func (e *eval) script(src string, ctx cctx, what string) {
	ctx.execd = false // a shell runs the text: its builtins are its own
	ctx.funcWord, ctx.funcWordNext = ctx.funcWordNext, false
	if ctx.nest > maxNest {
		e.opaque = true
		e.note(TierDestructive, false, "%s nested too deeply to classify", what)
		e.scanText(src)
		return
	}
	if len(src) > maxInput {
		e.opaque = true
		e.note(TierDestructive, false, "%s too large to classify (%d bytes)", what, len(src))
		e.scanText(src)
		return
	}
	if tooDeep(src) {
		e.opaque = true
		e.note(TierDestructive, false, "%s nested too deeply to classify", what)
		e.scanText(src)
		return
	}
	// A terminal turns CR into a line end, so a session shell would run
	// "ls\rreboot" as two commands; read it the same way.
	src = strings.ReplaceAll(src, "\r", "\n")
	if ctx.zsh {
		e.zshCode(src, what, ctx)
	}
	// The parser takes a backslash ending a comment as joining the next
	// line into the comment; shells end the comment at the newline and
	// run that line. Comments are kept, only then, to find it.
	continued := strings.Contains(src, "\\\n")
	if !e.scriptInPieces(src, ctx, continued) {
		e.scriptWhole(src, ctx, what, continued)
	}
}

// scriptWhole parses src in one piece and classifies every command in it.
func (e *eval) scriptWhole(src string, ctx cctx, what string, continued bool) {
	f, err := e.parser(continued).Parse(strings.NewReader(src), "")
	mendCoprocs(f, src)
	if err != nil {
		e.opaque = true
		e.note(TierDestructive, false, "%s does not parse as shell: %s", what, truncate(err.Error(), 120))
		e.scanText(src)
		return
	}
	if continued && commentSwallowsLine(f) {
		e.opaque = true
		e.note(TierDestructive, false, "%s has a comment ending in a backslash: the shell runs the line after it, which is read here as part of the comment", what)
		e.scanText(src)
	}
	if ctx.nest > 0 {
		e.wholeText(src)
	}
	sc := newScope(f, len(src))
	sc.findExits()
	sc.topGuards = topGuards(f.Stmts, sc)
	sc.inherit(ctx.sc)
	sc.derive(e)
	e.forkBombs(sc, ctx)
	ctx.sc = sc
	e.topStmts(f.Stmts, 0, ctx, sc)
}

// parser returns the parser of this evaluation that keeps comments or
// not. Parse resets a parser, and one is done with a text before the
// next is parsed, so nested payloads reuse it rather than each making
// one (a few KiB).
func (e *eval) parser(comments bool) *syntax.Parser {
	i := 0
	if comments {
		i = 1
	}
	if e.tools.parsers[i] == nil {
		e.tools.parsers[i] = syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(comments))
	}
	return e.tools.parsers[i]
}

// commentSwallowsLine reports whether a comment in f runs over a line
// end, which no shell's comment does.
func commentSwallowsLine(f *syntax.File) bool {
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.Comment); ok && strings.Contains(c.Text, "\n") {
			found = true
		}
		return !found
	})
	return found
}

func (e *eval) stmts(list []*syntax.Stmt, ctx cctx, sc *scope) {
	for _, s := range list {
		if e.stopped {
			return
		}
		e.stmt(s, ctx, sc)
		top := 0 // exitsBefore counts top-level statements of sc's script alone
		if ctx.topOf == sc {
			top = int(ctx.top)
		}
		ctx.guards = ctx.guards.with(guardsAfter(s, ctx.inFunc, sc, top))
	}
}

func (e *eval) stmt(s *syntax.Stmt, ctx cctx, sc *scope) {
	if !e.step() {
		return
	}
	ctx.depth++
	if ctx.depth > maxDepth {
		e.opaque = true
		e.note(TierDestructive, false, "command nested too deeply to classify")
		return
	}
	if s.Background || s.Coprocess {
		// A job runs beside what follows it, which may write what it
		// runs first: its runs meet every write, as a loop's do.
		e.loops++
		defer func() { e.loops-- }()
	}
	var redirs []redirect
	out := outUnread
	if len(s.Redirs) > 0 {
		out = e.outputKind(s)
	}
	for _, r := range s.Redirs {
		rd := e.redirect(r, ctx, sc, out)
		if rd.stdin != nil {
			ctx.stdin = *rd.stdin
			ctx.stdinRd = true
		}
		redirs = append(redirs, rd)
	}
	if s.Cmd == nil {
		e.redirFindings(redirs, ctx.covered, false)
		e.namedWritten()
		return
	}
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok {
		e.runsLaterText(s, redirs, ctx, sc)
		e.call(ce, ctx, sc, redirs)
		e.namedWritten()
		return
	}
	e.redirFindings(redirs, ctx.covered, false)
	e.hereNames(s.Cmd, ctx)
	e.command(s.Cmd, ctx, sc)
	e.namedWritten()
}

func (e *eval) command(c syntax.Command, ctx cctx, sc *scope) {
	e.arithContext(c, ctx, sc)
	switch c := c.(type) {
	case *syntax.BinaryCmd:
		e.binary(c, ctx, sc)
	case *syntax.Block:
		e.stmts(c.Stmts, ctx, sc)
	case *syntax.Subshell:
		e.stmts(c.Stmts, ctx, sc)
	case *syntax.IfClause:
		// A branch runs where its test held and the tests before it
		// did not: if [ -n "$D" ]; then rm -rf "$D"/*; fi.
		guards := ctx.guards
		for ic := c; ic != nil; ic = ic.Else {
			ctx.guards = guards
			e.stmts(ic.Cond, ctx, sc)
			if len(ic.Cond) == 1 {
				ctx.guards = guards.with(testedSet(ic.Cond[0], true))
				guards = guards.with(testedSet(ic.Cond[0], false))
			}
			e.stmts(ic.Then, ctx, sc)
		}
	case *syntax.WhileClause:
		e.loopForks(c, ctx, sc)
		e.loops++
		e.stmts(c.Cond, ctx, sc)
		e.stmts(c.Do, ctx, sc)
		e.loops--
	case *syntax.ForClause:
		e.loopForks(c, ctx, sc)
		e.subst(c.Loop, ctx, sc)
		if wi, ok := c.Loop.(*syntax.WordIter); ok {
			e.expandedWords(wi.Items, ctx, sc)
			e.substNames(wi.Items, ctx, sc)
			e.substWatchdog(wi.Items, false, ctx, sc)
			if wi.Name != nil {
				e.boundName(arg{val: wi.Name.Value, known: true}, ctx, "loop variable")
			}
		}
		if lv := e.exactLoop(c, sc, ctx.loops); lv != nil {
			ctx.loops = lv
		}
		e.loops++
		e.stmts(c.Do, ctx, sc)
		e.loops--
	case *syntax.CaseClause:
		e.subst(c.Word, ctx, sc)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				e.subst(p, ctx, sc)
			}
			e.stmts(it.Stmts, ctx, sc)
		}
	case *syntax.FuncDecl:
		// The body is classified where it is defined, whether or not it
		// is ever called; a function named like a safe program (ls) is
		// thereby as dangerous as its body. It may be called with any
		// input (f <&3, cat x | f), so its stdin is unknown.
		ctx.stdin, ctx.stdinRd = stdinSrc{kind: stdinUnknown}, false
		ctx.loops = nil // it may be called where the loops' values no longer hold
		ctx.guards, ctx.inFunc = nil, true
		e.noteFunction(c.Name)
		e.later.depth++
		e.stmt(c.Body, ctx, sc)
		e.later.depth--
	case *syntax.ArithmCmd:
		e.subst(c.X, ctx, sc)
	case *syntax.LetClause:
		for _, x := range c.Exprs {
			e.subst(x, ctx, sc)
		}
	case *syntax.TestClause:
		e.subst(c.X, ctx, sc)
	case *syntax.DeclClause:
		e.decl(c, ctx, sc)
	case *syntax.TimeClause:
		if c.Stmt != nil {
			ctx.topOf = nil // time is a program to sh and dash: f runs as one
			e.stmt(c.Stmt, ctx, sc)
		}
	case *syntax.CoprocClause:
		if c.Name != nil {
			e.subst(c.Name, ctx, sc)
			if v, ok := litValue(c.Name); ok {
				e.boundName(arg{val: v, known: true}, ctx, "coproc")
			}
		}
		// A coprocess reads what the script writes to it later.
		ctx.stdin, ctx.stdinRd = stdinSrc{kind: stdinUnknown}, false
		e.loops++ // it runs beside what follows, as a job does
		e.stmt(c.Stmt, ctx, sc)
		e.loops--
	case *syntax.TestDecl:
		e.subst(c.Description, ctx, sc)
		e.stmt(c.Body, ctx, sc)
	default:
		e.opaque = true
		e.note(TierDestructive, false, "unsupported shell construct %T", c)
	}
}

// call classifies a simple command with its assignments and redirections.
func (e *eval) call(ce *syntax.CallExpr, ctx cctx, sc *scope, redirs []redirect) {
	for _, a := range ce.Assigns {
		if ifsForRead(a, ce, sc) {
			if a.Value != nil {
				e.subst(a.Value, ctx, sc)
			}
			continue
		}
		e.assign(a, ctx, sc, len(ce.Args) == 0)
	}
	for _, w := range ce.Args {
		e.subst(w, ctx, sc)
	}
	e.substNames(ce.Args, ctx, sc)
	e.substWatchdog(ce.Args, true, ctx, sc)
	if len(ce.Args) == 0 {
		e.redirFindings(redirs, ctx.covered, false)
		if len(ce.Assigns) > 0 {
			e.note(TierRead, false, "variable assignment")
		}
		return
	}
	rtext := redirText(redirs)
	r := resolver{e: e, ctx: ctx, sc: sc}
	// resolve reads the words again with r's trial values, and keeps the
	// values of computed words for namedFiles.
	args, computed := e.takeArgs(), e.local && slices.ContainsFunc(ce.Args, computedWord)
	resolve := func() {
		args = r.appendAll(args[:0], ce.Args)
		if computed {
			e.noteArgs(args, sc)
		}
	}
	resolve()
	binds, trials := sc.bindings(ce.Args), e.trials
	e.trials = len(binds) > 0
	var covered bool
	runs := e.scriptRuns
	if exact, globs := e.exactBinds(ce.Args, ctx, sc); exact != nil {
		// The enclosing loops, or a statement before this one, give
		// these variables exactly these values: read the call with each
		// instead of with unknown words.
		covered = true
		for _, bind := range exact {
			r.bind, r.globs = bind, globs
			resolve()
			covered = e.simpleCall(args, ctx, sc, rtext) && covered
		}
		r.bind, r.globs = nil, nil
		resolve()
	} else {
		covered = e.simpleCall(args, ctx, sc, rtext)
	}
	e.trials = trials
	e.copiedByStream(args, redirs, sc)
	e.redirFindings(redirs, covered, e.scriptRuns > runs)
	// Variables assigned literal values elsewhere in the script may hold
	// any of them here; try those too. This only adds findings: the
	// unbound reading above already counted what is unknown.
	for _, bind := range binds {
		r.bind = bind
		resolve()
		e.simpleCall(args, ctx, sc, rtext)
	}
	r.bind = nil
	for _, arrays := range arrayReadings(ce.Args, sc) {
		r.arrays = arrays
		resolve()
		e.simpleCall(args, ctx, sc, rtext)
	}
	r.arrays = nil
	e.putArgs(e.defaultValues(ce.Args, args, ctx, sc, rtext))
}

// takeArgs returns an empty slice to resolve one simple command's words
// into, which putArgs gives back once the command is classified: nothing
// keeps its fields past that, so the next command at the same nesting
// level reuses the slice instead of allocating one.
func (e *eval) takeArgs() []arg {
	if e.nargs == len(e.argBufs) {
		e.argBufs = append(e.argBufs, nil)
	}
	e.nargs++
	return e.argBufs[e.nargs-1][:0]
}

func (e *eval) putArgs(args []arg) {
	e.nargs--
	e.argBufs[e.nargs] = args[:0]
}

// simple classifies one resolved command line and returns whether an
// operator allow rule covers it.
func (e *eval) simple(args []arg, ctx cctx, rtext string) bool {
	if len(args) == 0 || !e.step() {
		return ctx.covered
	}
	if len(e.p.deny) > 0 || len(e.p.allow) > 0 {
		norm := normText(args, rtext)
		e.operatorDeny(norm)
		if e.allowMatch(norm) {
			ctx.covered = true
		}
	}
	t, why := e.program(args, ctx)
	ran, ranWhy := e.scriptRan, why
	e.scriptRan = false
	if t == TierDestructive && e.opaque {
		// What a program the classifier cannot see into reads may be its
		// commands (ed's !CMD, make -f -'s recipes, gdb -x /dev/stdin):
		// the text as the writer produced it (printf's format filled
		// in, a variable's value) meets the deny list, as the raw text does.
		if ctx.stdin.kind == stdinText {
			e.scanText(ctx.stdin.text)
		}
		for _, a := range ctx.stdin.alts {
			e.scanText(a)
		}
		// A file the script wrote text to and hands it (printf … >
		// /tmp/s; sh /tmp/s, make -f /tmp/m): that text too. And a
		// value given as NAME=VALUE or --opt=VALUE, which the program's
		// code may run (awk -v cmd=reboot 'BEGIN{system(cmd)}').
		for _, a := range args[1:] {
			if !a.known {
				continue
			}
			// The file may follow an option: --file=/tmp/m, -f/tmp/m.
			f := a.val
			if f != "" && f[0] == '-' {
				if _, v, ok := strings.Cut(f, "="); ok {
					f = v
				} else if i := strings.IndexByte(f, '/'); i > 0 {
					f = f[i:]
				} else {
					f = ""
				}
			}
			if f != "" {
				// Absolute, or relative as the script wrote it (cd /tmp
				// && printf … > s && sh s).
				for _, t := range ctx.sc.fileTexts(f) {
					e.scanText(t)
				}
			}
			if _, v, ok := strings.Cut(a.val, "="); ok && v != "" {
				e.scanText(v)
			}
		}
	}
	if wt, wwhy := e.wordRules(args, ctx); wt > t {
		t, why = wt, wwhy
	}
	if t >= TierMutate && args[0].known {
		name := normaliseName(path.Base(args[0].val))
		for _, a := range args[1:] {
			// A program that changes the system and names a power file
			// may write it, whichever program it is (sponge, an editor).
			if f := powerFileWord(a.val); f != "" && a.known {
				e.deny(name + ": may " + powerFiles[f])
			}
		}
		if pt, pwhy, deny := protectedArgs(name, args[1:]); deny {
			e.deny(pwhy)
		} else if pt > t {
			t, why = pt, pwhy
		}
		if t < TierDestructive {
			if dwhy := deviceNodeChange(name, args[1:]); dwhy != "" {
				t, why = TierDestructive, dwhy
			} else if pwhy := actsOnWarden(name, args[1:]); pwhy != "" {
				t, why = TierDestructive, pwhy
			}
		}
		e.noteRelMutates(name, args[1:])
		e.noteWrittenArgs(name, args[1:])
		e.noteUnreadArgs(name, args[1:], ctx.sc)
	}
	if ran && why == ranWhy || t > TierRead && t <= TierMutate && e.keepsContent(args) {
		// A script run, or a program that cannot change what a file
		// holds (chmod +x job.sh; ./job.sh) or the script run before
		// it (./job.sh | tee out.log): settleScriptRuns does not count
		// it among the call's writes.
		e.noteRun(t, ctx.covered, why)
	} else {
		e.noteText(t, ctx.covered, why)
	}
	return ctx.covered
}

// normText is the normalised text operator rules see: the program's
// basename and the arguments joined by single spaces, then redirections.
func normText(args []arg, rtext string) string {
	var b strings.Builder
	b.WriteString(path.Base(args[0].val))
	for _, a := range args[1:] {
		b.WriteByte(' ')
		b.WriteString(a.val)
	}
	if rtext != "" {
		b.WriteByte(' ')
		b.WriteString(rtext)
	}
	return b.String()
}

// isPattern reports whether s can expand as a glob: it has * or ?, or a
// [ closed by a later ] (a lone "[" is the test command).
func isPattern(s string) bool {
	if strings.ContainsAny(s, "*?") {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i >= 0 && strings.IndexByte(s[i+1:], ']') >= 0
}
