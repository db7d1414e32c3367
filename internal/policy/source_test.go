package policy

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestFlatSourceMatchesPrinter checks that every word flatSource prints
// comes out as the printer prints it, and that it prints the common
// words, so the comparison is not vacuous.
func TestFlatSourceMatchesPrinter(t *testing.T) {
	texts := append([]string(nil), fuzzSeeds...)
	texts = append(texts, benchReadOnly...)
	texts = append(texts, benchMixed...)
	texts = append(texts, benchLine...)
	for _, tc := range evalCases {
		texts = append(texts, tc.in.Command, tc.in.Script)
	}
	texts = append(texts,
		`echo $x ${y} "$z" "${a}b" $'c\td' 'e f' "g $h i" $"loc" x"$@"y "$#" $1 ${10}`,
		"echo \"a\tb\" 'c\td' a\\\tb \"$x\t\"",
		"echo \"\xff$x\" '\xfe' a\\\\ \"a\\\\\" x\\ y 'a\\' é\"$ü\"",
		"echo \"a\nb$x\" \"$x\n\" 'a\nb' x\\\ny \"\" '' $'' \"$x\"\"$y\"'z'",
		"echo ${x:-y} ${#x} ${!x} ${x[1]} ${x/a/b} \"$(id)\" `id` $((1)) ${x@Q} ${x+y}",
	)
	pr := syntax.NewPrinter()
	printed := map[string]bool{}
	for _, text := range texts {
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
		if err != nil {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			w, ok := n.(*syntax.Word)
			if !ok {
				return true
			}
			got, ok := flatSource(w)
			if !ok {
				return true
			}
			var b strings.Builder
			if err := pr.Print(&b, w); err != nil {
				t.Errorf("%q: printer: %v", got, err)
				return true
			}
			if want := b.String(); got != want {
				t.Errorf("flatSource = %q, printer %q", got, want)
			}
			printed[got] = true
			return true
		})
	}
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
	texts := append([]string(nil), fuzzSeeds...)
	for _, tc := range evalCases {
		texts = append(texts, tc.in.Command, tc.in.Script)
	}
	texts = append(texts,
		`echo a[$(id)] "b[$(id)]" 'c[$(id)]' $'d[\x24(id)]' x"$y"'e[`+"`id`"+`]' ${z} "${a[1]}" a\[\$\(id\)\]`,
		`echo "$x" "i[\$(id)]" f[1] 'g[2]' $'h[\x5b$(id)]'`,
	)
	injections := 0
	for _, text := range texts {
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
		if err != nil {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			w, ok := n.(*syntax.Word)
			if !ok {
				return true
			}
			flat, injection := flatScan(w)
			if flat != flatWord(w) {
				t.Errorf("%q: flatScan flat %v, flatWord %v", text, flat, !flat)
			}
			if !flat {
				return true
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
			return true
		})
	}
	if injections < 4 {
		t.Errorf("only %d flat words with an injection", injections)
	}
}
