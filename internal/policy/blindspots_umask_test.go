//go:build unix

package policy

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// umaskSpellings are masks in the forms bash's umask takes: octal and
// symbolic, loosening and narrowing.
var umaskSpellings = []string{
	"0", "00", "000", "0000", "2", "02", "002", "0002", "20", "020", "0020", "7", "005", "0755",
	"a+w", "+w", "o+w", "g+w", "go+w", "ug+w", "ugo+w", "a=rwx", "=rwx", "g=rwx", "o=rwx",
	"u=rwx,g=rwx,o=rwx", "u=rwx,g=rx,o=rwx", "u=rwx,go=rwx", "g+rw", "o+wx", "a+rwx", "o+r-r+w",
	"022", "0022", "027", "077", "0077", "0777", "u+w", "u=rwx", "go-w", "go=rx", "go=", "a-w",
	"u=rwx,g=rx,o=rx", "u=rwx,g=rx,o=", "g-w,o-w", "=", "a=rx", "o-rwx",
}

// TestBlindSpotUmask: a mask that lets the group or others write is tier
// 2, since every file later commands create gets it (a session's approved
// cp to /etc/cron.d after umask 0 makes a root job any user may edit); a
// narrowing mask and printing the mask stay tier 0. The installed bash
// decides which spellings loosen.
func TestBlindSpotUmask(t *testing.T) {
	p := testPolicy(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, m := range umaskSpellings {
		for _, f := range []string{"umask %s", "umask -S %s", "command umask %s", "builtin umask %s", "eval 'umask %s'", "f() { umask %s; }; f"} {
			cmd := strings.ReplaceAll(f, "%s", m)
			out, err := exec.Command(bash, "--norc", "--noprofile", "-c", "umask 022; umask "+m+" 2>/dev/null || exit 3; umask").Output()
			if err != nil {
				continue // bash refuses the mode: the mask stays
			}
			mask, perr := strconv.ParseUint(strings.TrimSpace(string(out)), 8, 32)
			if perr != nil {
				t.Fatalf("umask printed %q", out)
			}
			loosens := mask&0o022 != 0o022
			t.Run(cmd, func(t *testing.T) {
				got := p.Evaluate(Input{Command: cmd})
				switch {
				case loosens && got.Tier < TierMutate:
					t.Errorf("Evaluate(%q) = %s (%s); bash's mask is %04o, which lets others write: want at least tier 2", cmd, got.Tier, got.Reason, mask)
				case !loosens && got.Tier != TierRead:
					t.Errorf("Evaluate(%q) = %s (%s); bash's mask is %04o, which only narrows: want tier 0", cmd, got.Tier, got.Reason, mask)
				}
			})
		}
	}
	runBlind(t, p, sameCases(TierMutate, false,
		"umask $m", `umask "$(cat /tmp/m)"`, "umask ${M:-0}", "m=0; umask $m; cp a /etc/cron.d/job"))
	runExact(t, p, []exactCase{
		{"print", "umask", TierRead},
		{"print symbolic", "umask -S", TierRead},
		{"print reusable", "umask -p", TierRead},
	})
}
