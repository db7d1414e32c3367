package policy

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// walkTrace records the calls a walker makes, pruning where prune says.
func walkTrace(walker func(syntax.Node, func(syntax.Node) bool), root syntax.Node, prune func(syntax.Node) bool) []string {
	var out []string
	walker(root, func(n syntax.Node) bool {
		if n == nil {
			out = append(out, "leave")
			return true
		}
		out = append(out, fmt.Sprintf("%T@%d", n, n.Pos().Offset()))
		return !prune(n)
	})
	return out
}

// TestWalkMatchesSyntaxWalk checks that walk calls f exactly as
// syntax.Walk does, and walkEnter as it does but for the calls f(nil), on
// every corpus text, with and without pruning.
func TestWalkMatchesSyntaxWalk(t *testing.T) {
	classifyOnly(t)
	texts := corpusTexts(
		"a | b | c && d || e |& f; ! g | h &",
		"if a; then b; elif c; then d; elif e | f; then g; else h; fi",
		"f() g() { h | f & }; time time ls; coproc c { x; }; coproc y",
		"echo $(( 1 + 2 * -3 - !4 + (5 ? 6 : 7) )) $(( a[$(id)] ))",
		"[[ ! -f x && ( y || ! z ) ]]; (( i++ )); let x=1+2",
		"# comment\nls # trailing\nif a; then # c\n b # d\nfi # e\n",
		// Lists longer than walk pushes at once.
		strings.Repeat("a; b | c # c\n", 40),
		"{ "+strings.Repeat("x $(y; z) >f; ", 40)+"}; if "+strings.Repeat("a; ", 20)+"then "+strings.Repeat("b; ", 20)+"fi",
		"while "+strings.Repeat("a\n", 20)+"do "+strings.Repeat("b &\n", 20)+"done; ( "+strings.Repeat("c; ", 30)+")",
		"case x in y) "+strings.Repeat("d; ", 20)+";; esac; for i in 1; do "+strings.Repeat("e; ", 20)+"done; cat <("+strings.Repeat("f; ", 20)+")",
	)
	prunes := map[string]func(syntax.Node) bool{
		"all":    func(syntax.Node) bool { return false },
		"cmd":    func(n syntax.Node) bool { _, ok := n.(*syntax.CmdSubst); return ok },
		"binary": func(n syntax.Node) bool { _, ok := n.(*syntax.BinaryCmd); return ok },
		"stmt":   func(n syntax.Node) bool { s, ok := n.(*syntax.Stmt); return ok && s.Background },
	}
	for _, keep := range []bool{false, true} {
		parser := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(keep))
		for i, text := range texts {
			f, err := parser.Parse(strings.NewReader(text), "")
			if err != nil {
				continue
			}
			for name, prune := range prunes {
				got := walkTrace(walk, f, prune)
				want := walkTrace(syntax.Walk, f, prune)
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("text %d %q (comments %v, prune %s):\ngot  %v\nwant %v", i, truncate(text, 80), keep, name, got, want)
				}
				// walkEnter makes the same calls but those on leaving.
				got = walkTrace(walkEnter, f, prune)
				want = slices.DeleteFunc(want, func(s string) bool { return s == "leave" })
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("walkEnter: text %d %q (comments %v, prune %s):\ngot  %v\nwant %v", i, truncate(text, 80), keep, name, got, want)
				}
			}
		}
	}
}

// TestWalkDeep classifies texts whose syntax trees are as deep as they are
// long. Recursing through 1 MiB of nested function definitions overflows
// the goroutine stack, which kills the process whatever recovers.
func TestWalkDeep(t *testing.T) {
	classifyOnly(t)
	if testing.Short() {
		t.Skip("parses megabytes")
	}
	p := testPolicy(t)
	for _, s := range []string{
		strings.Repeat("f() ", (1<<20)/4) + "{ :; }",
		strings.Repeat("cat | ", (1<<20)/6) + "cat",
		"echo $(( " + strings.Repeat("1+", (1<<20)/2) + "1 ))",
	} {
		if v := p.Evaluate(Input{Command: s}); v.Reason == "" {
			t.Errorf("%.12q…: empty reason", s)
		}
	}
}

func TestPrefixDepth(t *testing.T) {
	tests := []struct {
		src  string
		want int
	}{
		{"ls -la", 0},
		{"f() { :; }\ng() { :; }\nf; g", 1},
		{"f() g() h() { :; }", 3},
		{"f ( ) g () h() { :; }", 3},
		{"my-func () other.f () { :; }", 2},
		{"[[ ! ! ! -f x ]]", 3},
		{"if ! grep -q x f; then time ls; fi", 1},
		{"time time coproc ! ls", 4},
		{"f() { g() { :; }; }", 1},
		{"echo (x) () ()", 2},
	}
	for _, tc := range tests {
		if got := prefixDepth(tc.src); got != tc.want {
			t.Errorf("prefixDepth(%q) = %d, want %d", tc.src, got, tc.want)
		}
	}
}

// TestPrefixCap classifies inputs within maxInput that overflow the
// parser's stack, killing the process, if they reach it.
func TestPrefixCap(t *testing.T) {
	p := testPolicy(t)
	for _, s := range []string{
		strings.Repeat("f() ", maxInput/4-8) + "{ :; }",
		strings.Repeat("f ( ) ", maxInput/6-8) + "{ :; }",
		"[[ " + strings.Repeat("! ", maxInput/2-8) + "a ]]",
	} {
		if v := p.Evaluate(Input{Command: s}); v.Tier != TierDestructive || !strings.Contains(v.Reason, "nested too deeply") {
			t.Errorf("%.12q…: %+v, want nested too deeply", s, v)
		}
	}
}
