package policy

import (
	"reflect"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestOtherCallsLearnNothing holds otherCall and otherStmt to their
// promise: for every program the classifier knows that is not a
// scopeVerb, each check newScope and factsVisitor skip for its calls and
// their statements learns nothing from them, whatever words follow. A check that starts reading another command must
// add it to scopeVerb's list.
func TestOtherCallsLearnNothing(t *testing.T) {
	names := map[string]bool{"grep": true, "ls": true, "awk": true, "nosuchprogram": true}
	for n := range knownPrograms {
		names[n] = true
	}
	for n := range simpleTiers {
		names[n] = true
	}
	// bash's builtins, whichever the classifier lists.
	for _, n := range strings.Fields(`alias bg bind break builtin caller cd command compgen complete
		compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts
		hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray
		readonly return set shift shopt source suspend test times trap true type typeset ulimit
		umask unalias unset wait . : [`) {
		names[n] = true
	}
	tails := []string{
		"",
		" x",
		" -v x -p y 'a[1]' -- z <<< /etc/t > /tmp/f",
		" -C 'x=1' -c 1 a <<'EOF'\ndeclare -i x\nEOF",
		" -- /dev/stdin a b 2>/dev/null",
		" -n x=/etc y -A h -i n",
		" EXIT 'declare -i x' >> /tmp/f",
		" <<< /etc/t > /tmp/f",
		" /tmp/f <<< t",
		" -- x",
		" -- /etc/a b",
		" -v p %s /etc/a",
		" 'a[1]'",
		" 'eval x=1' 'x=2'",
		" 'a[@]'",
		" declare -n x=/etc",
		" -p eval 'x=1'",
		" set -- a",
		" unset f",
		" source /dev/stdin <<< 'declare -i x'",
	}
	checked := 0
	for name := range names {
		if strings.ContainsAny(name, " \t\n;&|<>()$`\\\"'#*?{}=~") {
			continue
		}
		for _, tail := range tails {
			src := name + tail + "\n"
			f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
			if err != nil || len(f.Stmts) != 1 {
				continue
			}
			s := f.Stmts[0]
			ce, ok := s.Cmd.(*syntax.CallExpr)
			if !ok || !otherCall(ce) {
				continue
			}
			checked++
			sc := &scope{vars: map[string][]string{}}
			if otherStmt(s) {
				sc.codeAttrs(s, 0)
				sc.readValue(s)
				sc.noteFile(s)
				sc.printfValue(s)
			}
			sc.callAttrs(ce)
			sc.setValues(ce)
			sc.noteFuncRemover(ce)
			if !reflect.DeepEqual(sc, &scope{vars: map[string][]string{}}) {
				t.Errorf("%q: the scope learned %+v", src, sc)
			}
			if movesPositionals(ce) || hiddenCodeMovesPos(ce, 0) {
				t.Errorf("%q: moves the positional parameters", src)
			}
			af := &arithFacts{}
			af.callNonAssoc(ce)
			if code, ok := af.callFacts(ce); ok || code != "" {
				t.Errorf("%q: runs code %q", src, code)
			}
			if !reflect.DeepEqual(af, &arithFacts{}) {
				t.Errorf("%q: the facts learned %+v", src, af)
			}
			if assignsAside(ce) {
				t.Errorf("%q: assigns aside", src)
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d calls checked", checked)
	}
	for _, v := range []string{"eval", "command", "[", "."} {
		ce := &syntax.CallExpr{Args: []*syntax.Word{{Parts: []syntax.WordPart{&syntax.Lit{Value: v}}}}}
		if otherCall(ce) {
			t.Errorf("%s: skipped", v)
		}
	}
	for _, src := range []string{"echo /etc > f", "cat > f <<< x", "tee f <<< x"} {
		f, _ := syntax.NewParser().Parse(strings.NewReader(src), "")
		if otherStmt(f.Stmts[0]) {
			t.Errorf("%s: skipped", src)
		}
	}
}
