package policy

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// everydayCase is one command of testdata/everyday.txt with the tier it
// must get and the line it starts on.
type everydayCase struct {
	line int
	tier Tier
	cmd  string
}

// loadEveryday reads testdata/everyday.txt: "TIER COMMAND" on one line, or
// "TIER <<", the lines of a script, and ">>".
func loadEveryday(t *testing.T) []everydayCase {
	t.Helper()
	f, err := os.Open("testdata/everyday.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []everydayCase
	var block *everydayCase
	var body []string
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if block != nil {
			if line == ">>" {
				block.cmd = strings.Join(body, "\n")
				cases = append(cases, *block)
				block, body = nil, nil
				continue
			}
			body = append(body, line)
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, rest, ok := strings.Cut(line, " ")
		tier, err := strconv.Atoi(head)
		if !ok || err != nil || tier < 0 || tier > 3 {
			t.Fatalf("everyday.txt:%d: want \"TIER COMMAND\", got %q", n, line)
		}
		c := everydayCase{line: n, tier: Tier(tier), cmd: rest}
		if rest == "<<" {
			block = &c
			continue
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if block != nil {
		t.Fatalf("everyday.txt:%d: script not closed with >>", block.line)
	}
	return cases
}

// TestEverydayInvestigation: the read-only investigation an agent does on
// servers, NAS boxes, routers and container hosts needs no approval. Each
// command of testdata/everyday.txt gets exactly its tier: tier 0, tier 1
// for a network request, and tier 2 or 3 for the few kept high on purpose (the
// file says why). A read that comes out higher would need a person's
// approval (and is refused in readonly mode) for work that changes
// nothing.
func TestEverydayInvestigation(t *testing.T) {
	p := testPolicy(t)
	cases := loadEveryday(t)
	if len(cases) < 300 {
		t.Fatalf("everyday corpus has %d commands, want at least 300", len(cases))
	}
	off := 0
	for _, c := range cases {
		got := p.Evaluate(Input{Command: c.cmd})
		if got.Tier != c.tier || got.Denied {
			off++
			t.Errorf("everyday.txt:%d: Evaluate(%q) = %s denied=%v (%s); want %s", c.line, c.cmd, got.Tier, got.Denied, got.Reason, c.tier)
		}
	}
	if off > 0 {
		t.Logf("%d of %d everyday commands not at their tier", off, len(cases))
	}
}
