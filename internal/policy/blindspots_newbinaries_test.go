package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBlindSpotNewBinaries: a program compiled or unpacked since warden
// started (cc x.c -o x, go build, tar x) ran at tier 2 as an unknown
// program, unasked in open mode, though what it does cannot be read. It is
// tier 3 now wherever it is run from, but where packages install programs;
// an older one, a new script (read for what it runs) and another host's
// are as before.
func TestBlindSpotNewBinaries(t *testing.T) {
	dir, p := lastingDir(t, "newbin-")
	elf, err := os.ReadFile("/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	bin := writeUnder(t, dir, "build/tool", string(elf))
	writeUnder(t, dir, "build/job.sh", "#!/bin/sh\necho hi\n")
	const why = "a program written since warden started that the classifier cannot read"
	for _, c := range []string{"cd " + dir + "/build && ./tool", bin + " --version", "cd " + dir + " && build/tool x",
		"sh -c " + bin, "sudo " + bin, "timeout 5 " + bin} {
		if v := p.Evaluate(Input{Command: c}); v.Tier != TierDestructive || !strings.Contains(v.Reason, why) {
			t.Errorf("Evaluate(%q) = %s, want tier 3: %s", c, formatVerdict(v), why)
		}
		if v := p.Evaluate(Input{Command: c, Host: "nas"}); strings.Contains(v.Reason, why) {
			t.Errorf("another host's %q was held to this host's file: %s", c, formatVerdict(v))
		}
	}
	old := *p
	old.since = time.Now().Add(time.Hour)
	for _, tc := range []struct {
		p *Policy
		c string
	}{{&old, bin}, {p, "cd " + dir + "/build && ./job.sh"}, {p, "ls " + bin}, {p, "cat " + filepath.Join(dir, "build/tool")}} {
		if v := tc.p.Evaluate(Input{Command: tc.c}); strings.Contains(v.Reason, why) {
			t.Errorf("Evaluate(%q) = %s: not a new program run", tc.c, formatVerdict(v))
		}
	}
}
