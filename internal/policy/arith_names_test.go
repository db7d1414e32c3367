package policy

import (
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestNameLenAgrees checks the one scan factsVisitor makes of a literal
// word against validName and subscriptName, which it stands for.
func TestNameLenAgrees(t *testing.T) {
	for _, s := range []string{
		"", "a", "_", "x1", "1x", "abc", "a_b9", "a[", "a[1]", "a[$k]", "[a]", "a]b", "9[1]",
		"a-b", "a b", "é", "aé", "aé[1]", "a\xff", "a[b[c]]", "-v", "x=1", "x[1]=2", "a.b[1]",
		"A[", "Z9_[x", "_[0]",
	} {
		i := nameLen(s)
		if got, want := i == len(s) && i > 0, validName(s); got != want {
			t.Errorf("%q: whole name %v, validName %v", s, got, want)
		}
		w := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}}
		a, ok := subscriptName(w)
		if got := i > 0 && i < len(s) && s[i] == '['; got != ok || ok && a != s[:i] {
			t.Errorf("%q: subscript %v %q, subscriptName %v %q", s, got, s[:i], ok, a)
		}
	}
}
