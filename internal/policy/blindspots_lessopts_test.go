package policy

import "testing"

// TestLessOptionsThatOnlyShow: LESS and SYSTEMD_LESS set to options that
// change only how less shows text (git's FRX, systemd's FRSXMK, -R), and
// exported afterwards, are no more than those options on less's command
// line; any other option in
// them (+CMD, -k, -o, -O, -t, -P, --lesskey-src, a value computed at run
// time) keeps the variable tier 3, and a command in them is denied.
func TestLessOptionsThatOnlyShow(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"git FRX", "LESS=FRX git log", TierRead},
		{"dash R", "LESS=-R git log -p", TierRead},
		{"systemd", "SYSTEMD_LESS=FRSXMK journalctl -u nginx", TierRead},
		{"env", "env LESS=-iMR git diff", TierRead},
		{"long and numbers", "LESS='-R --mouse --tabs=4 -x4,8 -j.5' git log", TierRead},
		{"exported after", "LESS=-R; export LESS; git log", TierRead},
		{"systemd exported", "SYSTEMD_LESS=FRSXMK; export SYSTEMD_LESS; journalctl -u nginx", TierRead},
		// declare -x and typeset -x export as export does.
		{"declared after", "LESS=-R; declare -x LESS; git log", TierRead},
		{"typeset after", "LESS=FRX; typeset -x LESS; git log", TierRead},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"LESS=-k/tmp/x git log", "LESS=-o/tmp/x git log", "LESS='-R -o /tmp/x' git log", "LESS=-O/tmp/x git log",
		"LESS=-Pxyz git log", "LESS=--lesskey-src=/tmp/x git log", "LESS='-R +G' git log", "LESS=-t git log",
		`LESS="-R $X" git log`, "LESS=-+R git log", "SYSTEMD_LESS=-k/tmp/x journalctl", "LESS='-R --log-file=/tmp/x' git log",
		// A bare export or declare: the value is what the script (or the
		// shell's own environment) gave it.
		"export LESS", "declare -x LESS", "read LESS; export LESS", "LESS=-R; LESS=-o/tmp/x; export LESS",
		"LESS=$X; export LESS", "LESS=-o/tmp/x; declare -x LESS", "LESS=$X; typeset -x LESS",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true, "LESS='-R +!reboot' git log", `LESS=-R\ +!reboot git log`))
}
