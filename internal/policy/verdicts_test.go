package policy

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/verdicts.golden from the current classifier")

const verdictsGolden = "testdata/verdicts.golden"

type namedInput struct {
	name string
	in   Input
}

// verdictCorpus is what TestVerdictsGolden classifies: the benchmark
// snippets alone, as one-line commands and as the 1 MiB scripts, every
// evaluation case and fuzz seed, and the same texts under operator rules.
func verdictCorpus(t testing.TB) (p, ops *Policy, corpus []namedInput) {
	t.Helper()
	add := func(name string, in Input) { corpus = append(corpus, namedInput{name, in}) }
	for i, s := range append(append(append([]string(nil), benchReadOnly...), benchMixed...), benchLine...) {
		add(fmt.Sprintf("snippet/%d", i), cmd(s))
		add(fmt.Sprintf("snippet/%d/script", i), Input{Interpreter: "sh", Script: s})
	}
	for _, bc := range bench1MiB {
		add("1MiB/"+bc.name, Input{Interpreter: "bash", Script: bc.script})
	}
	// Scripts that are opaque somewhere, so the raw text is scanned too.
	add("1MiB/readonly+python", Input{Interpreter: "bash", Script: bench1MiB[0].script + "python3 -c 'print(1)'\n"})
	add("1MiB/mixed+computed", Input{Interpreter: "bash", Script: bench1MiB[1].script + "$CMD -x\n"})
	add("1MiB/mixed+nmap", Input{Interpreter: "bash", Script: bench1MiB[1].script + "nmap -sS 10.1.2.3\n"})
	add("1MiB/oneline+shadow", Input{Interpreter: "bash", Script: bench1MiB[2].script + "cat   /etc/shadow"})
	add("1MiB/readonly+reboot", Input{Interpreter: "bash", Script: bench1MiB[0].script + "X=reboot; $X\n"})
	for i, s := range fuzzSeeds {
		add(fmt.Sprintf("seed/%d", i), cmd(s))
		add(fmt.Sprintf("seed/%d/script", i), Input{Interpreter: "bash", Script: s})
	}
	for _, tc := range evalCases {
		add("case/"+tc.name, tc.in)
	}
	p = testPolicy(t)
	ops, err := New(Rules{
		Deny:  []string{`^curl .*pastebin`, `\bnmap\b`, `/etc/shadow`, `rm\s+-rf\s+/srv/data`},
		Allow: []string{`systemctl restart (nginx|php-fpm)`, `docker restart \w+`, `rm -f /tmp/work/.*`, `mkdir -p /tmp/work`, `sed -i .*`},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p, ops, corpus
}

func formatVerdict(v Verdict) string {
	return fmt.Sprintf("%s denied=%v allowed=%v %s", v.Tier, v.Denied, v.Allowed, strconv.Quote(v.Reason))
}

// TestVerdictsGolden checks that the verdicts (tier, deny, allow and
// reason) for a fixed corpus are the ones recorded in testdata. It guards
// changes meant to leave classification alone, such as speed-ups; a change
// meant to alter verdicts refreshes the file with -update.
func TestVerdictsGolden(t *testing.T) {
	classifyOnly(t)
	p, ops, corpus := verdictCorpus(t)
	got := map[string]string{}
	var order []string
	for _, c := range corpus {
		for _, pol := range []struct {
			tag string
			p   *Policy
		}{{"", p}, {"rules ", ops}} {
			key := pol.tag + c.name
			if _, dup := got[key]; dup {
				t.Fatalf("duplicate corpus name %q", key)
			}
			got[key] = formatVerdict(pol.p.Evaluate(c.in))
			order = append(order, key)
		}
	}
	if *updateGolden {
		var b strings.Builder
		for _, k := range order {
			fmt.Fprintf(&b, "%s\t%s\n", k, got[k])
		}
		if err := os.WriteFile(verdictsGolden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(verdictsGolden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("%s: malformed line %q", verdictsGolden, sc.Text())
		}
		want[k] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, k := range order {
		w, ok := want[k]
		if !ok {
			// A case added since the file was written; its own test checks it.
			t.Logf("%s: not in %s (refresh with -update)", k, verdictsGolden)
			continue
		}
		checked++
		if got[k] != w {
			t.Errorf("%s: got %s, want %s", k, got[k], w)
		}
	}
	if checked < len(want)/2 {
		t.Errorf("only %d of %d recorded verdicts were checked; is the corpus intact?", checked, len(want))
	}
}
