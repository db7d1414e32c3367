package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotAwkLoadAbbreviations: gawk reads long options with
// getopt_long, and --locale exists only in its debugging and Windows
// builds, so on a Linux host --lo (and -W lo) is --load: a shared library
// a tier 1 call may have put in /tmp runs inside awk. A prefix the table
// finds ambiguous but that can name an option running a file is read as
// that option, in every spelling; the reading options keep tier 0.
func TestBlindSpotAwkLoadAbbreviations(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, awk := range []string{"gawk", "awk", "sudo gawk", "env gawk", "nice gawk", "find . -exec gawk"} {
		end := ""
		if strings.HasPrefix(awk, "find") {
			end = ` {} \;`
		}
		for _, o := range []string{"--lo=/tmp/x/ext", "--lo /tmp/x/ext", "-W lo=/tmp/x/ext", "-Wlo=/tmp/x/ext", "--lo=ext",
			"--f /tmp/x/a", "--fi=/tmp/x/a", "-W f=/tmp/x/a"} {
			cmds = append(cmds, awk+" "+o+" 1 f"+end)
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"lint", "gawk --lint '{print}' f", TierRead},
		{"lint abbreviated", "gawk --li '{print}' f", TierRead},
		{"posix", "gawk --posix '{print $1}' f", TierRead},
		{"field separator", "gawk --field-separator=: '{print $1}' /etc/passwd", TierRead},
		{"assign", "gawk --assign x=1 '{print x}' f", TierRead},
	})
}
