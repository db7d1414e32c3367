package policy

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// cutTexts are texts with line ends and "; " inside commands of every
// kind that spans them: the places a cut must not hold.
var cutTexts = []string{
	"cat <<EOF\na; b\nEOF\necho x; echo y\n",
	"cat <<A <<B\na\nA\nb; c\nB\nd; e\n",
	"cat <<-'E'\n\tx; y\n\tE\nz; w\n",
	"echo \"$(cat <<X\ny; z\nX\n)\"; w\n",
	"# note; it's\nrm -rf /tmp/x; echo 'done'\n",
	"a && # c; d\nb; e\n",
	"echo 'a; b\nc; d'; ls\n",
	"echo \"a; b\nc\"; ls\n",
	"echo $'a;\\' b'; c\n",
	"f() {\n  a; b\n}\nf; g\n",
	"f()\n{\n  a; b\n}\nf; g\n",
	"function f\n{ a; }\nf; g\n",
	"case $x in\n a) b; c;;\n *) d; ;;\nesac; d\n",
	"x=$(a; b\nc); d\n",
	"echo `a; b\nc`; d\n",
	"a \\\nb; c\n",
	"a \\\\\nb; c\n",
	"# x \\\nb; c\n",
	"re\\\x00\nboot; c\n",
	"a \\\x00\x00\nb; c\n",
	"a |\nb; c\n",
	"a ||\nb; c\n",
	"a &\nb; c\n",
	"for i in 1 2; do a; done; b\n",
	"for i in 1 2\ndo a; b\ndone; c\n",
	"for ((i=0; i<3; i++)); do a; done; b\n",
	"select x in a; do b; done; c\n",
	"while a; do b; done\nuntil c; do d; done; e\n",
	"if a; then b\nelif c; then d\nelse e; fi; f\n",
	"arr=(a\nb; c); d\n",
	"[[ a &&\n b ]]; c\n",
	"(( a +\n b )); c\n",
	"echo $(( 1 +\n 2 )); c\n",
	"{ a; b\n}; c\n",
	"( a; b\n); c\n",
	"echo ${x//;/ }; y\n",
	"echo ${x:-a; b}; y\n",
	"echo a\\; b; c\n",
	"trap 'a; b' EXIT; c\n",
	"time\nls; x\n",
	"coproc x { a; }; b\n",
	"x=\ny; z\n",
	"a;; b\n",
	"echo <(a; b\nc); d\n",
	"cat <<<'a; b\nc'; d\n",
	"a; b; c; d; e\n",
}

// cutCorpus is every short text the other tests classify, and cutTexts.
func cutCorpus(t testing.TB) []string {
	_, _, corpus := verdictCorpus(t)
	out := append([]string(nil), cutTexts...)
	for _, c := range corpus {
		for _, s := range []string{c.in.Command, c.in.Script} {
			if s != "" && len(s) <= 4<<10 {
				out = append(out, s)
			}
		}
	}
	return out
}

// TestCutsKeepStatements checks what scriptInPieces rests on, at every
// line end and "; " of every corpus text, whatever cutPieces would pick:
// when both sides of a cut are whole, their statements are the text's.
func TestCutsKeepStatements(t *testing.T) {
	held := 0
	for _, src := range cutCorpus(t) {
		held += checkCuts(t, src, false) + checkCuts(t, src, true)
	}
	t.Logf("%d cuts held", held)
	if held < 100 {
		t.Errorf("only %d cuts held: the corpus does not exercise cutting", held)
	}
}

func FuzzCuts(f *testing.F) {
	for _, s := range cutTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2<<10 || bracketDepth(src) > maxBrackets {
			return
		}
		checkCuts(t, src, strings.Contains(src, "\\\n"))
	})
}

// checkCuts tries every cut of src and returns how many held.
func checkCuts(t testing.TB, src string, comments bool) int {
	t.Helper()
	// As script does before it cuts: the parser drops a CR before a line
	// end, which would hide the line end from the cut rule.
	src = strings.ReplaceAll(src, "\r", "\n")
	whole := &piece{src: src}
	whole.parse(comments, 0)
	held := 0
	for c := 1; c < len(src); c++ {
		semi := false
		switch {
		case src[c-1] == '\n' && !escaped(src, c-1):
		case c >= 2 && src[c-2:c] == "; ":
			semi = true
		default:
			continue
		}
		a, b := &piece{src: src[:c], semi: semi}, &piece{src: src[c:]}
		a.parse(comments, 0)
		b.parse(comments, 0)
		if !a.whole(comments) || !b.whole(comments) {
			continue
		}
		held++
		if !whole.whole(comments) {
			t.Fatalf("cut %q | %q: both sides are whole, the text is not (%v)", a.src, b.src, whole.err)
		}
		want := printStmts(whole.file.Stmts)
		if got := append(printStmts(a.file.Stmts), printStmts(b.file.Stmts)...); !slices.Equal(got, want) {
			t.Fatalf("cut %q | %q:\n got %q\nwant %q", a.src, b.src, got, want)
		}
	}
	return held
}

// printStmts prints each statement without the comments before it,
// which a cut moves to the end of the piece before.
func printStmts(list []*syntax.Stmt) []string {
	p := syntax.NewPrinter()
	out := make([]string, len(list))
	for i, s := range list {
		c := *s
		c.Comments = nil
		var b strings.Builder
		if err := p.Print(&b, &c); err != nil {
			panic(err)
		}
		out[i] = b.String()
	}
	return out
}

// TestPiecesMatchOneWalk classifies scripts large enough to be cut, made
// of the corpus texts a few at a time between blocks of comments, in
// pieces and in one walk, under three policies: the verdicts must be
// the same, and the pieces must have been used.
func TestPiecesMatchOneWalk(t *testing.T) {
	p, ops, corpus := verdictCorpus(t)
	policies := map[string]*Policy{"plain": p, "operator": ops, "protected": protectedPolicy(t)}
	var texts []string
	for _, c := range corpus {
		if c.in.Interpreter != "" && !posixShells[c.in.Interpreter] {
			continue
		}
		for _, s := range []string{c.in.Command, c.in.Script} {
			if s != "" && len(s) <= 4<<10 {
				texts = append(texts, s)
			}
		}
	}
	filler := strings.Repeat("# "+strings.Repeat("-", 77)+"\n", 24<<10/80)
	var scripts [][]string
	group := 6
	if raceEnabled {
		// The same texts in fewer scripts, under the policy that keeps
		// the most state: the race detector slows this down tenfold.
		group = 24
		policies = map[string]*Policy{"protected": policies["protected"]}
	}
	for i := 0; i < len(texts); i += group {
		scripts = append(scripts, texts[i:min(i+group, len(texts))])
	}
	// What one statement tells another, each in a piece of its own.
	for _, pair := range crossPieces {
		scripts = append(scripts, pair[:])
	}
	var srcs []string
	for _, texts := range scripts {
		var b strings.Builder
		for _, s := range texts {
			b.WriteString(filler)
			b.WriteString(s)
			b.WriteString("\n")
		}
		for b.Len() < pieceMin {
			b.WriteString(filler)
		}
		srcs = append(srcs, b.String())
	}
	for _, pair := range crossPieces {
		srcs = append(srcs, atCut(pair[0], pair[1]))
	}
	used, tried := 0, 0
	for name, pol := range policies {
		for _, src := range srcs {
			comments := strings.Contains(src, "\\\n")
			one, cut := newEval(pol), newEval(pol)
			one.local, cut.local = true, true
			one.scriptWhole(src, cctx{}, "script", comments)
			tried++
			if cut.inPieces(src, cctx{}, comments, 2) {
				used++
			} else {
				cut.scriptWhole(src, cctx{}, "script", comments)
			}
			if g, w := verdictLine(cut), verdictLine(one); g != w {
				t.Errorf("%s, %q: in pieces %s\n one walk %s", name, strings.ReplaceAll(strings.TrimSpace(src), filler, ""), g, w)
			}
			one.release()
			cut.release()
		}
	}
	t.Logf("pieces were used for %d of %d scripts", used, tried)
	if used < tried*9/10 {
		t.Errorf("pieces were used for %d of %d scripts", used, tried)
	}
}

// crossPieces are pairs of statements where the first decides what the
// second does, or the second what the first did.
var crossPieces = [][2]string{
	{"cd /root/.local", "cat state/warden/token"},
	{"cat warden/config.yaml", "cd /etc"},
	{"cd /etc", "rm -rf *"},
	{"rm -rf ./*", "cd /usr"},
	{"cd /root/.ssh", "echo KEY >> authorized_keys"},
	{"echo x > passwd", "cd /etc"},
	{"cd /dev", "chmod 666 sda"},
	{"n=5", "echo $(( n + 1 ))"},
	{"echo $(( y ))", "y=3"},
	{"x=$1", "(( x ))"},
	{"for i in 1 2 3; do :; done", "echo $(( i ))"},
	{"trap 'n=$1' EXIT", "n=2; echo $(( n ))"},
	{"declare -i k", "k=$1; echo $k"},
	{"declare -n r", "r=PATH; echo $r"},
	{"f() { rm -rf /tmp/x; }", "f"},
	{"g", "g() { reboot; }"},
	{"h() { :; }", "h() { h | h & }; h"},
	{"X=reboot", "$X"},
	{"$Y", "Y=/etc/warden/config.yaml; cat $Y"},
	{"set -- /etc/shadow", "cat $1"},
	{"p=$(wc -l < /etc/hosts)", "echo $(( p ))"},
	{"wc() { echo 'a[$(reboot)]'; }", "q=$(wc -l < x); echo $(( q ))"},
	{"declare -A m", "m[$1]=x"},
	{"z=$1", "z=5; echo $(( z ))"},
	{"declare -n r", "w=5; echo $(( w ))"},
	{"declare -n ref", "ref=$1"},
	{"v=HOME", "echo ${!v}"},
	{"v=$1", "v=HOME; echo ${!v}"},
	{"echo ${!u}", "u=HOME"},
	{"wc() { :; }", "q=$(wc -l < x); echo $(( q ))"},
	{"chk() { df -h; }", "chk"},
	{"chk", "chk() { df -h; }"},
	{"chk() { df -h; }", "unset -f chk; chk"},
	{"chk() { df -h; }; chk", "eval x"},
	{"chk() { df -h; }", "g() { chk; }; g"},
	{"tail -f /var/log/syslog &", "sleep 2; kill $!"},
	{"sleep 2; kill $!", "tail -f /var/log/syslog &"},
}

// FuzzPiecesMatchOneWalk places two texts on either side of a cut and
// requires the verdict in pieces to be the one-walk verdict.
func FuzzPiecesMatchOneWalk(f *testing.F) {
	for _, pair := range crossPieces {
		f.Add(pair[0], pair[1])
	}
	f.Fuzz(func(t *testing.T, first, second string) {
		if len(first)+len(second) > 4<<10 {
			return
		}
		p := protectedPolicy(t)
		src := atCut(first, second)
		comments := strings.Contains(src, "\\\n")
		one, cut := newEval(p), newEval(p)
		defer one.release()
		defer cut.release()
		one.local, cut.local = true, true
		one.scriptWhole(src, cctx{}, "script", comments)
		if !cut.inPieces(src, cctx{}, comments, 2) {
			return
		}
		if g, w := verdictLine(cut), verdictLine(one); g != w {
			t.Errorf("%q | %q: in pieces %s\n one walk %s", first, second, g, w)
		}
	})
}

// atCut returns a script of 8 pieces of 32 KiB, the first ending in
// first, the second starting with second: their offsets in their own
// pieces are in the other order than in the script.
func atCut(first, second string) string {
	var b strings.Builder
	line := "# " + strings.Repeat("-", 77) + "\n"
	for b.Len()+len(line)+2 <= pieceSize-10 {
		b.WriteString(line)
	}
	b.WriteString("#" + strings.Repeat("-", pieceSize-10-b.Len()-2) + "\n")
	b.WriteString(fmt.Sprintf("%-16s\n%s\n", first, second))
	for b.Len()+len(line)+2 <= 8*pieceSize {
		b.WriteString(line)
	}
	b.WriteString("#" + strings.Repeat("-", 8*pieceSize-b.Len()-2) + "\n")
	return b.String()
}

func verdictLine(e *eval) string {
	return fmt.Sprintf("%s opaque=%v", formatVerdict(e.verdict()), e.opaque)
}

// TestAbsorbKnowsEveryField fails when what a walk or a pre-pass keeps
// gains a field that absorb or joinScopes does not add up and that is
// not theirs alone: a field one statement leaves for another would make
// the pieces' verdict differ from one walk's.
func TestAbsorbKnowsEveryField(t *testing.T) {
	for _, c := range []struct {
		v     any
		known map[string]bool
	}{
		// Absorbed, then the evaluation's own (checked or per walk).
		{eval{}, set(`tier reason denied denyWhy allowHit uncovered opaque steps cdRoot relWipe cdFiles relFiles scanned paths daemon loader daemonShadow
			p stopped local tools printer calls ncalls argBufs nargs fnCall trials setid fileRead found inFiles later walkNames modules codeValues unseen unseenBytes pathValues altRoots listed scriptRuns scriptRan lastRun otherTier progGlobs dirLooks projectDirs substNest substCalls written manyWritten ranNames manyRan unread unreadDirs namedWrite unreadUses unreadLater manyUses loops projectEnv users`)},
		{pathState{}, set(`cds cdAbs cdMore cwdsMemo cdUnknown cdSafeGlob rel recRel relWrites relReads relMutates relMore initial seen resolved aliases nocase back moves agentMemo fdDirs`)},
		// Joined by joinScopes, then the pre-pass's own.
		{scope{}, set(`vars funcs funcAt manyFuncs intAttr assoc cased nameref refs derived outer movesPos setsPos arith file funcTop funcTopAny mayUnset mayRebind redeclared exits bgTop calls arrays files joined
			loopNames assigns loopFacts nonEmpty byCall topGuards`)},
		{arithFacts{}, set(`tainted aside trusts keysOf unsetsAny names depth skip base`)},
	} {
		ty := reflect.TypeOf(c.v)
		for i := range ty.NumField() {
			if f := ty.Field(i).Name; !c.known[f] {
				t.Errorf("%s.%s is new: decide how the pieces join it (absorb, joinScopes)", ty.Name(), f)
			}
		}
	}
}

// TestTooDeepOnLargeText checks that each of the nesting scans still
// stops a text large enough for them to run at once.
func TestTooDeepOnLargeText(t *testing.T) {
	filler := strings.Repeat("# "+strings.Repeat("-", 77)+"\n", pieceMin/80+1)
	deep := maxBrackets + 1
	for name, nest := range map[string]string{
		"brackets": strings.Repeat("(", deep) + "x" + strings.Repeat(")", deep),
		"keywords": strings.Repeat("if true; then ", deep) + "x" + strings.Repeat("; fi", deep),
		"prefixes": strings.Repeat("f() ", deep) + "{ :; }",
	} {
		for _, src := range []string{filler + nest + "\n", nest + "\n" + filler} {
			if !tooDeep(src) {
				t.Errorf("%s, %d bytes: not too deep", name, len(src))
			}
			v := testPolicy(t).Evaluate(Input{Interpreter: "bash", Script: src})
			if v.Tier != TierDestructive || !strings.Contains(v.Reason, "nested too deeply") {
				t.Errorf("%s, %d bytes: %+v", name, len(src), v)
			}
		}
	}
	if tooDeep(filler) {
		t.Error("comments alone are too deep")
	}
}

// TestPiecesJoinAndGiveUp covers the ways out of inPieces: a cut inside
// a here-document is joined to the next piece, a script cut wrongly more
// than maxJoins times and one whose relative words fill the cap go to
// one walk, and every way gives one walk's verdict.
func TestPiecesJoinAndGiveUp(t *testing.T) {
	line := "# " + strings.Repeat("-", 77) + "\n"
	lines := func(n int) string { return strings.Repeat(line, n) }
	var rel strings.Builder
	for i := range maxRelWords + 1 {
		fmt.Fprintf(&rel, "cat f%d\n", i)
	}
	p := protectedPolicy(t)
	for _, tc := range []struct {
		name   string
		src    string
		pieces bool
	}{
		{"here-document across the first cut", "cat <<EOF\n" + lines(500) + "EOF\nreboot\n" + lines(3000), true},
		{"here-document across more cuts than maxJoins", "cat <<EOF\n" + lines(2500) + "EOF\n" + lines(800), false},
		{"relative words past the cap", rel.String() + lines(2000), false},
	} {
		one, cut := newEval(p), newEval(p)
		one.local, cut.local = true, true
		one.scriptWhole(tc.src, cctx{}, "script", false)
		if got := cut.inPieces(tc.src, cctx{}, false, 2); got != tc.pieces {
			t.Errorf("%s: in pieces %v, want %v", tc.name, got, tc.pieces)
		} else if !got {
			cut.scriptWhole(tc.src, cctx{}, "script", false)
		}
		if g, w := verdictLine(cut), verdictLine(one); g != w {
			t.Errorf("%s: %s\n one walk %s", tc.name, g, w)
		}
		one.release()
		cut.release()
	}
}

// TestEachRaisesAFault checks that a fault on one of each's goroutines
// reaches the caller, where Evaluate's guard turns it into a verdict,
// rather than ending the process.
func TestEachRaisesAFault(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the fault", r)
		}
	}()
	each(8, 2, func(i int) {
		if i == 5 {
			panic("boom")
		}
	})
	t.Error("each returned after a fault")
}

// TestScanWordsInPieces checks that the raw scan of a text past pieceMin,
// read in chunks at once, finds what one reading finds: a deny-list
// command on a chunk's first or last line, or across a line end escaped
// by a backslash, and the first of two when both are there.
func TestScanWordsInPieces(t *testing.T) {
	line := "ls -la /var/log | grep x; echo \"$HOME\" {a,b} [c]\n"
	filler := strings.Repeat(line, (pieceMin+pieceSize)/len(line))
	for _, deny := range []string{"reboot", "re\\\nboot", "${IFS}poweroff", "mkfs.ext4 /dev/sda", "/sbin/halt -f"} {
		for _, at := range []int{0, len(line), len(filler) / 8, len(filler) / 2, len(filler) - len(line), len(filler)} {
			at -= at % len(line)
			s := filler[:at] + deny + "\n" + filler[at:]
			want := scanLines(s)
			if want == "" && !strings.Contains(deny, "\\") {
				t.Fatalf("%q at %d: one reading finds nothing", deny, at)
			}
			if got := scanWords(s); got != want {
				t.Errorf("%q at %d: in pieces %q, whole %q", deny, at, got, want)
			}
			// Two denials: the pieces report the first, as one reading does.
			s = filler[:at] + deny + "\n" + filler[at:] + "shutdown -h now\n"
			if got, want := scanWords(s), scanLines(s); got != want || got == "" {
				t.Errorf("%q at %d then shutdown: in pieces %q, whole %q", deny, at, got, want)
			}
		}
	}
	// Every boundary the chunks take: a deny word on the line before and
	// after one, and the chunks are the text cut at line ends.
	s := filler + filler
	n := min(4*runtime.GOMAXPROCS(0), len(s)/pieceSize)
	chunks := lineChunks(s, n)
	if len(chunks) < 2 || len(chunks) > n || strings.Join(chunks, "") != s {
		t.Fatalf("%d chunks of %d bytes, at most %d wanted, joined the text: %v", len(chunks), len(s), n, strings.Join(chunks, "") == s)
	}
	at := 0
	for k, c := range chunks[:len(chunks)-1] {
		if !strings.HasSuffix(c, "\n") {
			t.Errorf("chunk %d ends inside a line: %q", k, c[max(0, len(c)-20):])
		}
		at += len(c)
		for _, off := range []int{-len(line), 0} {
			v := s[:at+off] + "halt\n" + s[at+off:]
			if got := scanWords(v); got == "" || got != scanLines(v) {
				t.Errorf("halt near boundary %d%+d: in pieces %q, whole %q", k, off, got, scanLines(v))
			}
		}
	}
}
