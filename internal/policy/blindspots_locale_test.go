package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotLocaleCatalogs: bash expands the translation of a $"…"
// string as a double-quoted string, $(…) included, and gettext finds the
// catalog by joining each LANGUAGE name to TEXTDOMAINDIR as it is, so
// LANGUAGE=../../../../tmp/x/en or TEXTDOMAINDIR=/tmp/x makes bash -c
// 'echo $"hi"' run what a tier 1 write put in a .mo file there (tried
// with bash 5.2). glibc reads a locale named by a path as its own data.
// Such values are tier 3 however they are set; locale names keep the
// call's tier.
func TestBlindSpotLocaleCatalogs(t *testing.T) {
	p := protectedPolicy(t)
	forms := []string{
		`%s bash -c 'echo $"hi"'`, "export %s; bash /srv/s.sh", "env %s bash -c 'echo $\"hi\"'", "declare -x %s; ls",
		"typeset -x %s; ls", "sudo %s bash /srv/s.sh", "nice env %s ls", "sh -c '%s; export LANGUAGE LANG LC_ALL TEXTDOMAINDIR; ls'",
		"env -i %s bash -c ls", "f() { local -x %s; ls; }; f", "set -a; %s; bash /srv/s.sh",
	}
	var cmds []string
	for _, v := range []string{"LANGUAGE=../../../../tmp/x/en", "LANGUAGE=en:../../tmp/x/en", "LANGUAGE=../../dev/shm/x",
		"LANGUAGE=/tmp/x/en", "LANG=/tmp/x/loc", "LC_ALL=/tmp/x/loc", "LC_MESSAGES=/var/tmp/m", "LC_CTYPE=/dev/shm/c",
		"TEXTDOMAINDIR=/tmp/x", "TEXTDOMAINDIR=/var/tmp/l", `TEXTDOMAINDIR="$d"`, "LANGUAGE=$(cat /tmp/x/l)", `LANGUAGE="$l"`} {
		for _, f := range forms {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", v))
		}
	}
	cmds = append(cmds, "read LANGUAGE; bash -c 'echo $\"hi\"'", "printf -v LANGUAGE %s ../../tmp/x; ls",
		": ${LANGUAGE:=$x}; ls", "mapfile -t LANGUAGE < /tmp/x/l; ls")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	for _, v := range []string{"LANGUAGE", "TEXTDOMAINDIR", "LANG"} {
		val := "../../tmp/x/en"
		if v != "LANGUAGE" {
			val = "/tmp/x/en"
		}
		if got := p.Evaluate(Input{Command: "bash -c 'echo $\"hi\"'", Env: map[string]string{v: val}}); got.Tier < TierDestructive {
			t.Errorf("call env %s=%s: %s (%s); want tier 3", v, val, got.Tier, got.Reason)
		}
	}
	runExactHosts(t, p, []exactCase{
		{"LANG=C", "LANG=C ls", TierRead},
		{"C.UTF-8", "LANG=C.UTF-8 ls -l", TierRead},
		{"LC_ALL=C sort", "LC_ALL=C sort f", TierRead},
		{"LANGUAGE list", "LANGUAGE=en:fr ls", TierRead},
		{"export locale", "export LANG=en_US.UTF-8; date", TierRead},
		{"restore", "old=$LC_ALL; LC_ALL=C; ls; LC_ALL=$old", TierRead},
		{"TEXTDOMAIN alone", "TEXTDOMAIN=x bash -c 'echo $\"hi\"'", TierRead},
	})
}
