package policy

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// A large script is parsed and walked in pieces, on every processor at
// once. Pieces are cut at line ends no backslash escapes, or after
// the "; " that ends a piece's last statement, and a cut holds only
// where the text before it is complete: the piece parses alone. An
// unclosed quote, here-document, compound command or operator makes it
// fail to parse, so when every piece parses, the pieces' statements are
// the script's (TestCutsKeepStatements, FuzzCuts).
//
// The walk carries nothing from one top-level statement to the next but
// what it accumulates: findings, cd targets and relative words. The
// scope, which is what later statements could tell earlier ones, is
// built once over all the pieces. So each piece is walked by an
// evaluation of its own, and absorb adds them up in order to what one
// walk of the whole script finds. Anything else (a piece that does not
// parse, a budget or a cap reached in a piece) leaves the script to the
// one-piece walk, which says what went wrong.

const (
	pieceMin  = 128 << 10 // smallest script cut into pieces
	pieceSize = 32 << 10  // smallest piece
)

type piece struct {
	src  string
	base int  // offset of src in the script
	semi bool // cut after "; " rather than at a line end
	file *syntax.File
	err  error
	sc   *scope // what newScope learns from this piece alone
}

// maxCutSearch is how far past its place a cut is looked for.
const maxCutSearch = 16 << 10

// cutPieces cuts src into about n pieces of similar size. A cut is after
// a line end that follows no backslash, before a line that starts a
// command; failing one, after "; ". The cuts are guesses, which parse
// checks.
func cutPieces(src string, n int) []*piece {
	var out []*piece
	start := 0
	for i := 1; i < n; i++ {
		at := max(len(src)*i/n, start+1)
		end := min(at+maxCutSearch, len(src)-1)
		cut, semi := -1, false
		for j := at; j < end && cut < 0; j++ {
			if src[j] == '\n' && !escaped(src, j) && startsCommand(src[j+1:]) {
				cut = j + 1
			}
		}
		for j := at; j < end && cut < 0; j++ {
			if src[j] == ';' && src[j+1] == ' ' && !escaped(src, j) && src[j-1] != ';' {
				cut, semi = j+2, true
			}
		}
		if cut < 0 {
			continue
		}
		out = append(out, &piece{src: src[start:cut], base: start, semi: semi})
		start = cut
	}
	return append(out, &piece{src: src[start:], base: start})
}

// escaped reports whether a backslash escapes src[i]: the byte before it,
// past the NUL bytes the parser skips as bash does, is one. "\\\x00\n"
// joins two lines as "\\\n" does.
func escaped(src string, i int) bool {
	for i--; i >= 0 && src[i] == 0; i-- {
	}
	return i >= 0 && src[i] == '\\'
}

// startsCommand reports whether a line s can start a command of its
// own: it is not indented, and does not start with a word or operator
// that continues an earlier one.
func startsCommand(s string) bool {
	if s == "" || strings.IndexByte(" \t\n;&|)}", s[0]) >= 0 {
		return false
	}
	w := s
	if i := strings.IndexAny(s, " \t\n;&|()<>"); i >= 0 {
		w = s[:i]
	}
	switch w {
	case "do", "done", "then", "else", "elif", "fi", "esac", "in":
		return false
	}
	return true
}

// parse parses the piece of a script of size bytes, and builds its scope.
func (pc *piece) parse(comments bool, size int) {
	pc.file, pc.err = syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(comments)).
		Parse(strings.NewReader(pc.src), "")
	if pc.err == nil {
		mendCoprocs(pc.file, pc.src)
		pc.sc = newScope(pc.file, size, pc)
		pc.sc.topGuards = topGuards(pc.file.Stmts, nil) // indexed in the piece; see inPieces
	}
}

// whole reports whether the piece is complete: it parsed, and a cut
// after "; " is after the ";" that ends its last statement.
func (pc *piece) whole(comments bool) bool {
	if pc.err != nil || comments && commentSwallowsLine(pc.file) {
		return false
	}
	if !pc.semi {
		return true
	}
	n := len(pc.file.Stmts)
	if n == 0 {
		return false
	}
	at := pc.file.Stmts[n-1].Semicolon
	return at.IsValid() && int(at.Offset()) == len(pc.src)-2 && pc.src[len(pc.src)-2] == ';'
}

// maxJoins is how many pieces that are not whole are joined to the next
// before the script goes to the one-piece walk.
const maxJoins = 4

// scriptInPieces classifies src, a top-level script the size of many
// pieces, as e.script would, and reports whether it could; when it
// could not, e is as it was.
func (e *eval) scriptInPieces(src string, ctx cctx, comments bool) bool {
	if len(src) < pieceMin || ctx.nest > 0 {
		return false
	}
	return e.inPieces(src, ctx, comments, runtime.GOMAXPROCS(0))
}

// inPieces is scriptInPieces on procs processors.
func (e *eval) inPieces(src string, ctx cctx, comments bool, procs int) bool {
	if procs < 2 {
		return false
	}
	// More pieces than processors, so one slow piece does not hold
	// the rest up.
	pieces := cutPieces(src, min(4*procs, len(src)/pieceSize))
	if len(pieces) < 2 {
		return false
	}
	each(len(pieces), procs, func(i int) { pieces[i].parse(comments, len(src)) })
	// A piece that is not whole was cut inside a command (a here-document,
	// say): join it to the next.
	joins := 0
	for i := 0; i < len(pieces)-1; {
		pc := pieces[i]
		if pc.whole(comments) {
			i++
			continue
		}
		if joins++; joins > maxJoins {
			return false
		}
		next := pieces[i+1]
		pc.src, pc.semi = src[pc.base:next.base+len(next.src)], next.semi
		pc.parse(comments, len(src))
		pieces = slices.Delete(pieces, i+1, i+2)
	}
	var stmts []*syntax.Stmt
	for _, pc := range pieces {
		if !pc.whole(comments) {
			return false
		}
		stmts = append(stmts, pc.file.Stmts...)
	}
	if len(pieces) < 2 {
		return false
	}
	f := &syntax.File{Stmts: stmts}
	sc, ok := joinScopes(f, pieces)
	if !ok {
		sc = newScope(f, len(src), pieces...)
	}
	sc.inherit(ctx.sc)
	sc.derive(e)
	ctx.sc = sc
	subs := make([]*eval, len(pieces))
	firsts := make([]int, len(pieces)) // index in f.Stmts of each piece's first statement
	for i := 1; i < len(pieces); i++ {
		firsts[i] = firsts[i-1] + len(pieces[i-1].file.Stmts)
	}
	// The first guard of each name, as topGuards(f.Stmts, sc) would find
	// it: from what each piece found as it was parsed, unless a call of
	// one of the script's functions may be a guard's exit, which a piece
	// alone cannot know.
	if sc.findExits(); len(sc.exits) > 0 {
		sc.topGuards = topGuards(f.Stmts, sc)
	} else {
		sc.topGuards = joinGuards(pieces, firsts)
	}
	// A piece's command may run from a directory an earlier piece puts
	// on PATH, which its walk has not seen: each knows every value the
	// text gives PATH.
	e.textPathValues(src)
	// The last pieces parsed are the likeliest still in the processor's
	// cache: walk them first (3-5% less CPU on a 1 MiB script).
	each(len(pieces), procs, func(i int) {
		i = len(pieces) - 1 - i
		subs[i] = e.fork()
		subs[i].ranNames = map[string]bool{}
		subs[i].topStmts(pieces[i].file.Stmts, firsts[i], ctx, sc)
	})
	defer func() {
		for _, s := range subs {
			s.release()
		}
	}()
	steps, rel, reads, muts := e.steps, map[string]bool{}, map[string]bool{}, map[string]bool{}
	if e.paths != nil {
		for w := range e.paths.rel {
			rel[w] = true
		}
		for w := range e.paths.relReads {
			reads[w] = true
		}
		for w := range e.paths.relMutates {
			muts[w] = true
		}
	}
	for _, s := range subs {
		steps += s.steps
		if s.stopped || s.paths != nil && s.paths.relMore {
			return false
		}
		if s.paths != nil {
			for w := range s.paths.rel {
				rel[w] = true
			}
			for w := range s.paths.relReads {
				reads[w] = true
			}
			for w := range s.paths.relMutates {
				muts[w] = true
			}
		}
	}
	// Past any cap, what one walk keeps depends on the order of the
	// whole script.
	if steps > maxSteps || len(rel) >= maxRelWords || len(reads) >= maxRelWords || len(muts) >= maxRelWords {
		return false
	}
	e.forkBombs(sc, ctx)
	for _, s := range subs {
		e.absorb(s)
	}
	return true
}

// joinGuards returns the first guard of each name the pieces found, each
// piece's first statement at its index in firsts.
func joinGuards(pieces []*piece, firsts []int) map[string]int {
	var m map[string]int
	for i, pc := range pieces {
		for n, at := range pc.sc.topGuards {
			if m == nil {
				m = map[string]int{}
			}
			if m[n] == 0 || firsts[i]+at < m[n] {
				m[n] = firsts[i] + at
			}
		}
	}
	return m
}

// tooDeep reports whether src nests past what the parser is given. On a
// text the size of a piece the three scans run at once.
func tooDeep(src string) bool {
	scans := [...]func(string) int{bracketDepth, keywordDepth, prefixDepth}
	var over [len(scans)]bool
	if len(src) < pieceMin {
		for i, scan := range scans {
			if over[i] = scan(src) > maxBrackets; over[i] {
				return true
			}
		}
		return false
	}
	each(len(scans), runtime.GOMAXPROCS(0), func(i int) { over[i] = scans[i](src) > maxBrackets })
	return slices.Contains(over[:], true)
}

// each runs f(0)…f(n-1) on up to procs goroutines and waits for them. A
// fault in f is raised again here, where Evaluate's guard catches it.
func each(n, procs int, f func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var fault any
	for range min(n, procs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					if fault == nil {
						fault = r
					}
					mu.Unlock()
				}
			}()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		}()
	}
	wg.Wait()
	if fault != nil {
		panic(fault)
	}
}

// fork returns a fresh evaluation of the same input to walk a piece of
// its script.
func (e *eval) fork() *eval {
	s := newEval(e.p)
	s.local = e.local
	s.pathValues = slices.Clip(e.pathValues)
	s.projectEnv = slices.Clip(e.projectEnv)
	s.users = slices.Clip(e.users)
	if e.paths != nil {
		s.pathsFor().initial = e.paths.initial
	}
	return s
}

// absorb adds what s, the walk of the next piece, found to e: the
// verdict one walk of both would have come to.
func (e *eval) absorb(s *eval) {
	if s.tier > e.tier {
		e.tier, e.reason = s.tier, s.reason
	}
	if s.denied && !e.denied {
		e.denied, e.denyWhy = true, s.denyWhy
	}
	e.allowHit = e.allowHit || s.allowHit
	e.uncovered = e.uncovered || s.uncovered
	e.opaque = e.opaque || s.opaque
	e.modules = e.modules || s.modules
	e.codeValues = keepAll(e, e.codeValues, s.codeValues, maxCodeValues, codeValuesWhat)
	for _, u := range s.unseen {
		e.addUnseen(u)
	}
	e.noteRoots(argsOf(s.altRoots...))
	for _, d := range s.listed {
		if len(e.listed) < maxListed && !slices.Contains(e.listed, d) {
			e.listed = append(e.listed, d)
		}
	}
	e.scriptRuns += s.scriptRuns
	e.projectEnv = keepAll(e, e.projectEnv, s.projectEnv, maxCodeValues, projectEnvWhat)
	e.joinRuns(s)
	for n := range s.written {
		e.noteWrittenName(n)
	}
	e.manyWritten = e.manyWritten || s.manyWritten
	e.joinUnread(s)
	e.otherTier = max(e.otherTier, s.otherTier)
	if e.daemon == "" {
		e.daemon = s.daemon
	}
	if e.loader == "" {
		e.loader = s.loader
	}
	e.daemonShadow = e.daemonShadow || s.daemonShadow
	for i, asked := range s.later.asked {
		e.later.asked[i] = e.later.asked[i] || asked // judged at the end, against every piece's cds
	}
	e.steps += s.steps
	for w := range s.walkNames {
		e.noteName(w)
	}
	e.cdRoot = e.cdRoot || s.cdRoot
	if s.relWipe != "" {
		e.relWipe = s.relWipe
	}
	e.cdFiles = e.cdFiles || s.cdFiles
	if s.relFiles != "" {
		e.relFiles = s.relFiles
	}
	for t := range s.scanned {
		if e.scanned == nil {
			e.scanned = map[string]bool{}
		}
		e.scanned[t] = true
	}
	if s.paths == nil {
		return
	}
	ps, from := e.pathsFor(), s.paths
	for _, c := range from.cds {
		ps.addCd(c)
	}
	ps.cdUnknown = ps.cdUnknown || from.cdUnknown || from.cdMore
	ps.cdSafeGlob = ps.cdSafeGlob || from.cdSafeGlob
	ps.back = ps.back || from.back
	ps.moves += from.moves
	for _, w := range from.recRel {
		if len(ps.recRel) < maxRelWords {
			ps.recRel = append(ps.recRel, w)
		}
	}
	for w, glob := range from.rel {
		if ps.rel == nil {
			ps.rel = map[string]bool{}
		}
		ps.rel[w] = ps.rel[w] || glob // scriptInPieces checked they fit
	}
	for w := range from.relWrites {
		ps.addRelWrite(w)
	}
	for w, what := range from.relMutates {
		ps.addRelMutate(w, what)
	}
	for w, glob := range from.relReads {
		if ps.relReads == nil {
			ps.relReads = map[string]bool{}
		}
		ps.relReads[w] = ps.relReads[w] || glob // scriptInPieces checked they fit
	}
	ps.cdMore = ps.cdMore || from.cdMore
	for _, a := range from.aliases {
		if len(ps.aliases) < maxAliases {
			ps.aliases = append(ps.aliases, a) // for the relative words checked at the end
		}
	}
	for fd, dirs := range from.fdDirs {
		if ps.fdDirs == nil {
			ps.fdDirs = map[string][]string{}
		}
		ps.fdDirs[fd] = append(ps.fdDirs[fd], dirs[:min(len(dirs), maxFdDirs-len(ps.fdDirs[fd]))]...)
	}
}
