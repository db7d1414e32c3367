package policy

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestEagerFactsMatchLazy checks that the arithmetic facts newScope collects
// in its own walk of a large script are those facts computes for a small
// one, on every input of the verdicts corpus.
func TestEagerFactsMatchLazy(t *testing.T) {
	_, _, corpus := verdictCorpus(t)
	compared := 0
	for _, c := range corpus {
		src := c.in.Command + c.in.Script
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
		if err != nil {
			continue
		}
		lazy := newScope(f, 0)
		if lazy.arith != nil {
			t.Fatalf("%s: newScope collected facts below eagerFacts", c.name)
		}
		var e eval
		got := newScope(f, eagerFacts).arith
		if want := e.facts(lazy); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: facts from newScope's walk differ from facts' own walk", c.name)
		}
		compared++
	}
	if compared < 500 {
		t.Fatalf("compared %d inputs, want the corpus", compared)
	}
}

// TestJoinedTopStatements checks that joinScopes numbers the functions
// (in both forms) and the first background job of a large script's
// pieces as topFuncs and firstBackground do over the whole script.
func TestJoinedTopStatements(t *testing.T) {
	snips := []string{
		"ls -la /tmp\n", "f() { echo f; }\n", "sleep 1 &\n", "if true; then g() { :; }; fi\n",
		"function h { :; }\n", "f() { :; }\n", "k() ( : )\n", "df -h\n", "j() { :; } &\n",
	}
	// The lead "late" holds back the background jobs to the second half.
	for _, lead := range []string{"", "cat /etc/hosts\n", "uptime &\n", "late"} {
		var b strings.Builder
		if lead != "late" {
			b.WriteString(lead)
		}
		for i := 0; b.Len() < pieceMin; i++ {
			b.WriteString(strings.Repeat("echo x\n", i%97))
			if i%7 == 3 {
				fmt.Fprintf(&b, "fn%d() { :; }\n", i)
			}
			if s := snips[i%len(snips)]; lead != "late" || !strings.Contains(s, "&") || b.Len() > pieceMin/2 {
				b.WriteString(s)
			}
		}
		src := b.String()
		pieces := cutPieces(src, 8)
		var stmts []*syntax.Stmt
		for _, pc := range pieces {
			pc.parse(false, len(src))
			if !pc.whole(false) {
				t.Fatalf("lead %q: a piece is not whole", lead)
			}
			stmts = append(stmts, pc.file.Stmts...)
		}
		f := &syntax.File{Stmts: stmts}
		joined, ok := joinScopes(f, pieces)
		if !ok {
			t.Fatalf("lead %q: joinScopes gave up", lead)
		}
		funcs, all := topFuncs(f)
		if bg := firstBackground(f); !reflect.DeepEqual(joined.funcTop, funcs) || !reflect.DeepEqual(joined.funcTopAny, all) || joined.bgTop != bg {
			t.Errorf("lead %q: joined funcTop %v funcTopAny %v bgTop %d, want %v %v %d", lead, joined.funcTop, joined.funcTopAny, joined.bgTop, funcs, all, bg)
		}
	}
}
