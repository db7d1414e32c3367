package policy

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// corpusTexts is every text the classifier's tests know, then extra.
func corpusTexts(extra ...string) []string {
	texts := append([]string(nil), fuzzSeeds...)
	texts = append(texts, benchReadOnly...)
	texts = append(texts, benchMixed...)
	texts = append(texts, benchLine...)
	for _, tc := range evalCases {
		texts = append(texts, tc.in.Command, tc.in.Script)
	}
	return append(texts, extra...)
}

// eachWord parses each text as bash and calls f with every word in it;
// texts that do not parse are skipped.
func eachWord(texts []string, f func(text string, w *syntax.Word)) {
	for _, text := range texts {
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
		if err != nil {
			continue
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			if w, ok := n.(*syntax.Word); ok {
				f(text, w)
			}
			return true
		})
	}
}

// TestFlatSourceMatchesPrinter checks that every word flatSource prints
// comes out as the printer prints it, and that it prints the common
// words, so the comparison is not vacuous.
func TestFlatSourceMatchesPrinter(t *testing.T) {
	texts := corpusTexts(
		`echo $x ${y} "$z" "${a}b" $'c\td' 'e f' "g $h i" $"loc" x"$@"y "$#" $1 ${10}`,
		"echo \"a\tb\" 'c\td' a\\\tb \"$x\t\"",
		"echo \"\xff$x\" '\xfe' a\\\\ \"a\\\\\" x\\ y 'a\\' é\"$ü\"",
		"echo \"a\nb$x\" \"$x\n\" 'a\nb' x\\\ny \"\" '' $'' \"$x\"\"$y\"'z'",
		"echo ${x:-y} ${#x} ${!x} ${x[1]} ${x/a/b} \"$(id)\" `id` $((1)) ${x@Q} ${x+y}",
	)
	pr := syntax.NewPrinter()
	printed := map[string]bool{}
	eachWord(texts, func(_ string, w *syntax.Word) {
		got, ok := flatSource(w)
		if !ok {
			return
		}
		var b strings.Builder
		if err := pr.Print(&b, w); err != nil {
			t.Errorf("%q: printer: %v", got, err)
			return
		}
		if want := b.String(); got != want {
			t.Errorf("flatSource = %q, printer %q", got, want)
		}
		printed[got] = true
	})
	for _, s := range []string{`$x`, `${y}`, `"$z"`, `"${a}b"`, `'e f'`, `"g $h i"`, `$"loc"`, `x"$@"y`, `${10}`, `"$f"`, `"$x""$y"'z'`} {
		if !printed[s] {
			t.Errorf("flatSource left %s to the printer", s)
		}
	}
	for _, s := range []string{"\"a\tb\"", `a\\`, "\"a\nb$x\"", `${x:-y}`} {
		if printed[s] {
			t.Errorf("flatSource printed %q, which it must leave to the printer", s)
		}
	}
}

// TestFlatScan checks flatScan against flatWord and against what a walk
// of the word hands arithString: its literals (parameter names among
// them) and quoted strings.
func TestFlatScan(t *testing.T) {
	texts := corpusTexts(
		`echo a[$(id)] "b[$(id)]" 'c[$(id)]' $'d[\x24(id)]' x"$y"'e[`+"`id`"+`]' ${z} "${a[1]}" a\[\$\(id\)\]`,
		`echo "$x" "i[\$(id)]" f[1] 'g[2]' $'h[\x5b$(id)]'`,
	)
	injections := 0
	eachWord(texts, func(text string, w *syntax.Word) {
		flat, injection := flatScan(w)
		if flat != flatWord(w) {
			t.Errorf("%q: flatScan flat %v, flatWord %v", text, flat, !flat)
		}
		if !flat {
			return
		}
		want := false
		walk(w, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Lit:
				want = want || arithInjection(n.Value)
			case *syntax.SglQuoted:
				want = want || arithInjection(n.Value) || n.Dollar && arithInjection(ansiC(n.Value))
			}
			return true
		})
		if injection != want {
			t.Errorf("%q: flatScan injection %v, want %v", text, injection, want)
		}
		if injection {
			injections++
		}
	})
	if injections < 4 {
		t.Errorf("only %d flat words with an injection", injections)
	}
}
