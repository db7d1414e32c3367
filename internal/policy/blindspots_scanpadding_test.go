package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotScanPadding: the scan of text the classifier cannot parse
// (an interpreter's payload) reads every match, not the first few: a
// harmful call after many harmless ones of its kind (16 opens of
// /dev/null, 64 function definitions) is denied as it is alone, and a
// definition spelled with blanks in its () is one.
func TestBlindSpotScanPadding(t *testing.T) {
	p := testPolicy(t)
	pad := func(n int, harmless, harmful string) string {
		return "python3 -c \"" + strings.Repeat(harmless, n) + harmful + "\""
	}
	var cases []string
	for _, n := range []int{17, 65, 1000} {
		cases = append(cases,
			pad(n, "open('/dev/null','w');", "open('/dev/sda','w')"),
			pad(n, "os.open('/dev/null', os.O_WRONLY);", "os.open('/dev/sda', os.O_WRONLY)"),
			pad(n, "os.kill(5, 9);", "os.kill(-1, 9)"),
			pad(n, "shutil.rmtree('/tmp/x');", "shutil.rmtree('/usr')"),
			pad(n, "os.system('f() { :; }');", "os.system(':(){ :|:& };:')"),
		)
	}
	cases = append(cases, "python3 -c \"os.system(':( ){ :|:& };:')\"", "python3 -c \"os.system('bomb (\t) { bomb | bomb & }; bomb')\"")
	runBlindHosts(t, p, sameCases(TierDestructive, true, cases...))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		pad(100, "open('/dev/null','w');", "f() { echo hi; }"),
		"python3 -c \"os.system('f() { g | h & }; f')\"",
	))
}

// TestForkBombDefNesting: definitions nested in one body are each read,
// and nesting past what the scan reads is refused, not passed.
func TestForkBombDefNesting(t *testing.T) {
	if why := forkBombDef("a() { b() { c() { :(){ :|:& };:"); !strings.Contains(why, "function :") {
		t.Errorf("a bomb nested in definitions: %q", why)
	}
	deep := strings.Repeat("f() { ", 200) + strings.Repeat("x", 1000) + " }"
	if why := forkBombDef(deep); !strings.Contains(why, "nests") {
		t.Errorf("definitions nested past the budget: %q, want refused", why)
	}
	if why := forkBombDef(strings.Repeat("f() { x; }\n", 10000)); why != "" {
		t.Errorf("many harmless definitions: %q", why)
	}
}
