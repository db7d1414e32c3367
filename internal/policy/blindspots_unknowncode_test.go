package policy

import "testing"

// TestBlindSpotUnknownProgramCode: an unknown program may run code its
// arguments hold (stap -e 'probe begin { system("reboot") }', ghc -e,
// r2 -c '!reboot', duckdb -c '.shell reboot'), as it may run a command line
// there: what the deny list refuses in that code makes it tier 3, so a
// person judges it rather than an open mode running it unasked.
func TestBlindSpotUnknownProgramCode(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`stap -e 'probe begin { system("reboot") }'`,
		`ghc -e 'System.Process.callCommand "reboot"'`,
		`r2 -qc '!reboot' /bin/ls`,
		`radare2 -c '!poweroff' -q /bin/ls`,
		`duckdb -c '.shell reboot'`,
		`foo --eval '(system "reboot")'`,
		`foo -c 'system("reboot")'`,
		`foo -e 'os.execute("\x72eboot")'`,
		`foo --code='exec("systemctl poweroff")'`,
		`foo '{"cmd": "reboot"}'`,
		"foo -e 'sh(`reboot`)'",
	))
	runExactHosts(t, p, []exactCase{
		{"message", `foo --message 'disk (sda) is healthy'`, TierMutate},
		{"json", `foo '{"name": "web", "replicas": 2}'`, TierMutate},
		{"code", `foo -e 'print("hello")'`, TierMutate},
	})
}
