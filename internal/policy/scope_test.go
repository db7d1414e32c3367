package policy

import (
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
